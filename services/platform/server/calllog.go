package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// callNote is what a request's log line says of it beyond the method and the code: who made it
// and on which encounter. The outermost interceptor puts it in the context; the interceptor
// after authentication fills in the caller, the request's first message its encounter.
type callNote struct {
	principal, tenant, encounter string
	// start is set when the line of a hot call's error is written after the call
	// (quietUnary): the call's real start time and duration then go on the line.
	start time.Time
}

type callNoteKey struct{}

func noteOf(ctx context.Context) *callNote {
	n, _ := ctx.Value(callNoteKey{}).(*callNote)
	return n
}

// noteRequest records the encounter a request names (its encounter_id field), if any.
func (n *callNote) noteRequest(req any) {
	m, ok := req.(proto.Message)
	if !ok || n.encounter != "" {
		return
	}
	r := m.ProtoReflect()
	if fd := r.Descriptor().Fields().ByName("encounter_id"); fd != nil && fd.Kind() == protoreflect.StringKind {
		n.encounter = r.Get(fd).String()
	}
}

type notedStream struct {
	grpc.ServerStream
	ctx  context.Context
	note *callNote
}

func (s *notedStream) Context() context.Context { return s.ctx }

func (s *notedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil {
		s.note.noteRequest(m)
	}
	return err
}

// noteUnary and noteStream are the outermost interceptors: they give the call its note.
func noteUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	n := &callNote{}
	n.noteRequest(req)
	return handler(context.WithValue(ctx, callNoteKey{}, n), req)
}

func noteStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	n := &callNote{}
	return handler(srv, &notedStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), callNoteKey{}, n), note: n})
}

// noteCaller records the authenticated caller in the note: it runs after authentication.
func noteCaller(ctx context.Context) {
	if n := noteOf(ctx); n != nil {
		if id, ok := identity.From(ctx); ok {
			n.principal, n.tenant = id.Principal(), id.Tenant
		}
	}
}

func noteCallerUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	noteCaller(ctx)
	return handler(ctx, req)
}

func noteCallerStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	noteCaller(ss.Context())
	return handler(srv, ss)
}

// noteFields are the note's fields on the request's log line.
func noteFields(ctx context.Context, _ interceptors.CallMeta) logging.Fields {
	n := noteOf(ctx)
	if n == nil {
		return nil
	}
	var f logging.Fields
	if n.principal != "" {
		f = append(f, "principal", n.principal, "tenant", n.tenant)
	}
	if n.encounter != "" {
		f = append(f, "encounter", n.encounter)
	}
	if !n.start.IsZero() {
		f = append(f, "grpc.start_time", n.start.Format(time.RFC3339))
		f = append(f, logging.DurationToTimeMillisFields(time.Since(n.start))...)
	}
	return f
}

// HotMethods are the calls made many times a second under play (a command, a read of the
// state, a resolution, a health probe): their successes are logged at DEBUG, so that at the
// default INFO level the logging interceptor builds nothing for them. Their errors are logged
// like any other call's, at CodeLevel, with every field.
var HotMethods = map[string]bool{
	encounterv1.EncounterService_Submit_FullMethodName:       true,
	encounterv1.EncounterService_GetEncounter_FullMethodName: true,
	rulesv1.RulesService_Resolve_FullMethodName:              true,
	healthpb.Health_Check_FullMethodName:                     true,
}

// hotLevel is CodeLevel for a hot method: a success at DEBUG.
func hotLevel(c codes.Code) logging.Level {
	if c == codes.OK {
		return logging.LevelDebug
	}
	return CodeLevel(c)
}

// quietUnary sends a hot call past the logging interceptor when its logger would drop the
// success line anyway (below DEBUG), and only if the call fails hands its outcome to the
// interceptor, which writes the same line as for any call (the note carries the real start
// time and duration). Other calls, and every call when DEBUG is on, go through the
// interceptor as before.
func quietUnary(log *slog.Logger, hot, all grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !HotMethods[info.FullMethod] {
			return all(ctx, req, info, handler)
		}
		if log.Enabled(ctx, slog.LevelDebug) {
			return hot(ctx, req, info, handler)
		}
		start := time.Now()
		resp, err := handler(ctx, req)
		if err == nil {
			return resp, nil
		}
		if n := noteOf(ctx); n != nil {
			n.start = start
		}
		return hot(ctx, req, info, func(context.Context, any) (any, error) { return resp, err })
	}
}

