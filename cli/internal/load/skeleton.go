package load

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The skeleton anchor is Submit's topology with none of fray's own work in it: a client's
// Submit reaches a gRPC server built as the encounter service's is (server.New with
// the real authenticator verifying a real token, the rate limiter, telemetry, validation),
// whose handler calls a trivial resolver over gRPC (served there too, as `fray dev` serves
// both, with the encounter service's token and scope) and then makes the conditional
// publish (the expected last sequence of the encounter's subject, a message id). The
// messages are Submits the load itself made (Sampler), so that each hop carries what fray's
// does. Submit ÷ skeleton is how much of a command's cost is fray's own: the decision, the
// fold, the views, the cache and the index.

// Exchange is one Submit the load made and what it was answered.
type Exchange struct {
	Request  *encounterv1.SubmitRequest
	Response *encounterv1.SubmitResponse
}

// Sampler keeps the last successful Submit of each encounter (of up to Max encounters), as
// a client interceptor of the load's connections sees them.
type Sampler struct {
	Max int

	mu   sync.Mutex
	last map[string]Exchange
}

// Interceptor records Submits: a map write per command, no copy (Samples copies).
func (s *Sampler) Interceptor() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		if err != nil || method != encounterv1.EncounterService_Submit_FullMethodName {
			return err
		}
		r, _ := req.(*encounterv1.SubmitRequest)
		a, _ := reply.(*encounterv1.SubmitResponse)
		if r == nil || a == nil || len(a.GetEvents()) == 0 {
			return nil
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.last == nil {
			s.last = map[string]Exchange{}
		}
		if _, ok := s.last[r.GetEncounterId()]; ok || len(s.last) < s.Max {
			s.last[r.GetEncounterId()] = Exchange{Request: r, Response: a}
		}
		return nil
	}
}

// Samples are copies of the Submits kept, one per encounter.
func (s *Sampler) Samples() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Exchange
	for _, e := range s.last {
		out = append(out, Exchange{Request: proto.CloneOf(e.Request), Response: proto.CloneOf(e.Response)})
	}
	return out
}

// SkeletonAnchor measures the skeleton's Submit from n goroutines, each on an encounter of
// its own (its own subject, one sample of samples), on the NATS at url: a scratch stream it
// creates and deletes after, as JetStreamAnchor. Each goroutine makes one call at least, so a
// duration of 0 makes exactly n.
func SkeletonAnchor(ctx context.Context, url string, opts []nats.Option, samples []Exchange, n int, d time.Duration) (Stats, error) {
	if len(samples) == 0 {
		return Stats{}, errors.New("no Submit to copy: the load made none")
	}
	js, subject, done, err := scratchStream(ctx, url, opts, "fray-load-skeleton", "FRAY_LOAD_SKELETON_", "fray.loadskeleton.")
	if err != nil {
		return Stats{}, err
	}
	defer done()

	sk, err := startSkeleton(ctx, js, subject+".")
	if err != nil {
		return Stats{}, err
	}
	defer sk.stop()
	// Each goroutine's encounter: an id of its own (a UUID's length), one sample's messages.
	ids := make([]string, n)
	for i := range n {
		h := newID()
		ids[i] = h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		e := sentAs(samples[i%len(samples)])
		sk.encounters[ids[i]] = e
		sk.events[e.state.GetEncounterId()] = e.Response.GetEvents()
	}
	cc, err := grpc.NewClient(sk.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(auth.PerRPCToken(&auth.MintedToken{Signer: sk.key, Claims: auth.DevClaims(auth.DevTenant, GMSubject, auth.DevTokenTTL)}, "", false)))
	if err != nil {
		return Stats{}, err
	}
	defer cc.Close()
	client := encounterv1.NewEncounterServiceClient(cc)
	return measure(ctx, n, d, func(ctx context.Context, i int) error {
		_, err := client.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: ids[i], CommandId: newID(), Command: sk.encounters[ids[i]].Request.GetCommand()})
		return err
	}), nil
}

// skeletonEncounter is a sample and the state as the encounter service sends it to the
// resolver: each combatant without its sheet, which the resolver keeps, and its sheet's
// digest (services/encounter's sheetDigests, made once as that cache makes it once).
type skeletonEncounter struct {
	Exchange
	state   *encounterv1.EncounterState
	digests [][]byte
}

// sentAs prepares ex's state as sent to the resolver. The state the client was answered
// stands for the state the service holds (a GM's view is all of it).
func sentAs(ex Exchange) *skeletonEncounter {
	e := &skeletonEncounter{Exchange: ex, state: proto.CloneOf(ex.Response.GetState())}
	if e.state == nil {
		e.state = &encounterv1.EncounterState{EncounterId: ex.Request.GetEncounterId()}
	}
	if len(e.state.GetCombatants()) == 0 {
		return e
	}
	e.digests = make([][]byte, len(e.state.GetCombatants()))
	for i, c := range e.state.GetCombatants() {
		if c.GetSheet() != nil {
			e.digests[i] = sheets.Digest(c)
			c.Sheet = nil
		}
	}
	return e
}

