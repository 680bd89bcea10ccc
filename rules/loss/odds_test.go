package loss_test

import (
	"fmt"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
)

// Les Chants de Loss fixtures: Diego (LOS-T01: Puissance 6, Arme de mêlée 6) against the
// malfrat (LOS-T01: Agilité 5, Esquive 7) or a Sbire (LOS-T05: 5 + 4).

const (
	extra = lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
)

func lossCmd(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

func lossFighter(id string, kind lossv1.CombatantKind, init, p, m, a, e, damage int32) *encounterv1.Combatant {
	controller := oddstest.GM
	if kind == pc {
		controller = "david"
	}
	return &encounterv1.Combatant{Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:       kind,
		Traits:     map[string]int32{"Puissance": p, "Agilité": a},
		Talents:    map[string]int32{"Arme de mêlée": m, "Esquive": e},
		Initiative: init,
		Weapons: []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: damage,
			Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}}},
		Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Parry: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"},
	}}}
}

// lossFight is a started Loss fight in which diego acts first (Initiative 8 + 7 against the
// target's 5 + 1), the target edited by edit, the encounter with opts.
func lossFight(t testing.TB, opts *lossv1.Options, target *encounterv1.Combatant) *encounterv1.EncounterState {
	var ro *encounterv1.RuleOptions
	if opts != nil {
		ro = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: opts}}
	}
	return oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "ruelle", RuleSystem: "loss", Options: ro}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: lossFighter("diego", pc, 8, 6, 6, 5, 5, 3)}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: target}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: []int32{7, 1}},
	)
}

func malfrat() *encounterv1.Combatant { return lossFighter("malfrat", adv, 5, 5, 5, 5, 7, 2) }

func lossAttack(effects ...lossv1.ExploitEffect) *encounterv1.Command {
	return lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "malfrat", Weapon: "sabre", Exploits: effects}}})
}

func extras(n int) []lossv1.ExploitEffect {
	out := make([]lossv1.ExploitEffect, n)
	for i := range out {
		out[i] = extra
	}
	return out
}

// lossCase is one attack whose odds are checked against the real Decide.
type lossCase struct {
	name   string
	opts   *lossv1.Options
	target *encounterv1.Combatant
	cmd    *encounterv1.Command
	// attacker edits diego's sheet; unavailable: the defences the rules refuse.
	attacker    func(*lossv1.Sheet)
	unavailable []string
	// wound sets the target's boxes (or NS) left before the attack.
	wound func(*lossv1.CombatantState)
}

