package feerie_test

// Edges of resolving an activity: each test kills a mutant that lived in a mutation run of
// this package (a sign flipped, a comparison moved by one), with the numbers at the edge.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// FEE-159, FEE-180: the Lutin (T−2) enters the Ogre's (T+2) guard (−12 + 2 + 2 = −8), with no
// keep-at-bay to cancel: the Ogre then has −8 on its attacks on the Lutin.
func TestEdgeEnterTheGuardWeighsOnTheTarget(t *testing.T) {
	f := vaNew(t, nil, vaOgre(), vaLutin())
	f.declare("ogre", vaPassive())
	f.declare("lutin", vaMelee("ogre", vaAtt("épée"), vaEnterGuard), 1, 20, 20, 1)
	f.act("lutin", nil)
	r := f.advance(0, 20, 1)[0]
	require.Equal(t, []int32{16 + 3 - 8 + 19, 14 - 2}, []int32{r.GetAttack().GetTotal(), r.GetDefense()})
	c := vaCondition(t, f.cs("ogre").GetConditions(), vaEnterGuard)
	require.Equal(t, []any{"lutin", int32(8)}, []any{c.GetBy(), c.GetMalus()})

	f.nextAction()
	f.declare("ogre", vaMelee("lutin", vaAtt("massue")))
	f.declare("lutin", vaPassive(), 20, 1, 1, 20)
	f.act("ogre", nil)
	r = f.advance(0, 10, 10)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "inside its guard", "FEE-159", -8)
	require.Equal(t, int32(14+2-8), r.GetAttack().GetTotal())
}

// FEE-110: aiming at the exposed part of a defender behind cover takes the malus given, as a
// malus whatever its sign: 4 or −4, the Attack has −4.
func TestEdgeExposedPartIsAMalus(t *testing.T) {
	for _, m := range []int32{4, -4} {
		_, r := vaDuel(t, nil, vaLutin(), vaKobold(), vaRanged("kobold", vaAtt("fronde")), nil,
			&feeriev1.Act{Circumstances: &feeriev1.Circumstances{ExposedMalus: m}}, 10, 10)
		vaRequireMod(t, r.GetAttack().GetModifiers(), "exposed part", "FEE-110", -4)
		require.Equal(t, int32(14+2-4), r.GetAttack().GetTotal(), "exposed malus %d", m)
	}
}

// FEE-152, FEE-002: freeing oneself is a Puissance roll against the striker's Puissance; its
// margin is the total less that: 8 − 2 + 12 = 18 against 16, margin 2.
func TestEdgeFreeingMargin(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	f.declare("lutin", &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_FREE})
	f.declare("kobold", vaMelee("lutin", nil, vaEntangle), 10, 10, 20, 1)
	f.act("kobold", nil)
	f.advance(14, 18, 2)
	f.act("lutin", nil)
	r := f.advance(0, 15, 3)[0]
	require.Equal(t, []int32{18, 16, 2}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin()})
	require.True(t, r.GetSuccess())
}

// FEE-001, FEE-002: another activity's margin is its total less the difficulty: Charme 10 + 3
// against 15, margin −2, a failure.
func TestEdgeOtherActivityMargin(t *testing.T) {
	f := sqNew(t, sqPlain("a", "Aude", 10), sqPlain("b", "Brun", 10))
	f.declare([]sqD{{"a", sqOther("charme", 15)}, {"b", sqPassive()}}, 0, -20)
	f.act("a", nil)
	r := f.advance(0, 3)[0]
	require.Equal(t, []int32{13, 15, -2}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin()})
	require.False(t, r.GetSuccess())
}

// FEE-023, FEE-050: the Damage roll on an object carries the anticipation: the Lutin, after
// the Ogre acted at 22, anticipates 8 ranks on the door: Damage 6 − 8 + 10 = 8.
func TestEdgeObjectRollCarriesTheAnticipation(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	f := vaNew(t, nil, vaOgre(), vaLutin(), door)
	f.declare("ogre", vaPassive())
	f.declare("lutin", vaMelee("porte", vaAtt("épée")), 15, 5, 8, 8)
	require.Equal(t, []int32{22, 14}, []int32{f.rank(), f.cs("lutin").GetInitiative()})
	f.act("ogre", nil)
	require.Equal(t, int32(8), f.act("lutin", nil).GetAnticipation())
	r := f.advance(0, 15, 5)[0] // Vigilance 14 before 12
	require.Equal(t, "lutin", r.GetCombatantId())
	vaRequireMod(t, r.GetAttack().GetModifiers(), "anticipation, further activity, change of intention", "FEE-050", -8)
	require.Equal(t, []int32{6 - 8, 6 - 8 + 10}, []int32{r.GetAttack().GetScore(), r.GetAttack().GetTotal()})
	require.True(t, r.GetSuccess())
	require.Zero(t, r.GetEssenceLost(), "8 − 10")
}

// FEE-023, FEE-062, FEE-073: the Damage roll on an object carries the last Action's penalties:
// the Lutin changed intention in Action 1 (−4 on Action 2): Damage 6 − 4 + 10 = 12.
func TestEdgeObjectRollCarriesTheLastActionsPenalties(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	f := vaNew(t, nil, vaLutin(), door)
	f.declare("lutin", vaPassive(), 20, 1)
	q := f.act("lutin", &feeriev1.Act{Intent: vaMelee("porte", vaAtt("épée"))})
	require.True(t, q.GetChangeOfIntention())
	f.advance(0, 10, 10)
	f.nextAction()
	require.Equal(t, int32(4), f.cs("lutin").GetThisAction())
	f.declare("lutin", vaMelee("porte", vaAtt("épée")), 20, 1)
	f.act("lutin", nil)
	r := f.advance(0, 15, 5)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "penalties of the last Action", "FEE-062", -4)
	require.Equal(t, int32(6-4+10), r.GetAttack().GetTotal())
}

// FEE-023: a Damage roll on an object of exactly 0 is no incident: 6 + 4 − 10 = 0 succeeds and
// does not fumble; it takes nothing through Soak 10.
func TestEdgeObjectRollOfZero(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	_, r := vaDuel(t, nil, vaLutin(), door, vaMelee("porte", vaAtt("épée")), nil, nil, 4, 10)
	require.Equal(t, int32(0), r.GetAttack().GetTotal())
	require.True(t, r.GetSuccess())
	require.False(t, r.GetFumble())
	require.Zero(t, r.GetEssenceLost())
}

// Appearance: badly wounded at half its Essence or less: the Lutin (Essence 20) at 10 is
// badly wounded, at 11 wounded.
func TestEdgeAppearanceAtExactlyHalf(t *testing.T) {
	for _, c := range []struct {
		essence int32
		want    encounterv1.Appearance
	}{{10, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED}, {11, encounterv1.Appearance_APPEARANCE_WOUNDED}} {
		st := &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{vaLutin()},
			System: &encounterv1.EncounterState_Feerie{Feerie: &feeriev1.State{Combatants: map[string]*feeriev1.CombatantState{"lutin": {Essence: c.essence}}}}}
		require.Equal(t, c.want, feerie.New(1).Appearance(st, "lutin"), "Essence %d of 20", c.essence)
	}
}
