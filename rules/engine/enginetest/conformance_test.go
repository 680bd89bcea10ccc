package enginetest

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// Conformance's checks are run for every system by rules/systems (TestEverySystemConforms),
// where each passes; here each is shown to fail on a system that breaks the contract, a Loss
// v1 with one part undone, played on its golden log.

// leaky is Loss v1 removing nothing from events: a hidden combatant's weapon is in the
// attacks it makes.
type leaky struct{ loss.System }

func (leaky) RedactEvent(*encounterv1.Event, func(string) bool) {}

// noDiceEnd is Loss v1 finding no roll in its events.
type noDiceEnd struct{ loss.System }

func (noDiceEnd) DiceEnd(ev *encounterv1.Event) (uint64, bool) { return 0, ev.GetLoss() != nil }

func lossGolden(t *testing.T) GoldenLog {
	t.Helper()
	base := filepath.Join("..", "..", "systems", "testdata", "golden", "loss-v1")
	sum, err := os.ReadFile(base + ".sha256")
	require.NoError(t, err)
	hash, err := hex.DecodeString(strings.TrimSpace(string(sum)))
	require.NoError(t, err)
	return GoldenLog{Log: ReadLog(t, base+".jsonl"), Hash: hash}
}

// failing is a testing.TB that records a failure instead of failing the test; FailNow ends
// the check's goroutine, as testing does.
type failing struct {
	testing.TB
	failures []string
}

func (f *failing) Helper() {}
func (f *failing) Errorf(format string, args ...any) {
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
}
func (f *failing) FailNow()                          { runtime.Goexit() }
func (f *failing) Fatalf(format string, args ...any) { f.Errorf(format, args...); f.FailNow() }

// failures runs check and returns what it failed on (nothing: it passed).
func failures(t *testing.T, check func(testing.TB)) []string {
	f := &failing{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(f)
	}()
	<-done
	return f.failures
}

func TestConformanceChecksFailOnABrokenSystem(t *testing.T) {
	golden := lossGolden(t)
	for _, c := range []struct {
		name  string
		sys   engine.System
		check func(testing.TB, engine.System, *engine.Registry, []*encounterv1.EncounterState)
		want  string
	}{
		{"hidden: a weapon in an event", leaky{loss.New(1)}, func(t testing.TB, _ engine.System, reg *engine.Registry, states []*encounterv1.EncounterState) {
			checkHidden(t, reg, golden.Log, states)
		}, `the word "sabre"`},
		{"dice end: no roll found", noDiceEnd{loss.New(1)}, func(t testing.TB, sys engine.System, _ *engine.Registry, _ []*encounterv1.EncounterState) {
			checkDiceEndOn(t, sys, golden.Log)
		}, "Not equal"},
		{"golden: another hash", loss.New(1), func(t testing.TB, sys engine.System, reg *engine.Registry, _ []*encounterv1.EncounterState) {
			other := golden
			other.Hash = append([]byte{golden.Hash[0] ^ 1}, golden.Hash[1:]...)
			CheckGoldenLog(t, reg, sys, other)
		}, "folds to another state than when it was recorded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := engine.NewRegistry(c.sys)
			states := foldEach(t, reg, golden.Log)
			got := failures(t, func(tb testing.TB) { c.check(tb, c.sys, reg, states) })
			require.NotEmpty(t, got, "the check fails")
			require.Contains(t, got[0], c.want)
			_, msg, _ := strings.Cut(got[0], "Error:")
			t.Logf("fails: %.300s", strings.Join(strings.Fields(msg), " "))
		})
	}
	// The sound Loss v1 passes each.
	reg := engine.NewRegistry(loss.New(1))
	states := foldEach(t, reg, golden.Log)
	require.Empty(t, failures(t, func(tb testing.TB) {
		checkHidden(tb, reg, golden.Log, states)
		checkDiceEndOn(tb, loss.New(1), golden.Log)
		CheckGoldenLog(tb, reg, loss.New(1), golden)
		checkSnapshots(tb, reg, golden.Log, states)
	}))
}

// A combatant hidden wherever a state or an event holds it: in the state's combatants, in the
// combatant an event adds and in the command that added it.
func TestWithHidden(t *testing.T) {
	add := &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: &encounterv1.Combatant{Id: "ogre"}}}}
	ev := &encounterv1.Event{Command: add, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: &encounterv1.Combatant{Id: "ogre"}}}}
	got := withHidden(ev, "ogre")
	require.True(t, got.GetCommand().GetAddCombatant().GetCombatant().GetHidden())
	require.True(t, got.GetCombatantAdded().GetCombatant().GetHidden())
	require.False(t, ev.GetCombatantAdded().GetCombatant().GetHidden(), "a copy: the recorded event is not changed")
	st := &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{{Id: "ogre"}, {Id: "diego"}}}
	hid := withHidden(st, "ogre")
	require.Equal(t, []bool{true, false}, []bool{hid.GetCombatants()[0].GetHidden(), hid.GetCombatants()[1].GetHidden()})
	require.Equal(t, "ogre", commandCombatant(add))
}
