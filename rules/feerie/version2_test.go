package feerie_test

// Version 2 of Contes de Fées (issue 26): each fix runs under version 1 and version 2, with the
// outcome of each, so that the difference between the versions is the assertion.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// FEE-181: a frightening blow's bonus serves « sa prochaine activité d'intimidation ». The Kobold
// frightens the Lutin, witnessed by the Troll, then intimidates the Lutin, then the Troll twice.
// Version 1 spent only the Lutin's bonus on the first intimidation, so the Troll still met the
// +4 once; version 2 spends every bonus on the first, whoever it targets.
func TestV2IntimidationSpendsEveryBonus_FEE181(t *testing.T) {
	for _, c := range []struct {
		version uint32
		bonuses []int32          // the frightening-blow bonus of each intimidation: Lutin, Troll, Troll
		left    map[string]int32 // the bonuses left after the first
	}{
		{1, []int32{4, 4, 0}, map[string]int32{"troll": 4}},
		{2, []int32{4, 0, 0}, nil},
	} {
		t.Run(fmt.Sprint("v", c.version), func(t *testing.T) {
			f := vaNewAt(t, c.version, nil, vaKobold(), vaLutin(), vaTroll())
			f.declare("kobold", vaMelee("lutin", nil, vaFrighten))
			f.declare("lutin", vaPassive())
			f.declare("troll", vaPassive(), 20, 4, 1, 20, 1, 20)
			f.act("kobold", nil)
			f.advance(0, 20, 4)
			require.Equal(t, map[string]int32{"lutin": 4, "troll": 4}, f.cs("kobold").GetIntimidationBonuses())
			for i, target := range []string{"lutin", "troll", "troll"} {
				f.nextAction()
				f.declare("kobold", &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 10, Intimidation: true, TargetId: target})
				f.declare("lutin", vaPassive())
				f.declare("troll", vaPassive(), 20, 1, 1, 20, 1, 20)
				f.act("kobold", nil)
				r := f.advance(0, 10, 10)[0]
				v, _ := vaMod(r.GetAttack().GetModifiers(), "frightening blow")
				require.Equal(t, c.bonuses[i], v, "intimidation %d, of %s", i+1, target)
				if i == 0 {
					require.Equal(t, c.left, f.cs("kobold").GetIntimidationBonuses())
				}
			}
			require.Empty(t, f.cs("kobold").GetIntimidationBonuses())
			f.replays()
		})
	}
}

// FEE-155: a Cripple cripples an organ for the Damage before Soak, in ranks, when at least 1
// Essence would be lost. A Nain of Puissance 0 and Taille −2 (Damage −2) strikes a Feu follet
// of Résistance 0 and Taille −3 (Soak −3) at a margin of 0: 0 − 2 + 3 = 1 would be lost, but the
// duration is −2 ranks. Version 1 recorded an organ "crippled for −2 ranks"; version 2 records
// nothing: there is no duration below 1 rank. At a margin of 6 the duration is 3 − 2 = 1 rank:
// both versions cripple.
func TestV2CrippleOfLessThanARankRecordsNothing_FEE155(t *testing.T) {
	for _, c := range []struct {
		version uint32
		margin  int32
		ranks   int32 // 0: no condition
	}{{1, 0, -2}, {2, 0, 0}, {1, 6, 1}, {2, 6, 1}} {
		t.Run(fmt.Sprint("v", c.version, " margin ", c.margin), func(t *testing.T) {
			nain := vaFey("nain", "Nain", 10, 20, 0, 10, -2, 30)
			follet := vaFey("follet", "Feu follet", 10, 5, 10, 0, -3, 30)
			f := vaNewAt(t, c.version, nil, nain, follet)
			f.declare("follet", vaPassive())
			f.declare("nain", vaMelee("follet", nil, vaCripple), 20, 1, 1, 20)
			f.act("nain", nil)
			r := f.advance(0, 10+c.margin, 10)[0]
			// Attack H 20 − 12 against Defense H 5 + 3 (Taille −3).
			require.Equal(t, []int32{c.margin, -2, -3}, []int32{r.GetMargin(), r.GetDamage(), r.GetSoak()})
			require.True(t, r.GetSuccess())
			crippled := slices.ContainsFunc(r.GetConditions(), func(x *feeriev1.Condition) bool { return x.GetStrike() == vaCripple })
			require.Equal(t, c.ranks != 0, crippled, "%v", r.GetConditions())
			if c.ranks != 0 {
				require.Equal(t, c.ranks, vaCondition(t, r.GetConditions(), vaCripple).GetRanks())
			}
			f.replays()
		})
	}
}

