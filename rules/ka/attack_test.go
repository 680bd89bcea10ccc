package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// KA-018: the sphere of an attack depends on its kind: a shot Humanité + Arme à feu, a blow of
// the gun butt Animalité + Bagarre (the weapon's data); a weapon needs a sphere of the sheet.
func TestKA018SphereOfTheAttack(t *testing.T) {
	for _, c := range []struct {
		weapon, sphere, skill string
		total                 int32
	}{
		{"pistolet", ka.Humanite, "Arme à feu", 3 + 4 + 2},
		{"crosse", ka.Animalite, "Bagarre", 4 + 2 + 2},
	} {
		f := newFight(t, nil, joshua(), dog())
		f.start(coupe(2))
		f.do(player, attack("joshua", "chien", c.weapon, 0))
		d := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackDrawn).GetDraw()
		require.Equal(t, []any{c.sphere, c.skill, c.total}, []any{d.GetSphere(), d.GetSkill(), d.GetTotal()})
	}
	b := newFight(t, nil)
	b.refuse(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { sh.Weapons[0].Sphere = "Démence" })), engine.CodeInvalid, "KA-018", "Démence")
	b.refuse(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { delete(sh.Spheres, ka.Humanite) })), engine.CodeInvalid, "KA-018", ka.Humanite)
	b.refuse(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { delete(sh.Spheres, ka.Animalite) })), engine.CodeInvalid, "KA-014", ka.Animalite)
	b.refuse(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { delete(sh.Spheres, third) })), engine.CodeInvalid, "KA-010")
}

// KA-020: the attacker declares, the defender announces whether it defends, and only then are
// the cards drawn; until it answers, nothing else happens. No defence: a simple draw (KA-005);
// a defence: an opposed draw.
func TestKA020DeclareThenDefend(t *testing.T) {
	f := newFight(t, nil, joshua(), gorille())
	f.start(coupe(5), coupe(1))
	f.refuse(player, takeIt("joshua"), engine.CodePrecondition, "KA-020")
	evs := f.do(player, attack("joshua", "gorille", "pistolet", 0))
	// The declaration draws no card: the deck is where it was, and the gorilla answers
	// without knowing Joshua's total (the draw came first before, at deck position 1).
	require.Len(t, evs, 1)
	decl := find(t, evs, (*kav1.Event).GetAttackDeclared)
	require.Equal(t, []any{"joshua", "gorille", "pistolet"}, []any{decl.GetAttackerId(), decl.GetAttack().GetTargetId(), decl.GetAttack().GetWeapon()})
	require.Zero(t, f.ka().GetPosition())
	require.Equal(t, int32(56), f.ka().GetDeckCount())
	require.Len(t, f.St.GetPending(), 1)
	p := f.St.GetPending()[0]
	require.Equal(t, []string{"gorille", gm}, []string{p.GetCombatantId(), p.GetController()})
	require.Equal(t, "joshua declares an attack on Le gorille: defend (one action) or not, before any card is drawn", p.GetPrompt())
	legal, err := f.Reg.Legal(f.St, "gorille")
	require.NoError(t, err)
	require.Equal(t, []string{"take it", "dodge"}, legalNames(legal))
	legal, err = f.Reg.Legal(f.St, "joshua")
	require.NoError(t, err)
	require.Empty(t, legal, "the attacker waits for the answer")
	f.refuse(gm, attack("gorille", "joshua", "poing", 0), engine.CodePrecondition, "KA-020", "Le gorille")
	f.refuse(player, takeIt("joshua"), engine.CodePrecondition, "KA-020", "gorille")
	f.refuse(player, takeIt("gorille"), engine.CodePermission, "")
	f.refuse(gm, react("gorille", &kav1.React{Defend: true, AttackBack: true}), engine.CodeInvalid, "KA-020", "Le gorille")
	f.refuse(gm, react("gorille", &kav1.React{Weapon: "poing"}), engine.CodeInvalid, "KA-020", "Le gorille")
	// The answer is recorded, then the draws follow in the same step.
	evs = f.do(gm, takeIt("gorille"))
	require.Len(t, evs, 3)
	ann := evs[0].GetKa().GetDefenceAnnounced()
	require.Equal(t, "gorille", ann.GetDefenderId())
	require.False(t, ann.GetReact().GetDefend())
	ad := evs[1].GetKa().GetAttackDrawn()
	require.Equal(t, int32(12), ad.GetDraw().GetTotal())
	require.Equal(t, []int32{0}, ad.GetDraw().GetDraw().GetPositions())
	res := evs[2].GetKa().GetAttackResolved()
	require.Equal(t, int32(2), res.GetMargin(), "a simple draw: 12 − 10")
	require.Empty(t, f.St.GetPending())
	require.Nil(t, f.ka().GetPending())
	f.replays()
}

