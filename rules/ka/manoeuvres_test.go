package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// malfrat: an NPC of Animalité 2, Humanité 3 (two actions), with a revolver (Arme à feu 2)
// and a knife (Bagarre 1).
func malfrat(id, name string) *encounterv1.Combatant {
	return who(id, name, false, 2, 3, 2, map[string]int32{"Arme à feu": 2, "Bagarre": 1, "Esquive": 1}, 2, 4, 10,
		weapon("revolver", ka.Humanite, "Arme à feu", 8), weapon("couteau", ka.Animalite, "Bagarre", 4))
}

// KA-032: disarm, Humanité + the skill used against the target's Humanité + the skill of its
// weapon; strictly higher, and at least 10, disarms; no damage; it costs the disarmer an
// action (KA-011 malus included) and the target none (KA-013).
func TestKA032Disarm(t *testing.T) {
	for _, c := range []struct {
		name              string
		weapon            string
		cards             []*kav1.Card
		total, resistance int32
		skill             string
		success           bool
	}{
		{"14 against 10 disarms", "revolver", []*kav1.Card{coupe(9), coupe(5)}, 14, 10, "Arme à feu", true},
		{"a tie does not", "revolver", []*kav1.Card{coupe(7), epee(7)}, 12, 12, "Arme à feu", false},
		{"8 against 6: below 10", "revolver", []*kav1.Card{coupe(3), coupe(1)}, 8, 6, "Arme à feu", false},
		{"11 against the revolver's 11 fails", "revolver", []*kav1.Card{coupe(6), epee(6)}, 11, 11, "Arme à feu", false},
		{"11 against the knife's 10 succeeds", "couteau", []*kav1.Card{coupe(6), epee(6)}, 11, 10, "Bagarre", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, joshua(), malfrat("malfrat", "Le malfrat"))
			f.start(c.cards...)
			evs := f.do(player, disarm("joshua", "malfrat", "Bagarre", c.weapon))
			dd := find(t, evs, (*kav1.Event).GetDisarmDrawn)
			d, r := dd.GetDraw(), dd.GetResistance()
			require.Equal(t, []any{ka.Humanite, "Bagarre", c.total}, []any{d.GetSphere(), d.GetSkill(), d.GetTotal()})
			require.Equal(t, []any{ka.Humanite, c.skill, int32(0), c.resistance}, []any{r.GetSphere(), r.GetSkill(), r.GetModifiers(), r.GetTotal()})
			require.Equal(t, c.weapon, dd.GetWeapon())
			require.Equal(t, c.success, dd.GetSuccess())
			if c.success {
				require.Equal(t, []string{c.weapon}, f.cs("malfrat").GetWeaponsLost())
			} else {
				require.Empty(t, f.cs("malfrat").GetWeaponsLost())
			}
			none(t, evs, (*kav1.Event).GetAttackResolved) // never any damage
			require.Equal(t, []int32{4, 10}, []int32{f.cs("malfrat").GetKaDice(), f.cs("malfrat").GetRealityPoints()})
			require.Equal(t, []int32{1, 1}, []int32{f.cs("joshua").GetActionsLeft(), f.cs("joshua").GetActionsTaken()})
			require.Equal(t, []int32{2, 0}, []int32{f.cs("malfrat").GetActionsLeft(), f.cs("malfrat").GetActionsTaken()}, "resisting is not an action")
			if c.success {
				// It lost that weapon only: the other and its bare hands are left, and it may
				// pick the lost one up.
				f.refuse(gm, attack("malfrat", "joshua", c.weapon, 0), engine.CodePrecondition, "KA-032", "Le malfrat", c.weapon, ka.BareHands)
				legal, err := f.Reg.Legal(f.St, "malfrat")
				require.NoError(t, err)
				var weapons []string
				for _, l := range legal {
					if l.GetName() == "attack" || l.GetName() == "pick up" {
						weapons = append(weapons, l.GetName()+" "+l.GetWeapon())
					}
				}
				other := map[string]string{"revolver": "couteau", "couteau": "revolver"}[c.weapon]
				require.Equal(t, []string{"attack " + other, "attack " + ka.BareHands, "pick up " + c.weapon}, weapons)
				f.do(gm, pass("malfrat"))
				f.refuse(player, disarm("joshua", "malfrat", "Bagarre", c.weapon), engine.CodePrecondition, "KA-032", "Le malfrat", c.weapon)
			}
			f.replays()
		})
	}
	t.Run("the second action's malus, and what cannot be disarmed", func(t *testing.T) {
		f := newFight(t, nil, joshua(), malfrat("malfrat", "Le malfrat"), with(dog(), func(sh *kav1.Sheet) { sh.Weapons = nil }))
		f.start(coupe(5), coupe(6), coupe(9), coupe(1))
		f.refuse(player, disarm("joshua", "malfrat", "Bagarre", ""), engine.CodeInvalid, "", "Le malfrat")
		f.refuse(player, disarm("joshua", "malfrat", "Danse", "revolver"), engine.CodeInvalid, "KA-032", "Danse")
		// Esquive is a skill of Joshua's, but neither Bagarre, a weapon's skill nor a power.
		f.refuse(player, disarm("joshua", "malfrat", "Esquive", "revolver"), engine.CodeInvalid, "KA-032", "Esquive", "Bagarre, Arme à feu")
		f.refuse(player, disarm("joshua", "chien", "Bagarre", ""), engine.CodePrecondition, "KA-032", "Le chien")
		f.do(player, disarm("joshua", "malfrat", "Bagarre", "revolver")) // 10 against 11
		f.do(gm, pass("chien"))
		f.do(gm, pass("malfrat"))
		dd := find(t, f.do(player, disarm("joshua", "malfrat", "Arme à feu", "revolver")), (*kav1.Event).GetDisarmDrawn)
		require.Equal(t, int32(-1), dd.GetDraw().GetModifiers())
		require.Equal(t, int32(3+4-1+9), dd.GetDraw().GetTotal())
		require.Equal(t, int32(3+2+1), dd.GetResistance().GetTotal())
		require.True(t, dd.GetSuccess())
	})
}

