package enginetest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Secrets is what of a hidden combatant a reader must not get, for Leaks.
type Secrets struct {
	// Words are searched in a message's bytes: names of its sheet, the GM's rulings about it.
	Words []string
	// Numbers are searched in every integer field but a Roll's faces.
	Numbers []int64
	// Faces are searched in a Roll's faces, and only there (small numbers are everywhere
	// else). Give the Numbers here too to search the faces for them.
	Faces []int64
	// Ignore names integer fields (by their name, in any message; a map's values are named
	// "value") whose values every reader gets, whatever they hold: Positions, counts, ranks
	// called out loud.
	Ignore []protoreflect.Name
	// Skip names messages not searched for numbers or faces at all (checked apart).
	Skip []protoreflect.FullName
}

// Positions are the integer fields that place a record in the log, or name the rules'
// version: the positional fields every Secrets of a rule system ignores. The dice stream's
// positions (dice_offset, a roll's offset and draws) are not among them: no reader but the
// GMs gets them (engine.WithholdDicePositions), so a view holding one leaks.
var Positions = []protoreflect.Name{"sequence", "to_sequence", "rules_version"}

var rollFaces = (&dicev1.Roll{}).ProtoReflect().Descriptor().Fields().ByName("faces").FullName()

// Leaks lists what of s the message m shows a reader: `the word "…"` for each word in its
// bytes, `N in path` for a number in an integer field, `face N in path` for a face in a
// Roll's faces. None: m keeps the secrets.
func Leaks(t testing.TB, m proto.Message, s Secrets) []string {
	t.Helper()
	b, err := proto.Marshal(m)
	require.NoError(t, err)
	var out []string
	for _, w := range s.Words {
		if bytes.Contains(b, []byte(w)) {
			out = append(out, fmt.Sprintf("the word %q", w))
		}
	}
	WalkInts(m, func(path string, fd protoreflect.FieldDescriptor, v int64) {
		switch {
		case slices.Contains(s.Ignore, fd.Name()):
		case fd.FullName() == rollFaces:
			if slices.Contains(s.Faces, v) {
				out = append(out, fmt.Sprintf("face %d in %s", v, path))
			}
		case slices.Contains(s.Numbers, v):
			out = append(out, fmt.Sprintf("%d in %s", v, path))
		}
	}, s.Skip...)
	return out
}

// WalkInts calls visit with every integer set in m and in the messages within it, lists and
// map values included (not map keys, not enums), with its path from m
// ("combatants[0].loss.traits[Puissance]") and its field (a map's value field for a map's
// values). It does not go into the messages named in skip.
func WalkInts(m proto.Message, visit func(path string, fd protoreflect.FieldDescriptor, v int64), skip ...protoreflect.FullName) {
	walkInts("", m.ProtoReflect(), visit, skip)
}

func walkInts(path string, m protoreflect.Message, visit func(string, protoreflect.FieldDescriptor, int64), skip []protoreflect.FullName) {
	if slices.Contains(skip, m.Descriptor().FullName()) {
		return
	}
	one := func(path string, fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch fd.Kind() {
		case protoreflect.MessageKind, protoreflect.GroupKind:
			walkInts(path, v.Message(), visit, skip)
		case protoreflect.Int32Kind, protoreflect.Int64Kind, protoreflect.Sint32Kind, protoreflect.Sint64Kind,
			protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind:
			visit(path, fd, v.Int())
		case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
			visit(path, fd, int64(v.Uint()))
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		p := string(fd.Name())
		if path != "" {
			p = path + "." + p
		}
		switch {
		case fd.IsList():
			for i := range v.List().Len() {
				one(fmt.Sprintf("%s[%d]", p, i), fd, v.List().Get(i))
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				one(p+"["+k.String()+"]", fd.MapValue(), mv)
				return true
			})
		default:
			one(p, fd, v)
		}
		return true
	})
}

// ViewLog returns the events of log as v reads them, each viewed with the state before it
// (states[i] is the state after log[i]; the first is viewed with the empty state).
func ViewLog(reg *engine.Registry, log []*encounterv1.Event, states []*encounterv1.EncounterState, v engine.Viewer) []*encounterv1.Event {
	out := make([]*encounterv1.Event, len(log))
	before := &encounterv1.EncounterState{}
	for i, ev := range log {
		out[i] = reg.ViewEvent(before, ev, v)
		before = states[i]
	}
	return out
}
