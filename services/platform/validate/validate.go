package validate

// Request validation: one layer in front of the rules. Every request of a fray service is
// checked here before any handler, subject, key or log line sees it: ids by a strict pattern,
// every string bounded and free of control and bidirectional-override characters, every enum
// value defined, every list and map bounded, no field unknown to this server, and the fields
// each RPC needs present. The rules are declared once, by field name, and applied to every
// message a request carries (Command, Action, Sheet, Options of all four systems) by walking
// it with protoreflect; the few per-RPC rules (what is required) are in checkRequest.

import (
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"

	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the proto codec wrapped below
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Bounds on what a request may hold.
const (
	// MaxIDLength bounds an encounter, combatant or ruleset id: 1 to 64 letters, digits, '-'
	// or '_' (the server's encounter ids are 36-character UUIDs).
	MaxIDLength = 64
	// MaxCommandIDLength bounds a command id (an idempotency key chosen by the client).
	MaxCommandIDLength = 128
	// MaxNameChars bounds a name and any other short string (a weapon, a skill, a side).
	MaxNameChars = 200
	// MaxTextChars bounds free text: a reason, a description, an intention, a prompt.
	MaxTextChars = 1000
	// MaxPrincipalLength bounds a principal "tenant/subject".
	MaxPrincipalLength = 2*identity.MaxNameLength + 1
	// MaxPageTokenLength bounds a page token.
	MaxPageTokenLength = 512
	// MaxListLength bounds a repeated field of a request.
	MaxListLength = 256
	// MaxRequestBytes bounds the encoding of a request (a command, a sheet); a state sent to
	// the resolver is not counted.
	MaxRequestBytes = 256 << 10
	// MaxSentCombatants and MaxSentStateBytes bound a state a caller sends the resolver's
	// stateless RPCs (RulesService.Odds, and Resolve from anyone but the encounter service):
	// the fight at a table, as its player sees it, is a few to a few dozen combatants of a
	// few hundred bytes each (a Loss combatant with a weapon: about 220), so 64 and 64 KiB
	// leave room for the largest battle a GM runs. The odds' CPU grows with the combatants
	// (BenchmarkOddsByCombatants: 0.25 ms at 4, 0.5 ms at 64, 1.9 ms at 200), and a caller
	// could otherwise send up to MaxRequestBytes of them. The states the encounter service
	// folds from its log are bounded by its own limits (--max-encounter-bytes), not these.
	MaxSentCombatants = 64
	MaxSentStateBytes = 64 << 10
	// MaxBytesLength bounds a bytes field (a seed is 32 bytes).
	MaxBytesLength = 64
	// SeedLength is the length of a dice seed.
	SeedLength = 32
	// maxDepth bounds how deep a request's messages nest.
	maxDepth = 32
	// Bounds on a state that the encounter service sends the resolver (recorded, not typed
	// by a player): generous, only against a flood.
	maxRecordedList   = 10_000
	maxRecordedString = 64 << 10
)

// isID reports whether s is 1 to most letters, digits, '-' or '_' (ASCII): `^[A-Za-z0-9_-]{1,most}$`;
// with extra, one more byte is allowed (a page token's '='), and s may be empty.
func isID(s string, most int, extra byte) bool {
	if len(s) > most || (len(s) == 0 && extra == 0) {
		return false
	}
	for i := range len(s) {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		case extra != 0 && c == extra:
		default:
			return false
		}
	}
	return true
}

// invalid is the InvalidArgument status naming the field and what it accepts, with a
// google.rpc.BadRequest holding the same as a field violation (the field's path, the why).
func invalid(field, format string, args ...any) error {
	why := fmt.Sprintf(format, args...)
	st := status.New(codes.InvalidArgument, field+": "+why)
	if d, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: why}}}); err == nil {
		st = d
	}
	return st.Err()
}

// quoted is s quoted with its control and non-printable characters escaped, cut to 40
// characters: a value echoed in a message never carries the attack along.
func quoted(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(s)
}

// CheckID checks an encounter, combatant or ruleset id.
func CheckID(field, id string) error {
	if isID(id, MaxIDLength, 0) {
		return nil
	}
	if id == "" {
		return invalid(field, "required: an id of 1 to %d letters, digits, '-' or '_'", MaxIDLength)
	}
	return invalid(field, "%s (%d characters) is not an id: use 1 to %d letters, digits, '-' or '_'", quoted(id), utf8.RuneCountInString(id), MaxIDLength)
}

