package loss_test

import (
	"strconv"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Folding every event from scratch gives the state built event by event, at every point.
func TestFoldMatchesIncrementalState(t *testing.T) {
	d := with(diego(), func(s *lossv1.Sheet) {
		s.Fursa = 2
		s.Inspiration = map[string]int32{"Courage": 1}
	})
	r := with(ruffian(), func(s *lossv1.Sheet) {
		s.Inspiration = map[string]int32{"Honneur": 1}
		s.Armour = 2
	})
	f := newFight(t, &lossv1.Options{GmFursa: proto.Int32(1)}, d, r)
	type mark struct {
		n    int
		hash []byte
	}
	var marks []mark
	step := func(actor string, cmd *encounterv1.Command, faces ...int32) {
		f.do(actor, cmd, faces...)
		marks = append(marks, mark{len(f.Log), engine.Hash(f.St)})
	}
	step(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, 7, 5)
	step("david", attack("diego", "malfrat", 3, &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}), 7)
	// 12 + 10 + 4 = 26 misses 30 and cancels 2 Exploits: 2d10 + 3 − 2 = 6 levels.
	step(gm, dodge("malfrat", 0, &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Honneur": 1}}), 4, 2, 3)
	step("david", attack("diego", "malfrat", 1, nil), 1) // fails: the GM gains a Fursa
	step(gm, attack("malfrat", "diego", 0, nil), 10, 5)  // 25 against 20 (grave band)
	step("david", dodge("diego", 1, nil), 9, 3)          // 19 < 20: a failed Exploit, the GM gains one
	step("david", pass("diego"))
	step(gm, pass("malfrat"), 3, 3)                    // Tour 2
	step("david", unseen("diego", "malfrat", 0), 9, 8) // 21 ≥ 20; 11 − 2 levels: the ruffian falls

	folded, err := f.Reg.Fold(f.Log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(f.St), engine.Hash(folded))
	require.True(t, proto.Equal(f.St, folded))
	for _, m := range marks {
		st, err := f.Reg.Fold(f.Log[:m.n])
		require.NoError(t, err)
		require.Equal(t, m.hash, engine.Hash(st), "after %d events", m.n)
	}

	// The numbers survive the replay.
	cs := folded.GetLoss().GetCombatants()
	require.Equal(t, int32(2), folded.GetLoss().GetTour())
	require.Equal(t, int32(2), folded.GetLoss().GetGmFursa()) // 1 − 1 spent + 2 gained
	require.True(t, cs["malfrat"].GetOut())
	require.Equal(t, int32(0), cs["diego"].GetFursa())
	require.Equal(t, int32(0), cs["malfrat"].GetInspiration()["Honneur"])
	require.Equal(t, uint64(len(f.Log)), folded.GetSequence())

	// A hash sees a difference, and a gap in the log is refused.
	other := proto.CloneOf(folded)
	other.GetLoss().GetCombatants()["diego"].ActionPoints++
	require.NotEqual(t, engine.Hash(folded), engine.Hash(other))
	gap := append(append([]*encounterv1.Event{}, f.Log[:3]...), f.Log[4:]...)
	_, err = f.Reg.Fold(gap)
	require.Error(t, err)
}

// A fight on the encounter's real dice stream: every roll recorded in the log re-derives
// from the seed revealed at the end, and the state's dice offset follows the stream.
func TestRealDiceVerify(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e2"}
	seed := make([]byte, dice.SeedSize)
	for i := range seed {
		seed[i] = byte(3*i + 1)
	}
	var log []*encounterv1.Event
	run := func(actor string, cmd *encounterv1.Command) {
		t.Helper()
		s, err := dice.NewStreamScheme(dice.SchemeOf(st.GetDiceScheme()), seed, st.GetDiceOffset())
		require.NoError(t, err)
		evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: s, Seed: seed})
		require.NoError(t, err)
		for _, ev := range evs {
			require.NoError(t, reg.Evolve(st, ev))
		}
		require.Equal(t, s.Offset(), st.GetDiceOffset())
		log = append(log, evs...)
	}
	run(gm, createCmd(nil))
	require.Equal(t, dice.Commitment(seed), st.GetSeedSha256())
	armour := func(s *lossv1.Sheet) { s.Armour = 6 }
	run(gm, addCmd(with(diego(), armour)))
	run(gm, addCmd(with(ruffian(), armour)))
	run(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})

	// Each side does the first legal thing until the third Tour or a fall.
	for n := 0; n < 200 && st.GetLoss().GetTour() < 3; n++ {
		var cmd *encounterv1.Command
		for _, id := range []string{"diego", "malfrat"} {
			legal, err := reg.Legal(st, id)
			require.NoError(t, err)
			if len(legal) == 0 {
				continue
			}
			other := map[string]string{"diego": "malfrat", "malfrat": "diego"}[id]
			first := legal[0].GetName()
			for _, l := range legal { // the first defence or attack, else pass
				if n := l.GetName(); n == "parry" || n == "dodge" || n == "attack" {
					first = n
					break
				}
				if l.GetName() == "pass" {
					first = "pass"
				}
			}
			switch first {
			case "parry":
				cmd = react(id, lossv1.Reaction_REACTION_PARRY, 0, nil)
			case "dodge":
				cmd = dodge(id, 0, nil)
			case "take the blow":
				cmd = takeBlow(id)
			case "attack":
				require.Equal(t, []string{other}, legal[0].GetTargets())
				cmd = attack(id, other, 0, nil)
			case "pass":
				cmd = pass(id)
			}
			break
		}
		require.NotNil(t, cmd, "someone may always act")
		run(gm, cmd)
		if st.GetLoss().GetCombatants()["diego"].GetOut() || st.GetLoss().GetCombatants()["malfrat"].GetOut() {
			break
		}
	}
	run(gm, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "fin"}}})
	require.Equal(t, seed, st.GetSeed())
	require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, st.GetStatus())

	var rolls []*dicev1.Roll
	for _, ev := range log {
		e := ev.GetLoss()
		for _, r := range e.GetTourStarted().GetInitiative() {
			rolls = append(rolls, r.GetRoll())
		}
		if r := e.GetAttackRolled().GetTest().GetRoll(); r != nil {
			rolls = append(rolls, r)
		}
		if r := e.GetDefenceRolled().GetTest().GetRoll(); r != nil {
			rolls = append(rolls, r)
		}
		if r := e.GetAttackResolved().GetDamage().GetRoll(); r != nil {
			rolls = append(rolls, r)
		}
	}
	require.Greater(t, len(rolls), 6)
	// engine.Rolls finds the same rolls, in the same order.
	var all []*dicev1.Roll
	for _, ev := range log {
		all = append(all, engine.Rolls(ev)...)
	}
	require.Len(t, all, len(rolls))
	for i := range all {
		require.True(t, proto.Equal(rolls[i], all[i]))
	}
	t.Logf("%d events, %d rolls, Tour %d", len(log), len(rolls), st.GetLoss().GetTour())
	var next uint64
	for _, r := range rolls {
		require.Equal(t, next, r.GetOffset(), "rolls follow each other in the stream")
		next = r.GetOffset() + r.GetDraws()
		require.NoError(t, dice.Verify(st.GetSeed(), r))
	}
	require.Equal(t, next, st.GetDiceOffset())

	folded, err := reg.Fold(log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(st), engine.Hash(folded))
}