// KA-020: the defender commits to its dodge before the cards: against a shot that fails anyway
// (7 + 1 = 8) the gorilla's dodge still takes its action; it could not see the 8 first.
func TestKA020DodgeBeforeTheCards(t *testing.T) {
	f := newFight(t, nil, joshua(), gorille())
	f.start(coupe(1), coupe(2))
	f.do(player, attack("joshua", "gorille", "pistolet", 0))
	evs := f.do(gm, dodge("gorille"))
	require.Equal(t, int32(8), find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw().GetTotal())
	require.Equal(t, int32(3+2+2), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	require.False(t, find(t, evs, (*kav1.Event).GetAttackResolved).GetSuccess())
	require.Equal(t, []int32{2, 1}, []int32{f.cs("gorille").GetActionsLeft(), f.cs("gorille").GetActionsTaken()})
	f.replays()
}

// KA-020 with KA-015: the GM removes the last target of a burst still to answer; the others have
// answered: the draws are made at once. Removing the attacker drops the attack.
func TestKA020RemovalOfTheLastToAnswer(t *testing.T) {
	remove := func(id string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}}
	}
	f := newFight(t, nil, tireur(), joshua(), molosse())
	f.start(coupe(9), coupe(3))
	f.do(gm, burst("tireur", "chien", "joshua"))
	f.do(gm, dodge("chien"))
	require.Equal(t, "joshua", f.St.GetPending()[0].GetCombatantId())
	evs := f.do(gm, remove("joshua"))
	// Animalité 5 + Arme à feu 3 − 2 targets + 9 = 15 against the dog's 3 + 4 + 3 = 10.
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Equal(t, []any{"chien", int32(15), true}, []any{ad.GetTargetId(), ad.GetDraw().GetTotal(), ad.GetDeclared()})
	require.Equal(t, int32(10), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []any{"chien", true, int32(5), int32(6)}, []any{res.GetTargetId(), res.GetSuccess(), res.GetMargin(), res.GetWeaponDamage()})
	require.Nil(t, f.ka().GetPending())
	f.replays()

	g := newFight(t, nil, tireur(), joshua(), molosse())
	g.start()
	g.do(gm, burst("tireur", "chien", "joshua"))
	g.do(gm, takeIt("chien"))
	evs = g.do(gm, remove("tireur"))
	none(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Nil(t, g.ka().GetPending())
	require.Empty(t, g.St.GetPending())
	require.Zero(t, g.ka().GetPosition())
	g.replays()

	h := newFight(t, nil, joshua(), molosse(), gorille())
	h.start()
	h.do(player, attack("joshua", "chien", "pistolet", 0))
	evs = h.do(gm, remove("chien"))
	none(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Nil(t, h.ka().GetPending(), "no target left: the attack falls")
	h.replays()
}

// KA-021: if the defender wins, the attack has no effect. KA-028: if it loses, the damage is
// soaked just as when it does not defend.
func TestKA021And028DefenceAndSoak(t *testing.T) {
	t.Run("KA-021 the defender wins", func(t *testing.T) {
		f := newFight(t, nil, joshua(), molosse())
		f.start(epee(valet), epee(1), coupe(valet), coupe(3))
		f.do(player, attack("joshua", "chien", "pistolet", 0)) // 7 + 11 = 18
		res := find(t, f.do(gm, dodge("chien")), (*kav1.Event).GetAttackResolved)
		require.False(t, res.GetSuccess(), "the dog's 1 + 4 + 13 = 18 ties: the defender wins")
		require.Contains(t, res.GetNote(), "KA-021")
		require.Equal(t, []int32{0, 0, 0}, []int32{res.GetDamage(), res.GetKaLost(), res.GetRealityLost()})
		require.Equal(t, []int32{10, 10}, []int32{f.cs("chien").GetKaDice(), f.cs("chien").GetRealityPoints()})
	})
	for _, defends := range []bool{true, false} {
		name := "KA-028 soaked after a failed dodge"
		if !defends {
			name = "KA-028 soaked without a dodge"
		}
		t.Run(name, func(t *testing.T) {
			f := newFight(t, nil, joshua(), molosse())
			f.start(epee(valet), epee(9), coupe(1)) // 26 against 6
			f.do(player, attack("joshua", "chien", "pistolet", 0))
			cmd := takeIt("chien")
			if defends {
				cmd = dodge("chien")
			}
			res := find(t, f.do(gm, cmd), (*kav1.Event).GetAttackResolved)
			require.Equal(t, []int32{16, 5, 13, 4, 2}, []int32{res.GetMargin(), res.GetBonus(), res.GetDamage(), res.GetSoak(), res.GetKaLost()})
		})
	}
}

// KA-022: damage = the success level's bonus + the weapon's damage. KA-035: the weapon's
// damage (handgun +8, gun butt +3) and the protection are data of the sheets.
func TestKA022And035Damage(t *testing.T) {
	for _, c := range []struct {
		name          string
		weapon        string
		edit          func(*kav1.Sheet)
		cards         []*kav1.Card
		margin        int32
		bonus, damage int32
	}{
		{"handgun +8, normal success", "pistolet", nil, []*kav1.Card{coupe(3)}, 0, 1, 9},               // 3 + 4 + 3 = 10
		{"handgun +8, great success", "pistolet", nil, []*kav1.Card{coupe(dame), coupe(5)}, 12, 5, 13}, // 7 + 15 = 22
		{"gun butt +3, normal success", "crosse", nil, []*kav1.Card{coupe(4)}, 0, 1, 4},                // 4 + 2 + 4 = 10
		{"a handgun of +10 by the table's data", "pistolet", func(sh *kav1.Sheet) { sh.Weapons[0].Damage = 10 }, []*kav1.Card{coupe(3)}, 0, 1, 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := joshua()
			if c.edit != nil {
				j = with(j, c.edit)
			}
			f := newFight(t, nil, j, molosse())
			f.start(c.cards...)
			f.do(player, attack("joshua", "chien", c.weapon, 0))
			res := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
			require.Equal(t, []int32{c.margin, c.bonus, c.damage, c.damage - c.bonus}, []int32{res.GetMargin(), res.GetBonus(), res.GetDamage(), res.GetWeaponDamage()})
		})
	}
}