// checkCommandID checks a command id; empty lets the server choose one.
func checkCommandID(field, id string) error {
	if id == "" || isID(id, MaxCommandIDLength, 0) {
		return nil
	}
	return invalid(field, "%s (%d characters) is not a command id: use 1 to %d letters, digits, '-' or '_' (or none, and the server picks one)", quoted(id), utf8.RuneCountInString(id), MaxCommandIDLength)
}

// unsafeRune reports whether r may not appear in a name or a text: control characters (NUL,
// ESC, CR, LF, TAB, DEL, C1), bidirectional marks, embeddings, overrides and isolates, line
// and paragraph separators, the byte-order mark, and what is not UTF-8.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff, r == utf8.RuneError:
		return true
	}
	return false
}

// CheckText checks a name or a free text: at most max characters, none of them unsafe.
func CheckText(field, s string, max int) error {
	if n := utf8.RuneCountInString(s); n > max {
		return invalid(field, "%d characters; at most %d", n, max)
	}
	if !utf8.ValidString(s) {
		return invalid(field, "%s is not valid UTF-8", quoted(s))
	}
	for i, r := range s {
		if unsafeRune(r) {
			return invalid(field, "%s holds the control or bidirectional character %U at byte %d: use printable characters only (no line breaks, tabs, escapes or direction overrides)", quoted(s), r, i)
		}
	}
	return nil
}

// CheckPrincipal checks a principal ("tenant/subject") or a bare subject; empty is allowed.
func CheckPrincipal(field, p string) error {
	if p == "" {
		return nil
	}
	if n := len(p); n > MaxPrincipalLength {
		return invalid(field, "%d bytes; a principal has at most %d (\"tenant/subject\")", n, MaxPrincipalLength)
	}
	const want = "give a subject of your tenant (\"david\") or a principal (\"tenant/david\")"
	tenant, sub, ok := strings.Cut(p, "/")
	if !ok {
		sub = p
	} else if err := identity.CheckName("tenant", tenant); err != nil {
		return invalid(field, "%s: %s; %v", quoted(p), want, sanitizeErr(err))
	}
	if err := identity.CheckName("subject", sub); err != nil {
		return invalid(field, "%s: %s; %v", quoted(p), want, sanitizeErr(err))
	}
	return nil
}

// sanitizeErr drops CheckName's echo of the value (already quoted once by the caller).
func sanitizeErr(err error) string {
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return -1
		}
		return r
	}, err.Error())
}

// Validate checks a request of a fray service; it returns an InvalidArgument status naming
// the first field that is wrong and what the field accepts, or nil. Messages of other
// packages (health, reflection) are checked only for being decodable. A ResolveRequest's
// state and rewind_state are what the encounter service folded from the log: only bounded
// (the recorded policy); its command is checked like any other.
func Request(req any) error {
	m, ok := req.(proto.Message)
	if !ok {
		return nil
	}
	r := m.ProtoReflect()
	if err := undecodable(r); err != nil {
		return err
	}
	if !strings.HasPrefix(string(r.Descriptor().FullName()), "fray.") {
		return nil
	}
	if _, resolve := m.(*rulesv1.ResolveRequest); !resolve {
		if size := proto.Size(m); size > MaxRequestBytes {
			return refusal.OverLimit(refusal.LimitRequestBytes, "this request takes %d bytes; a request may take at most %d", size, MaxRequestBytes)
		}
	}
	if err := checkRequest(m); err != nil {
		return err
	}
	if err := planOf(r.Descriptor(), policy{}).walk(r, 0); err != nil {
		return err.status()
	}
	return nil
}