// FEE-094, FEE-091, FEE-175: « chaque adversaire de Taille inférieure ne monopolisera qu'une
// partie de l'Attaque ». The Ogre (Taille +2, surface 8) bites four Lutins (Taille −2, surface
// 2) with one Attack roll. Version 1 counted its whole surface against each, filling 4 of each
// Lutin's angles (Defense −6); version 2 counts each Lutin's share, its own surface: one angle
// of each, no malus. A bite on one Lutin alone still fills 4 of its angles in both.
func TestV2SweepOccupiesItsShare_FEE094(t *testing.T) {
	band := func(version uint32) *siFight {
		cs := []*encounterv1.Combatant{siWho("ogre", "Ogre", siSheet(20, 12, 10, 10, 2))}
		for i := range 4 {
			cs = append(cs, siWho(fmt.Sprintf("l%d", i+1), fmt.Sprintf("Lutin %d", i+1), siSheet(5, 10, 3, 5, -2)))
		}
		return siNewAt(t, version, cs...)
	}
	for _, c := range []struct {
		version       uint32
		swept, single int32 // the angle malus of each swept Lutin, and of a Lutin bitten alone
	}{{1, -6, -6}, {2, 0, -6}} {
		t.Run(fmt.Sprint("v", c.version), func(t *testing.T) {
			f := band(c.version)
			f.declare(map[string]*feeriev1.Intent{"ogre": siMelee("l1", "l2", "l3", "l4")})
			f.act("ogre", nil)
			r := f.resolveWith(10, 10)[0]
			require.Equal(t, c.swept, siMod(r.GetDefenseModifiers(), "FEE-091"), "the first Lutin")
			require.Len(t, r.GetAlso(), 3)
			for _, s := range r.GetAlso() {
				require.Equal(t, c.swept, siMod(s.GetDefenseModifiers(), "FEE-091"), s.GetTargetId())
				require.Equal(t, 10+2+c.swept, s.GetDefense(), s.GetTargetId())
			}

			f = band(c.version)
			f.declare(map[string]*feeriev1.Intent{"ogre": siMelee("l1")})
			f.act("ogre", nil)
			require.Equal(t, c.single, siMod(f.resolveWith(10, 10)[0].GetDefenseModifiers(), "FEE-091"), "a bite on one Lutin")
		})
	}
}

// FEE-094, FEE-175: a sweeper that has declared its sweep is a potential aggressor of each
// swept defender, and holds its share of the angles against another's attack too. The Ogre
// declares a bite on two Lutins; a Farfadet (Vigilance 21) strikes the first Lutin before it.
// Version 1: the Farfadet's angle and the Ogre's four, at most 4: −6; version 2: one each, −2.
func TestV2DeclaredSweepOccupiesItsShare_FEE094(t *testing.T) {
	for _, c := range []struct {
		version uint32
		malus   int32
	}{{1, -6}, {2, -2}} {
		t.Run(fmt.Sprint("v", c.version), func(t *testing.T) {
			f := siNewAt(t, c.version, siWho("ogre", "Ogre", siSheet(20, 12, 10, 10, 2)), siWho("farfadet", "Farfadet", siSheet(21, 8, 2, 4, -2)),
				siWho("l1", "Lutin 1", siSheet(5, 10, 3, 5, -2)), siWho("l2", "Lutin 2", siSheet(5, 10, 3, 5, -2)))
			f.declare(map[string]*feeriev1.Intent{"ogre": siMelee("l1", "l2"), "farfadet": siMelee("l1")})
			f.act("farfadet", nil)
			r := f.resolveWith(10, 10)[0]
			require.Equal(t, "farfadet", r.GetCombatantId())
			require.Equal(t, c.malus, siMod(r.GetDefenseModifiers(), "FEE-091"))
		})
	}
}

