package platform

// Request validation: one layer in front of the rules. Every request of a fray service is
// checked here before any handler, subject, key or log line sees it: ids by a strict pattern,
// every string bounded and free of control and bidirectional-override characters, every enum
// value defined, every list and map bounded, no field unknown to this server, and the fields
// each RPC needs present. The rules are declared once, by field name, and applied to every
// message a request carries (Command, Action, Sheet, Options of all four systems) by walking
// it with protoreflect; the few per-RPC rules (what is required) are in checkRequest.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
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
	MaxPrincipalLength = 2*MaxNameLength + 1
	// MaxPageTokenLength bounds a page token.
	MaxPageTokenLength = 512
	// MaxListLength bounds a repeated field of a request; MaxMapEntries a map.
	MaxListLength = 256
	MaxMapEntries = 256
	// MaxRequestBytes bounds the encoding of a request (a command, a sheet); a state sent to
	// the resolver is not counted.
	MaxRequestBytes = 256 << 10
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
	} else if err := CheckName("tenant", tenant); err != nil {
		return invalid(field, "%s: %s; %v", quoted(p), want, sanitizeErr(err))
	}
	if err := CheckName("subject", sub); err != nil {
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

// fieldKind is how a string field is checked, by its name.
type fieldKind int

const (
	kindName fieldKind = iota
	kindText
	kindID
	kindCommandID
	kindPrincipal
	kindPageToken
)

func stringKind(fd protoreflect.FieldDescriptor) fieldKind {
	name := string(fd.Name())
	switch {
	case name == "command_id":
		return kindCommandID
	case name == "id", name == "legal_for", name == "combatant_ids", strings.HasSuffix(name, "_id"):
		return kindID
	case name == "controller", name == "principal", name == "actor", name == "game_master":
		return kindPrincipal
	case name == "page_token":
		return kindPageToken
	case name == "reason", name == "description", name == "intention", name == "prompt", strings.HasSuffix(name, "_reason"):
		return kindText
	}
	return kindName
}

// policy is how strictly a message is walked: a request as a player typed it, or a state the
// encounter service folded from the log (sent to the resolver).
type policy struct {
	recorded bool
}

func (p policy) checkString(fd protoreflect.FieldDescriptor, field, s string) error {
	if p.recorded {
		if len(s) > maxRecordedString {
			return invalid(field, "%d bytes; at most %d", len(s), maxRecordedString)
		}
		return nil
	}
	switch stringKind(fd) {
	case kindID:
		if s == "" {
			return nil // required-ness is the RPC's (checkRequest) or the rules'
		}
		return CheckID(field, s)
	case kindCommandID:
		return checkCommandID(field, s)
	case kindPrincipal:
		return CheckPrincipal(field, s)
	case kindPageToken:
		if !isID(s, MaxPageTokenLength, '=') {
			return invalid(field, "not a page token: pass the next_page_token of the previous page as it is")
		}
		return nil
	case kindText:
		return CheckText(field, s, MaxTextChars)
	}
	return CheckText(field, s, MaxNameChars)
}

func (p policy) maxList() int {
	if p.recorded {
		return maxRecordedList
	}
	return MaxListLength
}

func (p policy) maxBytes() int {
	if p.recorded {
		return maxRecordedString
	}
	return MaxBytesLength
}

// The walk follows a plan per message type and policy, compiled once: the fields that hold
// something to check, so that a request is checked without building a path or a closure per
// field (the path of a field is built only when it is refused, as the error unwinds), and a
// recorded message whose type holds nothing to check, itself or below (numbers and booleans
// only), is not visited at all unless it could nest deeper than maxDepth. A player's message
// is always visited: it may carry unknown fields. Every check is the one the walk made before
// plans (validate_ref_test.go keeps it: TestValidateMatchesReference and FuzzValidate compare
// the two).

// plan is how the walk checks the messages of one type under one policy.
type plan struct {
	p policy
	// fields holds the fields with something to check, in the order of the message's
	// fields; the members of a oneof are found through the oneof (the one set).
	fields []fieldPlan
	// skip: nothing in a message of this type nor below it is checked (recorded only), and
	// it nests at most height messages below itself. A type that holds itself, directly or
	// not, is never skipped.
	skip   bool
	height int
}

// fieldPlan is one field that holds something to check.
type fieldPlan struct {
	fd   protoreflect.FieldDescriptor
	name string
	// p is the policy of the field's values: the plan's, but for what a ResolveRequest
	// carries of the log (recorded).
	p policy
	// sub is the plan of the field's messages (a map's values, for a map), or nil; single:
	// the field is one message (not a list, not a map).
	sub    *plan
	single bool
	// oneof, for the entry standing for a oneof (fd is nil): its members with something to
	// check, by field index in the message.
	oneof   protoreflect.OneofDescriptor
	members []*fieldPlan
}

type planKey struct {
	name     protoreflect.FullName
	recorded bool
}

var (
	plansMu sync.Mutex
	plans   sync.Map // planKey → *plan, compiled
)

// planOf returns the plan of md's messages under p, compiled (with every plan below it) the
// first time.
func planOf(md protoreflect.MessageDescriptor, p policy) *plan {
	k := planKey{md.FullName(), p.recorded}
	if pl, ok := plans.Load(k); ok {
		return pl.(*plan)
	}
	plansMu.Lock()
	defer plansMu.Unlock()
	compiling := map[planKey]*plan{}
	pl := compilePlan(md, p, compiling)
	for k, pl := range compiling {
		plans.Store(k, pl)
	}
	return pl
}

// resolveRecorded are the fields of a ResolveRequest holding what the encounter service
// folded from the log (state, rewind_state, and the digests of the state's sheets, one per
// combatant): checked under the recorded policy.
var resolveRecorded = map[protoreflect.FullName]bool{
	resolveField("state"): true, resolveField("rewind_state"): true, resolveField("sheet_sha256"): true,
}

func resolveField(name protoreflect.Name) protoreflect.FullName {
	return rulesv1.File_fray_rules_v1_rules_service_proto.Messages().ByName("ResolveRequest").Fields().ByName(name).FullName()
}

func compilePlan(md protoreflect.MessageDescriptor, p policy, compiling map[planKey]*plan) *plan {
	k := planKey{md.FullName(), p.recorded}
	if pl, ok := plans.Load(k); ok {
		return pl.(*plan)
	}
	if pl, ok := compiling[k]; ok {
		return pl // being compiled: md holds itself, and pl.skip stays false
	}
	pl := &plan{p: p}
	compiling[k] = pl
	skip := p.recorded
	fields := md.Fields()
	oneofs := map[protoreflect.FullName]int{} // a oneof's entry in pl.fields
	for i := range fields.Len() {
		fd := fields.Get(i)
		fp := &fieldPlan{fd: fd, name: string(fd.Name()), p: p}
		if resolveRecorded[fd.FullName()] {
			fp.p = policy{recorded: true}
		}
		vd := fd
		if fd.IsMap() {
			vd = fd.MapValue()
		}
		need := fd.IsList() || fd.IsMap() // their length
		switch vd.Kind() {
		case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.EnumKind:
			need = true
		case protoreflect.MessageKind, protoreflect.GroupKind:
			fp.sub = compilePlan(vd.Message(), fp.p, compiling)
			need = true // a skipped type's depth, if it could matter: see walk
			if !fp.sub.skip {
				skip = false
			}
			pl.height = max(pl.height, fp.sub.height+1)
		}
		fp.single = fp.sub != nil && !fd.IsList() && !fd.IsMap()
		if need && fp.sub == nil {
			skip = false
		}
		if !need {
			continue
		}
		od := fd.ContainingOneof()
		if od == nil || od.IsSynthetic() {
			pl.fields = append(pl.fields, *fp)
			continue
		}
		at, ok := oneofs[od.FullName()]
		if !ok {
			at = len(pl.fields)
			oneofs[od.FullName()] = at
			pl.fields = append(pl.fields, fieldPlan{oneof: od, members: make([]*fieldPlan, fields.Len())})
		}
		pl.fields[at].members[i] = fp
	}
	pl.skip = skip
	return pl
}

// fieldError is a refused field: build makes its InvalidArgument status, given the field's
// path, which grows as the walk unwinds (segments innermost first).
type fieldError struct {
	segments []string
	build    func(path string) error
}

func refused(build func(path string) error) *fieldError { return &fieldError{build: build} }

func (e *fieldError) in(segment string) *fieldError {
	e.segments = append(e.segments, segment)
	return e
}

func (e *fieldError) status() error {
	var b strings.Builder
	for i := len(e.segments) - 1; i >= 0; i-- {
		s := e.segments[i]
		if b.Len() > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return e.build(b.String())
}

// walk checks m, a message of pl's type at the given depth.
func (pl *plan) walk(m protoreflect.Message, depth int) *fieldError {
	if depth > maxDepth {
		return refused(func(path string) error { return invalid(path, "nested more than %d deep", maxDepth) })
	}
	if !pl.p.recorded {
		if u := m.GetUnknown(); len(u) > 0 {
			num, _, _ := protowire.ConsumeTag(u)
			name := m.Descriptor().FullName()
			return refused(func(path string) error {
				if path == "" {
					path = "the request"
				}
				return invalid(path, "field number %d is not a field of %s known to this server", num, name)
			})
		}
	}
	for i := range pl.fields {
		f := &pl.fields[i]
		if f.oneof != nil {
			fd := m.WhichOneof(f.oneof)
			if fd == nil {
				continue
			}
			if f = f.members[fd.Index()]; f == nil {
				continue
			}
		}
		if f.single && f.sub.skip && depth+1+f.sub.height <= maxDepth {
			continue // a message with nothing to check
		}
		if !m.Has(f.fd) {
			continue
		}
		if err := f.check(m.Get(f.fd), depth); err != nil {
			return err.in(f.name)
		}
	}
	return nil
}

// check checks the value v of f (of a message at the given depth).
func (f *fieldPlan) check(v protoreflect.Value, depth int) *fieldError {
	p := f.p
	switch {
	case f.fd.IsList():
		l := v.List()
		if n, most := l.Len(), p.maxList(); n > most {
			return refused(func(path string) error { return invalid(path, "%d entries; at most %d", n, most) })
		}
		if f.sub != nil && f.sub.skip && depth+1+f.sub.height <= maxDepth {
			return nil
		}
		for i := range l.Len() {
			if err := f.value(f.fd, l.Get(i), depth); err != nil {
				return err.in("[" + strconv.Itoa(i) + "]")
			}
		}
		return nil
	case f.fd.IsMap():
		mp := v.Map()
		if n, most := mp.Len(), p.maxList(); n > most {
			return refused(func(path string) error { return invalid(path, "%d entries; at most %d", n, most) })
		}
		kd, vd := f.fd.MapKey(), f.fd.MapValue()
		skipValues := vd.Kind() != protoreflect.StringKind && vd.Kind() != protoreflect.BytesKind && vd.Kind() != protoreflect.EnumKind &&
			(f.sub == nil || (f.sub.skip && depth+1+f.sub.height <= maxDepth))
		if kd.Kind() != protoreflect.StringKind && skipValues {
			return nil
		}
		var err *fieldError
		mp.Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			if kd.Kind() == protoreflect.StringKind {
				if key := k.String(); p.checkString(kd, "", key) != nil {
					err = refused(func(path string) error { return p.checkString(kd, path+" key", key) })
					return false
				}
			}
			if skipValues {
				return true
			}
			if err = f.value(vd, mv, depth); err != nil {
				err = err.in("[" + quoted(k.String()) + "]")
			}
			return err == nil
		})
		return err
	}
	return f.value(f.fd, v, depth)
}