// KA-032 with KA-014: a non-player character disarmed by another of equal Animalité before
// it acted still takes its action this pass, with its weapon; not in the next pass.
func TestKA032SimultaneousDisarm(t *testing.T) {
	f := newFight(t, nil, malfrat("a", "Le malfrat A"), malfrat("b", "Le malfrat B"), joshua())
	f.start(coupe(9), coupe(2), coupe(3))
	f.do(player, pass("joshua"))
	dd := find(t, f.do(gm, disarm("a", "b", "Bagarre", "revolver")), (*kav1.Event).GetDisarmDrawn) // 13 against 7
	require.True(t, dd.GetSuccess())
	require.True(t, dd.GetStillActs())
	require.Equal(t, []string{"revolver"}, f.cs("b").GetWeaponsLost())
	f.do(gm, attack("b", "a", "revolver", 0))
	evs := f.do(gm, takeIt("a"))
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn) // 3 + 2 + 3 = 8
	require.Equal(t, int32(8), ad.GetDraw().GetTotal())
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())
	f.refuse(gm, attack("b", "a", "revolver", 0), engine.CodePrecondition, "KA-032", "Le malfrat B")
	f.replays()
}

// KA-032: the disarmed combatant loses the weapon it held, not the fight: it attacks bare-handed
// (Animalité + Bagarre, no weapon damage) and picks the weapon up with one action; then it
// shoots again. The disarm skill may be a power, with its score.
func TestKA032BareHandsAndPickUp(t *testing.T) {
	seul := func() *encounterv1.Combatant {
		return with(malfrat("malfrat", "Le malfrat"), func(sh *kav1.Sheet) { sh.Weapons = sh.Weapons[:1] })
	}
	mage := with(joshua(), func(sh *kav1.Sheet) { sh.Powers = map[string]int32{"Télékinésie": 5} })
	f := newFight(t, nil, mage, seul())
	f.start(coupe(2), coupe(3), coupe(9), coupe(4), coupe(5), coupe(6))
	// Humanité 3 + Télékinésie 5 + 2 = 10 against Humanité 3 + Arme à feu 2 + 3 = 8.
	dd := find(t, f.do(player, disarm("joshua", "malfrat", "Télékinésie", "")), (*kav1.Event).GetDisarmDrawn)
	require.Equal(t, []any{"Télékinésie", int32(5), false, int32(10)}, []any{dd.GetDraw().GetSkill(), dd.GetDraw().GetSkillValue(), dd.GetDraw().GetSkillMissing(), dd.GetDraw().GetTotal()})
	require.True(t, dd.GetSuccess())
	require.Equal(t, "revolver", dd.GetWeapon())
	// Its only weapon lost, no name means the revolver: refused; bare hands are left.
	f.refuse(gm, attack("malfrat", "joshua", "", 0), engine.CodePrecondition, "KA-032", "revolver", ka.BareHands)
	legal, err := f.Reg.Legal(f.St, "malfrat")
	require.NoError(t, err)
	require.Equal(t, []string{"attack", "pick up", "disarm", "pass"}, legalNames(legal))
	require.Equal(t, ka.BareHands, legal[0].GetWeapon())
	// Bare-handed: Animalité 2 + Bagarre 1 + 9 = 12, margin 2: +1 and no weapon damage; soak
	// Animalité 4 + encaissement 3: nothing.
	f.do(gm, attack("malfrat", "joshua", ka.BareHands, 0))
	evs := f.do(player, takeIt("joshua"))
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Equal(t, []any{ka.Animalite, ka.Brawl, int32(12)}, []any{ad.GetDraw().GetSphere(), ad.GetDraw().GetSkill(), ad.GetDraw().GetTotal()})
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{2, 1, 0, 1, 7, 0}, []int32{res.GetMargin(), res.GetBonus(), res.GetWeaponDamage(), res.GetDamage(), res.GetSoak(), res.GetKaLost()})
	// Pass 2: Joshua passes; the malfrat picks its revolver up, one action (its second, −1).
	f.do(player, pass("joshua"))
	f.refuse(gm, action(&kav1.Action{CombatantId: "malfrat", Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{Weapon: "couteau"}}}), engine.CodePrecondition, "KA-032", "couteau")
	evs = f.do(gm, action(&kav1.Action{CombatantId: "malfrat", Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{}}}))
	require.Equal(t, "revolver", find(t, evs, (*kav1.Event).GetWeaponPickedUp).GetWeapon())
	require.Empty(t, f.cs("joshua").GetWeaponsLost())
	require.Empty(t, f.cs("malfrat").GetWeaponsLost())
	// Round 2: the malfrat shoots with it again (Joshua passed, his actions are back).
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetRoundStarted).GetRound())
	f.do(player, pass("joshua"))
	f.do(gm, attack("malfrat", "joshua", "revolver", 0))
	ad = find(t, f.do(player, takeIt("joshua")), (*kav1.Event).GetAttackDrawn)
	require.Equal(t, int32(3+2+4), ad.GetDraw().GetTotal())
	f.refuse(gm, action(&kav1.Action{CombatantId: "malfrat", Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{}}}), engine.CodePrecondition, "KA-032", "Le malfrat")
	f.replays()
}

