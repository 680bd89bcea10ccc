package validate

// The validation walk as it was before plans (one protoreflect Range over every message,
// paths built as it goes, the ResolveRequest cloned): kept here as the reference the planned
// walk must agree with, request by request (TestValidateMatchesReference, FuzzValidate).

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func (p policy) refWalk(m protoreflect.Message, path string, depth int) error {
	if depth > maxDepth {
		return invalid(path, "nested more than %d deep", maxDepth)
	}
	if u := m.GetUnknown(); len(u) > 0 && !p.recorded {
		num, _, _ := protowire.ConsumeTag(u)
		where := path
		if where == "" {
			where = "the request"
		}
		return invalid(where, "field number %d is not a field of %s known to this server", num, m.Descriptor().FullName())
	}
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		field := string(fd.Name())
		if path != "" {
			field = path + "." + field
		}
		err = p.refField(fd, field, v, depth)
		return err == nil
	})
	return err
}

func (p policy) refField(fd protoreflect.FieldDescriptor, field string, v protoreflect.Value, depth int) error {
	switch {
	case fd.IsList():
		l := v.List()
		if l.Len() > p.maxList() {
			return invalid(field, "%d entries; at most %d", l.Len(), p.maxList())
		}
		for i := range l.Len() {
			if err := p.refValue(fd, fmt.Sprintf("%s[%d]", field, i), l.Get(i), depth); err != nil {
				return err
			}
		}
		return nil
	case fd.IsMap():
		mp := v.Map()
		if mp.Len() > p.maxList() {
			return invalid(field, "%d entries; at most %d", mp.Len(), p.maxList())
		}
		var err error
		mp.Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			key := k.Value()
			if fd.MapKey().Kind() == protoreflect.StringKind {
				if err = p.checkString(fd.MapKey(), field+" key", key.String()); err != nil {
					return false
				}
			}
			err = p.refValue(fd.MapValue(), fmt.Sprintf("%s[%s]", field, quoted(key.String())), mv, depth)
			return err == nil
		})
		return err
	}
	return p.refValue(fd, field, v, depth)
}

func (p policy) refValue(fd protoreflect.FieldDescriptor, field string, v protoreflect.Value, depth int) error {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return p.checkString(fd, field, v.String())
	case protoreflect.BytesKind:
		max := MaxBytesLength
		if p.recorded {
			max = maxRecordedString
		}
		if n := len(v.Bytes()); n > max {
			return invalid(field, "%d bytes; at most %d", n, max)
		}
	case protoreflect.EnumKind:
		ed := fd.Enum()
		if ed.Values().ByNumber(v.Enum()) == nil {
			return invalid(field, "%d is not a value of %s: use one of %s", v.Enum(), ed.Name(), enumNames(ed))
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return p.refWalk(v.Message(), field, depth+1)
	}
	return nil
}