// FEE-030…FEE-035, FEE-033: what Legal offers at step 1 lets a client declare a tactic: the
// Attributes to apply, the named tactics within the cap, the three modifiers within it, and the
// cap itself (it read "tactic cap 0", with no tactic nor Attribute to choose). It changes no
// decision, so both versions offer it. The Lutin (Affinity vivacité +2, épée +3, fronde +2,
// tablier +2, regard +3) may reach a cap of 12: every preset; the Kobold has no Attribute, so no
// tactic.
func TestV2LegalOffersTheTactic_FEE033(t *testing.T) {
	for _, version := range []uint32{1, 2} {
		t.Run(fmt.Sprint("v", version), func(t *testing.T) {
			f := vaNewAt(t, version, nil, vaLutin(), vaKobold())
			offer := func(id string) engine.LegalCommand {
				list, err := f.Reg.LegalCommands(f.St, id)
				require.NoError(t, err)
				i := slices.IndexFunc(list, func(l engine.LegalCommand) bool { return l.Action.GetKey() == "declare" })
				require.GreaterOrEqual(t, i, 0, "%s may declare", id)
				return list[i]
			}
			choice := func(a *rulesetv1.LegalAction, field string) *rulesetv1.Choice {
				i := slices.IndexFunc(a.GetChoices(), func(c *rulesetv1.Choice) bool { return c.GetField() == field })
				if i < 0 {
					return nil
				}
				return a.GetChoices()[i]
			}
			const path = "feerie.declare.intent."

			lutin := offer("lutin")
			require.Contains(t, lutin.Action.GetDescription(), "tactic cap up to 12")
			presets := choice(lutin.Action, path+"tactic.preset")
			require.NotNil(t, presets, "the named tactics are offered")
			require.Len(t, presets.GetOptions(), len(feerie.Presets))
			require.Equal(t, "Attaque foudroyante +4/−2/−2", presets.GetOptions()[0].GetLabel())
			for _, m := range []string{"initiative", "attack", "defense"} {
				c := choice(lutin.Action, path+"tactic."+m)
				require.NotNil(t, c, m)
				require.Equal(t, []int32{-12, 12}, []int32{c.GetMin(), c.GetMax()}, m)
			}
			attack := choice(lutin.Action, path+"applied.attack")
			require.NotNil(t, attack)
			require.True(t, slices.ContainsFunc(attack.GetOptions(), func(o *rulesetv1.ChoiceOption) bool { return o.GetValue() == "épée" }))

			// A client built on the offer: a melee attack on the Kobold with the épée, Attaque brutale.
			cmd := lutin.Command
			for field, value := range map[string]string{"kind": "ACTIVITY_KIND_MELEE_ATTACK", "target_id": "kobold", "applied.attack": "épée",
				"applied.defense": "vivacité", "tactic.preset": "Attaque brutale"} {
				require.NoError(t, engine.Fill(cmd, path+field, value), field)
			}
			evs := f.do(vaGM, cmd)
			require.Equal(t, &feeriev1.Tactic{Initiative: -2, Attack: 4, Defense: -2, Preset: "Attaque brutale"}, evs[0].GetDeclared().GetIntent().GetTactic())

			kobold := offer("kobold")
			require.True(t, strings.HasPrefix(kobold.Action.GetDescription(), "no tactic"), kobold.Action.GetDescription())
			require.Nil(t, choice(kobold.Action, path+"tactic.preset"))
			require.Nil(t, choice(kobold.Action, path+"tactic.attack"))
		})
	}
}

// FEE-032, FEE-034: a cap below 4 offers no named tactic (each has a modifier of 4) but the
// three modifiers within it; a surprised combatant is offered no tactic (FEE-080).
func TestV2LegalOffersTheCapItHas_FEE032(t *testing.T) {
	small := vaFey("pixie", "Pixie", 12, 12, 4, 6, -3, 20, vaAttr("taquinerie", vaAff, 2, true))
	f := vaNewAt(t, feerie.Latest, nil, small, vaKobold())
	list, err := f.Reg.LegalCommands(f.St, "pixie")
	require.NoError(t, err)
	declare := list[0].Action
	require.Equal(t, "declare", declare.GetKey())
	require.Contains(t, declare.GetDescription(), "tactic cap up to 2")
	fields := map[string]*rulesetv1.Choice{}
	for _, c := range declare.GetChoices() {
		fields[strings.TrimPrefix(c.GetField(), "feerie.declare.intent.")] = c
	}
	require.NotContains(t, fields, "tactic.preset")
	require.Equal(t, int32(2), fields["tactic.attack"].GetMax())

	// A cap of exactly 4 (FEE-T03's Sire Didimus, duel +4): every named tactic.
	didimus := vaFey("didimus", "Sire Didimus", 14, 16, 12, 12, 0, 25, vaAttr("duel", vaAff, 4, true))
	g := vaNewAt(t, feerie.Latest, nil, didimus, vaKobold())
	list, err = g.Reg.LegalCommands(g.St, "didimus")
	require.NoError(t, err)
	i := slices.IndexFunc(list[0].Action.GetChoices(), func(c *rulesetv1.Choice) bool { return strings.HasSuffix(c.GetField(), ".tactic.preset") })
	require.GreaterOrEqual(t, i, 0, "the named tactics are offered at a cap of 4")
	require.Len(t, list[0].Action.GetChoices()[i].GetOptions(), len(feerie.Presets), "FEE-T03: all 13")

	f.do(vaGM, vaCmd("kobold", &feeriev1.Action{Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 1}}}))
	list, err = f.Reg.LegalCommands(f.St, "kobold")
	require.NoError(t, err)
	require.Contains(t, list[0].Action.GetDescription(), "surprised: no tactic")
}
