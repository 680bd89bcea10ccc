package feerie_test

// The rules a second reading of the seed corrected (issue 10): each test checks the number the
// engine got wrong before.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func vaHelplessCmd(id string, clear bool, reason string) *encounterv1.Command {
	return vaCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: clear, Reason: reason}}})
}

// FEE-022, FEE-082: a sleeper under a surprise that forbids all activity is helpless only once
// the GM rules it so; then every attack meets Defense 0 (it was 18 − 4 − 6 = 8), not only one
// whose attacker says it is undefended. It cannot act, needs not declare, rolls no Initiative,
// and is on its guard again once the GM clears the ruling.
func TestVaHelplessByRuling_FEE022(t *testing.T) {
	lutin := vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.Essence = 40 })
	lutin.Controller = "rita"
	f := vaNew(t, nil, vaOgre(), lutin)
	f.do(vaGM, vaCmd("lutin", &feeriev1.Action{Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 1, NoActivity: true}}}))
	f.refuse("rita", vaHelplessCmd("lutin", false, "endormi"), engine.CodePermission, "", "GM")
	f.refuse(vaGM, vaHelplessCmd("lutin", true, ""), engine.CodePrecondition, "FEE-022", "Lutin", "not helpless")
	evs := f.do(vaGM, vaHelplessCmd("lutin", false, "endormi"))
	require.True(t, proto.Equal(&feeriev1.HelplessRuled{CombatantId: "lutin", Helpless: true, Reason: "endormi"}, evs[0].GetHelplessRuled()))
	require.True(t, f.cs("lutin").GetHelpless())
	f.refuse(vaGM, vaHelplessCmd("lutin", false, "endormi"), engine.CodePrecondition, "FEE-022", "Lutin", "already helpless (endormi)")
	legal, err := f.Reg.Legal(f.St, "lutin")
	require.NoError(t, err)
	require.Empty(t, legal)
	f.refuse(vaGM, vaDeclareCmd("lutin", vaPassive()), engine.CodePrecondition, "FEE-022", "Lutin", "endormi")

	cd := vaCountdown(t, f.declare("ogre", vaMelee("lutin", vaAtt("massue")), 10, 10))
	require.Len(t, cd.GetInitiative(), 1, "the sleeper rolls no Initiative")
	f.refuse(vaGM, vaActCmd("lutin", nil), engine.CodePrecondition, "FEE-022", "Lutin")
	f.act("ogre", nil)
	r := f.advance(0, 10, 10)[0]
	require.Zero(t, r.GetDefense(), "was 8: H 16 − T −2, surprised −4, four angles −6")
	require.Equal(t, int32(16), r.GetMargin(), "the whole Attack total")
	require.Equal(t, int32(8+22-8), r.GetEssenceLost())

	f.nextAction()
	f.do(vaGM, vaHelplessCmd("lutin", true, ""))
	require.False(t, f.cs("lutin").GetHelpless())
	require.Empty(t, f.cs("lutin").GetHelplessReason())
	f.declare("lutin", vaPassive())
	f.declare("ogre", vaMelee("lutin", vaAtt("massue")), 20, 1, 10, 10) // Ogre 31, Lutin 14
	f.act("ogre", nil)
	r = f.advance(0, 10, 10)[0]
	require.Equal(t, int32(18-6), r.GetDefense(), "awake and on guard; the Ogre fills four of its angles (FEE-096)")

	// An object has no Defense to lose; at 0 Essence one is helpless by the rules already.
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	g := vaNew(t, nil, vaOgre(), door, vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.Essence = 0 }))
	g.refuse(vaGM, vaHelplessCmd("porte", false, ""), engine.CodeInvalid, "FEE-023", "Porte")
	g.refuse(vaGM, vaHelplessCmd("lutin", false, ""), engine.CodePrecondition, "FEE-022", "Lutin", "0 Essence")
	f.replays()
}