func lossCases() []lossCase {
	armoured := malfrat()
	armoured.GetLoss().Armour = 2
	sb := lossFighter("malfrat", sbire, 5, 5, 5, 5, 4, 2) // LOS-T05: the sailor, 5 + 4
	return []lossCase{
		{name: "plain attack, LOS-T01", target: malfrat(), cmd: lossAttack()},
		{name: "2 extra damage Exploits, armour 2 (LOS-065, LOS-021)", target: armoured, cmd: lossAttack(extras(2)...)},
		{name: "a target in its fatal band (LOS-022)", target: malfrat(), cmd: lossAttack(extra),
			wound: func(cs *lossv1.CombatantState) { cs.Light, cs.Grave, cs.Fatal = 0, 0, 4 }},
		{name: "a wounded Sbire, a Sbire's plain hit", target: lossFighter("malfrat", sbire, 5, 5, 5, 5, 4, 2), cmd: lossAttack(),
			wound: func(cs *lossv1.CombatantState) { cs.Health = 6 }},
		{name: "a Sbire, 1 Exploit (LOS-025, LOS-T05)", target: sb, cmd: lossAttack(extra)},
		{name: "a Sbire, plain hit (LOS-024)", target: lossFighter("malfrat", sbire, 5, 5, 5, 5, 4, 2), cmd: lossAttack()},
		{name: "Kill outright (LOS-078)", target: malfrat(), cmd: lossAttack(lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT)},
		{name: "aim at a zone with damage, exploding damage (LOS-073, LOS-002)", opts: &lossv1.Options{ExplodeDamageD10: ptr(true)}, target: malfrat(),
			wound: func(cs *lossv1.CombatantState) { cs.Light, cs.Grave, cs.Fatal = 0, 1, 5 },
			cmd: lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
				TargetId: "malfrat", Weapon: "sabre", WithDamage: true,
				Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE, extra}}}})},
		{name: "Two weapons on one target, both strike (LOS-070)", target: malfrat(), attacker: withDagger,
			wound: func(cs *lossv1.CombatantState) { cs.Light, cs.Grave, cs.Fatal = 0, 2, 5 },
			cmd: lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
				TargetId: "malfrat", Weapon: "sabre", SecondWeapon: "dague", Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS}}}})},
		{name: "an explosive beyond its Portée: a dodge only halves, no parry without a shield (LOS-081, LOS-086, LOS-019)", target: malfrat(), attacker: withGrenade,
			unavailable: []string{"parry"},
			cmd: lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
				TargetId: "malfrat", Weapon: "grenade", Situation: &lossv1.Situation{Distance: 8}}}})},
		{name: "cancelled Exploits miss (LOS-015 option), no explosion (LOS-002 option)", opts: &lossv1.Options{ExplodeActionD10: ptr(false), CancelledExploitsStillHit: ptr(false)},
			target: malfrat(), cmd: lossAttack(extras(1)...)},
	}
}

func ptr[T any](v T) *T { return &v }

func withDagger(sh *lossv1.Sheet) {
	sh.Weapons = append(sh.Weapons, &lossv1.Weapon{Name: "dague", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 3, Damage: 1,
		Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}})
}

func withGrenade(sh *lossv1.Sheet) {
	sh.Weapons = append(sh.Weapons, &lossv1.Weapon{Name: "grenade", Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Vitesse: 2, Damage: 6,
		Explosive: true, EffectiveRange: 5, Limit: 20, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}})
}