// A malformed sheet is refused as invalid, naming the combatant.
func TestMalformedSheets(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*encounterv1.Combatant)
		rule string
	}{
		{"no sheet", func(c *encounterv1.Combatant) { c.Sheet = nil }, ""},
		{"no kind", func(c *encounterv1.Combatant) { c.GetLoss().Kind = lossv1.CombatantKind_COMBATANT_KIND_UNSPECIFIED }, "LOS-024"},
		{"trait too high", func(c *encounterv1.Combatant) { c.GetLoss().Traits["Puissance"] = 31 }, "LOS-001"},
		{"negative talent", func(c *encounterv1.Combatant) { c.GetLoss().Talents["Esquive"] = -1 }, "LOS-001"},
		{"weapon on a missing trait", func(c *encounterv1.Combatant) { c.GetLoss().Weapons[0].Attack.Trait = "Instinct" }, "LOS-001"},
		{"dodge on a missing talent", func(c *encounterv1.Combatant) { c.GetLoss().Dodge.Talent = "Acrobatie" }, "LOS-001"},
		{"Initiative too high", func(c *encounterv1.Combatant) { c.GetLoss().Initiative = 31 }, "LOS-030"},
		{"weapon without kind", func(c *encounterv1.Combatant) {
			c.GetLoss().Weapons[0].Kind = lossv1.WeaponKind_WEAPON_KIND_UNSPECIFIED
		}, "LOS-035"},
		{"melee weapon of Vitesse 0", func(c *encounterv1.Combatant) { c.GetLoss().Weapons[0].Vitesse = 0 }, "LOS-035"},
		{"weapon of Vitesse 21", func(c *encounterv1.Combatant) { c.GetLoss().Weapons[0].Vitesse = 21 }, "LOS-035"},
		{"negative damage", func(c *encounterv1.Combatant) { c.GetLoss().Weapons[0].Damage = -1 }, "LOS-020"},
		{"two weapons of one name", func(c *encounterv1.Combatant) {
			c.GetLoss().Weapons = append(c.GetLoss().Weapons, proto.CloneOf(c.GetLoss().Weapons[0]))
		}, ""},
		{"negative armour", func(c *encounterv1.Combatant) { c.GetLoss().Armour = -1 }, "LOS-021"},
		{"shield too strong", func(c *encounterv1.Combatant) { c.GetLoss().ShieldProtection = 31 }, "LOS-021"},
		{"Sbire with Inspiration", func(c *encounterv1.Combatant) {
			c.GetLoss().Kind = sbire
			c.GetLoss().Inspiration = map[string]int32{"Courage": 1}
		}, "LOS-024"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil)
			bad := proto.CloneOf(ruffian())
			c.edit(bad)
			re := f.refuse(gm, addCmd(bad), engine.CodeInvalid, c.rule, "Malfrat")
			require.Contains(t, re.Msg, "malformed sheet")
		})
	}
	// A natural weapon needs no Vitesse: it costs 2 (LOS-035).
	f := newFight(t, nil)
	f.do(gm, addCmd(who("loup", "Loup", sbire, 4, 4, 4, 4, 4, claws(2))))
}

