package enginetest

import (
	"encoding/hex"
	"maps"
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// GoldenLog is a fight played under one released version of a rule system, as stored in
// rules/systems/testdata/golden: its events, one of every kind the system has, and the hash
// of the state they folded to when it was recorded.
type GoldenLog struct {
	Log  []*encounterv1.Event
	Hash []byte
}

// Conformance checks that sys, one version of a rule system, keeps the engine's contract,
// on golden, a fight played under that version. Each check is a subtest:
//
//   - golden: the log folds to the recorded hash and passes the audit (every roll re-derived,
//     every command decided again), every event is stamped with sys's id and version, and
//     the log holds every kind of event of the system and the common ones;
//   - replays: each state of the fight, marshalled and read back as a snapshot is, holds
//     everything the fold needs: the next event folded into it gives the very next state;
//   - dice end: sys's DiceEnd finds every roll the engine's walk finds, in every kind of its
//     events (CheckDiceEnd), and the kinds it checks with rolls are those the fight rolls in;
//   - legal: in every state of the fight, what every combatant may do is taken by the rules
//     (CheckLegal);
//   - hidden: each combatant hidden in turn, no word of its sheet reaches the readers of the
//     other combatants, in any event or state; no reader but the GM gets a dice position;
//     the GM reads every event as recorded;
//   - open view: with nothing secret, sys's RedactState and RedactEvent change nothing, so
//     the view of a reader from whom nothing is hidden (ViewShared's shares most of the
//     state) is the state with its appearances and who still stands, without a live
//     encounter's seed and, but for the GM, without dice positions, and leaves the state as
//     it is; so is an event;
//   - standing: in every state of the fight, who is out (Out) is what the table sees
//     (Appearance out of the fight), every reader's view says the same sides standing and
//     fight over, which the fold never records, and the narration says the fight is over at
//     the events that end it, and only there (CheckStanding).
//
// A system registered in rules/systems is checked so with no other file edited: its golden
// log is all it needs.
func Conformance(t *testing.T, sys engine.System, golden GoldenLog) {
	t.Helper()
	reg := engine.NewRegistry(sys)
	require.NotEmpty(t, golden.Log, "the golden log of %s v%d holds no event", sys.ID(), sys.Version())
	states := foldEach(t, reg, golden.Log)
	t.Run("golden", func(t *testing.T) { CheckGoldenLog(t, reg, sys, golden) })
	t.Run("replays", func(t *testing.T) { checkSnapshots(t, reg, golden.Log, states) })
	t.Run("dice end", func(t *testing.T) { checkDiceEndOn(t, sys, golden.Log) })
	t.Run("legal", func(t *testing.T) {
		keys := map[string]int{}
		for _, st := range states {
			for k, n := range CheckLegal(t, reg, st) {
				keys[k] += n
			}
		}
		t.Logf("commands taken by key %v", keys)
		require.NotEmpty(t, keys, "a golden fight offers its combatants something to do")
	})
	t.Run("hidden", func(t *testing.T) { checkHidden(t, reg, golden.Log, states) })
	t.Run("open view", func(t *testing.T) { checkOpenView(t, reg, sys, golden.Log, states) })
	t.Run("standing", func(t *testing.T) { CheckStanding(t, reg, golden.Log, states) })
}

// checkOpenView checks the views (View, ViewShared) of readers from whom nothing is hidden — the GM in each
// state of the fight, each combatant hidden in turn or none; a player of each combatant and an
// observer while nobody is hidden — against deep copies redacted with nothing secret, and the
// events as such readers get them.
func checkOpenView(t testing.TB, reg *engine.Registry, sys engine.System, log []*encounterv1.Event, states []*encounterv1.EncounterState) {
	never := func(string) bool { return false }
	gm := engine.Viewer{SeesAll: true}
	checked := 0
	check := func(st *encounterv1.EncounterState, v engine.Viewer) {
		want := proto.CloneOf(st)
		sys.RedactState(want, never)
		require.True(t, proto.Equal(st, want), "with nothing secret, RedactState changes nothing of the state at sequence %d", st.GetSequence())
		if want.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
			want.Seed = nil
		}
		for _, c := range want.GetCombatants() {
			c.Appearance = sys.Appearance(st, c.GetId())
		}
		if !v.SeesAll {
			engine.WithholdDicePositions(want)
		}
		standing := reg.Standing(st)
		want.SidesStanding, want.FightOver = standing.Sides, standing.Over
		was := proto.CloneOf(st)
		for _, got := range []*encounterv1.EncounterState{reg.ViewShared(st, v), reg.View(st, v)} {
			require.True(t, proto.Equal(want, got), "the view of %v of the state at sequence %d:\n%v\n%v", v, st.GetSequence(), want, got)
		}
		require.True(t, proto.Equal(was, st), "the views of %v leave the state at sequence %d as it is", v, st.GetSequence())
		checked++
	}
	players := 0 // views checked of a reader who does not see everything
	for _, st := range states {
		if st.GetRuleSystem() == "" {
			continue
		}
		check(st, gm)
		readers := []engine.Viewer{{}}
		for _, c := range st.GetCombatants() {
			check(withHidden(st, c.GetId()), gm)
			readers = append(readers, engine.Viewer{Controls: map[string]bool{c.GetId(): true}})
		}
		for _, v := range readers {
			if seesEveryone(st, v) {
				check(st, v)
				players++
			}
		}
	}
	require.Positive(t, players, "a state of the fight hides no one from some reader")
	before := &encounterv1.EncounterState{}
	observer := engine.Viewer{}
	events := 0
	for i, ev := range log {
		want := proto.CloneOf(ev)
		sys.RedactEvent(want, never)
		require.True(t, proto.Equal(ev, want), "with nothing secret, RedactEvent changes nothing of event %d", ev.GetSequence())
		if ev.GetEncounterRewound() == nil && seesEveryone(before, observer) && observer.Sees(ev.GetCombatantAdded().GetCombatant()) {
			was := proto.CloneOf(ev)
			engine.WithholdDicePositions(want)
			got := reg.ViewEvent(before, ev, engine.Viewer{})
			require.True(t, proto.Equal(want, got), "event %d as an observer reads it:\n%v\n%v", ev.GetSequence(), want, got)
			require.True(t, proto.Equal(was, ev), "event %d is left as it is", ev.GetSequence())
			events++
		}
		before = states[i]
	}
	require.Positive(t, events, "an event of the fight hides no one from an observer")
	require.Positive(t, checked)
}