// TestLossOddsAgreeWithDecide: for each attack, the exact odds (attack reach, Exploits
// standing, NS lost, out of the fight, for each defence) agree within 4 standard errors with
// the real Decide run through the registry on the system's own dice stream, one seed per
// sample (LOS-001, LOS-002, LOS-010…LOS-015, LOS-020…LOS-025, LOS-065, LOS-073, LOS-078).
func TestLossOddsAgreeWithDecide(t *testing.T) {
	oddstest.Agreement(t)
	for _, c := range lossCases() {
		t.Run(c.name, func(t *testing.T) {
			st := lossFight(t, c.opts, c.target)
			if c.attacker != nil {
				c.attacker(engine.FindCombatant(st, "diego").GetLoss())
			}
			if c.wound != nil {
				c.wound(st.GetLoss().GetCombatants()["malfrat"])
			}
			o, err := odds.Of(oddstest.Reg, st, c.cmd, "david")
			require.NoError(t, err)
			require.Less(t, o.GetLeftOut(), 1e-9)
			tallies := map[string]*oddstest.Tally{"attack": oddstest.NewTally(), "none": oddstest.NewTally(), "parry": oddstest.NewTally(), "dodge": oddstest.NewTally()}
			for k, tl := range tallies {
				tl.Name = k
			}
			before := st.GetLoss().GetCombatants()["malfrat"]
			track := before.GetLight() + before.GetGrave() + before.GetFatal() + before.GetHealth()
			for i := range oddstest.Samples() {
				roller := oddstest.Stream(t, i)
				evs, err := oddstest.Reg.Decide(st, c.cmd, engine.Env{Actor: "david", Dice: roller})
				require.NoError(t, err)
				ar := evs[0].GetLoss().GetAttackRolled()
				total := ar.GetTest().GetTotal() - ar.GetTest().GetDifficulty()
				at := tallies["attack"]
				at.N++
				for n := range 6 { // the same die against the Difficulty of n Exploits
					if total >= 5*(int32(n)-loss.CountExploits(c.cmd.GetLoss().GetAttack().GetExploits())) {
						at.See(fmt.Sprintf("reach.%d", n))
					}
				}
				var next *encounterv1.EncounterState
				if ar.GetTest().GetSuccess() {
					next, err = oddstest.FoldInto(st, evs[:1])
					require.NoError(t, err)
				}
				for i, r := range []lossv1.Reaction{lossv1.Reaction_REACTION_NONE, lossv1.Reaction_REACTION_PARRY, lossv1.Reaction_REACTION_DODGE} {
					key := []string{"none", "parry", "dodge"}[i]
					if slices.Contains(c.unavailable, key) {
						continue
					}
					tl := tallies[key]
					tl.N++
					res := evs[len(evs)-1].GetLoss().GetAttackResolved()
					if next != nil {
						rs := &lossv1.React{Reaction: r}
						revs, err := oddstest.Reg.Decide(next, lossCmd(&lossv1.Action{CombatantId: "malfrat", Kind: &lossv1.Action_React{React: rs}}), engine.Env{Actor: oddstest.GM, Dice: roller})
						require.NoError(t, err)
						res = revs[len(revs)-1].GetLoss().GetAttackResolved()
					}
					lost := int64(0)
					if res.GetHit() {
						tl.See("hit")
						tl.See(fmt.Sprintf("standing.%d", res.GetExploitsStanding()))
						lost = int64(track - res.GetLight() - res.GetGrave() - res.GetFatal() - res.GetHealth())
					}
					if res.GetTargetOut() {
						tl.See("out")
					}
					tl.See("levels=" + oddstest.Itoa(lost))
					tl.Value("levels", float64(lost))
				}
			}
			attack := oddstest.Section(t, o, "attack")
			for n := range 6 {
				tallies["attack"].Agree(t, fmt.Sprintf("reach.%d", n), oddstest.ChanceOf(t, attack, fmt.Sprintf("reach.%d", n)))
			}
			for _, key := range []string{"none", "parry", "dodge"} {
				s := oddstest.Section(t, o, key)
				if slices.Contains(c.unavailable, key) {
					require.NotEmpty(t, s.GetUnavailable(), key)
					require.Empty(t, s.GetChances())
					continue
				}
				require.Empty(t, s.GetUnavailable())
				tl := tallies[key]
				for _, ch := range s.GetChances() {
					tl.Agree(t, ch.GetKey(), ch.GetProbability())
				}
				tl.AgreeDist(t, "levels", oddstest.DistOf(t, s, "levels"))
			}
		})
	}
}

