package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// molosse is the dog with 10 Ka dice, to see the damage whole.
func molosse() *encounterv1.Combatant {
	return with(dog(), func(sh *kav1.Sheet) { sh.KaDice = 10 })
}

// brute: an NPC of Animalité 4, as Joshua: tied initiative (KA-008, KA-014); lowest sphere 2;
// a knife of +4 (Animalité + Bagarre 3); soak against a shot Humanité 2 + encaissement 2.
func brute() *encounterv1.Combatant {
	return who("brute", "La brute", false, 4, 2, 2, map[string]int32{"Bagarre": 3, "Esquive": 1}, 2, 5, 10,
		weapon("couteau", ka.Animalite, "Bagarre", 4))
}

// shot: Joshua shoots (Humanité 3 + Arme à feu 4 + mod) at the target, which does not
// defend; the first cards of the deck are cards.
func shot(t *testing.T, opts *kav1.Options, mod int32, target func() *encounterv1.Combatant, cards ...*kav1.Card) (*fight, *kav1.AttackDrawn, *kav1.AttackResolved) {
	t.Helper()
	f := newFight(t, opts, joshua(), target())
	f.start(cards...)
	f.do(player, attack("joshua", target().GetId(), "pistolet", mod))
	evs := f.do(gm, takeIt(target().GetId()))
	return f, find(t, evs, (*kav1.Event).GetAttackDrawn), find(t, evs, (*kav1.Event).GetAttackResolved)
}

// KA-004: a draw's total is sphere + skill + modifiers + cards.
func TestKA004Total(t *testing.T) {
	_, ad, _ := shot(t, nil, 1, molosse, coupe(7))
	d := ad.GetDraw()
	require.Equal(t, int32(3), d.GetSphereValue())
	require.Equal(t, int32(4), d.GetSkillValue())
	require.Equal(t, int32(1), d.GetModifiers())
	require.Equal(t, []string{"+1 situation"}, d.GetModifierReasons())
	require.Equal(t, int32(7), d.GetDraw().GetValue())
	require.Equal(t, int32(3+4+1+7), d.GetTotal())
}

// KA-005: with no opposition the margin is total − 10: 9 fails, 10 and 11 succeed.
func TestKA005SimpleAction(t *testing.T) {
	for _, c := range []struct {
		card          *kav1.Card
		total, margin int32
		success       bool
		level, kaLost int32
	}{
		{coupe(2), 9, -1, false, 0, 0},
		{coupe(3), 10, 0, true, 1, 1}, // 1 + 8 − 4 = 5: one Ka die
		{coupe(4), 11, 1, true, 1, 1},
	} {
		_, ad, res := shot(t, nil, 0, molosse, c.card)
		require.Equal(t, c.total, ad.GetDraw().GetTotal())
		require.Equal(t, []any{c.margin, c.success, c.level, c.kaLost}, []any{res.GetMargin(), res.GetSuccess(), res.GetLevel(), res.GetKaLost()}, "total %d", c.total)
	}
}