// FEE-022: a defender ruled helpless while its activity waits at the rank loses it, and the
// attack resolved after meets Defense 0.
func TestVaHelplessMidAction_FEE022(t *testing.T) {
	f := vaNew(t, nil, vaOgre(), vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.Essence = 40 }))
	f.declare("lutin", vaMelee("ogre", vaAtt("épée")))
	f.declare("ogre", vaMelee("lutin", vaAtt("massue")), 10, 10, 10, 10) // Lutin 14, Ogre 12
	f.act("lutin", nil)
	f.do(vaGM, vaHelplessCmd("lutin", false, "paralysé par un sortilège"))
	require.Empty(t, f.St.GetFeerie().GetQueue())
	require.Empty(t, f.advance(12), "nothing left to resolve")
	f.act("ogre", nil)
	r := f.advance(0, 10, 10)[0]
	require.Zero(t, r.GetDefense())
	f.replays()
}

// FEE-081: one dissimulation roll per attacker and victim per Action: a failure stands until
// the next Action (a second roll against the same victim was allowed); against another victim
// the attacker rolls anew.
func TestSqOneDissimulationRollPerVictim_FEE081(t *testing.T) {
	f := sqNew(t, sqPlain("a", "Aspic", 12, sqAttr("discrétion", feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, 3, false)),
		sqPlain("v", "Violette", 12), sqPlain("w", "Walter", 8))
	ur := sqFind(t, f.do(sqUnseen("a", "v", "habilete", "discrétion"), sqFaces(-5)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, int32(-4), ur.GetMargin())
	f.refuse(sqUnseen("a", "v", "habilete", "discrétion"), engine.CodePrecondition, "FEE-081", "Aspic", "Violette", "stands until the next Action")
	require.Equal(t, []string{"v"}, f.cs("a").GetUnseenVictims())
	ur = sqFind(t, f.do(sqUnseen("a", "w", "habilete", "discrétion"), sqFaces(4)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, []int32{17, 8, 9, 4}, []int32{ur.GetRoll().GetTotal(), ur.GetVigilance(), ur.GetMargin(), ur.GetInitiativeBonus()})
	f.refuse(sqUnseen("a", "w", "habilete"), engine.CodePrecondition, "FEE-081", "Aspic", "Walter")
	cs := f.declare([]sqD{{"a", sqMelee("w")}, {"v", sqPassive()}, {"w", sqPassive()}}, 0, 0, 0)
	require.Equal(t, int32(12+4), sqInit(t, cs, "a").GetResult().GetTotal())

	f.nextAction() // a new Action: a new roll
	require.Empty(t, f.cs("a").GetUnseenVictims())
	ur = sqFind(t, f.do(sqUnseen("a", "v", "habilete", "discrétion"), sqFaces(1)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, int32(1), ur.GetInitiativeBonus())
	f.replays()
}

// FEE-074, FEE-071: a further activity that is also a change of tactic moves its rank by the new
// tactic's Initiative modifier instead of the old one's: the Héron (tactic Initiative −2) acts
// at 17; its bolt with a tactic of Initiative +2 comes at 17 − 8 + 2 + 2 = 13, not 9, so acting
// at 13 anticipates nothing (it was −4 more); the same when the change is declared first.
func TestSqFurtherActivityMovedByTheNewTactic_FEE074(t *testing.T) {
	heron := func() *encounterv1.Combatant {
		return sqFae("h", "Héron", 16, 14, 10, 10, 40, sqAffinity("épée", 2),
			sqAttr("éclair", feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, 2, true))
	}
	bolt := func() *feeriev1.Intent { return sqTactic(sqRanged("f", "éclair"), 2, -2, 0) }
	start := func(t *testing.T) *sqFight {
		f := sqNew(t, heron(), sqFae("f", "Farfadet", 12, 10, 10, 10, 40))
		cs := f.declare([]sqD{{"h", sqTactic(sqMelee("f", "épée"), -2, 2, 0)}, {"f", sqPassive()}}, 3, -3)
		require.Equal(t, int32(17), sqInit(t, cs, "h").GetResult().GetTotal())
		f.act("h", nil)
		f.advance(13, 0)
		require.Equal(t, int32(-2), f.cs("h").GetLastTacticInitiative())
		return f
	}

	t.Run("in the act", func(t *testing.T) {
		f := start(t)
		q := f.act("h", bolt())
		require.True(t, q.GetChangeOfIntention())
		require.Equal(t, []int32{2, 0, 8}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()}, "was anticipation 4, penalty 12")
		rs := f.advance(0, 0)
		require.Equal(t, int32(-8), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))
		require.Equal(t, int32(-2), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-031"))
		f.replays()
	})

	t.Run("declared first", func(t *testing.T) {
		f := start(t)
		ic := sqFind(t, f.do(sqChange("h", bolt())), (*feeriev1.Event).GetIntentionChanged)
		require.Equal(t, []int32{13, 13}, []int32{ic.GetRank(), ic.GetActingRank()}, "17 − 8 − (−2) + 2, capped at 13")
		require.Equal(t, []string{"act again", "change", "renounce", "gesture"}, sqLegal(t, f, "h"))
		q := f.act("h", nil)
		require.Equal(t, []int32{2, 0, 8}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()}, "was anticipation 4, penalty 12")
		f.replays()
	})

	t.Run("capped at the change", func(t *testing.T) {
		f := start(t)
		f.advance(11)
		ic := sqFind(t, f.do(sqChange("h", bolt())), (*feeriev1.Event).GetIntentionChanged)
		require.Equal(t, int32(11), ic.GetActingRank(), "13 is above the rank of the change")
		q := f.act("h", nil)
		require.Equal(t, []int32{0, 0}, []int32{q.GetAnticipation(), q.GetDelay()})
	})
}

// FEE-023: an object's Damage roll carries every malus on the activity: the Lutin, tripped
// (−4), in the dusk (−2), with the GM's −1, rolls Damage 6 − 7 = −1 (it was 6) + 19 = 18 against
// the door's Soak 10: 8 Essence, not 15.
func TestVaObjectDamageRollCarriesTheMaluses_FEE023(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 40)
	door.GetFeerie().Inanimate = true
	f := vaNew(t, nil, vaKobold(), vaLutin(), door)
	f.declare("kobold", vaMelee("lutin", nil, vaTrip))
	f.declare("lutin", vaMelee("porte", vaAtt("épée")), 20, 1, 10, 10) // Kobold 29, Lutin 14
	f.act("kobold", nil)
	r := f.advance(14, 20, 1)[0]
	require.True(t, r.GetSuccess())
	require.True(t, f.cs("lutin").GetProne())
	f.act("lutin", &feeriev1.Act{Circumstances: &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_DUSK, Modifier: -1}})
	r = f.advance(0, 20, 1)[0]
	m := r.GetAttack().GetModifiers()
	vaRequireMod(t, m, "down", "FEE-151", -4)
	vaRequireMod(t, m, "lighting", "FEE-120", -2)
	vaRequireMod(t, m, "GM", "FEE-036", -1)
	require.Equal(t, int32(-1), r.GetAttack().GetScore(), "P 8 + T −2 − 4 − 2 − 1; was 6")
	require.Equal(t, int32(18), r.GetAttack().GetTotal())
	require.Equal(t, int32(8), r.GetEssenceLost(), "was 15")
	f.replays()
}