// TestLossOddsByHand: LOS-T01's Diego (Puissance 6 + Arme de mêlée 6 = 12) and the malfrat's
// dodge (Agilité 5 + Esquive 7 = 12), each with an exploding d10 (LOS-002). Diego reaches 15
// on a 3 or more (8/10), 20 on an 8 or more (3/10), 25 with a 10 then a 3 or more (8/100)
// (LOS-010). With 2 Exploits the malfrat dodges at 25 (LOS-012): it succeeds with a 10 then a
// 3 or more (8/100, a miss: LOS-013); totals 20 to 24 (an 8, a 9, 10+1, 10+2: 22/100) cancel
// one Exploit (LOS-014, as in LOS-T02); below 20 (7/10) both stand.
func TestLossOddsByHand(t *testing.T) {
	st := lossFight(t, nil, malfrat())
	o, err := odds.Of(oddstest.Reg, st, lossAttack(extras(2)...), "david")
	require.NoError(t, err)
	require.Equal(t, "an attack at Difficulty 25 with 2 Exploits", o.GetSummary())
	attack := oddstest.Section(t, o, "attack")
	for n, p := range []float64{0.8, 0.3, 0.08, 0.03, 0.008, 0.003} {
		require.InDelta(t, p, oddstest.ChanceOf(t, attack, fmt.Sprintf("reach.%d", n)), 1e-9, "%d Exploits", n)
	}
	dodge := oddstest.Section(t, o, "dodge")
	require.InDelta(t, 0.08*0.7, oddstest.ChanceOf(t, dodge, "standing.2"), 1e-9)
	require.InDelta(t, 0.08*0.22, oddstest.ChanceOf(t, dodge, "standing.1"), 1e-9)
	require.InDelta(t, 0, oddstest.ChanceOf(t, dodge, "standing.0"), 1e-12)
	require.InDelta(t, 0.08*0.92, oddstest.ChanceOf(t, dodge, "hit"), 1e-9)
	none := oddstest.Section(t, o, "none")
	require.InDelta(t, 0.08, oddstest.ChanceOf(t, none, "standing.2"), 1e-9)
	// Taken: 3d10 + 3 (LOS-020, LOS-065) against no armour (LOS-021): 6 to 33 NS, out of the
	// fight at 15 or more of its 15 boxes (LOS-022): 3d10 ≥ 12 in all but the C(11, 3) = 165 of
	// the 1000 throws that sum to 11 or less.
	levels := oddstest.DistOf(t, none, "levels")
	require.InDelta(t, 0.92, oddstest.ProbOf(levels, 0), 1e-9)
	require.InDelta(t, 0.08/1000, oddstest.ProbOf(levels, 6), 1e-9)
	require.InDelta(t, 0.08*0.835, oddstest.ChanceOf(t, none, "out"), 1e-9)
	require.InDelta(t, 0.08*0.835, oddstest.ProbOf(levels, 15), 1e-9, "NS lost stop at the 15 boxes")
	require.Contains(t, o.GetAssumptions()[0], "no Exploit")
	require.Less(t, o.GetLeftOut(), 1e-9)
}

// TestLossOddsWithBonuses: a Test's bonuses count (LOS-004): Diego higher than the malfrat
// (+5, LOS-052) reaches 20 on a 3 or more (8/10) and 25 on an 8 or more (3/10); the malfrat
// with a successful defensive Exploit's +5 on its next action (LOS-016) dodges 2 Exploits'
// 25 with 17 + d10: on an 8 or more (3/10) it succeeds, from 3 to 7 (5/10) it cancels one
// Exploit, on 1 or 2 (2/10) both stand.
func TestLossOddsWithBonuses(t *testing.T) {
	st := lossFight(t, nil, malfrat())
	st.GetLoss().GetCombatants()["malfrat"].NextActionBonus = 5
	cmd := lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "malfrat", Weapon: "sabre", Exploits: extras(2), Situation: &lossv1.Situation{Higher: true}}}})
	o, err := odds.Of(oddstest.Reg, st, cmd, "david")
	require.NoError(t, err)
	attack := oddstest.Section(t, o, "attack")
	require.InDelta(t, 1, oddstest.ChanceOf(t, attack, "reach.0"), 1e-12)
	require.InDelta(t, 0.8, oddstest.ChanceOf(t, attack, "reach.1"), 1e-12)
	require.InDelta(t, 0.3, oddstest.ChanceOf(t, attack, "reach.2"), 1e-12)
	dodge := oddstest.Section(t, o, "dodge")
	require.InDelta(t, 0.3*0.2, oddstest.ChanceOf(t, dodge, "standing.2"), 1e-12)
	require.InDelta(t, 0.3*0.5, oddstest.ChanceOf(t, dodge, "standing.1"), 1e-12)
	require.InDelta(t, 0.3*0.7, oddstest.ChanceOf(t, dodge, "hit"), 1e-12)
}