// KA-023: soak = the sphere the attack uses + encaissement + protection, subtracted from the
// damage, at least 0.
func TestKA023Soak(t *testing.T) {
	armoured := func() *encounterv1.Combatant {
		return with(molosse(), func(sh *kav1.Sheet) { sh.Protection = 2 })
	}
	for _, c := range []struct {
		weapon               string
		card                 *kav1.Card
		damage, soak, kaLost int32
	}{
		{"pistolet", coupe(5), 9, 1 + 3 + 2, 1}, // 12: margin 2; 9 − 6 = 3
		{"crosse", coupe(5), 4, 3 + 3 + 2, 0},   // 11: margin 1; 4 − 8 < 0: nothing
	} {
		f := newFight(t, nil, joshua(), armoured())
		f.start(c.card)
		f.do(player, attack("joshua", "chien", c.weapon, 0))
		res := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
		require.True(t, res.GetSuccess())
		require.Equal(t, []int32{c.damage, c.soak, c.kaLost}, []int32{res.GetDamage(), res.GetSoak(), res.GetKaLost()}, c.weapon)
		require.Equal(t, 10-c.kaLost, f.cs("chien").GetKaDice())
	}
}

// KA-024: damage after soak converts to Ka dice by the option ka_table, a list of upper bounds,
// one per die; the default 5, 10, 15, 20 is ceil(damage / 5), going on by 5 beyond 20.
func TestKA024KaTable(t *testing.T) {
	def, err := ka.New(ka.Latest).Options(nil)
	require.NoError(t, err)
	require.Equal(t, []int32{5, 10, 15, 20}, def.GetKa().GetKaTable())
	for dmg := int32(-3); dmg <= 60; dmg++ {
		require.Equal(t, max(0, (dmg+4)/5), ka.New(ka.Latest).KaLost(def.GetKa(), dmg), "damage %d: ceil(damage / 5)", dmg)
	}
	// A table of uneven steps: 1–4 → 1, 5–10 → 2, 11–20 → 3, then one more per 10.
	uneven := &kav1.Options{KaTable: []int32{4, 10, 20}}
	for dmg, want := range map[int32]int32{1: 1, 4: 1, 5: 2, 10: 2, 11: 3, 20: 3, 21: 4, 30: 4, 31: 5} {
		require.Equal(t, want, ka.New(ka.Latest).KaLost(uneven, dmg), "damage %d, table 4/10/20", dmg)
	}
	// A single bound is its own step: 1–3 → 1, 4–6 → 2…
	three := &kav1.Options{KaTable: []int32{3}}
	for dmg, want := range map[int32]int32{3: 1, 4: 2, 9: 3, 10: 4} {
		require.Equal(t, want, ka.New(ka.Latest).KaLost(three, dmg), "damage %d, 3 a die", dmg)
	}
	// KA-T03's shot on the molosse: 9 after soak, two Ka dice by default, three with 3 a die,
	// one with a table whose first bound is 9.
	for _, c := range []struct {
		opts   *kav1.Options
		kaLost int32
	}{{nil, 2}, {three, 3}, {&kav1.Options{KaTable: []int32{9, 18}}, 1}} {
		f, _, res := shot(t, c.opts, -3, molosse, baton(valet), coupe(9))
		require.Equal(t, []int32{23, 9, c.kaLost}, []int32{res.GetMargin() + 10, res.GetDamage() - res.GetSoak(), res.GetKaLost()})
		require.Equal(t, 10-c.kaLost, f.cs("chien").GetKaDice())
		if c.opts != nil {
			require.Equal(t, c.opts.GetKaTable(), f.Log[0].GetEncounterCreated().GetOptions().GetKa().GetKaTable(), "recorded at creation")
		}
	}
	for _, bad := range [][]int32{{0}, {5, 5}, {10, 5}, {-1, 4}} {
		blank(t).refuse(gm, createCmd(&kav1.Options{KaTable: bad}), engine.CodeInvalid, "KA-024", "ka_table")
	}
}