// Validate checks a request of a fray service; it returns an InvalidArgument status naming
// the first field that is wrong and what the field accepts, or nil. Messages of other
// packages (health, reflection) are checked only for being decodable.
func referenceValidate(req any) error {
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
			return status.Errorf(codes.ResourceExhausted, "this request takes %d bytes; a request may take at most %d", size, MaxRequestBytes)
		}
	}
	if err := checkRequest(m); err != nil {
		return err
	}
	if rr, ok := m.(*rulesv1.ResolveRequest); ok {
		// The state and rewind_state are what the encounter service folded from the log: only
		// bounded; the command is checked like any other.
		rest := proto.CloneOf(rr)
		rest.State, rest.RewindState, rest.SheetSha256 = nil, nil, nil
		if err := (policy{}).refWalk(rest.ProtoReflect(), "", 0); err != nil {
			return err
		}
		// sheet_sha256 (added with the plans): digests of the state's sheets, recorded.
		digests := &rulesv1.ResolveRequest{SheetSha256: rr.GetSheetSha256()}
		if err := (policy{recorded: true}).refWalk(digests.ProtoReflect(), "", 0); err != nil {
			return err
		}
		for name, st := range map[string]*encounterv1.EncounterState{"state": rr.GetState(), "rewind_state": rr.GetRewindState()} {
			if st != nil {
				if err := (policy{recorded: true}).refWalk(st.ProtoReflect(), name, 1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return policy{}.refWalk(r, "", 0)
}

// goldenRequests are ResolveRequests as the encounter service sends them: for every command
// of the golden log of each rule system (rules/systems/testdata/golden), the state before it.
func goldenRequests(tb testing.TB) []*rulesv1.ResolveRequest {
	tb.Helper()
	files, err := filepath.Glob("../../../rules/systems/testdata/golden/*.jsonl")
	require.NoError(tb, err)
	require.NotEmpty(tb, files)
	reg := systems.Registry()
	var out []*rulesv1.ResolveRequest
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(tb, err)
		st := &encounterv1.EncounterState{}
		for line := range strings.Lines(string(b)) {
			ev := &encounterv1.Event{}
			require.NoError(tb, protojson.Unmarshal([]byte(line), ev))
			if ev.GetCommand() != nil && st.GetEncounterId() != "" {
				out = append(out, &rulesv1.ResolveRequest{State: proto.CloneOf(st), Command: ev.GetCommand(), Actor: ev.GetActor(), Seed: make([]byte, SeedLength)})
			}
			require.NoError(tb, reg.Evolve(st, ev))
		}
	}
	return out
}

var badStrings = []string{"", "*", "a b", "Diego\x1b[2J", "dev/", strings.Repeat("é", 201), strings.Repeat("a", 1001), strings.Repeat("a", maxRecordedString+1)}

// sites lists the places of m (and of every message below it) where one bad value can be
// put, each as a function that puts it and returns the function that takes it back: every
// string, bytes and enum field (set or not), each element of a list and value of a map, a
// list or map grown past both bounds, a map given a bad key, and an unknown field in every
// message. Map entries are visited in key order.
func sites(m protoreflect.Message) []func() (undo func()) {
	var out []func() func()
	out = append(out, func() func() {
		old := m.GetUnknown()
		m.SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 500, protowire.VarintType), 7))
		return func() { m.SetUnknown(old) }
	})
	scalar := func(kind protoreflect.Kind, set func(protoreflect.Value) func()) {
		switch kind {
		case protoreflect.StringKind:
			for _, s := range badStrings {
				out = append(out, func() func() { return set(protoreflect.ValueOfString(s)) })
			}
		case protoreflect.BytesKind:
			for _, n := range []int{SeedLength, MaxBytesLength + 1, maxRecordedString + 1} {
				out = append(out, func() func() { return set(protoreflect.ValueOfBytes(make([]byte, n))) })
			}
		case protoreflect.EnumKind:
			for _, n := range []protoreflect.EnumNumber{1, 99, -1} {
				out = append(out, func() func() { return set(protoreflect.ValueOfEnum(n)) })
			}
		}
	}
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch {
		case fd.IsList():
			if !m.Has(fd) {
				continue
			}
			l := m.Mutable(fd).List()
			for _, n := range []int{MaxListLength + 1, maxRecordedList + 1} {
				out = append(out, func() func() {
					was := l.Len()
					for l.Len() < n {
						l.Append(l.Get(0))
					}
					return func() { l.Truncate(was) }
				})
			}
			for j := range l.Len() {
				if fd.Message() != nil {
					out = append(out, sites(l.Get(j).Message())...)
				} else {
					scalar(fd.Kind(), func(v protoreflect.Value) func() {
						old := l.Get(j)
						l.Set(j, v)
						return func() { l.Set(j, old) }
					})
				}
			}
		case fd.IsMap():
			if !m.Has(fd) {
				continue
			}
			mp := m.Mutable(fd).Map()
			var keys []protoreflect.MapKey
			mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool { keys = append(keys, k); return true })
			slices.SortFunc(keys, func(a, b protoreflect.MapKey) int { return strings.Compare(a.String(), b.String()) })
			if fd.MapKey().Kind() == protoreflect.StringKind {
				for _, s := range badStrings {
					out = append(out, func() func() {
						k := protoreflect.ValueOfString(s).MapKey()
						had, old := mp.Has(k), mp.Get(k)
						mp.Set(k, mp.NewValue())
						return func() {
							if had {
								mp.Set(k, old)
							} else {
								mp.Clear(k)
							}
						}
					})
				}
			}
			for _, k := range keys {
				if fd.MapValue().Message() != nil {
					out = append(out, sites(mp.Get(k).Message())...)
				} else {
					scalar(fd.MapValue().Kind(), func(v protoreflect.Value) func() {
						old := mp.Get(k)
						mp.Set(k, v)
						return func() { mp.Set(k, old) }
					})
				}
			}
		case fd.Message() != nil:
			if m.Has(fd) {
				out = append(out, sites(m.Get(fd).Message())...)
			}
		default:
			scalar(fd.Kind(), func(v protoreflect.Value) func() {
				// Setting a member of a oneof unsets the one set: all are put back.
				members := []protoreflect.FieldDescriptor{fd}
				if od := fd.ContainingOneof(); od != nil {
					members = members[:0]
					for j := range od.Fields().Len() {
						members = append(members, od.Fields().Get(j))
					}
				}
				var had []bool
				var old []protoreflect.Value
				for _, f := range members {
					had, old = append(had, m.Has(f)), append(old, m.Get(f))
				}
				m.Set(fd, v)
				return func() {
					for j, f := range members {
						m.Clear(f)
						if had[j] {
							m.Set(f, old[j])
						}
					}
				}
			})
		}
	}
	return out
}