// tireur: an NPC of Animalité 5 with a sub-machine gun (+6 a bullet, KA-035) and Arme à feu 3.
func tireur() *encounterv1.Combatant {
	return who("tireur", "Le tireur", false, 5, 2, 2, map[string]int32{"Arme à feu": 3}, 2, 5, 10, smg(), pistolet())
}

// KA-033: a burst uses Animalité; one draw at −n against n targets, each defending
// separately (with Animalité), each hit taking +6; a single target takes no malus and +12.
func TestKA033Burst(t *testing.T) {
	f := newFight(t, nil, tireur(), joshua(), dog(), brute())
	f.start(epee(valet), epee(5), coupe(3), coupe(10))
	evs := f.do(gm, burst("tireur", "joshua", "chien", "brute"))
	require.Equal(t, []string{"joshua", "chien", "brute"}, find(t, evs, (*kav1.Event).GetAttackDeclared).GetPendingIds())
	none(t, evs, (*kav1.Event).GetAttackDrawn)

	type want struct{ margin, bonus, weapon, soak, kaLost int32 }
	check := func(r *kav1.AttackResolved, w want) {
		t.Helper()
		require.True(t, r.GetSuccess())
		require.Equal(t, []int32{w.margin, w.bonus, w.weapon, w.bonus + w.weapon, w.soak, w.kaLost},
			[]int32{r.GetMargin(), r.GetBonus(), r.GetWeaponDamage(), r.GetDamage(), r.GetSoak(), r.GetKaLost()})
	}
	// Each target announces in turn, before any card is drawn (KA-020): Joshua dodges, the dog
	// takes it, the brute dodges.
	require.Equal(t, "joshua", f.St.GetPending()[0].GetCombatantId())
	evs = f.do(player, dodge("joshua"))
	require.Len(t, evs, 1)
	require.True(t, find(t, evs, (*kav1.Event).GetDefenceAnnounced).GetReact().GetDefend())
	require.Equal(t, "chien", f.St.GetPending()[0].GetCombatantId())
	require.Len(t, f.do(gm, takeIt("chien")), 1)
	require.Equal(t, "brute", f.St.GetPending()[0].GetCombatantId())
	require.Empty(t, f.ka().GetDiscard())
	evs = f.do(gm, dodge("brute"))
	require.Empty(t, f.St.GetPending())
	// Then the draws, in one step. Animalité 5 + Arme à feu 3 − 3 targets + 15 = 20.
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	d := ad.GetDraw()
	require.Equal(t, []any{ka.Animalite, int32(5), "Arme à feu", int32(-3), int32(20)}, []any{d.GetSphere(), d.GetSphereValue(), d.GetSkill(), d.GetModifiers(), d.GetTotal()})
	require.Equal(t, []string{"-3 burst targets (KA-033)"}, d.GetModifierReasons())
	dds := all(evs, (*kav1.Event).GetDefenceDrawn)
	require.Len(t, dds, 2)
	rs := all(evs, (*kav1.Event).GetAttackResolved)
	require.Len(t, rs, 3)
	// Joshua dodges with Animalité 4 + Esquive 2 + 3 = 9 and loses: margin 10, +5 + 6 = 11,
	// soak Animalité 4 + 3 = 7: one Ka die.
	require.Equal(t, []any{"joshua", ka.Animalite, int32(9)}, []any{dds[0].GetDefenderId(), dds[0].GetDraw().GetSphere(), dds[0].GetDraw().GetTotal()})
	check(rs[0], want{10, 5, 6, 7, 1})
	// The dog takes it: 11 − (3 + 3) = 5, one Ka die.
	check(rs[1], want{10, 5, 6, 6, 1})
	// The brute dodges, 4 + 1 + 10 = 15: margin 20 − 15 = 5, +1 + 6 = 7 − (4 + 2): one Ka die.
	require.Equal(t, []any{"brute", int32(15)}, []any{dds[1].GetDefenderId(), dds[1].GetDraw().GetTotal()})
	check(rs[2], want{5, 1, 6, 6, 1})
	require.Equal(t, []int32{4, 1, 4}, []int32{f.cs("joshua").GetKaDice(), f.cs("chien").GetKaDice(), f.cs("brute").GetKaDice()})
	require.Equal(t, int32(1), f.cs("tireur").GetActionsLeft(), "one burst, one action")
	f.replays()

	// KA-033: the malus is the number of targets, −1 for one.
	t.Run("a single target: −1, +12", func(t *testing.T) {
		f := newFight(t, nil, tireur(), molosse())
		f.start(coupe(4))
		f.do(gm, burst("tireur", "chien"))
		evs := f.do(gm, takeIt("chien"))
		d := find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw()
		require.Equal(t, []any{ka.Animalite, int32(-1), int32(11)}, []any{d.GetSphere(), d.GetModifiers(), d.GetTotal()})
		require.Equal(t, []string{"-1 burst targets (KA-033)"}, d.GetModifierReasons())
		// Margin 1: +1 + 12 = 13, soak 6: 7, two Ka dice.
		check(find(t, evs, (*kav1.Event).GetAttackResolved), want{1, 1, 12, 6, 2})
	})
	t.Run("two targets: −2", func(t *testing.T) {
		f := newFight(t, nil, tireur(), molosse(), brute())
		f.start()
		f.do(gm, burst("tireur", "chien", "brute"))
		f.do(gm, takeIt("chien"))
		d := find(t, f.do(gm, takeIt("brute")), (*kav1.Event).GetAttackDrawn).GetDraw()
		require.Equal(t, int32(-2), d.GetModifiers())
	})
	t.Run("at most five targets, and only with a sub-machine gun", func(t *testing.T) {
		f := newFight(t, nil, tireur(), molosse())
		f.start()
		f.refuse(gm, burst("tireur", "chien", "a", "b", "c", "d", "e"), engine.CodePrecondition, "KA-033", "5")
		cmd := burst("tireur", "chien")
		cmd.GetKa().GetAttack().Weapon = "pistolet"
		f.refuse(gm, cmd, engine.CodePrecondition, "KA-033", "pistolet")
	})
}