// Who may command whom, and what the engine lists as legal.
func TestPermissionsAndLegal(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.refuse("david", pass("diego"), engine.CodePrecondition, "") // not started
	f.start(7, 5)
	f.refuse("david", pass("malfrat"), engine.CodePermission, "", "david", "Malfrat")
	f.refuse("someone", pass("diego"), engine.CodePermission, "")
	f.refuse("david", pass("nobody"), engine.CodeNotFound, "", "nobody")
	f.refuse("david", attack("diego", "diego", 0, nil), engine.CodeInvalid, "", "Diego")
	f.refuse("david", attack("diego", "nobody", 0, nil), engine.CodeNotFound, "", "nobody")
	f.refuse("david", action(&lossv1.Action{CombatantId: "diego"}), engine.CodeInvalid, "", "Diego")
	f.refuse("david", &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{
		CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
			TargetId: "malfrat", Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_UNSPECIFIED},
		}},
	}}}, engine.CodeInvalid, "LOS-060")

	legal, err := f.Reg.Legal(f.St, "diego")
	require.NoError(t, err)
	costs := map[string]int32{}
	for _, l := range legal {
		costs[l.GetName()] = l.GetCost()
	}
	// LOS-035: the costs of what Diego may do at his turn.
	require.Equal(t, map[string]int32{"attack": 4, "moving": 2, "picking up an object": 2, "a social Talent": 1, "wait": 0, "speak": 0, "pass": 0}, costs)
	require.Equal(t, "attack", legal[0].GetName())
	require.Equal(t, []string{"malfrat"}, legal[0].GetTargets())
	require.Equal(t, "sabre", legal[0].GetWeapon())
	require.Equal(t, "LOS-035", legal[0].GetRule())
	require.Equal(t, "pass", legal[len(legal)-1].GetName())
	legal, err = f.Reg.Legal(f.St, "malfrat")
	require.NoError(t, err)
	require.Empty(t, legal, "not the ruffian's turn")
	_, err = f.Reg.Legal(f.St, "nobody")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, engine.CodeNotFound, re.Code)

	f.do("david", attack("diego", "malfrat", 0, nil), 8)
	legal, err = f.Reg.Legal(f.St, "malfrat")
	require.NoError(t, err)
	var names []string
	for _, l := range legal {
		names = append(names, l.GetName())
		if l.GetName() != "take the blow" {
			require.Equal(t, int32(1), l.GetCost())
		}
	}
	require.Equal(t, []string{"parry", "dodge", "take the blow"}, names)
	legal, err = f.Reg.Legal(f.St, "diego")
	require.NoError(t, err)
	require.Empty(t, legal)
}

func TestDescribe(t *testing.T) {
	d := loss.New(1).Describe()
	require.Equal(t, "loss", d.GetId())
	require.Equal(t, uint32(1), d.GetVersion())
	rules := map[string]bool{}
	for _, tb := range d.GetTables() {
		rules[tb.GetRule()] = true
		for _, r := range tb.GetRows() {
			require.Len(t, r.GetCells(), len(tb.GetHeader()), tb.GetName())
		}
	}
	require.True(t, rules["LOS-035"] && rules["LOS-022"] && rules["LOS-014"])

	// LOS-074, LOS-035: the Action costs table has the recovery from a Disarm: pick up one's
	// weapon, 2 PA, whatever its Vitesse, or regain one's balance, 4 PA.
	costs := map[string]string{}
	for _, tb := range d.GetTables() {
		if tb.GetName() == "Action costs" {
			for _, r := range tb.GetRows() {
				costs[r.GetCells()[0]] = r.GetCells()[1]
			}
		}
	}
	require.Equal(t, "2", costs["recover from a Disarm: pick up one's weapon (LOS-074)"])
	require.Equal(t, "4", costs["recover from a Disarm: regain one's balance (LOS-074)"])
	require.Equal(t, strconv.Itoa(int(loss.New(1).PickUpCost)), costs["pick up an object"])
	require.Equal(t, strconv.Itoa(int(loss.New(1).StandUpCost)), costs["stand up"])
	reg := engine.NewRegistry(loss.New(1))
	require.Equal(t, []uint32{1}, reg.Versions("loss"))
	require.Len(t, reg.Rulesets(), 1)
}