func ptr[T any](v T) *T { return &v }

// KA-025: a victim that loses its last Ka die makes its death draw, recorded; the Maître de
// Ka rules on it. One with Ka dice left makes none.
func TestKA025DeathDraw(t *testing.T) {
	for _, kaDice := range []int32{2, 3} {
		f := newFight(t, nil, joshua(), with(dog(), func(sh *kav1.Sheet) { sh.KaDice = kaDice }))
		f.start(baton(valet), coupe(9), denier(roi), denier(4)) // 4 + 19 = 23: margin 13, 13 − 4 = 9: two dice
		f.do(player, attack("joshua", "chien", "pistolet", -3))
		res := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
		require.Equal(t, int32(2), res.GetKaLost())
		if kaDice == 3 {
			require.Nil(t, res.GetDeathDraw())
			require.False(t, res.GetDying())
			require.Equal(t, int32(1), f.cs("chien").GetKaDice())
			continue
		}
		require.True(t, res.GetDying())
		require.Contains(t, res.GetNote(), "KA-025")
		requireCards(t, []*kav1.Card{denier(roi), denier(4)}, cardsOf(res.GetDeathDraw()))
		require.Equal(t, int32(14), res.GetDeathDraw().GetTotal())
		require.True(t, f.cs("chien").GetDying())
		f.refuse(gm, pass("chien"), engine.CodePrecondition, "KA-025", "Le chien")
		f.replays()
	}
}

