// Package server is the gRPC server every fray service runs, wired from the platform's other
// packages: health (per service, following its dependencies) and reflection, structured call
// logs, panic recovery, graceful shutdown that ends open streams with where to resume; then,
// in order, the metrics (outermost), authentication, the rate limits (a spent caller refused
// before its request is read: tap.go), the bound-token check, and validation last before the
// handlers. Also keepalive, TLS, and the flags of serving.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// Server is a gRPC server with health and reflection, whose open streams are ended on
// shutdown.
type Server struct {
	GRPC *grpc.Server
	// Health answers grpc.health.v1: each service SERVING while the server serves and its
	// dependencies are ready (Health.Readiness), the whole server only while every service is.
	Health *Health
	log    *slog.Logger
	// healthOnly serve Health alone, in plaintext, on the listeners of ServeHealthOn.
	healthOnly []healthListener

	mu       sync.Mutex
	stopping bool
	streams  map[*context.CancelCauseFunc]struct{}
}

type healthListener struct {
	srv *grpc.Server
	lis net.Listener
}

// NewServer builds a gRPC server with logging and recovery interceptors, the health service
// and reflection. Register services on s.GRPC, then call Serve.
func New(log *slog.Logger, extra ...grpc.ServerOption) *Server {
	s := &Server{Health: newHealth(log), log: log, streams: map[*context.CancelCauseFunc]struct{}{}}
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall),
		logging.WithLevels(CodeLevel), logging.WithFieldsFromContextAndCallMeta(noteFields)}
	// One thinning of Unavailable and DeadlineExceeded lines for the whole server.
	calls := callLogger(log, newLineLimiter(CallLogEvery, time.Now))
	recoverOpts := []recovery.Option{recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "panic recovered", "panic", fmt.Sprint(p))
		return status.Error(codes.Internal, "internal error: the server recovered from a fault; nothing was recorded for this request")
	})}
	opts := append([]grpc.ServerOption{
		// Before the extra options, which may set their own.
		grpc.KeepaliveParams(ServerKeepalive()),
		grpc.KeepaliveEnforcementPolicy(KeepalivePolicy()),
		grpc.ChainUnaryInterceptor(
			noteUnary,
			logUnary(log, calls, logOpts),
			recovery.UnaryServerInterceptor(recoverOpts...),
		),
		grpc.ChainStreamInterceptor(
			noteStream,
			shutdownStatus,
			logging.StreamServerInterceptor(calls, logOpts...),
			recovery.StreamServerInterceptor(recoverOpts...),
			s.cancelOnShutdown,
		),
	}, extra...)
	// Before every other (telemetry.Metrics.Interceptors): the metrics see each call's final
	// code and duration.
	opts = append(outerOptions(extra), opts...)
	// After the extra options' interceptors (authentication): the caller is known.
	unary, stream := []grpc.UnaryServerInterceptor{noteCallerUnary}, []grpc.StreamServerInterceptor{noteCallerStream}
	var (
		authn   *auth.Authenticator
		limiter *ratelimit.Limiter
		metrics *telemetry.Metrics
	)
	for _, o := range extra {
		switch o := o.(type) {
		case ratelimit.LimiterOption:
			limiter = o.Limiter
			unary, stream = append(unary, o.Limiter.UnaryServerInterceptor()), append(stream, o.Limiter.StreamServerInterceptor())
		case auth.AuthenticatorOption:
			authn = o.Authenticator
		case telemetry.MetricsOption:
			metrics = o.Metrics
		}
	}
	// A caller whose budget is spent is refused before its request is read (tap.go).
	if authn != nil && limiter != nil {
		opts = append(opts, grpc.InTapHandle(spentTap(authn, limiter, metrics)))
	}
	// Then a token bound to an encounter (an invite's) calls about that encounter only
	// (auth.BoundUnary, auth.BoundStream), its refusals counted by the limits.
	unary, stream = append(unary, auth.BoundUnary), append(stream, auth.BoundStream)
	opts = append(opts, grpc.ChainUnaryInterceptor(unary...), grpc.ChainStreamInterceptor(stream...))
	// Last before the handlers: every request validated (package validate), an undecodable one
	// InvalidArgument rather than Internal.
	opts = append(opts, validate.RequestCodec(), grpc.ChainUnaryInterceptor(validate.Unary), grpc.ChainStreamInterceptor(validate.Stream))
	s.GRPC = grpc.NewServer(opts...)
	healthpb.RegisterHealthServer(s.GRPC, s.Health.hs)
	reflection.Register(s.GRPC)
	return s
}