// FEE-094: a sweep's primary target is a creature: an Ogre's sweep on a door and a Lutin is
// refused (it was accepted, surfaces 4 + 2 ≤ 8); the door is struck on its own.
func TestVaSweepOnAnObject_FEE094(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	f := vaNew(t, nil, vaOgre(), vaLutin(), door)
	sweep := vaMelee("porte", vaAtt("massue"))
	sweep.AlsoTargetIds = []string{"lutin"}
	f.refuse(vaGM, vaDeclareCmd("ogre", sweep), engine.CodeInvalid, "FEE-094", "Ogre", "Porte", "object")
	f.declare("ogre", vaMelee("porte", vaAtt("massue")))
}

// FEE-144: the level is the lower of the mount Affinity and the combat Affinity used, whatever
// their kinds: a general combat +3 with a specific mount +5 gives 3 (it was 0); only with a
// combat and a mount Affinity of each kind do they pair kind for kind.
func TestSiMountedAffinitiesWhateverTheirKinds_FEE144(t *testing.T) {
	attr := func(name string, v int32, combat, mount, specific bool) *feeriev1.Attribute {
		return &feeriev1.Attribute{Name: name, Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: v, Combat: combat, Mount: mount, Specific: specific}
	}
	sh := siSheet(20, 10, 10, 10, 0,
		attr("combat", 3, true, false, false), attr("licorne", 5, false, true, true),
		attr("lance", 4, true, false, true), attr("équitation", 1, false, true, false))
	require.Equal(t, int32(3-8), feerie.MountedAffinities(sh, []string{"combat", "licorne"}), "was −8: level 0")
	require.Equal(t, int32(1-5), feerie.MountedAffinities(sh, []string{"lance", "équitation"}), "specific combat, general mount: 1")
	// Two combat kinds with one mount: the lower of the sums, min(7, 5).
	require.Equal(t, int32(5-12), feerie.MountedAffinities(sh, []string{"combat", "lance", "licorne"}))
	// A pair of each kind: general min(3, 1) + specific min(4, 5).
	require.Equal(t, int32(1+4-13), feerie.MountedAffinities(sh, []string{"combat", "lance", "licorne", "équitation"}))
}