// KA-034: terror is the Maître de Ka's call: a draw of Animalité + encaissement with his
// malus, no action spent; a failure under Animalité × 3 enters Abysse (see KA-T05).
func TestKA034TerrorIsTheGMsCall(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start(denier(5))
	f.refuse(player, terror("joshua", -3), engine.CodePermission, "")
	td := find(t, f.do(gm, terror("joshua", -3)), (*kav1.Event).GetTerrorDrawn)
	require.True(t, td.GetAbysse())
	require.Equal(t, []int32{2, 0}, []int32{f.cs("joshua").GetActionsLeft(), f.cs("joshua").GetActionsTaken()})
	// Abysse stays: a later success does not undo it.
	f.do(gm, terror("joshua", 20))
	require.True(t, f.cs("joshua").GetAbysse())
}

// The options (KA-001 deck, KA-003 reshuffle, KA-006 success_levels/success_bonus, KA-013
// parry, KA-024 ka_table) are recorded at creation with every default filled in.
func TestOptionsRecordedAtCreation(t *testing.T) {
	f := newFight(t, nil)
	want := &kav1.Options{Deck: "tarot56", Reshuffle: "on_empty", SuccessLevels: []int32{10, 20}, SuccessBonus: []int32{1, 5, 10}, KaTable: []int32{5, 10, 15, 20}}
	require.True(t, proto.Equal(want, f.Log[0].GetEncounterCreated().GetOptions().GetKa()), "%v", f.Log[0].GetEncounterCreated().GetOptions())
	house := &kav1.Options{Reshuffle: "every_draw", SuccessLevels: []int32{5, 15, 25}, SuccessBonus: []int32{2, 4, 8, 16}, KaTable: []int32{4, 8}, Parry: true}
	g := newFight(t, house)
	got := g.Log[0].GetEncounterCreated().GetOptions().GetKa()
	house.Deck = "tarot56"
	require.True(t, proto.Equal(house, got), "%v", got)
	lvl, bonus := ka.Level(got, 25)
	require.Equal(t, []int32{4, 16}, []int32{lvl, bonus})
	require.Equal(t, int32(3), ka.New(ka.Latest).KaLost(got, 9))

	b := blank(t)
	b.refuse(gm, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "x", RuleSystem: "ka", Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{}},
	}}}, engine.CodeInvalid, "")
}

// The descriptor names the options as the catalogue does (KA-013 parry, KA-024 ka_table, with
// their defaults) and the actions of the flow: declare, answer (dodge, parry, take it), pick up.
func TestDescribeNamesTheOptionsAndActions(t *testing.T) {
	d := ka.New(ka.Latest).Describe()
	opts := map[string]string{}
	for _, o := range d.GetOptions() {
		opts[o.GetName()] = o.GetDefaultValue()
	}
	require.Equal(t, map[string]string{"deck": "tarot56", "reshuffle": "on_empty", "success_levels": "10,20", "success_bonus": "1,5,10",
		"ka_table": "5,10,15,20", "parry": "false"}, opts)
	var actions []string
	for _, a := range d.GetActions() {
		actions = append(actions, a.GetName()+" "+a.GetRule())
	}
	for _, want := range []string{"attack KA-020", "dodge KA-013", "parry KA-013", "disarm KA-032", "pick up KA-032", "burst KA-033"} {
		require.Contains(t, actions, want)
	}
}