// TestLossOddsReadTheBlow: what a hit does is read as the rules' hit reads it. A Sbire's
// Exploit does not fell a Sbire (LOS-025): it deals its damage. A shot halves only beyond a
// Portée the weapon has (LOS-081): not at the Portée, not without one. Two weapons on two
// targets strike each with one weapon (LOS-070): the first takes 1d10 + 3, never the second
// weapon's damage.
func TestLossOddsReadTheBlow(t *testing.T) {
	sb := func() *encounterv1.Combatant { return lossFighter("malfrat", sbire, 5, 5, 5, 5, 4, 2) }
	st := lossFight(t, nil, sb())
	engine.FindCombatant(st, "diego").GetLoss().Kind = sbire
	o, err := odds.Of(oddstest.Reg, st, lossAttack(extra), "david")
	require.NoError(t, err)
	none := oddstest.Section(t, o, "none")
	hit := oddstest.ChanceOf(t, none, "hit")
	// 2d10 + 3 against 10 NS: out from 7 on the dice, all but the 15 of the 100 pairs summing
	// to 6 or less.
	require.InDelta(t, hit*(1-15.0/100), oddstest.ChanceOf(t, none, "out"), 1e-12)

	shot := func(rng, distance int32) *oddsv1.Odds {
		st := lossFight(t, nil, malfrat())
		engine.FindCombatant(st, "diego").GetLoss().Weapons = append(engine.FindCombatant(st, "diego").GetLoss().Weapons,
			&lossv1.Weapon{Name: "arc", Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Vitesse: 2, Damage: 4, EffectiveRange: rng,
				Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}})
		o, err := odds.Of(oddstest.Reg, st, lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
			TargetId: "malfrat", Weapon: "arc", Situation: &lossv1.Situation{Distance: distance}}}}), "david")
		require.NoError(t, err)
		return o
	}
	top := func(o *oddsv1.Odds) int64 {
		d := oddstest.DistOf(t, oddstest.Section(t, o, "none"), "levels")
		return d.GetOutcomes()[len(d.GetOutcomes())-1].GetValue()
	}
	require.Equal(t, int64(14), top(shot(8, 8)), "at the Portée: 1d10 + 4, whole")
	require.Equal(t, int64(14), top(shot(0, 8)), "no Portée: whole")
	require.Equal(t, int64(7), top(shot(5, 8)), "beyond: halved, (10 + 4) / 2")

	// A shield's protection always applies, +1 with the Weapon and shield specialisation
	// (LOS-021, LOS-053, LOS-091): 1d10 + 3 − 3 tops at 10.
	shielded := malfrat()
	shielded.GetLoss().Shield = &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL, ParryBonus: 1}
	shielded.GetLoss().ShieldProtection = 2
	shielded.GetLoss().Specialisations = []*lossv1.Specialisation{{Kind: lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD}}
	o, err = odds.Of(oddstest.Reg, lossFight(t, nil, shielded), lossAttack(), "david")
	require.NoError(t, err)
	require.Equal(t, int64(10), top(o))
	shielded.GetLoss().Specialisations = nil
	o, err = odds.Of(oddstest.Reg, lossFight(t, nil, shielded), lossAttack(), "david")
	require.NoError(t, err)
	require.Equal(t, int64(11), top(o), "without the specialisation: 1d10 + 3 − 2")

	three := oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "ruelle", RuleSystem: "loss"}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: lossFighter("diego", pc, 8, 6, 6, 5, 5, 3)}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: malfrat()}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: lossFighter("mateo", adv, 5, 5, 5, 5, 7, 2)}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: []int32{7, 1, 1}},
	)
	withDagger(engine.FindCombatant(three, "diego").GetLoss())
	o, err = odds.Of(oddstest.Reg, three, lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "malfrat", MoreTargetIds: []string{"mateo"}, Weapon: "sabre", SecondWeapon: "dague",
		Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS}}}}), "david")
	require.NoError(t, err)
	require.Equal(t, int64(13), top(o), "the sabre alone on the first target: 1d10 + 3")
	require.Zero(t, oddstest.ChanceOf(t, oddstest.Section(t, o, "none"), "out"))
}