// checkRequest holds the rules of each RPC that the walk cannot know: what is required
// besides the encounter an RPC is about (the encounter service's access table requires
// encounter_id of every RPC about one).
func checkRequest(m proto.Message) error {
	switch r := m.(type) {
	case *encounterv1.CreateEncounterRequest:
		if r.GetEncounter() == nil {
			return invalid("encounter", "required: the encounter to create (name, rule_system)")
		}
	case *encounterv1.AddCombatantRequest:
		if r.GetCombatant() == nil {
			return invalid("combatant", "required: the combatant to add")
		}
	case *encounterv1.RemoveCombatantRequest:
		return CheckID("combatant_id", r.GetCombatantId())
	case *encounterv1.SubmitRequest:
		if r.GetCommand().GetKind() == nil {
			return invalid("command", "required: the command to submit")
		}
	case *rulesv1.DescribeRulesetRequest:
		return CheckID("id", r.GetId())
	case *rulesv1.RollRequest:
		if n := len(r.GetSeed()); n != 0 && n != SeedLength {
			return invalid("seed", "%d bytes: a seed has %d bytes (or none, for a fresh one)", n, SeedLength)
		}
	case *rulesv1.ResolveRequest:
		if err := CheckID("state.encounter_id", r.GetState().GetEncounterId()); err != nil {
			return err
		}
		if r.GetCommand().GetKind() == nil {
			return invalid("command", "required: the command to decide")
		}
		if n := len(r.GetSeed()); n != SeedLength {
			return invalid("seed", "%d bytes: the encounter's seed has %d bytes", n, SeedLength)
		}
		if r.GetRewindState() != nil {
			if err := CheckID("rewind_state.encounter_id", r.GetRewindState().GetEncounterId()); err != nil {
				return err
			}
		}
		if d, n := r.GetSheetSha256(), len(r.GetState().GetCombatants()); len(d) > 0 && len(d) != n {
			return invalid("sheet_sha256", "%d entries for the state's %d combatants: one per combatant, in order (or none)", len(d), n)
		}
		for i, d := range r.GetSheetSha256() {
			if len(d) != 0 && len(d) != sha256.Size {
				return invalid(fmt.Sprintf("sheet_sha256[%d]", i), "%d bytes: a sha256 has %d (or none, for the combatant as it is sent)", len(d), sha256.Size)
			}
		}
	}
	return nil
}

// ValidateUnary validates every unary request before its handler: Validate, and the bound
// of a state a caller sends (checkSentState).
func Unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := checkSentState(ctx, req); err != nil {
		return nil, err
	}
	if err := Request(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// checkSentState bounds the state of an OddsRequest, and of a ResolveRequest from anyone but
// the encounter service (whose states come from its log, bounded by its own limits; Resolve
// refuses any other caller, but only after a state of up to the server's message size would
// have been walked): MaxSentCombatants combatants, MaxSentStateBytes bytes. It is checked
// before the walk, which costs as much as the state is large.
func checkSentState(ctx context.Context, req any) error {
	var st *encounterv1.EncounterState
	switch r := req.(type) {
	case *rulesv1.OddsRequest:
		if n := markedOversized(r.ProtoReflect()); n > 0 {
			return refusal.OverLimit(refusal.LimitSentState, "state: %d combatants; a state sent for odds may hold at most %d", n, MaxSentCombatants)
		}
		st = r.GetState()
	case *rulesv1.ResolveRequest:
		if id, _ := identity.From(ctx); id.HasScope(identity.ScopeResolve) {
			return nil
		}
		st = r.GetState()
	default:
		return nil
	}
	if n := len(st.GetCombatants()); n > MaxSentCombatants {
		return refusal.OverLimit(refusal.LimitSentState, "state: %d combatants; a state sent for odds may hold at most %d", n, MaxSentCombatants)
	}
	if size := proto.Size(st); size > MaxSentStateBytes {
		return refusal.OverLimit(refusal.LimitSentState, "state: %d bytes; a state sent for odds may take at most %d", size, MaxSentStateBytes)
	}
	return nil
}

// ValidateStream validates every message a stream receives before its handler sees it.
func Stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, validatingStream{ss})
}

type validatingStream struct{ grpc.ServerStream }

func (s validatingStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return Request(m)
}

// Undecodable requests: grpc-go turns any error of the server's codec into Internal. The
// codec below instead leaves an undecodable request empty, marked with an unknown field that
// Validate turns into InvalidArgument: a client's garbage is the client's fault.

// undecodableField is the field number of the mark (the largest valid one).
const undecodableField = protowire.MaxValidNumber

const undecodablePrefix = "fray-undecodable: "

// oversizedPrefix marks an OddsRequest left undecoded for its state's combatants, past
// MaxSentCombatants.
const oversizedPrefix = "fray-oversized: "

