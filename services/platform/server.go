// Package platform is what every fray service shares: a gRPC server with health, reflection,
// structured logging and panic recovery; graceful shutdown; the caller's principal; the
// mapping of rule errors to gRPC status codes; configuration from flags and the environment.
package platform

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// Server is a gRPC server with health and reflection, whose open streams are cancelled on
// shutdown.
type Server struct {
	GRPC   *grpc.Server
	Health *health.Server
	log    *slog.Logger

	mu       sync.Mutex
	stopping bool
	streams  map[*context.CancelFunc]struct{}
}

// NewServer builds a gRPC server with logging and recovery interceptors, the health service
// and reflection. Register services on s.GRPC, then call Serve.
func NewServer(log *slog.Logger, extra ...grpc.ServerOption) *Server {
	s := &Server{Health: health.NewServer(), log: log, streams: map[*context.CancelFunc]struct{}{}}
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall),
		logging.WithLevels(CodeLevel), logging.WithFieldsFromContextAndCallMeta(noteFields)}
	recoverOpts := []recovery.Option{recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "panic recovered", "panic", fmt.Sprint(p))
		return status.Error(codes.Internal, "internal error: the server recovered from a fault; nothing was recorded for this request")
	})}
	opts := append([]grpc.ServerOption{
		grpc.ChainUnaryInterceptor(
			noteUnary,
			logUnary(log, logOpts),
			recovery.UnaryServerInterceptor(recoverOpts...),
		),
		grpc.ChainStreamInterceptor(
			noteStream,
			logging.StreamServerInterceptor(InterceptorLogger(log), logOpts...),
			recovery.StreamServerInterceptor(recoverOpts...),
			s.cancelOnShutdown,
		),
	}, extra...)
	// After the extra options' interceptors (authentication): the caller is known.
	unary, stream := []grpc.UnaryServerInterceptor{noteCallerUnary}, []grpc.StreamServerInterceptor{noteCallerStream}
	for _, o := range extra {
		if l, ok := o.(limitsOption); ok {
			unary, stream = append(unary, l.limiter.UnaryServerInterceptor()), append(stream, l.limiter.StreamServerInterceptor())
		}
	}
	opts = append(opts, grpc.ChainUnaryInterceptor(unary...), grpc.ChainStreamInterceptor(stream...))
	// Last before the handlers: every request validated (validate.go), an undecodable one
	// InvalidArgument rather than Internal.
	opts = append(opts, RequestCodec(), grpc.ChainUnaryInterceptor(ValidateUnary), grpc.ChainStreamInterceptor(ValidateStream))
	s.GRPC = grpc.NewServer(opts...)
	healthpb.RegisterHealthServer(s.GRPC, s.Health)
	reflection.Register(s.GRPC)
	return s
}

// logUnary is the logging interceptor of unary calls: the hot methods' successes at DEBUG
// and skipped below it (quietUnary), every other line at CodeLevel.
func logUnary(log *slog.Logger, opts []logging.Option) grpc.UnaryServerInterceptor {
	hotOpts := append(opts[:len(opts):len(opts)], logging.WithLevels(hotLevel))
	return quietUnary(log, logging.UnaryServerInterceptor(InterceptorLogger(log), hotOpts...),
		logging.UnaryServerInterceptor(InterceptorLogger(log), opts...))
}

// InterceptorLogger adapts slog to the logging interceptor.
func InterceptorLogger(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		if l.Enabled(ctx, slog.Level(lvl)) {
			l.Log(ctx, slog.Level(lvl), msg, logSafeFields(fields)...)
		}
	})
}

type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s ctxStream) Context() context.Context { return s.ctx }

// cancelOnShutdown gives each stream a context that Shutdown cancels, so that long-lived
// streams (WatchEncounter) end and GracefulStop can finish.
func (s *Server) cancelOnShutdown(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, cancel := context.WithCancel(ss.Context())
	defer cancel()
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		return status.Error(codes.Unavailable, "the server is shutting down")
	}
	key := &cancel
	s.streams[key] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.streams, key)
		s.mu.Unlock()
	}()
	return handler(srv, ctxStream{ServerStream: ss, ctx: ctx})
}

// SetServing marks every registered service (and the server as a whole) serving or not.
func (s *Server) SetServing(serving bool) {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if serving {
		st = healthpb.HealthCheckResponse_SERVING
	}
	s.Health.SetServingStatus("", st)
	for name := range s.GRPC.GetServiceInfo() {
		s.Health.SetServingStatus(name, st)
	}
}

// Serve serves on lis until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, lis net.Listener, grace time.Duration) error {
	s.SetServing(true)
	errc := make(chan error, 1)
	go func() { errc <- s.GRPC.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.Shutdown(grace)
	if err := <-errc; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return err
	}
	return nil
}

// Shutdown marks the server NOT_SERVING, cancels open streams, and stops gracefully, forcing
// the stop after grace.
func (s *Server) Shutdown(grace time.Duration) {
	s.SetServing(false)
	s.mu.Lock()
	s.stopping = true
	for c := range s.streams {
		(*c)()
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

// Env returns the environment variable key, or def when it is unset or empty.
func Env(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// EnvInt is Env for an integer.
func EnvInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

// EnvDuration is Env for a duration.
func EnvDuration(key string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

// NewLogger returns a JSON or text slog logger at the given level name.
func NewLogger(format, level string) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lvl}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