// TestLossOddsWhenEveryExploitIsCancelled: a defender whose own Difficulty is raised (its
// wounds, +5 in the grave band: LOS-022) may cancel every Exploit (LOS-014). With 1 Exploit,
// Diego reaches 20 with 3/10; the wounded malfrat dodges at 25: a success with 8/100, totals
// 20 to 24 (22/100) cancel the Exploit: a plain hit by default (LOS-015), a miss with the
// option off; the Exploit stands otherwise (7/10). Without Exploits nothing is cancelled,
// whatever the option (a plain attack hits with 8/10 when taken).
func TestLossOddsWhenEveryExploitIsCancelled(t *testing.T) {
	for _, c := range []struct {
		still   bool
		hit, s0 float64
	}{{true, 0.3 * 0.92, 0.3 * 0.22}, {false, 0.3 * 0.7, 0}} {
		st := lossFight(t, &lossv1.Options{CancelledExploitsStillHit: ptr(c.still)}, malfrat())
		cs := st.GetLoss().GetCombatants()["malfrat"]
		cs.Light, cs.Grave = 0, 4
		o, err := odds.Of(oddstest.Reg, st, lossAttack(extra), "david")
		require.NoError(t, err)
		dodge := oddstest.Section(t, o, "dodge")
		require.InDelta(t, c.hit, oddstest.ChanceOf(t, dodge, "hit"), 1e-12, "still hit %v", c.still)
		require.InDelta(t, c.s0, oddstest.ChanceOf(t, dodge, "standing.0"), 1e-12)
		require.InDelta(t, 0.3*0.7, oddstest.ChanceOf(t, dodge, "standing.1"), 1e-12)
		o, err = odds.Of(oddstest.Reg, st, lossAttack(), "david")
		require.NoError(t, err)
		require.InDelta(t, 0.8, oddstest.ChanceOf(t, oddstest.Section(t, o, "none"), "hit"), 1e-12)
	}
}

// TestLossOddsOfASbire: a Sbire (10 NS, LOS-024) hit without an Exploit takes 1d10 + 3: out
// on a 7 or more (4/10). Prone (+10 to its Tests, +10 to strike it: LOS-050, LOS-052), with
// Diego's 1 Exploit it dodges at 30 with 9 + d10: a total of 20 to 29 (10 then 1 to 9:
// 9/100) cancels the Exploit: a plain hit (option sbire_cancelled_exploit_plain_hit, the
// default) that fells with 4/10, or, with the option off, the Sbire out as if it stood; the
// Exploit stands on 9 or less (9/10): out (LOS-025).
func TestLossOddsOfASbire(t *testing.T) {
	sb := lossFighter("malfrat", sbire, 5, 5, 5, 5, 4, 2)
	o, err := odds.Of(oddstest.Reg, lossFight(t, nil, sb), lossAttack(), "david")
	require.NoError(t, err)
	require.InDelta(t, 0.8*0.4, oddstest.ChanceOf(t, oddstest.Section(t, o, "none"), "out"), 1e-12)
	o, err = odds.Of(oddstest.Reg, lossFight(t, &lossv1.Options{SbireCancelledExploitPlainHit: ptr(false)}, sb), lossAttack(), "david")
	require.NoError(t, err)
	require.InDelta(t, 0.8*0.4, oddstest.ChanceOf(t, oddstest.Section(t, o, "none"), "out"), 1e-12, "no Exploit declared: never felled by one")
	for _, c := range []struct {
		plain bool
		out   float64
	}{{true, 0.9 + 0.09*0.4}, {false, 0.99}} {
		st := lossFight(t, &lossv1.Options{SbireCancelledExploitPlainHit: ptr(c.plain)}, sb)
		st.GetLoss().GetCombatants()["malfrat"].Prone = true
		o, err := odds.Of(oddstest.Reg, st, lossAttack(extra), "david")
		require.NoError(t, err)
		require.InDelta(t, 1, oddstest.ChanceOf(t, oddstest.Section(t, o, "attack"), "reach.1"), 1e-12)
		require.InDelta(t, c.out, oddstest.ChanceOf(t, oddstest.Section(t, o, "dodge"), "out"), 1e-12, "plain hit %v", c.plain)
	}
}