// logUnary is the logging interceptor of unary calls: the hot methods' successes at DEBUG
// and skipped below it (quietUnary), every other line at CodeLevel.
func logUnary(log *slog.Logger, calls logging.Logger, opts []logging.Option) grpc.UnaryServerInterceptor {
	hotOpts := append(opts[:len(opts):len(opts)], logging.WithLevels(hotLevel))
	return quietUnary(log, logging.UnaryServerInterceptor(calls, hotOpts...),
		logging.UnaryServerInterceptor(calls, opts...))
}

// callLogger adapts slog to the logging interceptor, thinning the lines of thinnedCodes
// through lim (nil: none thinned); a thinned line that is written says how many it stands for.
func callLogger(l *slog.Logger, lim *lineLimiter) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		if !l.Enabled(ctx, slog.Level(lvl)) {
			return
		}
		if code := callCode(fields); lim != nil && thinnedCodes[code] {
			ok, held := lim.allow(code)
			if !ok {
				return
			}
			fields = append(fields[:len(fields):len(fields)], "unlogged", held)
		}
		l.Log(ctx, slog.Level(lvl), msg, logSafeFields(fields)...)
	})
}

// ServeHealthOn serves the health service alone, in plaintext and without tokens, on lis too:
// for the kubelet's gRPC probes while the main port needs TLS and tokens. It answers what the
// main port's health service answers. Call it before Serve; Shutdown closes it last, so that
// it says NOT_SERVING while the server drains.
func (s *Server) ServeHealthOn(lis net.Listener) {
	g := grpc.NewServer(grpc.MaxRecvMsgSize(4<<10), grpc.MaxConcurrentStreams(16),
		grpc.ConnectionTimeout(5*time.Second), grpc.KeepaliveEnforcementPolicy(KeepalivePolicy()))
	healthpb.RegisterHealthServer(g, s.Health.hs)
	s.healthOnly = append(s.healthOnly, healthListener{srv: g, lis: lis})
}

// errShuttingDown is the cause of the cancellation of the streams Shutdown ends.
var errShuttingDown = errors.New("the server is shutting down")

// shutdownStream is a stream Shutdown may end: it keeps what a watch must resume from.
type shutdownStream struct {
	grpc.ServerStream
	ctx context.Context
	// from is the watch's from_sequence, next the sequence after the last event sent.
	from, next uint64
}

func (s *shutdownStream) Context() context.Context { return s.ctx }

func (s *shutdownStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if r, ok := m.(*encounterv1.WatchEncounterRequest); ok && err == nil {
		s.from = max(r.GetFromSequence(), 1)
	}
	return err
}

func (s *shutdownStream) SendMsg(m any) error {
	err := s.ServerStream.SendMsg(m)
	if r, ok := m.(*encounterv1.WatchEncounterResponse); ok && err == nil && r.GetEvent() != nil {
		s.next = r.GetEvent().GetSequence() + 1
	}
	return err
}

// ended is the end of a stream that Shutdown ended; a watch is told where to resume.
func (s *shutdownStream) ended() error {
	switch {
	case s.next > 0:
		return endedByShutdown(fmt.Sprintf("%v; resume from sequence %d", errShuttingDown, s.next))
	case s.from > 0:
		return endedByShutdown(fmt.Sprintf("%v; resume from sequence %d", errShuttingDown, s.from))
	}
	return endedByShutdown(fmt.Sprintf("%v; call again", errShuttingDown))
}