// KA-026: seuil d'encaissement = (lowest sphere + encaissement) × 3: 12 for the dog (the
// erratum of KA-T04: the seed's example computes 9), 15 for Joshua.
func TestKA026Seuil(t *testing.T) {
	require.Equal(t, int32(1), ka.LowestSphere(dog().GetKa()))
	require.Equal(t, int32(12), ka.New(ka.Latest).Seuil(dog().GetKa()))
	require.Equal(t, int32(15), ka.New(ka.Latest).Seuil(joshua().GetKa()))
	require.Equal(t, int32(18), ka.New(ka.Latest).Seuil(gorille().GetKa())) // (3 + 3) × 3
}

// matraque: a cosh, Animalité + Bagarre, of the given damage.
func matraque(damage int32) func(*kav1.Sheet) {
	return func(sh *kav1.Sheet) {
		sh.Weapons = append(sh.Weapons, weapon("matraque", ka.Animalite, "Bagarre", damage))
	}
}

// KA-027, KA-030, KA-031: a stun takes success bonus + weapon damage from the points de
// réalité, without soak; at least the seuil at once knocks out; reaching 0 knocks out and
// always costs a Ka die, even when the same blow reaches the seuil.
func TestKA027To031Stun(t *testing.T) {
	for _, c := range []struct {
		name               string
		cosh, reality      int32
		cards              []*kav1.Card
		damage, lost, left int32
		unconscious        bool
		kaLost             int32
	}{
		// 4 + 2 + 14 = 20: a great success, 5 + 7 = 12, the seuil: out, no Ka die.
		{"KA-027 the seuil at once knocks out", 7, 20, []*kav1.Card{coupe(valet), coupe(4)}, 12, 12, 8, true, 0},
		// 5 + 6 = 11: not the seuil.
		{"KA-027 one less than the seuil", 6, 20, []*kav1.Card{coupe(valet), coupe(4)}, 11, 11, 9, false, 0},
		// 5 + 4 = 9, the seuil of the seed's example, below the erratum's 12.
		{"KA-T04 erratum: 9 does not reach 12", 4, 20, []*kav1.Card{coupe(valet), coupe(4)}, 9, 9, 11, false, 0},
		// 4 + 2 + 4 = 10, a normal success: 1 + 3 = 4, the last 4 points: out and a Ka die.
		{"KA-031 no points left: out, and a Ka die", 3, 4, []*kav1.Card{coupe(4)}, 4, 4, 0, true, 1},
		// 5 + 8 = 13 against 5 points left: the seuil of 12 and 0 points at once: out, and
		// the Ka die all the same (it was lost only by a blow below the seuil before).
		{"KA-031 the seuil and 0 points: the Ka die all the same", 8, 5, []*kav1.Card{coupe(valet), coupe(4)}, 13, 5, 0, true, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, with(joshua(), matraque(c.cosh)), with(dog(), func(sh *kav1.Sheet) { sh.RealityPoints = c.reality }))
			f.start(c.cards...)
			f.do(player, stun("joshua", "chien", "matraque", 0))
			res := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
			require.Zero(t, res.GetSoak(), "KA-030: no soak")
			require.Equal(t, []int32{c.damage, c.lost, c.left}, []int32{res.GetDamage(), res.GetRealityLost(), res.GetRealityLeft()})
			require.Equal(t, c.unconscious, res.GetUnconscious())
			require.Equal(t, c.kaLost, res.GetKaLost(), "KA-029: a stun takes no Ka die, but for KA-031")
			require.Equal(t, 2-c.kaLost, f.cs("chien").GetKaDice())
			require.Equal(t, c.left, f.cs("chien").GetRealityPoints())
			require.Equal(t, c.unconscious, f.cs("chien").GetUnconscious())
			require.Nil(t, res.GetDeathDraw())
			if c.kaLost > 0 {
				require.Contains(t, res.GetNote(), "one Ka die lost (KA-031)")
			}
		})
	}
}

