package ka_test

import (
	"testing"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The fight of Joshua and the dog, KA-T01 to KA-T05, in one encounter: the dice take the
// cards of the seed's example from the cards left (KA-003), then the death draw's card
// (KA-025), the gun butt's 4 and the 5 de denier of the terror draw.
func TestJoshuaAndTheDog(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	evs := f.start()

	// KA-003: the deck is whole, 56 cards in no order; nothing is rolled yet.
	sh := find(t, evs, (*kav1.Event).GetDeckShuffled)
	require.Equal(t, []any{int32(56), 0, 0}, []any{sh.GetCards(), len(sh.GetOrder()), len(sh.GetRolls())})
	require.Equal(t, int32(56), f.ka().GetDeckCount())
	require.Zero(t, f.St.GetDiceOffset())

	// KA-T01 (KA-010, KA-014): Joshua (lowest sphere 2) has 2 actions, the dog (lowest
	// sphere 1) 1; with Animalité 4 against 3, Joshua acts first.
	rs := find(t, evs, (*kav1.Event).GetRoundStarted)
	require.Equal(t, int32(1), rs.GetRound())
	require.Equal(t, map[string]int32{"joshua": 2, "chien": 1}, rs.GetActions())
	f.refuse(gm, attack("chien", "joshua", "crocs", 0), engine.CodePrecondition, "KA-014", "Joshua", "Le chien")

	// KA-T02 (KA-020): Joshua declares his shot; the dog announces that it dodges; only then
	// are the cards drawn, Joshua's first.
	evs = f.do(player, attack("joshua", "chien", "pistolet", -2))
	decl := find(t, evs, (*kav1.Event).GetAttackDeclared)
	require.Equal(t, []string{"chien"}, decl.GetPendingIds())
	none(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Empty(t, f.ka().GetDiscard(), "no card is drawn before the dog answers")
	require.Equal(t, "chien", f.St.GetPending()[0].GetCombatantId())
	require.Equal(t, []int32{1, 1}, []int32{f.cs("joshua").GetActionsLeft(), f.cs("joshua").GetActionsTaken()}, "the declaration is Joshua's action")

	// Joshua draws: Humanité 3 + Arme à feu 4 − 2 for proximity, a 6: 11. The 6 d'épée is
	// the 48th of the 56 cards (bâton, coupe, denier, épée; ace to roi), the 10 d'épée the
	// 51st of the 55 left.
	faces := f.pick(epee(6), epee(10))
	require.Equal(t, []int32{48, 51}, faces)
	evs = f.do(gm, dodge("chien"), faces...)
	require.Equal(t, "chien", find(t, evs, (*kav1.Event).GetDefenceAnnounced).GetDefenderId())
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	d := ad.GetDraw()
	require.Equal(t, []any{ka.Humanite, int32(3), "Arme à feu", int32(4), int32(-2), int32(11)},
		[]any{d.GetSphere(), d.GetSphereValue(), d.GetSkill(), d.GetSkillValue(), d.GetModifiers(), d.GetTotal()})
	requireCards(t, []*kav1.Card{epee(6)}, cardsOf(d))
	require.Equal(t, []int32{0}, d.GetDraw().GetPositions())
	require.Equal(t, []any{"1d56", int32(48)}, []any{d.GetDraw().GetRolls()[0].GetExpression(), d.GetDraw().GetRolls()[0].GetTotal()})
	lvl, bonus := ka.Level(f.St.GetOptions().GetKa(), d.GetTotal()-ka.New(ka.Latest).Numbers().SimpleThreshold)
	require.Equal(t, []int32{1, 1}, []int32{lvl, bonus}, "11 is a normal success")
	require.True(t, ad.GetDefencePossible())
	require.True(t, ad.GetDeclared())

	// The dog dodges, Humanité 1 + Esquive 4, draws the 10: 15, a normal success; it wins.
	dd := find(t, evs, (*kav1.Event).GetDefenceDrawn)
	d = dd.GetDraw()
	require.Equal(t, []any{ka.Humanite, int32(1), "Esquive", int32(4), int32(0), int32(15)},
		[]any{d.GetSphere(), d.GetSphereValue(), d.GetSkill(), d.GetSkillValue(), d.GetModifiers(), d.GetTotal()})
	requireCards(t, []*kav1.Card{epee(10)}, cardsOf(d))
	require.Equal(t, []int32{1}, d.GetDraw().GetPositions())
	require.Equal(t, []any{"1d55", int32(51)}, []any{d.GetDraw().GetRolls()[0].GetExpression(), d.GetDraw().GetRolls()[0].GetTotal()})
	lvl, _ = ka.Level(f.St.GetOptions().GetKa(), d.GetTotal()-ka.New(ka.Latest).Numbers().SimpleThreshold)
	require.Equal(t, int32(1), lvl, "15 is a normal success")
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.False(t, res.GetSuccess())
	require.Zero(t, res.GetKaLost())
	require.Equal(t, int32(2), f.cs("chien").GetKaDice(), "no damage")
	require.Zero(t, f.cs("chien").GetActionsLeft(), "the dog has used its only action")
	// No one else may act in this pass: the second pass begins.
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())

	// KA-T03: the second shot, 3 + 4 − 1 (second action) − 2 = 4, valet de bâton then 9 de
	// coupe: 23, a great success; the dog has no action left: no defence. The dog's death
	// draw follows, a 3 de denier.
	faces = f.pick(baton(valet), coupe(9), denier(3))
	require.Equal(t, []int32{11, 22, 29}, faces)
	evs = f.do(player, attack("joshua", "chien", "pistolet", -2), faces...)
	ad = find(t, evs, (*kav1.Event).GetAttackDrawn)
	d = ad.GetDraw()
	require.Equal(t, int32(-3), d.GetModifiers())
	require.Equal(t, int32(4), d.GetSphereValue()+d.GetSkillValue()+d.GetModifiers())
	requireCards(t, []*kav1.Card{baton(valet), coupe(9)}, cardsOf(d))
	require.Equal(t, []int32{2, 3}, d.GetDraw().GetPositions())
	require.Equal(t, []string{"1d54", "1d53"}, expressions(d.GetDraw()))
	require.Equal(t, int32(19), d.GetDraw().GetValue())
	require.Equal(t, int32(23), d.GetTotal())
	require.False(t, ad.GetDefencePossible())
	require.Contains(t, ad.GetNoDefenceReason(), "KA-012")
	require.Empty(t, f.St.GetPending())
	// Damage 5 + 8 = 13, soak Humanité 1 + encaissement 3 = 4: 9, two Ka dice; the dog had
	// two: it makes its death draw.
	res = find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{13, 2, 5, 8, 13, 4, 2, 0}, []int32{res.GetMargin(), res.GetLevel(), res.GetBonus(),
		res.GetWeaponDamage(), res.GetDamage(), res.GetSoak(), res.GetKaLost(), res.GetKaLeft()})
	require.True(t, res.GetSuccess())
	require.True(t, res.GetDying())
	requireCards(t, []*kav1.Card{denier(3)}, cardsOf(res.GetDeathDraw()))
	require.Equal(t, []int32{4}, res.GetDeathDraw().GetDraw().GetPositions())
	require.Equal(t, int32(3), res.GetDeathDraw().GetTotal())
	require.Zero(t, f.cs("chien").GetKaDice())
	require.True(t, f.cs("chien").GetDying())
	// Everyone has used its actions: round 2, without the dog, which is out of the fight.
	rs = find(t, evs, (*kav1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Equal(t, map[string]int32{"joshua": 2}, rs.GetActions())

	// KA-T04: Joshua stuns with his gun butt, Animalité 4 + Bagarre 2 + 3, draws a 4: 13, a
	// normal success; the dog does not dodge; it loses 1 + 3 = 4 points de réalité, which is
	// below its seuil of (1 + 3) × 3 = 12 (KA-026; the seed's example computes 9).
	evs = f.do(player, stun("joshua", "chien", "crosse", 3), f.pick(baton(4))...)
	ad = find(t, evs, (*kav1.Event).GetAttackDrawn)
	d = ad.GetDraw()
	require.Equal(t, []any{ka.Animalite, int32(4), "Bagarre", int32(2), int32(3), int32(13)},
		[]any{d.GetSphere(), d.GetSphereValue(), d.GetSkill(), d.GetSkillValue(), d.GetModifiers(), d.GetTotal()})
	requireCards(t, []*kav1.Card{baton(4)}, cardsOf(d))
	require.False(t, ad.GetDefencePossible())
	res = find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{3, 1, 1, 3, 4, 0, 4, 6, 0}, []int32{res.GetMargin(), res.GetLevel(), res.GetBonus(),
		res.GetWeaponDamage(), res.GetDamage(), res.GetSoak(), res.GetRealityLost(), res.GetRealityLeft(), res.GetKaLost()})
	require.Equal(t, int32(12), ka.New(ka.Latest).Seuil(dog().GetKa()))
	require.False(t, res.GetUnconscious(), "4 points are below the seuil of 12")
	require.Nil(t, res.GetDeathDraw(), "the dog had no Ka die left to lose")
	require.Equal(t, int32(6), f.cs("chien").GetRealityPoints())

	// KA-T05: terror, Animalité 4 + encaissement 3, a 5 de denier, the GM's −3: 9, a failure,
	// and 9 < 4 × 3 = 12: Abysse.
	f.refuse(player, terror("joshua", -3), engine.CodePermission, "")
	evs = f.do(gm, terror("joshua", -3), f.pick(denier(5))...)
	td := find(t, evs, (*kav1.Event).GetTerrorDrawn)
	d = td.GetDraw()
	require.Equal(t, []any{ka.Animalite, int32(4), int32(0), int32(9)}, []any{d.GetSphere(), d.GetSphereValue(), d.GetModifiers(), d.GetTotal()})
	require.Equal(t, []string{"+3 encaissement", "-3 situation"}, d.GetModifierReasons())
	requireCards(t, []*kav1.Card{denier(5)}, cardsOf(d))
	require.True(t, td.GetAbysse())
	require.True(t, f.cs("joshua").GetAbysse())

	// Seven cards drawn, in order, to the discard pile.
	requireCards(t, []*kav1.Card{epee(6), epee(10), baton(valet), coupe(9), denier(3), baton(4), denier(5)}, f.ka().GetDiscard())
	require.Equal(t, []int32{49, 7}, []int32{f.ka().GetDeckCount(), f.ka().GetPosition()})
	f.replays()
}

// KA-T04 with a dog in full health that chooses not to dodge (KA-020, KA-030): the stun is a
// simple draw, 13, margin 3.
func TestKAT04StunUndodged(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start(baton(4))
	evs := f.do(player, stun("joshua", "chien", "crosse", 3))
	require.Equal(t, []string{"chien"}, find(t, evs, (*kav1.Event).GetAttackDeclared).GetPendingIds(), "the victim of a stun may dodge")
	evs = f.do(gm, takeIt("chien"))
	ann := find(t, evs, (*kav1.Event).GetDefenceAnnounced)
	require.False(t, ann.GetReact().GetDefend())
	none(t, evs, (*kav1.Event).GetDefenceDrawn)
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Equal(t, int32(13), ad.GetDraw().GetTotal())
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{3, 1, 4, 0, 4, 6, 0, 2}, []int32{res.GetMargin(), res.GetBonus(), res.GetDamage(),
		res.GetSoak(), res.GetRealityLost(), res.GetRealityLeft(), res.GetKaLost(), res.GetKaLeft()})
	require.False(t, res.GetUnconscious())
	require.Equal(t, int32(1), f.cs("chien").GetActionsLeft(), "not dodging costs no action (KA-013)")
	f.replays()
}

