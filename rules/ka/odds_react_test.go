package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The odds of the dog's answer to Joshua's declared shot — take it, dodge — are those of the
// shot's own odds for that answer (the cards are drawn once it is answered, KA-020), which
// TestKaOddsAgreeWithDecide checks against the real Decide and TestKaOddsByHand by hand: taken,
// a failure on a face card then nothing better, 16/56 (issue 28, item 5).
func TestKaReactOddsAreTheShotsForThatAnswer(t *testing.T) {
	st := kaFight(t, nil, 2)
	shot := kaShot("pistolet", -2, false)
	before, err := odds.Of(oddstest.Reg, st, shot, "david")
	require.NoError(t, err)
	declared := oddstest.Apply(t, st, "david", shot, dice.NewFixed())
	require.NotNil(t, declared.GetKa().GetPending(), "the shot waits for the dog's answer")
	for _, c := range []struct {
		name   string
		react  *kav1.React
		key    string
		before string
	}{
		{"take it", &kav1.React{}, "none", "none"},
		{"dodge", &kav1.React{Defend: true}, "defended", "defended"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "chien", Kind: &kav1.Action_React{React: c.react}}}}
			o, err := odds.Of(oddstest.Reg, declared, cmd, oddstest.GM)
			require.NoError(t, err)
			require.Len(t, o.GetSections(), 1)
			got, want := proto.CloneOf(oddstest.Section(t, o, c.key)), proto.CloneOf(oddstest.Section(t, before, c.before))
			require.Equal(t, "miss", got.GetChances()[0].GetKey(), "the defender's success first: the attack fails")
			require.InDelta(t, oddstest.ChanceOf(t, want, "level.0"), got.GetChances()[0].GetProbability(), 1e-15)
			got.Title, want.Title, got.Chances = "", "", got.Chances[1:]
			require.True(t, proto.Equal(want, got), "the answer's odds are the shot's for it:\n%v\n%v", want, got)
			if c.key == "none" {
				require.InDelta(t, 16.0/56, oddstest.ChanceOf(t, got, "level.0"), 1e-12)
			}
		})
	}
	// Attacking back is an attack of its own: no odds here.
	back := &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "chien", Kind: &kav1.Action_React{React: &kav1.React{AttackBack: true}}}}}
	_, err = odds.Of(oddstest.Reg, declared, back, oddstest.GM)
	require.ErrorContains(t, err, "odds are computed for: attack, dodge, parry, take it, disarm, terror")
}
