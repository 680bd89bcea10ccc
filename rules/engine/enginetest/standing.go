package enginetest

import (
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// CheckStanding checks, on log and the states after each of its events (states), what the
// engine says of who still stands (engine.Registry.Standing over the system's Out): a
// combatant is out exactly when the table sees it out of the fight; the GM's view and a
// stranger's say the same sides standing and whether the fight is over, as counted here from
// the appearances; the fold never records either; the narration of an event, in English and
// French, says the fight is over exactly when it ends it. It returns how many states had the
// fight over.
func CheckStanding(t testing.TB, reg *engine.Registry, log []*encounterv1.Event, states []*encounterv1.EncounterState) int {
	t.Helper()
	sys, err := reg.Lookup(states[len(states)-1].GetRuleSystem(), states[len(states)-1].GetRulesVersion())
	require.NoError(t, err)
	en, fr := reg.Narrator(narrate.English), reg.Narrator(narrate.French)
	over, outs := 0, 0
	before := &encounterv1.EncounterState{}
	for i, st := range states {
		require.Empty(t, st.GetSidesStanding(), "event %d: sides_standing is filled in reads, never folded", log[i].GetSequence())
		require.False(t, st.GetFightOver(), "event %d: fight_over is filled in reads, never folded", log[i].GetSequence())
		gm, stranger := reg.View(st, engine.Viewer{SeesAll: true}), reg.View(st, engine.Viewer{})
		var sides, standing []string
		for _, c := range gm.GetCombatants() {
			out := sys.Out(st, c.GetId())
			if out {
				outs++
			}
			require.Equal(t, out, c.GetAppearance() == encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT,
				"event %d: %s is out (%v) exactly when the table sees it out of the fight (%v)", log[i].GetSequence(), c.GetId(), out, c.GetAppearance())
			if !slices.Contains(sides, c.GetSide()) {
				sides = append(sides, c.GetSide())
			}
			if !out && !slices.Contains(standing, c.GetSide()) {
				standing = append(standing, c.GetSide())
			}
		}
		ended := st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE && len(sides) >= 2 && len(standing) <= 1
		for _, v := range []*encounterv1.EncounterState{gm, stranger} {
			require.Equal(t, standing, v.GetSidesStanding(), "event %d: the sides standing", log[i].GetSequence())
			require.Equal(t, ended, v.GetFightOver(), "event %d: the fight over", log[i].GetSequence())
		}
		if ended {
			over++
		}
		ev := log[i]
		wasOver := reg.Standing(before).Over
		for _, n := range []*narrate.Narrator{en, fr} {
			line := n.Narrate(ev) + reg.OverLine(n, wasOver, st)
			says := strings.Contains(line, "the fight is over") || strings.Contains(line, "le combat est fini")
			require.Equal(t, ended && !wasOver, says, "event %d narrated %q: says the fight is over only at the event that ends it", ev.GetSequence(), line)
		}
		before = st
	}
	t.Logf("%d states, %d of them with the fight over; %d combatants out counted over them", len(states), over, outs)
	return over
}

// OutCase is one way a rule system's rules take a combatant out of the fight: Rule is the
// rule's ID, Take changes a state as the rule leaves combatant id.
type OutCase struct {
	Rule string
	Take func(st *encounterv1.EncounterState, id string)
}

// CheckOut checks each case on a copy of st, a started fight in which loser is the last of
// its side standing and winner's side stands: taken out by the case's rule, loser is out, the
// table sees it out of the fight, only winner's side still stands, the fight is over (in
// every reader's view), and the narration says so in English and French.
func CheckOut(t *testing.T, reg *engine.Registry, st *encounterv1.EncounterState, loser, winner string, cases ...OutCase) {
	t.Helper()
	sys, err := reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
	require.NoError(t, err)
	side := engine.FindCombatant(st, winner).GetSide()
	require.False(t, reg.Standing(st).Over, "the fight is not over before the cases")
	require.False(t, sys.Out(st, loser))
	for _, c := range cases {
		t.Run(c.Rule, func(t *testing.T) {
			after := proto.CloneOf(st)
			c.Take(after, loser)
			require.True(t, sys.Out(after, loser), "%s takes %s out of the fight", c.Rule, loser)
			require.False(t, sys.Out(after, winner))
			for _, v := range []engine.Viewer{{SeesAll: true}, {}} {
				view := reg.View(after, v)
				require.True(t, view.GetFightOver())
				require.Equal(t, []string{side}, view.GetSidesStanding())
				require.Equal(t, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT, engine.FindCombatant(view, loser).GetAppearance())
			}
			require.Equal(t, "; the fight is over: only side "+side+" still stands", reg.OverLine(reg.Narrator(narrate.English), reg.Standing(st).Over, after))
			require.Equal(t, " ; le combat est fini : seul le camp "+side+" tient encore debout", reg.OverLine(reg.Narrator(narrate.French), reg.Standing(st).Over, after))
			require.Empty(t, reg.OverLine(reg.Narrator(narrate.English), reg.Standing(after).Over, after), "only the event that ends the fight says so")
		})
	}
}