// KA-006: success levels by margin, < 0 failure, 0–9 normal (+1), 10–19 great (+5), 20+
// exceptional (+10); the option success_levels/success_bonus changes them.
func TestKA006SuccessLevels(t *testing.T) {
	def, err := ka.New(ka.Latest).Options(nil)
	require.NoError(t, err)
	o := def.GetKa()
	require.Equal(t, []int32{10, 20}, o.GetSuccessLevels())
	require.Equal(t, []int32{1, 5, 10}, o.GetSuccessBonus())
	for _, c := range []struct{ margin, level, bonus int32 }{
		{-1, 0, 0}, {0, 1, 1}, {9, 1, 1}, {10, 2, 5}, {19, 2, 5}, {20, 3, 10}, {35, 3, 10},
	} {
		lvl, bonus := ka.Level(o, c.margin)
		require.Equal(t, []int32{c.level, c.bonus}, []int32{lvl, bonus}, "margin %d", c.margin)
	}

	// Through the engine: the shot is 7 + cards, the soak of the dog against it 4.
	house := &kav1.Options{SuccessLevels: []int32{5, 15}, SuccessBonus: []int32{2, 6, 12}}
	for _, c := range []struct {
		name         string
		opts         *kav1.Options
		cards        []*kav1.Card
		margin       int32
		level, bonus int32
		kaLost       int32
	}{
		{"margin 9, normal", nil, []*kav1.Card{baton(valet), baton(2)}, 9, 1, 1, 1},                                           // 9 − 4 = 5
		{"margin 10, great", nil, []*kav1.Card{baton(valet), baton(3)}, 10, 2, 5, 2},                                          // 13 − 4 = 9
		{"margin 19, great", nil, []*kav1.Card{baton(valet), baton(cavalier), baton(2)}, 19, 2, 5, 2},                         // 9
		{"margin 20, exceptional", nil, []*kav1.Card{baton(valet), baton(cavalier), baton(3)}, 20, 3, 10, 3},                  // 14
		{"house rules: margin 9 is great", house, []*kav1.Card{baton(valet), baton(2)}, 9, 2, 6, 2},                           // 10
		{"house rules: margin 20 is exceptional", house, []*kav1.Card{baton(valet), baton(cavalier), baton(3)}, 20, 3, 12, 4}, // 16
		{"house rules: margin 4 is normal", house, []*kav1.Card{baton(7)}, 4, 1, 2, 2},                                        // 6
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _, res := shot(t, c.opts, 0, molosse, c.cards...)
			require.Equal(t, []int32{c.margin, c.level, c.bonus, 8, c.bonus + 8, 4, c.kaLost},
				[]int32{res.GetMargin(), res.GetLevel(), res.GetBonus(), res.GetWeaponDamage(), res.GetDamage(), res.GetSoak(), res.GetKaLost()})
			if c.opts != nil {
				created := f.Log[0].GetEncounterCreated().GetOptions().GetKa()
				require.Equal(t, []int32{5, 15}, created.GetSuccessLevels(), "recorded at creation")
				require.Equal(t, []int32{2, 6, 12}, created.GetSuccessBonus())
			}
		})
	}

	b := blank(t)
	b.refuse(gm, createCmd(&kav1.Options{SuccessLevels: []int32{10, 20}, SuccessBonus: []int32{1, 5}}), engine.CodeInvalid, "KA-006")
	b.refuse(gm, createCmd(&kav1.Options{SuccessLevels: []int32{20, 10}, SuccessBonus: []int32{1, 5, 10}}), engine.CodeInvalid, "KA-006")
}

// KA-007: in an opposed draw the attacker wins only with a total ≥ 10 strictly above the
// defender's; its margin is its total − max(defender's total, 10); a tie goes to the defender.
func TestKA007OpposedDraw(t *testing.T) {
	for _, c := range []struct {
		name          string
		att, def      *kav1.Card
		total, dodge  int32
		success       bool
		margin, bonus int32
	}{
		{"KA-T02: 11 against 15", coupe(4), coupe(10), 11, 15, false, 0, 0},
		{"a tie goes to the defender", coupe(8), coupe(10), 15, 15, false, 0, 0},
		{"9 beats 6 but is below 10", coupe(2), baton(1), 9, 6, false, 0, 0},
		{"23 against 15: margin 8", epee(valet), coupe(10), 23, 15, true, 8, 1},
		{"23 against 7: margin 23 − 10", epee(valet), coupe(2), 23, 7, true, 13, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, joshua(), molosse())
			top := []*kav1.Card{c.att}
			if c.att.GetRank() > 10 {
				top = append(top, epee(6))
			}
			f.start(append(top, c.def)...)
			f.do(player, attack("joshua", "chien", "pistolet", 0))
			evs := f.do(gm, dodge("chien"))
			require.Equal(t, c.total, find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw().GetTotal())
			require.Equal(t, c.dodge, find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
			res := find(t, evs, (*kav1.Event).GetAttackResolved)
			require.Equal(t, c.success, res.GetSuccess())
			if c.success {
				require.Equal(t, []int32{c.margin, c.bonus, c.bonus + 8}, []int32{res.GetMargin(), res.GetBonus(), res.GetDamage()})
			} else {
				require.Zero(t, res.GetKaLost())
				require.Equal(t, int32(10), f.cs("chien").GetKaDice())
			}
		})
	}
}