// KA-T05 alone, and the other sides of KA-034: a failure at or above Animalité × 3 and a
// success leave the character out of Abysse.
func TestKAT05Terror(t *testing.T) {
	cases := []struct {
		name   string
		card   *kav1.Card
		mod    int32
		total  int32
		abysse bool
	}{
		{"KA-T05: 4 + 3 + 5 − 3 = 9 < 12", denier(5), -3, 9, true},
		{"a success: 4 + 3 + 5 = 12", denier(5), 0, 12, false},
		{"a failure, 9, with Animalité 3: 9 is not below 9", denier(5), -3, 9, false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := joshua()
			if i == 2 {
				j = with(j, func(sh *kav1.Sheet) { sh.Spheres[ka.Animalite] = 3; sh.Encaissement = 4 })
			}
			f := newFight(t, nil, j, dog())
			f.start(c.card)
			td := find(t, f.do(gm, terror("joshua", c.mod)), (*kav1.Event).GetTerrorDrawn)
			require.Equal(t, c.total, td.GetDraw().GetTotal())
			require.Equal(t, c.abysse, td.GetAbysse())
			require.Equal(t, c.abysse, f.cs("joshua").GetAbysse())
			require.Equal(t, int32(2), f.cs("joshua").GetActionsLeft(), "a terror draw is not an action")
		})
	}
}

// The replay of the whole example draws the same cards: folding the log draws nothing (each
// draw records its cards), and deciding the next command on the folded state with the same
// rolls gives the same events (KA-003).
func TestExampleReplayDrawsTheSameCards(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start(epee(6), epee(10), baton(valet), coupe(9), denier(3))
	f.do(player, attack("joshua", "chien", "pistolet", -2))
	again, err := f.Reg.Fold(f.Log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(f.St), engine.Hash(again), "the declaration folds alike")
	f.do(gm, dodge("chien"))
	again, err = f.Reg.Fold(f.Log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(f.St), engine.Hash(again))
	faces := f.pick(baton(valet), coupe(9), denier(3))
	next := f.do(player, attack("joshua", "chien", "pistolet", -2), faces...)
	env := envFor(player)
	env.Dice = dice.NewFixed(faces...)
	replayed, err := f.Reg.Decide(again, attack("joshua", "chien", "pistolet", -2), env)
	require.NoError(t, err)
	require.Len(t, replayed, len(next))
	for i := range next {
		require.True(t, proto.Equal(next[i], replayed[i]), "event %d", i)
	}
}
