package validate

// The checks of validate.go, compiled once per message type and policy into a plan of the
// fields with something to check, and walked over each request.

import (
	"strconv"
	"strings"
	"sync"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

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