// KA-008: with tied initiative the defender may attack back (each spends an action); only the
// winner of the opposition succeeds, with its own margin (total − 10); equal totals: both
// fail.
func TestKA008AttackBack(t *testing.T) {
	t.Run("the attacker wins with its whole margin", func(t *testing.T) {
		f := newFight(t, nil, joshua(), brute())
		f.start(epee(valet), epee(6), coupe(8))
		f.do(player, attack("joshua", "brute", "pistolet", 0)) // 7 + 16 = 23
		legal, err := f.Reg.Legal(f.St, "brute")
		require.NoError(t, err)
		require.Contains(t, legalNames(legal), "attack back")
		evs := f.do(gm, attackBack("brute", "couteau")) // Animalité 4 + Bagarre 3 + 8 = 15
		dd := find(t, evs, (*kav1.Event).GetDefenceDrawn)
		require.True(t, dd.GetAttackedBack())
		require.Equal(t, []any{ka.Animalite, int32(15)}, []any{dd.GetDraw().GetSphere(), dd.GetDraw().GetTotal()})
		rs := all(evs, (*kav1.Event).GetAttackResolved)
		require.Len(t, rs, 2)
		// Joshua's margin is 23 − 10 = 13 (a great success), not 23 − 15.
		require.Equal(t, []any{"joshua", "brute", true, int32(13), int32(5), int32(13), int32(4), int32(2), int32(3)},
			[]any{rs[0].GetAttackerId(), rs[0].GetTargetId(), rs[0].GetSuccess(), rs[0].GetMargin(), rs[0].GetBonus(), rs[0].GetDamage(), rs[0].GetSoak(), rs[0].GetKaLost(), rs[0].GetKaLeft()})
		require.Equal(t, []any{"brute", "joshua", false}, []any{rs[1].GetAttackerId(), rs[1].GetTargetId(), rs[1].GetSuccess()})
		require.Contains(t, rs[1].GetNote(), "KA-008")
		require.Equal(t, int32(5), f.cs("joshua").GetKaDice())
		// Each spent an action; both have acted in this pass: the second pass begins.
		require.Equal(t, []int32{1, 1}, []int32{f.cs("joshua").GetActionsLeft(), f.cs("brute").GetActionsLeft()})
		require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())
		f.replays()
	})
	t.Run("the defender wins", func(t *testing.T) {
		f := newFight(t, nil, joshua(), brute())
		f.start(epee(4), coupe(valet), coupe(9))
		f.do(player, attack("joshua", "brute", "pistolet", 0)) // 11
		evs := f.do(gm, attackBack("brute", "couteau"))        // 7 + 19 = 26
		rs := all(evs, (*kav1.Event).GetAttackResolved)
		require.Len(t, rs, 2)
		require.Equal(t, []any{"joshua", false}, []any{rs[0].GetAttackerId(), rs[0].GetSuccess()})
		require.Equal(t, int32(5), f.cs("brute").GetKaDice(), "Joshua's shot has no effect")
		// The brute's margin is 26 − 10 = 16: +5 + 4 = 9, soak Animalité 4 + 3 = 7: 2, one Ka die.
		require.Equal(t, []any{"brute", "joshua", true, int32(16), int32(5), int32(9), int32(7), int32(1)},
			[]any{rs[1].GetAttackerId(), rs[1].GetTargetId(), rs[1].GetSuccess(), rs[1].GetMargin(), rs[1].GetBonus(), rs[1].GetDamage(), rs[1].GetSoak(), rs[1].GetKaLost()})
		require.Equal(t, int32(4), f.cs("joshua").GetKaDice())
	})
	t.Run("equal totals: both fail", func(t *testing.T) {
		f := newFight(t, nil, joshua(), brute())
		f.start(epee(8), coupe(8))
		f.do(player, attack("joshua", "brute", "pistolet", 0)) // 15
		evs := f.do(gm, attackBack("brute", "couteau"))        // 15
		rs := all(evs, (*kav1.Event).GetAttackResolved)
		require.Len(t, rs, 2)
		for _, r := range rs {
			require.False(t, r.GetSuccess())
			require.Contains(t, r.GetNote(), "both fail")
		}
		require.Equal(t, []int32{5, 5}, []int32{f.cs("joshua").GetKaDice(), f.cs("brute").GetKaDice()})
		require.Equal(t, []int32{1, 1}, []int32{f.cs("joshua").GetActionsLeft(), f.cs("brute").GetActionsLeft()})
	})
	t.Run("the winner still needs 10", func(t *testing.T) {
		f := newFight(t, nil, joshua(), brute())
		f.start(epee(2), coupe(1))
		f.do(player, attack("joshua", "brute", "pistolet", 0)) // 9
		evs := f.do(gm, attackBack("brute", "couteau"))        // 8
		for _, r := range all(evs, (*kav1.Event).GetAttackResolved) {
			require.False(t, r.GetSuccess())
		}
		require.Equal(t, int32(5), f.cs("brute").GetKaDice())
	})
	t.Run("only with tied Animalité", func(t *testing.T) {
		f := newFight(t, nil, joshua(), dog())
		f.start()
		f.do(player, attack("joshua", "chien", "pistolet", 0))
		legal, err := f.Reg.Legal(f.St, "chien")
		require.NoError(t, err)
		require.NotContains(t, legalNames(legal), "attack back")
		f.refuse(gm, attackBack("chien", "crocs"), engine.CodePrecondition, "KA-008", "Le chien")
	})
}
