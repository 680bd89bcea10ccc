package feerie_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func fey(id, controller string, v, h, p, r, taille, essence int32, attrs ...*feeriev1.Attribute) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Taille: taille, Essence: essence, Attributes: attrs,
	}}}
}

func feerieCmd(id string, a *feeriev1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

// didimus is FEE-T03's Sire Didimus, Affinity duel +4 (all 13 named tactics valid), V14 H16
// P12 R12 T0, Essence 25; the kobold V10 H12 P16 R10 T−2, Essence 30: Defense 14, Soak 8.
func didimus() *encounterv1.Combatant {
	return fey("didimus", "david", 14, 16, 12, 12, 0, 25, &feeriev1.Attribute{Name: "duel", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: 4, Combat: true})
}

func kobold(essence int32) *encounterv1.Combatant {
	return fey("kobold", oddstest.GM, 10, 12, 16, 10, -2, essence)
}

func duelIntent(att int32, strikes ...feeriev1.SpecialStrike) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "kobold", Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{"duel"}}, Strikes: strikes,
		Tactic: &feeriev1.Tactic{Initiative: -att, Attack: att}}
}

// feerieFight: didimus declares in (the kobold stays passive), wins the Initiative (net +19
// against −19) and may act at the top rank.
func feerieFight(t testing.TB, opts *feeriev1.Options, in *feeriev1.Intent, target *encounterv1.Combatant) *encounterv1.EncounterState {
	var ro *encounterv1.RuleOptions
	if opts != nil {
		ro = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: opts}}
	}
	return oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "clairière", RuleSystem: "feerie", Options: ro}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: didimus()}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: target}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: feerieCmd("kobold", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}}}}), Faces: nil},
		oddstest.Step{Actor: "david", Cmd: feerieCmd("didimus", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: in}}}), Faces: []int32{20, 1, 1, 20}},
	)
}

func feerieAct() *encounterv1.Command {
	return feerieCmd("didimus", &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})
}

// TestFeerieOddsAgreeWithDecide: the chance to hit, the Essence lost and the chance a special
// strike takes effect agree with the activity queued and resolved by the real Decide on the
// dice stream (FEE-001, FEE-002, FEE-003, FEE-020, FEE-021, FEE-149, FEE-153, FEE-155).
func TestFeerieOddsAgreeWithDecide(t *testing.T) {
	oddstest.Agreement(t)
	for _, c := range []struct {
		name   string
		opts   *feeriev1.Options
		in     *feeriev1.Intent
		target *encounterv1.Combatant
	}{
		{name: "a plain blow, Attaque brutale's +4", in: duelIntent(4), target: kobold(30)},
		{name: "a stun, tactic 0 (FEE-153)", in: duelIntent(0, feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN), target: kobold(30)},
		{name: "a cripple on a weak kobold, roll 2d10-11, ties fail (FEE-155, FEE-001, FEE-002)", opts: &feeriev1.Options{Roll: "2d10-11", TieSucceeds: proto.Bool(false)},
			in: duelIntent(-2, feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE), target: kobold(3)},
		{name: "a disarm: Defense with Puissance (FEE-150, FEE-183)", in: duelIntent(2, feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM), target: kobold(6)},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := feerieFight(t, c.opts, c.in, c.target)
			o, err := odds.Of(oddstest.Reg, st, feerieAct(), "david")
			require.NoError(t, err)
			require.Zero(t, o.GetLeftOut())
			_, queued := oddstest.ApplyEvents(t, st, "david", feerieAct(), nil)
			advance := feerieCmd("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}})
			tl := oddstest.NewTally()
			for i := range oddstest.Samples() {
				evs, err := oddstest.Reg.Decide(queued, advance, engine.Env{Actor: oddstest.GM, Dice: oddstest.Stream(t, i)})
				require.NoError(t, err)
				var res *feeriev1.ActivityResolved
				for _, ev := range evs {
					if r := ev.GetFeerie().GetActivityResolved(); r != nil {
						res = r
					}
				}
				tl.N++
				if res.GetSuccess() {
					tl.See("hit")
				}
				if len(res.GetConditions()) > 0 {
					tl.See("strike")
				}
				tl.See("essence=" + oddstest.Itoa(int64(res.GetEssenceLost())))
				tl.Value("essence", float64(res.GetEssenceLost()))
			}
			s := oddstest.Section(t, o, "chosen")
			for _, ch := range s.GetChances() {
				tl.Agree(t, ch.GetKey(), ch.GetProbability())
			}
			tl.AgreeDist(t, "essence", oddstest.DistOf(t, s, "essence"))
		})
	}
}