// value checks one value of f: the field itself, an element of its list or a value of its
// map (then fd is the map's value descriptor).
func (f *fieldPlan) value(fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) *fieldError {
	p := f.p
	switch fd.Kind() {
	case protoreflect.StringKind:
		if s := v.String(); p.checkString(fd, "", s) != nil {
			return refused(func(path string) error { return p.checkString(fd, path, s) })
		}
	case protoreflect.BytesKind:
		if n, most := len(v.Bytes()), p.maxBytes(); n > most {
			return refused(func(path string) error { return invalid(path, "%d bytes; at most %d", n, most) })
		}
	case protoreflect.EnumKind:
		ed := fd.Enum()
		if n := v.Enum(); ed.Values().ByNumber(n) == nil {
			return refused(func(path string) error {
				return invalid(path, "%d is not a value of %s: use one of %s", n, ed.Name(), enumNames(ed))
			})
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return f.sub.walk(v.Message(), depth+1)
	}
	return nil
}

func enumNames(ed protoreflect.EnumDescriptor) string {
	vs := ed.Values()
	names := make([]string, 0, vs.Len())
	for i := range vs.Len() {
		names = append(names, string(vs.Get(i).Name()))
	}
	return strings.Join(names, ", ")
}

// Validate checks a request of a fray service; it returns an InvalidArgument status naming
// the first field that is wrong and what the field accepts, or nil. Messages of other
// packages (health, reflection) are checked only for being decodable. A ResolveRequest's
// state and rewind_state are what the encounter service folded from the log: only bounded
// (the recorded policy); its command is checked like any other.
func Validate(req any) error {
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
			return Refuse(LimitRequestBytes, "this request takes %d bytes; a request may take at most %d", size, MaxRequestBytes)
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

// checkRequest holds the rules of each RPC that the walk cannot know: what is required.
func checkRequest(m proto.Message) error {
	switch r := m.(type) {
	case *encounterv1.CreateEncounterRequest:
		if r.GetEncounter() == nil {
			return invalid("encounter", "required: the encounter to create (name, rule_system)")
		}
	case *encounterv1.AddCombatantRequest:
		if err := CheckID("encounter_id", r.GetEncounterId()); err != nil {
			return err
		}
		if r.GetCombatant() == nil {
			return invalid("combatant", "required: the combatant to add")
		}
	case *encounterv1.RemoveCombatantRequest:
		if err := CheckID("encounter_id", r.GetEncounterId()); err != nil {
			return err
		}
		return CheckID("combatant_id", r.GetCombatantId())
	case *encounterv1.SubmitRequest:
		if err := CheckID("encounter_id", r.GetEncounterId()); err != nil {
			return err
		}
		if r.GetCommand().GetKind() == nil {
			return invalid("command", "required: the command to submit")
		}
	case interface{ GetEncounterId() string }:
		// Start, Get, Watch, End, Rewind, Export.
		return CheckID("encounter_id", r.GetEncounterId())
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

// ValidateUnary validates every unary request before its handler.
func ValidateUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := Validate(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// ValidateStream validates every message a stream receives before its handler sees it.
func ValidateStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, validatingStream{ss})
}

type validatingStream struct{ grpc.ServerStream }

func (s validatingStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return Validate(m)
}

// Undecodable requests: grpc-go turns any error of the server's codec into Internal. The
// codec below instead leaves an undecodable request empty, marked with an unknown field that
// Validate turns into InvalidArgument: a client's garbage is the client's fault.

// undecodableField is the field number of the mark (the largest valid one).
const undecodableField = protowire.MaxValidNumber

const undecodablePrefix = "fray-undecodable: "

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