// skeleton is the skeleton's server: its Submit and its trivial resolver on one port.
type skeleton struct {
	encounterv1.UnimplementedEncounterServiceServer
	addr  string
	key   auth.Signer
	rules rulesv1.RulesServiceClient
	js    jetstream.JetStream
	// prefix is the scratch stream's subject prefix, seed a 32-byte dice seed sent along.
	prefix string
	seed   []byte
	// encounters gives each encounter id its sample, events the resolver's answer by the
	// sample's own encounter id (both written before the calls, then read).
	encounters map[string]*skeletonEncounter
	events     map[string][]*encounterv1.Event

	mu   sync.Mutex
	last map[string]uint64 // each subject's last sequence, as the service's cache holds it
	stop func()
}

// startSkeleton serves the skeleton on a loopback port: the server as `fray dev` builds it
// (cli/internal/dev), its own signing key, rate limits off (as `fray load --embedded`).
func startSkeleton(ctx context.Context, js jetstream.JetStream, prefix string) (*skeleton, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	key := auth.Signer{ID: "fray-load-skeleton", Key: priv}
	authn, err := auth.NewAuthenticator(auth.DevConfig(key))
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tel, err := (&telemetry.Flags{}).Start(ctx, "fray-load-skeleton", log)
	if err != nil {
		return nil, err
	}
	var limits ratelimit.Limits
	srv := server.New(log, append(append(authn.ServerOptions(), limits.ServerOption()), tel.ServerOptions()...)...)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tel.Close()
		return nil, err
	}
	sk := &skeleton{addr: lis.Addr().String(), key: key, js: js, prefix: prefix, seed: make([]byte, validate.SeedLength),
		encounters: map[string]*skeletonEncounter{}, events: map[string][]*encounterv1.Event{}, last: map[string]uint64{}}
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, sk)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, trivialResolver{sk: sk})
	// The resolver's connection as the encounter service dials it: its token with the
	// resolve scope, the telemetry's client interceptors.
	resolverToken := &auth.MintedToken{Signer: key, Claims: auth.DevClaims(auth.DevTenant, "encounter-service", time.Hour, identity.ScopeResolve)}
	rc, err := grpc.NewClient(sk.addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(auth.PerRPCToken(resolverToken, "", false)), server.WithClientKeepalive()}, tel.DialOptions()...)...)
	if err != nil {
		lis.Close()
		tel.Close()
		return nil, err
	}
	sk.rules = rulesv1.NewRulesServiceClient(rc)
	serveCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(serveCtx, lis, 5*time.Second)
	}()
	sk.stop = func() {
		rc.Close()
		cancel()
		<-done
		tel.Close()
	}
	return sk, nil
}

// Submit asks the resolver, appends what it answered under the encounter's last sequence,
// and answers the sample's response.
func (s *skeleton) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	id, ok := identity.From(ctx)
	if !ok {
		return nil, status.Error(codes.Unauthenticated, "no caller")
	}
	ex, ok := s.encounters[req.GetEncounterId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "encounter %s: not the skeleton's", req.GetEncounterId())
	}
	res, err := s.rules.Resolve(ctx, &rulesv1.ResolveRequest{State: ex.state, Command: req.GetCommand(),
		Actor: id.Principal(), Seed: s.seed, OmitStateSha256: true, SheetSha256: ex.digests})
	if err != nil {
		return nil, err
	}
	batch, err := proto.Marshal(&encounterv1.EventBatch{Events: res.GetEvents()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "event batch: %v", err)
	}
	subject := s.prefix + req.GetEncounterId()
	s.mu.Lock()
	last := s.last[subject]
	s.mu.Unlock()
	ack, err := s.js.Publish(ctx, subject, batch, jetstream.WithExpectLastSequencePerSubject(last), jetstream.WithMsgID(req.GetCommandId()))
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "append: %v", err)
	}
	s.mu.Lock()
	s.last[subject] = ack.Sequence
	s.mu.Unlock()
	return ex.Response, nil
}

// trivialResolver answers Resolve with the events of the encounter's sample, to the
// encounter service's token only (as the resolver does).
type trivialResolver struct {
	rulesv1.UnimplementedRulesServiceServer
	sk *skeleton
}

func (r trivialResolver) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	if id, _ := identity.From(ctx); !id.HasScope(identity.ScopeResolve) {
		return nil, status.Errorf(codes.PermissionDenied, "Resolve answers only the encounter service")
	}
	return &rulesv1.ResolveResponse{Events: r.sk.events[req.GetState().GetEncounterId()]}, nil
}