// FEE-181, FEE-157: a frightening blow gives its striker its bonus on its next intimidation
// against each witness: intimidating the Lutin spends it against the Lutin only; the Troll,
// who saw the blow too, still meets the +4 (it was gone), once.
func TestVaFrighteningBlowPerWitness_FEE181(t *testing.T) {
	f := vaNew(t, nil, vaKobold(), vaLutin(), vaTroll())
	f.declare("kobold", vaMelee("lutin", nil, vaFrighten))
	f.declare("lutin", vaPassive())
	f.declare("troll", vaPassive(), 20, 4, 1, 20, 1, 20)
	f.act("kobold", nil)
	f.advance(0, 20, 4)
	require.Equal(t, map[string]int32{"lutin": 4, "troll": 4}, f.cs("kobold").GetIntimidationBonuses())
	scare := func(target string) *feeriev1.Intent {
		return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 10, Intimidation: true, TargetId: target}
	}
	for _, c := range []struct {
		target string
		bonus  int32
	}{{"lutin", 4}, {"troll", 4}, {"troll", 0}} {
		f.nextAction()
		f.declare("kobold", scare(c.target))
		f.declare("lutin", vaPassive())
		f.declare("troll", vaPassive(), 20, 1, 1, 20, 1, 20)
		f.act("kobold", nil)
		r := f.advance(0, 10, 10)[0]
		v, _ := vaMod(r.GetAttack().GetModifiers(), "frightening blow")
		require.Equal(t, c.bonus, v, "intimidating %s", c.target)
	}
	require.Empty(t, f.cs("kobold").GetIntimidationBonuses())
	f.replays()
}

// FEE-175, FEE-091: a potential aggressor is one that has declared a melee activity against the
// defender, at step 1 or later by a change of intention: from then on it occupies an angle, even
// before it strikes, and every attack of the Action meets the same malus; one that declared a
// shot occupies none.
func TestSiPotentialAggressors_FEE175(t *testing.T) {
	f := siNew(t,
		siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)),
		siWho("a1", "Assaillant 1", siSheet(20, 10, 5, 10, 0)),
		siWho("a2", "Assaillant 2", siSheet(19, 10, 5, 10, 0)),
		siWho("a3", "Assaillant 3", siSheet(18, 10, 5, 10, 0)),
		siWho("r", "Archer", siSheet(17, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siMelee("d"), "a2": siMelee("d"), "r": siRanged("d")})
	require.ElementsMatch(t, []string{"a1", "a2"}, f.state().GetCombatants()["d"].GetAggressors())
	f.do(siCmd("a3", &feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: siMelee("d")}}}))
	require.ElementsMatch(t, []string{"a1", "a2", "a3"}, f.state().GetCombatants()["d"].GetAggressors())
	f.act("a1", nil)
	res := f.resolve()
	require.Equal(t, int32(-4), siMod(res[0].GetDefenseModifiers(), "FEE-091"), "a1, a2 and a3 watched: was 0, a1 alone")
	f.act("a2", nil)
	require.Equal(t, int32(-4), siMod(f.resolve()[0].GetDefenseModifiers(), "FEE-091"), "the same malus for every attack")
	// Ruled helpless, a3 threatens no one (FEE-022): the next attack meets a1 and a2 only.
	f.do(siCmd("a3", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Reason: "pétrifié"}}}))
	f.act("a1", nil)
	require.Equal(t, int32(-2), siMod(f.resolve()[0].GetDefenseModifiers(), "FEE-091"))
	f.at(17)
	f.act("r", nil)
	require.False(t, siHas(f.resolve()[0].GetDefenseModifiers(), "FEE-091"), "a shot meets no angle malus")
}