// seesEveryone reports whether no combatant of st is hidden from v.
func seesEveryone(st *encounterv1.EncounterState, v engine.Viewer) bool {
	for _, c := range st.GetCombatants() {
		if !v.Sees(c) {
			return false
		}
	}
	return true
}

// foldEach folds log event by event: the state after each.
func foldEach(t testing.TB, reg *engine.Registry, log []*encounterv1.Event) []*encounterv1.EncounterState {
	t.Helper()
	st := &encounterv1.EncounterState{}
	states := make([]*encounterv1.EncounterState, len(log))
	for i, ev := range log {
		require.NoError(t, reg.Evolve(st, ev), "event %d folds", ev.GetSequence())
		states[i] = proto.CloneOf(st)
	}
	return states
}

// CheckGoldenLog checks golden, a fight played under sys, with reg (sys's, and maybe other
// versions' or systems'): it folds to the recorded hash, passes the audit, every event is
// stamped with sys's id and version, and it holds every kind of event. A change that alters
// how a recorded event folds, or what a released version decides, fails here: such a change is
// a new version of the rules (docs/versions.md).
func CheckGoldenLog(t testing.TB, reg *engine.Registry, sys engine.System, golden GoldenLog) {
	id, version := sys.ID(), sys.Version()
	st, err := reg.Fold(golden.Log)
	require.NoError(t, err, "the golden log of %s folds", id)
	require.Equal(t, hex.EncodeToString(golden.Hash), hex.EncodeToString(engine.Hash(st)),
		"the golden log of %s v%d folds to another state than when it was recorded: a change to how an event folds is a new version of the rules", id, version)
	Replays(t, reg, st, golden.Log)

	rep, err := reg.Audit(golden.Log)
	require.NoError(t, err, "the golden log of %s v%d passes the audit: a change to what a released version decides is a new version of the rules", id, version)
	require.Equal(t, len(golden.Log), rep.Events)
	require.Positive(t, rep.Rolls)

	seen := map[string]bool{}
	for _, ev := range golden.Log {
		require.Equal(t, id, ev.GetRuleSystem(), "event %d", ev.GetSequence())
		require.Equal(t, version, ev.GetRulesVersion(), "event %d: the golden log of %s v%d is played under that version", ev.GetSequence(), id, version)
		seen[KindOf(ev)] = true
	}
	var missing []string
	for _, k := range EventKinds(id) {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	require.Empty(t, missing, "the golden log of %s v%d holds every kind of event of the system at least once", id, version)
}

// checkSnapshots: a state read back from its bytes (a snapshot, a state sent to a replica)
// folds the rest of the log as the state itself does: nothing the fold needs lives outside
// the message (a Ka deck included, KA-003).
func checkSnapshots(t testing.TB, reg *engine.Registry, log []*encounterv1.Event, states []*encounterv1.EncounterState) {
	for i := range len(states) - 1 {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(states[i])
		require.NoError(t, err)
		snap := &encounterv1.EncounterState{}
		require.NoError(t, proto.Unmarshal(b, snap))
		require.NoError(t, reg.Evolve(snap, log[i+1]), "event %d folds into the snapshot of the state before it", log[i+1].GetSequence())
		require.Equal(t, engine.Hash(states[i+1]), engine.Hash(snap), "event %d folded into a snapshot: the same hash", log[i+1].GetSequence())
		require.True(t, proto.Equal(states[i+1], snap), "event %d folded into a snapshot: the same state, field by field", log[i+1].GetSequence())
	}
}

// commonPackage holds the events every rule system shares; each system's own events are one
// field of the payload, named by the system's id, a message of the system's package with a
// oneof of its kinds.
const commonPackage = "fray.encounter.v1"

// payloadOf is the payload field of encounterv1.Event holding system's own events.
func payloadOf(t testing.TB, system string) protoreflect.FieldDescriptor {
	t.Helper()
	fd := (&encounterv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("payload").Fields().ByName(protoreflect.Name(system))
	require.NotNil(t, fd, "encounterv1.Event has no payload field named %q for the system's own events", system)
	return fd
}

// EventKinds lists the kinds a golden log of system must hold: the common events and every
// event of the system's own Event oneof, by field name ("encounter_created", "loss.tour_started"…).
func EventKinds(system string) []string {
	payload := (&encounterv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("payload")
	var kinds []string
	for i := range payload.Fields().Len() {
		f := payload.Fields().Get(i)
		switch {
		case f.Message().ParentFile().Package() == commonPackage:
			kinds = append(kinds, string(f.Name()))
		case string(f.Name()) == system:
			own := f.Message().Oneofs().Get(0).Fields()
			for j := range own.Len() {
				kinds = append(kinds, system+"."+string(own.Get(j).Name()))
			}
		}
	}
	return kinds
}

// KindOf names an event's kind as EventKinds does; a plug-in's by the key of its JSON
// ("plugin.poked").
func KindOf(ev *encounterv1.Event) string {
	m := ev.ProtoReflect()
	f := m.WhichOneof(m.Descriptor().Oneofs().ByName("payload"))
	switch {
	case f == nil:
		return ""
	case f.Message().ParentFile().Package() == commonPackage:
		return string(f.Name())
	}
	if p := ev.GetPlugin(); p != nil { // a plug-in's JSON: an object of one key, its kind
		for _, k := range slices.Sorted(maps.Keys(p.GetFields())) {
			return string(f.Name()) + "." + k
		}
		return string(f.Name())
	}
	inner := m.Get(f).Message()
	if g := inner.WhichOneof(inner.Descriptor().Oneofs().Get(0)); g != nil {
		return string(f.Name()) + "." + string(g.Name())
	}
	return string(f.Name())
}

// checkDiceEnd is CheckDiceEnd for sys's own events, found by its id in the payload.
func checkDiceEndOn(t testing.TB, sys engine.System, log []*encounterv1.Event) {
	fd := payloadOf(t, sys.ID())
	event := (&encounterv1.Event{}).ProtoReflect().NewField(fd).Message().Interface()
	withRolls := diceEnd(t, sys, event, func(m proto.Message) *encounterv1.Event {
		ev := &encounterv1.Event{}
		ev.ProtoReflect().Set(fd, protoreflect.ValueOfMessage(m.ProtoReflect()))
		return ev
	})
	rolled := map[string]bool{}
	for _, ev := range log {
		if ev.ProtoReflect().Has(fd) && len(engine.Rolls(ev)) > 0 {
			rolled[KindOf(ev)] = true
		}
	}
	t.Logf("%d kinds of event with rolls: %v", len(withRolls), slices.Sorted(maps.Keys(withRolls)))
	require.NotEmpty(t, withRolls, "the walk finds rolls in %s's events", sys.ID())
	for k := range rolled {
		require.True(t, withRolls[k], "%s: the golden fight rolls in it, the walk of its every field filled finds no roll", k)
	}
}

// checkHidden hides each combatant of the fight in turn (in the state each event is read
// with: what a reader gets depends on it alone) and reads the fight as the players of all
// the others and as an observer.
func checkHidden(t testing.TB, reg *engine.Registry, log []*encounterv1.Event, states []*encounterv1.EncounterState) {
	gm := engine.Viewer{SeesAll: true}
	before := &encounterv1.EncounterState{}
	for i, ev := range log {
		seen := reg.ViewEvent(before, ev, gm)
		if ev.GetEncounterRewound() != nil {
			// The state a rewind carries is sent as a view of it, appearances filled in.
			seen.Redacted, seen.GetEncounterRewound().State = false, ev.GetEncounterRewound().GetState()
		}
		require.True(t, proto.Equal(ev, seen), "the GM reads event %d as recorded:\n%v\n%v", ev.GetSequence(), ev, seen)
		before = states[i]
	}
	final := states[len(states)-1]
	checked := 0
	for _, hidden := range final.GetCombatants() {
		words := sheetWords(t, hidden.GetId(), final, log)
		if len(words) == 0 {
			continue
		}
		checked++
		others := map[string]bool{}
		for _, c := range final.GetCombatants() {
			others[c.GetId()] = c.GetId() != hidden.GetId()
		}
		secrets := Secrets{Words: words}
		for _, v := range []engine.Viewer{{Controls: others}, {}} {
			before := &encounterv1.EncounterState{}
			for i, ev := range log {
				seen := reg.ViewEvent(withHidden(before, hidden.GetId()), withHidden(ev, hidden.GetId()), v)
				require.Empty(t, Leaks(t, seen, secrets), "%s hidden: event %d as read by %v: %v", hidden.GetId(), ev.GetSequence(), v.Controls, seen)
				require.Empty(t, DicePositions(seen), "event %d as read by %v", ev.GetSequence(), v.Controls)
				view := reg.View(withHidden(states[i], hidden.GetId()), v)
				require.Empty(t, Leaks(t, view, secrets), "%s hidden: the state after event %d as read by %v", hidden.GetId(), ev.GetSequence(), v.Controls)
				require.Empty(t, DicePositions(view), "the state after event %d as read by %v", ev.GetSequence(), v.Controls)
				before = states[i]
			}
		}
		t.Logf("%s hidden: none of %q reaches another reader", hidden.GetId(), words)
	}
	require.Positive(t, checked, "a combatant of the golden fight has words of its own on its sheet")
}

// withHidden is m (a state, an event) with combatant id hidden by the GM wherever m holds it:
// in a state, in the combatant an event adds, in the state a rewind goes back to.
func withHidden[M proto.Message](m M, id string) M {
	m = proto.CloneOf(m)
	var hide func(protoreflect.Message)
	hide = func(m protoreflect.Message) {
		if c, ok := m.Interface().(*encounterv1.Combatant); ok && c.GetId() == id {
			c.Hidden = true
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Message() == nil || fd.IsMap():
			case fd.IsList():
				for i := range v.List().Len() {
					hide(v.List().Get(i).Message())
				}
			default:
				hide(v.Message())
			}
			return true
		})
	}
	hide(m.ProtoReflect())
	return m
}

// sheetWords are the words of combatant id's sheet no one else could know: its strings (of
// four letters or more: a shorter one is in too many messages' bytes) that are within no
// string of another combatant's sheet, of a command given for another combatant, nor within
// the id or name of a combatant.
func sheetWords(t testing.TB, id string, st *encounterv1.EncounterState, log []*encounterv1.Event) []string {
	t.Helper()
	words := map[string]bool{}
	public := map[string]bool{}
	for _, c := range st.GetCombatants() {
		public[c.GetId()], public[c.GetName()] = true, true
		sheet := c.ProtoReflect().WhichOneof(c.ProtoReflect().Descriptor().Oneofs().ByName("sheet"))
		if sheet == nil {
			continue
		}
		walkStrings(c.ProtoReflect().Get(sheet).Message(), func(s string) {
			if c.GetId() == id {
				words[s] = true
			} else {
				public[s] = true
			}
		})
	}
	var out []string
	for w := range words {
		if len([]rune(w)) >= 4 && !inAny(w, public) && !inCommandOfAnother(t, w, id, log) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// inAny reports whether word is within one of the strings of set (a word is searched in
// bytes: "arc" is in "archere").
func inAny(word string, set map[string]bool) bool {
	for s := range set {
		if strings.Contains(s, word) {
			return true
		}
	}
	return false
}

// inCommandOfAnother reports whether word is in a command of log given for another
// combatant than id, or for none (the GM's commands on the table): who typed it knows it.
func inCommandOfAnother(t testing.TB, word, id string, log []*encounterv1.Event) bool {
	t.Helper()
	for _, ev := range log {
		cmd := ev.GetCommand()
		if cmd == nil || commandCombatant(cmd) == id {
			continue
		}
		found := false
		walkStrings(cmd.ProtoReflect(), func(s string) { found = found || strings.Contains(s, word) })
		if found {
			return true
		}
	}
	return false
}

// commandCombatant is the combatant a command is given for: the combatant_id of its system's
// action or of a common command, "" when it has none.
func commandCombatant(cmd *encounterv1.Command) string {
	m := cmd.ProtoReflect()
	kind := m.WhichOneof(m.Descriptor().Oneofs().ByName("kind"))
	if kind == nil || kind.Message() == nil {
		return ""
	}
	inner := m.Get(kind).Message()
	if fd := inner.Descriptor().Fields().ByName("combatant_id"); fd != nil && fd.Kind() == protoreflect.StringKind {
		return inner.Get(fd).String()
	}
	if fd := inner.Descriptor().Fields().ByName("combatant"); fd != nil && fd.Message() != nil {
		c := inner.Get(fd).Message()
		return c.Get(c.Descriptor().Fields().ByName("id")).String()
	}
	return ""
}

// walkStrings calls visit with every string set in m and in the messages within it: values,
// list elements, map keys and values.
func walkStrings(m protoreflect.Message, visit func(string)) {
	one := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch fd.Kind() {
		case protoreflect.MessageKind, protoreflect.GroupKind:
			walkStrings(v.Message(), visit)
		case protoreflect.StringKind:
			visit(v.String())
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			for i := range v.List().Len() {
				one(fd, v.List().Get(i))
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapKey().Kind() == protoreflect.StringKind {
					visit(k.String())
				}
				one(fd.MapValue(), mv)
				return true
			})
		default:
			one(fd, v)
		}
		return true
	})
}