// KA-031: reaching 0 points de réalité with one Ka die left costs it: the death draw
// (KA-025); hitting a victim already at 0 costs no further Ka die.
func TestKA031LastKaDieAndNoDoubleLoss(t *testing.T) {
	f := newFight(t, nil, joshua(), with(dog(), func(sh *kav1.Sheet) { sh.RealityPoints = 4 }), gorille())
	f.start(coupe(4), coupe(5))
	f.do(player, stun("joshua", "chien", "crosse", 0)) // 10: 1 + 3 = 4
	res := find(t, f.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{4, 0, 1, 1}, []int32{res.GetRealityLost(), res.GetRealityLeft(), res.GetKaLost(), res.GetKaLeft()})
	require.True(t, res.GetUnconscious())
	require.Contains(t, res.GetNote(), "KA-031")
	// The gorilla (Animalité 3, as the dog) stuns the unconscious dog: 3 + 2 + 5 = 10.
	res = find(t, f.do(gm, stun("gorille", "chien", "poing", 0)), (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{0, 0, 0, 1}, []int32{res.GetRealityLost(), res.GetRealityLeft(), res.GetKaLost(), res.GetKaLeft()})
	require.Equal(t, int32(1), f.cs("chien").GetKaDice())

	g := newFight(t, nil, joshua(), with(dog(), func(sh *kav1.Sheet) { sh.RealityPoints = 4; sh.KaDice = 1 }))
	g.start(coupe(4), denier(8))
	g.do(player, stun("joshua", "chien", "crosse", 0))
	res = find(t, g.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{1, 0}, []int32{res.GetKaLost(), res.GetKaLeft()})
	require.True(t, res.GetDying())
	requireCards(t, []*kav1.Card{denier(8)}, cardsOf(res.GetDeathDraw()))
}

// KA-030: the victim of a stun may dodge; the success level of an opposed stun comes from the
// margin of KA-007.
func TestKA030OpposedStun(t *testing.T) {
	f := newFight(t, nil, joshua(), molosse())
	f.start(coupe(valet), coupe(6), coupe(8))
	require.Equal(t, []string{"chien"}, find(t, f.do(player, stun("joshua", "chien", "crosse", 0)), (*kav1.Event).GetAttackDeclared).GetPendingIds())
	evs := f.do(gm, dodge("chien"))                  // Animalité 3 + Esquive 4 + 8 = 15
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn) // 4 + 2 + 16 = 22
	require.Equal(t, int32(22), ad.GetDraw().GetTotal())
	require.True(t, ad.GetDefencePossible())
	require.Equal(t, int32(15), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	// Margin 22 − 15 = 7: a normal success, +1 (not 12, a great one): 1 + 3 = 4 points.
	require.Equal(t, []int32{7, 1, 1, 4, 4, 0}, []int32{res.GetMargin(), res.GetLevel(), res.GetBonus(), res.GetDamage(), res.GetRealityLost(), res.GetSoak()})
	require.Equal(t, []int32{6, 10}, []int32{f.cs("chien").GetRealityPoints(), f.cs("chien").GetKaDice()})
}

// KA-029: a sheet gives its Ka dice and its points de réalité; ordinary damage removes Ka dice
// only.
func TestKA029Tracks(t *testing.T) {
	b := newFight(t, nil)
	b.refuse(gm, addCmd(with(dog(), func(sh *kav1.Sheet) { sh.KaDice = 0 })), engine.CodeInvalid, "KA-029", "Le chien")
	b.refuse(gm, addCmd(with(dog(), func(sh *kav1.Sheet) { sh.RealityPoints = 0 })), engine.CodeInvalid, "KA-029", "Le chien")
	f, _, res := shot(t, nil, 0, molosse, coupe(9)) // 16: 1 + 8 − 4 = 5, a Ka die
	require.Equal(t, []int32{1, 0}, []int32{res.GetKaLost(), res.GetRealityLost()})
	require.Equal(t, []int32{9, 10}, []int32{f.cs("chien").GetKaDice(), f.cs("chien").GetRealityPoints()})
}

// KA-013: a parry, where the GM allows one (option parry, default off), names its defence skill
// and costs an action as a dodge does; not against a stun (KA-030). A combatant without the
// skill defends at skill 0, and the draw says so.
func TestKA013Parry(t *testing.T) {
	parry := func(id, skill string) *encounterv1.Command { return react(id, &kav1.React{Defend: true, Skill: skill}) }
	t.Run("off by default", func(t *testing.T) {
		f := newFight(t, nil, joshua(), gorille())
		f.start()
		f.do(player, attack("joshua", "gorille", "crosse", 0))
		f.refuse(gm, parry("gorille", "Bagarre"), engine.CodePrecondition, "KA-013", "parry", "Esquive")
		legal, err := f.Reg.Legal(f.St, "gorille")
		require.NoError(t, err)
		require.NotContains(t, legalNames(legal), "parry")
	})
	t.Run("allowed: the skill named", func(t *testing.T) {
		f := newFight(t, &kav1.Options{Parry: true}, joshua(), gorille())
		f.start(coupe(5), coupe(6))
		f.do(player, attack("joshua", "gorille", "crosse", 0)) // Animalité 4 + Bagarre 2 + 5 = 11
		legal, err := f.Reg.Legal(f.St, "gorille")
		require.NoError(t, err)
		require.Equal(t, []string{"take it", "dodge", "parry"}, legalNames(legal))
		f.refuse(gm, react("gorille", &kav1.React{Defend: true, Skill: "Bagarre", Weapon: "poing"}), engine.CodeInvalid, "KA-013")
		evs := f.do(gm, parry("gorille", "Bagarre"))
		require.Equal(t, "Bagarre", find(t, evs, (*kav1.Event).GetDefenceAnnounced).GetReact().GetSkill())
		d := find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw() // Animalité 3 + Bagarre 2 + 6 = 11
		require.Equal(t, []any{ka.Animalite, "Bagarre", int32(2), false, int32(11)}, []any{d.GetSphere(), d.GetSkill(), d.GetSkillValue(), d.GetSkillMissing(), d.GetTotal()})
		require.False(t, find(t, evs, (*kav1.Event).GetAttackResolved).GetSuccess(), "a tie goes to the defender")
		require.Equal(t, []int32{2, 1}, []int32{f.cs("gorille").GetActionsLeft(), f.cs("gorille").GetActionsTaken()}, "a parry is an action")
		f.replays()
	})
	t.Run("without the skill: 0, and the draw says so", func(t *testing.T) {
		f := newFight(t, &kav1.Options{Parry: true}, joshua(), gorille())
		f.start(coupe(5), coupe(6))
		f.do(player, attack("joshua", "gorille", "crosse", 0))
		d := find(t, f.do(gm, parry("gorille", "Épée")), (*kav1.Event).GetDefenceDrawn).GetDraw()
		require.Equal(t, []any{"Épée", int32(0), true, int32(3 + 6)}, []any{d.GetSkill(), d.GetSkillValue(), d.GetSkillMissing(), d.GetTotal()})
		// A dodge without Esquive, the option off: Humanité 1 + Esquive 0 + 8.
		g := newFight(t, nil, joshua(), with(dog(), func(sh *kav1.Sheet) { delete(sh.Skills, "Esquive") }))
		g.start(coupe(7), coupe(8))
		g.do(player, attack("joshua", "chien", "pistolet", 0))
		d = find(t, g.do(gm, dodge("chien")), (*kav1.Event).GetDefenceDrawn).GetDraw()
		require.Equal(t, []any{"Esquive", int32(0), true, int32(1 + 8)}, []any{d.GetSkill(), d.GetSkillValue(), d.GetSkillMissing(), d.GetTotal()})
	})
	t.Run("a stun is dodged, not parried", func(t *testing.T) {
		f := newFight(t, &kav1.Options{Parry: true}, joshua(), gorille())
		f.start()
		f.do(player, stun("joshua", "gorille", "crosse", 0))
		legal, err := f.Reg.Legal(f.St, "gorille")
		require.NoError(t, err)
		require.Equal(t, []string{"take it", "dodge"}, legalNames(legal))
		f.refuse(gm, parry("gorille", "Bagarre"), engine.CodePrecondition, "KA-030", "Bagarre")
		f.do(gm, parry("gorille", "Esquive"))
	})
}