// TestLossOddsAimAtAZone: aiming at a precise zone with damage (LOS-073) leaves no mortal
// wound: a malfrat with 6 boxes left loses 1d10 + 3 − 1 armour, at most 5, never out.
func TestLossOddsAimAtAZone(t *testing.T) {
	armoured := malfrat()
	armoured.GetLoss().Armour = 1
	st := lossFight(t, nil, armoured)
	cs := st.GetLoss().GetCombatants()["malfrat"]
	cs.Light, cs.Grave, cs.Fatal = 0, 1, 5
	o, err := odds.Of(oddstest.Reg, st, lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "malfrat", Weapon: "sabre", WithDamage: true, Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE}}}}), "david")
	require.NoError(t, err)
	none := oddstest.Section(t, o, "none")
	hit := oddstest.ChanceOf(t, none, "hit")
	require.InDelta(t, 0.08, hit, 1e-12)
	require.Zero(t, oddstest.ChanceOf(t, none, "out"))
	levels := oddstest.DistOf(t, none, "levels")
	require.InDelta(t, hit*0.1, oddstest.ProbOf(levels, 3), 1e-12, "a 1: 1 + 3 − 1")
	require.InDelta(t, hit*0.1, oddstest.ProbOf(levels, 4), 1e-12, "a 2: 2 + 3 − 1")
	require.InDelta(t, hit*0.8, oddstest.ProbOf(levels, 5), 1e-12, "3 or more: capped at 5")
}

// TestLossOddsOfTwoWeaponsOnOneTarget: Two weapons on one target (LOS-070, 2 Exploits: 25,
// reached with 8/100) strike with both: 1d10 + 3 then 1d10 + 1, 6 to 24 NS of the malfrat's
// 15: 6 on two 1s (1/100), 7 with 2/100; 15 or more empties its track (out).
func TestLossOddsOfTwoWeaponsOnOneTarget(t *testing.T) {
	st := lossFight(t, nil, malfrat())
	withDagger(engine.FindCombatant(st, "diego").GetLoss())
	o, err := odds.Of(oddstest.Reg, st, lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "malfrat", Weapon: "sabre", SecondWeapon: "dague", Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS}}}}), "david")
	require.NoError(t, err)
	none := oddstest.Section(t, o, "none")
	levels := oddstest.DistOf(t, none, "levels")
	require.InDelta(t, 0.08*0.01, oddstest.ProbOf(levels, 6), 1e-12)
	require.InDelta(t, 0.08*0.02, oddstest.ProbOf(levels, 7), 1e-12)
	require.Equal(t, int64(15), levels.GetOutcomes()[len(levels.GetOutcomes())-1].GetValue(), "no more than the 15 boxes")
	// Sums of two d10 of 11 or more (d + 3 + e + 1 ≥ 15): 55 of the 100 pairs.
	require.InDelta(t, 0.08*0.55, oddstest.ChanceOf(t, none, "out"), 1e-12)
	require.InDelta(t, 0.08*0.55, oddstest.ProbOf(levels, 15), 1e-12)
}

// TestOddsUseOnlyWhatTheCallerSees: with the target hidden from the player, the odds computed
// on the player's view are the same whatever the target's numbers are, and say its numbers
// are hidden; the GM, who sees all, gets odds that change with them (LOS-012).
func TestOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	oddstest.Hidden(t, lossFight(t, nil, malfrat()), lossAttack(extra), "diego", "malfrat",
		func(c *encounterv1.Combatant) { c.GetLoss().Talents["Esquive"] = 1; c.GetLoss().Armour = 3 })
}