// endedByShutdown is a stream ended, or refused, because the server stops. The call's log
// line has it as Canceled, at INFO (a stop is no failure); the client gets Unavailable
// (shutdownStatus), which it may retry, on another replica or once this one is back.
type endedByShutdown string

func (e endedByShutdown) Error() string { return string(e) }

func (e endedByShutdown) GRPCStatus() *status.Status { return status.New(codes.Canceled, string(e)) }

// shutdownStatus, outside the logging interceptor, turns endedByShutdown into Unavailable.
func shutdownStatus(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	err := handler(srv, ss)
	var e endedByShutdown
	if errors.As(err, &e) {
		return status.Error(codes.Unavailable, string(e))
	}
	return err
}

// cancelOnShutdown gives each stream a context that Shutdown cancels, so that long-lived
// streams (WatchEncounter) end and GracefulStop can finish; a stream so ended reports
// Unavailable, with the sequence a watch resumes from.
func (s *Server) cancelOnShutdown(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, cancel := context.WithCancelCause(ss.Context())
	defer cancel(nil)
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		return endedByShutdown(fmt.Sprintf("%v; call again", errShuttingDown))
	}
	key := &cancel
	s.streams[key] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.streams, key)
		s.mu.Unlock()
	}()
	st := &shutdownStream{ServerStream: ss, ctx: ctx}
	err := handler(srv, st)
	if err != nil && errors.Is(context.Cause(ctx), errShuttingDown) &&
		(errors.Is(err, context.Canceled) || status.Code(err) == codes.Canceled) {
		return st.ended()
	}
	return err
}

// SetServing marks the server serving or not: every service follows it, with its
// dependencies (Health).
func (s *Server) SetServing(serving bool) {
	s.Health.setServing(serving, slices.Collect(maps.Keys(s.GRPC.GetServiceInfo())))
}

// Serve serves on lis until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, lis net.Listener, grace time.Duration) error {
	s.SetServing(true)
	for _, h := range s.healthOnly {
		go func() {
			if err := h.srv.Serve(h.lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
				s.log.Error("health port", "addr", h.lis.Addr().String(), "err", err)
			}
		}()
	}
	errc := make(chan error, 1)
	go func() { errc <- s.GRPC.Serve(lis) }()
	select {
	case err := <-errc:
		s.SetServing(false)
		s.stopHealthOnly()
		return err
	case <-ctx.Done():
	}
	s.Shutdown(grace)
	if err := <-errc; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return err
	}
	return nil
}

// Shutdown marks the server NOT_SERVING, ends open streams (Unavailable), and stops
// gracefully, forcing the stop after grace; the health port closes last.
func (s *Server) Shutdown(grace time.Duration) {
	s.SetServing(false)
	defer s.stopHealthOnly()
	s.mu.Lock()
	s.stopping = true
	for c := range s.streams {
		(*c)(errShuttingDown)
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.GRPC.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		s.log.Warn("graceful stop timed out; stopping now", "grace", grace)
		s.GRPC.Stop()
		<-done
	}
}

func (s *Server) stopHealthOnly() {
	for _, h := range s.healthOnly {
		h.srv.Stop()
	}
}

// outerOptions are the interceptors that NewServer puts before every other: those of the
// metrics among extra (MetricsOption).
func outerOptions(extra []grpc.ServerOption) []grpc.ServerOption {
	for _, o := range extra {
		if mo, ok := o.(telemetry.MetricsOption); ok {
			return mo.Metrics.Interceptors()
		}
	}
	return nil
}

// GetServiceInfo is the services registered on the server (the metrics make their series
// from it: Telemetry.Serve).
func (s *Server) GetServiceInfo() map[string]grpc.ServiceInfo { return s.GRPC.GetServiceInfo() }