// sentCombatants counts, from an OddsRequest's wire bytes and without decoding them, the
// combatants of its state (fields state = 1 of the request, combatants = 11 of the state);
// 0 for bytes that do not parse, left to the decoding, which says why.
func sentCombatants(data mem.BufferSlice) int {
	if data.Len() <= MaxSentCombatants {
		return 0
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	b, n := buf.ReadOnlyData(), 0
	for len(b) > 0 {
		num, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return 0
		}
		b = b[l:]
		if num != 1 || typ != protowire.BytesType {
			if l = protowire.ConsumeFieldValue(num, typ, b); l < 0 {
				return 0
			}
			b = b[l:]
			continue
		}
		st, l := protowire.ConsumeBytes(b)
		if l < 0 {
			return 0
		}
		b = b[l:]
		for len(st) > 0 { // a state sent twice is merged: its combatants add up
			num, typ, l := protowire.ConsumeTag(st)
			if l < 0 {
				return 0
			}
			st = st[l:]
			if l = protowire.ConsumeFieldValue(num, typ, st); l < 0 {
				return 0
			}
			st = st[l:]
			if num == 11 && typ == protowire.BytesType {
				n++
			}
		}
	}
	return n
}

// markedOversized is the combatants of the state left undecoded in m (requestCodec), or 0.
func markedOversized(m protoreflect.Message) int {
	u := m.GetUnknown()
	for len(u) > 0 {
		num, typ, n := protowire.ConsumeTag(u)
		if n < 0 {
			return 0
		}
		u = u[n:]
		if num == undecodableField && typ == protowire.BytesType {
			b, n := protowire.ConsumeBytes(u)
			if n < 0 {
				return 0
			}
			if n, ok := strings.CutPrefix(string(b), oversizedPrefix); ok {
				c, _ := strconv.Atoi(n)
				return c
			}
		}
		if n = protowire.ConsumeFieldValue(num, typ, u); n < 0 {
			return 0
		}
		u = u[n:]
	}
	return 0
}

func undecodable(m protoreflect.Message) error {
	u := m.GetUnknown()
	for len(u) > 0 {
		num, typ, n := protowire.ConsumeTag(u)
		if n < 0 {
			return nil
		}
		u = u[n:]
		if num == undecodableField && typ == protowire.BytesType {
			b, n := protowire.ConsumeBytes(u)
			if n < 0 {
				return nil
			}
			if why, ok := strings.CutPrefix(string(b), undecodablePrefix); ok {
				return status.Errorf(codes.InvalidArgument, "the request is not a valid %s message (%s): send a protobuf encoding of it, with UTF-8 strings", m.Descriptor().FullName(), why)
			}
		}
		n = protowire.ConsumeFieldValue(num, typ, u)
		if n < 0 {
			return nil
		}
		u = u[n:]
	}
	return nil
}

// requestCodec is the proto codec, with undecodable requests marked rather than failed.
type requestCodec struct{ encoding.CodecV2 }

func (c requestCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*rulesv1.OddsRequest); ok {
		if n := sentCombatants(data); n > MaxSentCombatants {
			// Not decoded (issue 23, item 5: decoding a flood's 44 KB states of 200 combatants
			// was the largest cost the flood left the server): marked for checkSentState.
			mark := protowire.AppendTag(nil, undecodableField, protowire.BytesType)
			mark = protowire.AppendString(mark, oversizedPrefix+strconv.Itoa(n))
			r.ProtoReflect().SetUnknown(mark)
			return nil
		}
	}
	err := c.CodecV2.Unmarshal(data, v)
	m, ok := v.(proto.Message)
	if err == nil || !ok {
		return err
	}
	proto.Reset(m)
	why := err.Error()
	if len(why) > 200 {
		why = why[:200]
	}
	mark := protowire.AppendTag(nil, undecodableField, protowire.BytesType)
	mark = protowire.AppendString(mark, undecodablePrefix+strings.ToValidUTF8(why, "?"))
	m.ProtoReflect().SetUnknown(mark)
	return nil
}

// RequestCodec is the server option that makes undecodable requests InvalidArgument (with
// the Validate interceptors).
func RequestCodec() grpc.ServerOption {
	return grpc.ForceServerCodecV2(requestCodec{encoding.GetCodecV2("proto")})
}
