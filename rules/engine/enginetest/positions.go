package enginetest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Script plays an encounter command by command with scripted dice drawn as the service draws
// them: each command's dice from the encounter's one stream, opened at the state's dice
// offset, so that a roll's offset counts every word drawn before it, in earlier commands and
// by hidden combatants too. Every command is recorded on its first event, as the service
// records it.
type Script struct {
	t   testing.TB
	Reg *engine.Registry
	// St is the state after the last event; Log every event so far.
	St  *encounterv1.EncounterState
	Log []*encounterv1.Event
}

// NewScript starts an empty encounter (id e1) played with reg.
func NewScript(t testing.TB, reg *engine.Registry) *Script {
	return &Script{t: t, Reg: reg, St: &encounterv1.EncounterState{EncounterId: "e1"}}
}

// Do decides cmd as actor with the stream's next words and folds its events. A word is the
// face it gives, or Rejected: a word drawn and thrown away, as the stream's multiply-and-reject
// draws one more word for a face now and then (rules/dice, face). Every word must be used.
func (s *Script) Do(actor string, cmd *encounterv1.Command, words ...int32) []*encounterv1.Event {
	s.t.Helper()
	return s.do(actor, cmd, nil, words)
}

// Rewind rewinds the encounter to event to as the GM (gm), with the state after that event,
// as the service gives it.
func (s *Script) Rewind(gm string, to uint64) []*encounterv1.Event {
	s.t.Helper()
	past, err := s.Reg.Fold(s.Log[:to])
	require.NoError(s.t, err)
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: to}}}
	return s.do(gm, cmd, past, nil)
}

func (s *Script) do(actor string, cmd *encounterv1.Command, rewind *encounterv1.EncounterState, words []int32) []*encounterv1.Event {
	s.t.Helper()
	w := &Words{words: words, offset: s.St.GetDiceOffset()}
	evs, err := s.Reg.Decide(s.St, cmd, engine.Env{Actor: actor, Dice: w, Seed: make([]byte, dice.SeedSize), RewindState: rewind})
	require.NoError(s.t, err)
	require.Zero(s.t, len(w.words), "the command drew fewer words than given")
	evs[0].Command = proto.CloneOf(cmd)
	for _, ev := range evs {
		require.NoError(s.t, s.Reg.Evolve(s.St, ev))
	}
	s.Log = append(s.Log, evs...)
	return evs
}

// Rejected is a scripted word the draw of a face throws away (Words).
const Rejected int32 = 0

// Words is a dice.Roller drawing scripted words from a position of the stream: each word is
// a face, or Rejected, a word drawn and thrown away; an exploding die showing its highest face
// is drawn again, as rules/dice rolls. It panics when the words run out.
type Words struct {
	words  []int32
	offset uint64
}

// Roll implements dice.Roller.
func (w *Words) Roll(e dice.Expr) *dicev1.Roll {
	r := &dicev1.Roll{Expression: e.String(), Modifier: int32(e.Modifier), Total: int32(e.Modifier), Offset: w.offset}
	face := func() int32 {
		for {
			if len(w.words) == 0 {
				panic(fmt.Sprintf("enginetest.Words: roll %s needs more words than given", e))
			}
			f := w.words[0]
			w.words, w.offset = w.words[1:], w.offset+1
			if f != Rejected {
				return f
			}
		}
	}
	for range e.Count {
		for n := 0; ; n++ {
			f := face()
			r.Faces = append(r.Faces, f)
			r.Total += f
			if !e.Explode || int(f) != e.Sides || n == dice.MaxExplosion {
				break
			}
		}
	}
	r.Draws = w.offset - r.GetOffset()
	return r
}

// Received is everything a reader receives of an encounter, in order: after each event of
// log, the event as it reads it (engine.ViewEvent, with the state before it) and the state
// (engine.View), each marshalled deterministically. The first event is viewed with the empty
// state.
func Received(t testing.TB, reg *engine.Registry, log []*encounterv1.Event, v engine.Viewer) []proto.Message {
	t.Helper()
	st := &encounterv1.EncounterState{}
	var out []proto.Message
	for _, ev := range log {
		seen := reg.ViewEvent(st, ev, v)
		require.NoError(t, reg.Evolve(st, ev))
		out = append(out, seen, reg.View(st, v))
	}
	return out
}

// RequireSameReceived checks that a reader receives the very same bytes of two encounters
// (Received): the first difference is shown, field by field.
func RequireSameReceived(t testing.TB, reg *engine.Registry, a, b []*encounterv1.Event, v engine.Viewer) {
	t.Helper()
	ra, rb := Received(t, reg, a, v), Received(t, reg, b, v)
	require.Equal(t, len(ra), len(rb), "as many events")
	if !v.SeesAll {
		for _, m := range append(slices.Clone(ra), rb...) {
			require.Empty(t, DicePositions(m), "a reader who does not see everything gets no dice position")
		}
	}
	for i := range ra {
		ba, bb := marshal(t, ra[i]), marshal(t, rb[i])
		if !bytes.Equal(ba, bb) {
			what := "event"
			if i%2 == 1 {
				what = "state after event"
			}
			require.Equal(t, prototext.Format(ra[i]), prototext.Format(rb[i]), "a reader tells the two encounters apart by %s %d", what, i/2+1)
			require.Failf(t, "a reader tells the two encounters apart", "%s %d differs in its bytes (%d and %d)", what, i/2+1, len(ba), len(bb))
		}
	}
}

// RequireDifferentReceived checks that a reader tells two encounters apart (Received): the
// GM does when they differ.
func RequireDifferentReceived(t testing.TB, reg *engine.Registry, a, b []*encounterv1.Event, v engine.Viewer) {
	t.Helper()
	ra, rb := Received(t, reg, a, v), Received(t, reg, b, v)
	if len(ra) != len(rb) {
		return
	}
	for i := range ra {
		if !bytes.Equal(marshal(t, ra[i]), marshal(t, rb[i])) {
			return
		}
	}
	require.Fail(t, "the reader receives the same bytes of both encounters")
}

func marshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	require.NoError(t, err)
	return b
}

// dicePositionFields are the fields that place something in the dice stream.
var dicePositionFields = map[protoreflect.FullName]bool{
	"fray.dice.v1.Roll.offset": true, "fray.dice.v1.Roll.draws": true,
	"fray.encounter.v1.EncounterState.dice_offset": true, "fray.encounter.v1.EncounterState.dice_high_water": true,
	"fray.encounter.v1.EncounterRewound.dice_offset": true,
}

// DicePositions lists, by path, every position in the dice stream m holds (a roll's offset or
// draws, a state's dice offset or high-water mark, a rewind's dice offset): none in what a
// reader who does not see everything receives (engine.View).
func DicePositions(m proto.Message) []string {
	var out []string
	WalkInts(m, func(path string, fd protoreflect.FieldDescriptor, v int64) {
		if dicePositionFields[fd.FullName()] {
			out = append(out, fmt.Sprintf("%s = %d", path, v))
		}
	})
	return out
}