// CodeLevel is the level a request's log line is written at. ERROR is kept for what is the
// server's fault and unexpected (Internal, DataLoss, Unknown): a line an operator must read.
// A dependency out of reach or too slow (Unavailable, DeadlineExceeded) is WARN, and those
// lines are thinned (lineLimiter): during an outage every call fails the same way, and a
// line per call buried the first one (962 lines in 10 s of a resolver outage). The client's
// mistakes and refusals (a bad argument, a missing encounter, no permission, a limit reached,
// a method this server does not have…) are INFO.
func CodeLevel(c codes.Code) logging.Level {
	switch c {
	case codes.Internal, codes.DataLoss, codes.Unknown:
		return logging.LevelError
	case codes.Unavailable, codes.DeadlineExceeded:
		return logging.LevelWarn
	default:
		return logging.LevelInfo
	}
}

// thinnedCodes are the codes whose lines lineLimiter thins: the ones a whole outage gives to
// every call.
var thinnedCodes = map[string]bool{codes.Unavailable.String(): true, codes.DeadlineExceeded.String(): true}

// CallLogEvery is how often a thinned code's line is written at most: the first failure of
// an outage at once, then one line per interval, which says how many it stood for
// ("unlogged": the calls of that code since the last line written; the metrics count each).
const CallLogEvery = 10 * time.Second

// lineLimiter lets one line per key through per interval and counts those it holds back. Its
// keys are the few thinnedCodes: its memory is bounded whatever the clients send.
type lineLimiter struct {
	every time.Duration
	now   func() time.Time

	mu   sync.Mutex
	last map[string]time.Time
	held map[string]int
}

func newLineLimiter(every time.Duration, now func() time.Time) *lineLimiter {
	return &lineLimiter{every: every, now: now, last: map[string]time.Time{}, held: map[string]int{}}
}

// allow tells whether a line of key is written now and, if so, how many lines of key were
// held back since the last one written.
func (l *lineLimiter) allow(key string) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if last, ok := l.last[key]; ok && now.Sub(last) < l.every {
		l.held[key]++
		return false, 0
	}
	held := l.held[key]
	l.last[key], l.held[key] = now, 0
	return true, held
}

// callCode is the value of the grpc.code field of a request's log line.
func callCode(fields []any) string {
	for i := 0; i+1 < len(fields); i += 2 {
		if k, _ := fields[i].(string); k == "grpc.code" {
			s, _ := fields[i+1].(string)
			return s
		}
	}
	return ""
}

// Log values a client can choose are cut to these many characters, an id shorter than a
// message.
const (
	MaxLoggedID    = 64
	MaxLoggedValue = 512
)

// LogSafe returns s as a log may hold it: at most max characters (then "…"), each invalid
// byte, control, format (bidi) or other non-printable character escaped (\x1b, \u202e), so
// that no value forges a line or drives a terminal.
func LogSafe(s string, max int) string {
	var b strings.Builder
	n := 0
	for i, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"): // an invalid byte
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// logSafeFields makes every string field of a log line safe: the ids (encounter) cut to
// MaxLoggedID characters, the rest (an error message quoting a client's value) to
// MaxLoggedValue.
func logSafeFields(fields []any) []any {
	out := make([]any, len(fields))
	copy(out, fields)
	for i := 1; i < len(out); i += 2 {
		s, ok := out[i].(string)
		if !ok {
			if e, isErr := out[i].(error); isErr {
				s, ok = e.Error(), true
			}
		}
		if !ok {
			continue
		}
		limit := MaxLoggedValue
		if k, _ := out[i-1].(string); k == "encounter" {
			limit = MaxLoggedID
		}
		out[i] = LogSafe(s, limit)
	}
	return out
}