// TestFeerieOddsPerTactic: a named tactic's section is the odds the attacker has when it
// declares that tactic (FEE-034, FEE-T03: all 13 valid with duel +4); with an Affinity of +2
// every named tactic, each with a modifier of 4, is refused (FEE-032).
func TestFeerieOddsPerTactic(t *testing.T) {
	base, err := odds.Of(oddstest.Reg, feerieFight(t, nil, duelIntent(-2), kobold(30)), feerieAct(), "david") // in force: Attack −2
	require.NoError(t, err)
	require.Len(t, base.GetSections(), 14)
	brutale, err := odds.Of(oddstest.Reg, feerieFight(t, nil, duelIntent(4), kobold(30)), feerieAct(), "david")
	require.NoError(t, err)
	want, got := oddstest.Section(t, brutale, "chosen"), oddstest.Section(t, base, "tactic:Attaque brutale")
	require.Equal(t, want.GetChances(), got.GetChances())
	require.Equal(t, want.GetDistributions(), got.GetDistributions())
	require.Empty(t, got.GetUnavailable())

	weak := didimus()
	weak.GetFeerie().GetAttributes()[0].Value = 2
	st := oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "clairière", RuleSystem: "feerie"}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: weak}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: kobold(30)}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: feerieCmd("kobold", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}}}}), Faces: nil},
		oddstest.Step{Actor: "david", Cmd: feerieCmd("didimus", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: duelIntent(2)}}}), Faces: []int32{20, 1, 1, 20}},
	)
	o, err := odds.Of(oddstest.Reg, st, feerieAct(), "david")
	require.NoError(t, err)
	for _, s := range o.GetSections()[1:] {
		require.Contains(t, s.GetUnavailable(), "cap of 2", s.GetKey())
	}
	require.Empty(t, oddstest.Section(t, o, "chosen").GetUnavailable())
}

// TestFeerieOddsByHand: Didimus's Attack 16 + 4 (duel) + 4 (tactic) = 24 against the
// kobold's Defense, 12 as the rules give it, with d20 − d20 (FEE-001): a hit (FEE-002, FEE-020)
// needs a net roll ≥ −12, which all but the 28 pairs of the 400 with minus − plus ≥ 13
// (7 + 6 + … + 1) give; the same with ties failing needs ≥ −11: 36 pairs miss.
func TestFeerieOddsByHand(t *testing.T) {
	o, err := odds.Of(oddstest.Reg, feerieFight(t, nil, duelIntent(4), kobold(30)), feerieAct(), "david")
	require.NoError(t, err)
	require.Equal(t, "an attack on kobold: Attack 24 against Defense 12", o.GetSummary())
	require.InDelta(t, 1-28.0/400, oddstest.ChanceOf(t, oddstest.Section(t, o, "chosen"), "hit"), 1e-12)
	o, err = odds.Of(oddstest.Reg, feerieFight(t, &feeriev1.Options{TieSucceeds: proto.Bool(false)}, duelIntent(4), kobold(30)), feerieAct(), "david")
	require.NoError(t, err)
	require.InDelta(t, 1-36.0/400, oddstest.ChanceOf(t, oddstest.Section(t, o, "chosen"), "hit"), 1e-12)
}

// TestFeerieOddsOfARangedAttackAndNotOfOtherActivities: a ranged attack (Vigilance, FEE-012)
// has odds; an activity that is no attack (an "other" roll against a difficulty) is refused as
// invalid, nothing computed (FEE-020).
func TestFeerieOddsOfARangedAttackAndNotOfOtherActivities(t *testing.T) {
	ranged := duelIntent(0)
	ranged.Kind = feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	o, err := odds.Of(oddstest.Reg, feerieFight(t, nil, ranged, kobold(30)), feerieAct(), "david")
	require.NoError(t, err)
	require.Equal(t, "an attack on kobold: Attack 18 against Defense 14", o.GetSummary(), "Vigilance 14 + duel 4, against the Defense the rules give against a shot")
	other := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "Habileté", Difficulty: 15}
	_, err = odds.Of(oddstest.Reg, feerieFight(t, nil, other, kobold(30)), feerieAct(), "david")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, engine.CodeInvalid, re.Code)
	require.Equal(t, "FEE-020", re.Rule)
}