// The planned walk refuses exactly what the reference walk refused, with the same status:
// every golden request as it is, and the largest of each rule system, as it is and with its
// sheets by digest, with one bad value put at each of its sites in turn.
func TestValidateMatchesReference(t *testing.T) {
	largest := map[string]*rulesv1.ResolveRequest{}
	for _, req := range goldenRequests(t) {
		require.NoError(t, Request(req))
		require.NoError(t, referenceValidate(req))
		if sys := req.GetState().GetRuleSystem(); proto.Size(req) > proto.Size(largest[sys]) {
			largest[sys] = req
		}
	}
	require.Len(t, largest, 4)
	refused := 0
	for sys, req := range largest {
		byDigest := proto.CloneOf(req)
		for _, c := range byDigest.GetState().GetCombatants() {
			byDigest.SheetSha256 = append(byDigest.SheetSha256, sheets.Digest(c))
			c.Sheet = nil
		}
		for _, req := range []*rulesv1.ResolveRequest{req, byDigest} {
			c := proto.CloneOf(req)
			for n, put := range sites(c.ProtoReflect()) {
				undo := put()
				got, want := Request(c), referenceValidate(c)
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(got), "%s (%s), site %d", sys, req.GetCommand(), n)
				if got != nil {
					refused++
				}
				undo()
			}
			require.True(t, proto.Equal(req, c), "every site taken back")
		}
	}
	require.Greater(t, refused, 1000, "the bad values are refused")
}

// BenchmarkValidate: the planned walk against the reference walk, on the largest golden
// ResolveRequest (its state holds every combatant's sheet) and on a player's Submit.
//
//	go test ./services/platform -run '^$' -bench Validate -benchmem
func BenchmarkValidate(b *testing.B) {
	var resolve *rulesv1.ResolveRequest
	for _, r := range goldenRequests(b) {
		if proto.Size(r) > proto.Size(resolve) {
			resolve = r
		}
	}
	submit := &encounterv1.SubmitRequest{EncounterId: "3f2b1c9e-0d4a-4c1e-9a5b-7e6f8d9c0b1a", CommandId: "0123456789abcdef", Command: resolve.GetCommand()}
	byDigest := proto.CloneOf(resolve) // as the encounter service sends it: sheets by digest
	for _, c := range byDigest.GetState().GetCombatants() {
		byDigest.SheetSha256 = append(byDigest.SheetSha256, sheets.Digest(c))
		c.Sheet = nil
	}
	b.Logf("resolve request: %d bytes, %d combatants; by digest %d bytes", proto.Size(resolve), len(resolve.GetState().GetCombatants()), proto.Size(byDigest))
	for _, req := range []struct {
		name string
		m    proto.Message
	}{{"resolve", resolve}, {"resolve-by-digest", byDigest}, {"submit", submit}} {
		for _, v := range []struct {
			name string
			f    func(any) error
		}{{"planned", Request}, {"reference", referenceValidate}} {
			b.Run(req.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := v.f(req.m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// isID accepts exactly what the patterns it replaced accepted.
func TestIDChecksMatchPatterns(t *testing.T) {
	patterns := []struct {
		re    *regexp.Regexp
		most  int
		extra byte
	}{
		{regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`), MaxIDLength, 0},
		{regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`), MaxCommandIDLength, 0},
		{regexp.MustCompile(`^[A-Za-z0-9_=-]{0,512}$`), MaxPageTokenLength, '='},
	}
	inputs := []string{"", "é", "a=b", "=", "enc-1_A", "a.b", "a b", "a\x00", "a\n", "\xff", "3f2b1c9e-0d4a-4c1e-9a5b-7e6f8d9c0b1a"}
	for c := range 256 {
		inputs = append(inputs, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"z")
	}
	for _, n := range []int{63, 64, 65, 127, 128, 129, 511, 512, 513} {
		inputs = append(inputs, strings.Repeat("a", n), strings.Repeat("=", n), strings.Repeat("a", n-1)+"*")
	}
	for _, p := range patterns {
		for _, s := range inputs {
			require.Equal(t, p.re.MatchString(s), isID(s, p.most, p.extra), "%s on %q", p.re, s)
		}
	}
}