// TestFeerieCrippleNeedsALoss: Cripple takes effect when at least 1 Essence would be lost
// (FEE-155, FEE-176): against a kobold of Soak 11 (Résistance 13 − 2), Didimus's Damage 12
// makes any success a loss (½ margin + 1 ≥ 1): the strike takes effect whenever the attack
// succeeds. Against Soak 12: the strike's −12 (FEE-149) brings the Attack to 24 − 12 = 12
// against Defense 12, so a success is a net roll of d20 − d20 ≥ 0 (210 of the 400 pairs);
// margins 0 and 1 (20 and 19 pairs) lose nothing and cripple nothing.
func TestFeerieCrippleNeedsALoss(t *testing.T) {
	cripple := duelIntent(4, feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE)
	tough := func(r int32) *encounterv1.Combatant {
		k := kobold(30)
		k.GetFeerie().Resistance = r
		return k
	}
	o, err := odds.Of(oddstest.Reg, feerieFight(t, nil, cripple, tough(13)), feerieAct(), "david")
	require.NoError(t, err)
	s := oddstest.Section(t, o, "chosen")
	hit := oddstest.ChanceOf(t, s, "hit")
	require.Equal(t, hit, oddstest.ChanceOf(t, s, "strike"))
	o, err = odds.Of(oddstest.Reg, feerieFight(t, nil, cripple, tough(14)), feerieAct(), "david")
	require.NoError(t, err)
	s = oddstest.Section(t, o, "chosen")
	require.InDelta(t, 210.0/400, oddstest.ChanceOf(t, s, "hit"), 1e-12)
	require.InDelta(t, (210.0-39)/400, oddstest.ChanceOf(t, s, "strike"), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, s, "essence"), 0), 1e-12, "a cripple deals no Essence")
}

// TestFeerieCrippleOfLessThanARank: the odds of a Cripple follow the version of the rules the
// encounter pinned (FEE-155). A Nain (H 20, Puissance 0, Taille −2: Damage −2) cripples a Feu
// follet (H 5, Résistance 0, Taille −3: Defense 8, Soak −3): Attack 20 − 12 = 8 against 8, a
// success on a net roll ≥ 0, 210 of the 400 pairs, each losing at least ½ margin − 2 + 3 ≥ 1.
// Version 1 cripples on every success; version 2 only for a duration, ½ margin − 2, of at least
// 1 rank: a margin of 6 or more, 105 of the 400 pairs.
func TestFeerieCrippleOfLessThanARank(t *testing.T) {
	for _, c := range []struct {
		version uint32
		strike  float64
	}{{1, 210.0 / 400}, {2, 105.0 / 400}} {
		t.Run(fmt.Sprint("v", c.version), func(t *testing.T) {
			cripple := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "follet", Physical: true,
				Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE}}
			st := oddstest.Play(t,
				oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "clairière", RuleSystem: "feerie", RulesVersion: c.version}}}, Faces: nil},
				oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: fey("nain", oddstest.GM, 10, 20, 0, 10, -2, 30)}}}, Faces: nil},
				oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: fey("follet", oddstest.GM, 10, 5, 10, 0, -3, 30)}}}, Faces: nil},
				oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: nil},
				oddstest.Step{Actor: oddstest.GM, Cmd: feerieCmd("follet", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}}}}), Faces: nil},
				oddstest.Step{Actor: oddstest.GM, Cmd: feerieCmd("nain", &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: cripple}}}), Faces: []int32{20, 1, 1, 20}},
			)
			require.Equal(t, c.version, st.GetRulesVersion())
			o, err := odds.Of(oddstest.Reg, st, feerieCmd("nain", &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}), oddstest.GM)
			require.NoError(t, err)
			s := oddstest.Section(t, o, "chosen")
			require.InDelta(t, 210.0/400, oddstest.ChanceOf(t, s, "hit"), 1e-12)
			require.InDelta(t, c.strike, oddstest.ChanceOf(t, s, "strike"), 1e-12)
		})
	}
}

// TestOddsUseOnlyWhatTheCallerSees: with the target hidden from the player, the odds computed
// on the player's view are the same whatever the target's numbers are, and say its numbers
// are hidden; the GM, who sees all, gets odds that change with them (FEE-020).
func TestOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	oddstest.Hidden(t, feerieFight(t, nil, duelIntent(4), kobold(30)), feerieAct(), "didimus", "kobold",
		func(c *encounterv1.Combatant) { c.GetFeerie().Habilete = 20 })
}
