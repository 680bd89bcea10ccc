package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const (
	night    = d20segv1.Situation_SITUATION_NIGHT
	openView = d20segv1.Situation_SITUATION_OPEN_VIEW
	deserted = d20segv1.Situation_SITUATION_DESERTED
	impaired = d20segv1.Situation_SITUATION_IMPAIRED
)

// The ambush: the Brigand (BBA 11, Agility −2, stealth 4: stealth d20 + 2; Initiative 6) lies
// in wait for Aldric (Wisdom 1, perception 2, Agility 2, CA 14, BBA 6, Initiative 4) and Berthe
// (no Wisdom or perception, Agility 3, CA 15, Initiative 3). The Brute (Agility 5, Initiative 2)
// has no stealth.
func ambushers() []*encounterv1.Combatant {
	return []*encounterv1.Combatant{
		sheet("brigand", "Brigand", bba(11), initiative(6), func(s *d20segv1.Sheet) { s.Agility, s.Stealth = -2, 4 }),
		pc(sheet("aldric", "Aldric", bba(6), initiative(4), ca(14), func(s *d20segv1.Sheet) { s.Wisdom, s.Perception, s.Agility = 1, 2, 2 })),
		sheet("berthe", "Berthe", initiative(3), ca(15), func(s *d20segv1.Sheet) { s.Agility = 3 }),
		sheet("brute", "Brute", initiative(2), bba(0), func(s *d20segv1.Sheet) { s.Agility = 5 }),
	}
}

func ambush(t *testing.T, opts *d20segv1.Options) *fight {
	f := newFight(t, opts, ambushers()...)
	f.start()
	return f
}

func apprehensions(t *testing.T, evs []*encounterv1.Event) map[string]*d20segv1.ApprehensionRolled {
	sr := find(t, evs, (*d20segv1.Event).GetSurpriseRoundStarted)
	out := map[string]*d20segv1.ApprehensionRolled{}
	for _, ar := range sr.GetApprehension() {
		out[ar.GetDefenderId()] = ar
	}
	return out
}

// D20-000: whether an attack is a surprise is the GM's decision; the option skip_apprehension
// lets the GM skip the rolls, every defender then being surprised.
func TestD20_000_SurpriseIsTheGMsDecision(t *testing.T) {
	f := ambush(t, nil)
	f.refuse(player, surprise([]string{"aldric"}, defender("brigand")), engine.CodePermission, "D20-000", "GM", gm)
	// With the roll, 10 + 6 = 16 against 12 + 2: Aldric is not surprised.
	require.False(t, apprehensions(t, f.do(gm, surprise([]string{"brigand"}, defender("aldric", night, openView)), 10, 12))["aldric"].GetSurprised())
	f.replay()

	f = ambush(t, &d20segv1.Options{SkipApprehension: proto.Bool(true)})
	evs := f.do(gm, surprise([]string{"brigand"}, defender("aldric", night, openView), defender("berthe"))) // no die
	for id, ar := range apprehensions(t, evs) {
		require.True(t, ar.GetSurprised(), id)
		require.Nil(t, ar.GetRoll(), id)
		require.True(t, f.cs(id).GetSurprised())
	}
	f.refuse(player, attack("aldric", "brigand"), engine.CodePrecondition, "D20-004", "Aldric is surprised")
	f.replay()
}

// D20-003: the apprehension roll d20 + Wisdom + perception + situations (+ spells) against the
// stealthiest attacker's d20 + Agility + stealth, or 15 without stealth; total ≥ opposition:
// not surprised.
func TestD20_003_ApprehensionRoll(t *testing.T) {
	f := ambush(t, nil)
	// Aldric: 10 + 1 + 2 − 2 (night) + 5 (open view) = 16 against 12 − 2 + 4 = 14.
	// Berthe: 5 + 0 − 2 + 5 + 3 (a divination spell) = 11 against 11 − 2 + 4 = 13.
	berthe := defender("berthe", night, openView)
	berthe.SpellModifier = 3
	evs := f.do(gm, surprise([]string{"brigand", "brute"}, defender("aldric", night, openView), berthe), 10, 12, 5, 11)
	ap := apprehensions(t, evs)
	a := ap["aldric"]
	require.Equal(t, []int32{10, 6, 16, 14}, []int32{a.GetRoll().GetTotal(), a.GetModifiers(), a.GetTotal(), a.GetOpposition()})
	require.Equal(t, "brigand", a.GetStealthBy(), "the stealthiest attacker with stealth: the Brute has none, for all its Agility")
	require.Equal(t, int32(12), a.GetStealthRoll().GetTotal())
	require.False(t, a.GetSurprised())
	b := ap["berthe"]
	require.Equal(t, []int32{5, 6, 11, 13}, []int32{b.GetRoll().GetTotal(), b.GetModifiers(), b.GetTotal(), b.GetOpposition()})
	require.True(t, b.GetSurprised())
	require.False(t, f.cs("aldric").GetSurprised())
	require.True(t, f.cs("berthe").GetSurprised())
	f.replay()

	// A tie is not a surprise: 8 + 6 = 14 against 12 + 2 = 14.
	f = ambush(t, nil)
	require.False(t, apprehensions(t, f.do(gm, surprise([]string{"brigand"}, defender("aldric", night, openView)), 8, 12))["aldric"].GetSurprised())

	// Without stealth, 15, and no stealth die: 9 + 6 = 15 holds, 8 + 6 = 14 does not.
	for face, surprised := range map[int32]bool{9: false, 8: true} {
		f = ambush(t, nil)
		a := apprehensions(t, f.do(gm, surprise([]string{"brute"}, defender("aldric", night, openView)), face))["aldric"]
		require.Equal(t, int32(15), a.GetOpposition())
		require.Empty(t, a.GetStealthBy())
		require.Nil(t, a.GetStealthRoll())
		require.Equal(t, surprised, a.GetSurprised(), "d20 %d", face)
		f.replay()
	}

	// Malformed declarations.
	f = ambush(t, nil)
	f.refuse(gm, surprise(nil, defender("aldric")), engine.CodeInvalid, "D20-004", "attackers")
	f.refuse(gm, surprise([]string{"brigand"}, defender("brigand")), engine.CodeInvalid, "D20-004", "Brigand")
	f.refuse(gm, surprise([]string{"brigand"}, defender("aldric"), defender("aldric")), engine.CodeInvalid, "D20-003", "Aldric")
}

// D20-001, D20-002 through a real surprise: the situations' modifiers on the default scale, on
// the house scale apprehension_scale, which changes the outcome, and the impaired malus the GM
// chooses from light to medium (default 2).
func TestD20_001_002_ApprehensionScaleAndImpaired(t *testing.T) {
	// Deserted place, high bonus: 5 + 3 + 10 = 18 ≥ 12 + 2: not surprised.
	f := ambush(t, nil)
	a := apprehensions(t, f.do(gm, surprise([]string{"brigand"}, defender("aldric", deserted)), 5, 12))["aldric"]
	require.Equal(t, []int32{13, 18, 14}, []int32{a.GetModifiers(), a.GetTotal(), a.GetOpposition()})
	require.False(t, a.GetSurprised())
	// On a 1/2/4 scale: 5 + 3 + 4 = 12 < 14: surprised.
	f = ambush(t, &d20segv1.Options{ApprehensionScale: []int32{1, 2, 4}})
	a = apprehensions(t, f.do(gm, surprise([]string{"brigand"}, defender("aldric", deserted)), 5, 12))["aldric"]
	require.Equal(t, []int32{7, 12, 14}, []int32{a.GetModifiers(), a.GetTotal(), a.GetOpposition()})
	require.True(t, a.GetSurprised())
	f.replay()

	// Impaired: light to medium, the GM's choice, 2 by default.
	for _, tc := range []struct {
		malus, mods int32
	}{{0, 1}, {2, 1}, {4, -1}, {5, -2}} {
		f = ambush(t, nil)
		ap := defender("aldric", impaired)
		ap.ImpairedMalus = tc.malus
		a = apprehensions(t, f.do(gm, surprise([]string{"brigand"}, ap), 10, 10))["aldric"]
		require.Equal(t, tc.mods, a.GetModifiers(), "impaired malus %d", tc.malus)
	}
	for _, m := range []int32{1, 6} {
		f = ambush(t, nil)
		ap := defender("aldric", impaired)
		ap.ImpairedMalus = m
		f.refuse(gm, surprise([]string{"brigand"}, ap), engine.CodeInvalid, "D20-002", "Aldric", "light to medium, 2 to 5")
	}
	f = ambush(t, nil)
	f.refuse(gm, surprise([]string{"brigand"}, &d20segv1.Apprehension{DefenderId: "aldric", ImpairedMalus: 4}), engine.CodeInvalid, "D20-002", "Aldric", "not impaired")
}

// D20-004, D20-005, D20-006: the surprise round. The attackers have one free action, costing no
// segment, with the defender flat-footed, then segments 0–2, in which an action that does not
// fit is not started; an unsurprised defender acts in those segments and is not flat-footed; a
// surprised one neither acts nor keeps its Agility bonus to CA until round 1.
func TestD20_004_005_006_SurpriseRound(t *testing.T) {
	for _, carry := range []bool{false, true} {
		f := ambush(t, &d20segv1.Options{CarryOver: proto.Bool(carry)})
		// Aldric: 10 + 3 = 13 ≥ 5 + 2; Berthe: 1 < 5 + 2.
		f.do(gm, surprise([]string{"brigand"}, defender("aldric"), defender("berthe")), 10, 5, 1, 5)
		require.Equal(t, int32(0), f.round(), "the surprise round")
		require.True(t, f.cs("brigand").GetFreeActionLeft())
		require.False(t, f.cs("aldric").GetSurprised())
		require.True(t, f.cs("berthe").GetSurprised())
		f.refuse(gm, endTurn("berthe"), engine.CodePrecondition, "D20-004", "Berthe is surprised")

		// The free action: 4 + 11 − 2 = 13 hits Berthe flat-footed (CA 15 − 3 = 12), at no cost.
		ar := find(t, f.do(gm, freeAttack("brigand", "berthe"), 4, 3), (*d20segv1.Event).GetAttackRolled)
		require.True(t, ar.GetFree())
		require.Equal(t, []int32{0, 0, 13, 12}, []int32{ar.GetSegment(), ar.GetCost(), ar.GetTotal(), ar.GetCa()})
		require.True(t, ar.GetFlatFooted())
		require.True(t, ar.GetHit())
		require.Equal(t, int32(0), f.cs("brigand").GetNextSegment())
		require.False(t, f.cs("brigand").GetFreeActionLeft())
		f.refuse(gm, freeAttack("brigand", "berthe"), engine.CodePrecondition, "D20-004", "Brigand has no free action")
		f.refuse(player, freeAttack("aldric", "brigand"), engine.CodePrecondition, "D20-015", "Brigand acts first")

		// D20-005: Aldric is not flat-footed: 13 misses CA 14.
		ar = find(t, f.do(gm, attack("brigand", "aldric"), 4), (*d20segv1.Event).GetAttackRolled)
		require.Equal(t, []int32{0, 2, 13, 14}, []int32{ar.GetSegment(), ar.GetCost(), ar.GetTotal(), ar.GetCa()})
		require.False(t, ar.GetFlatFooted())
		require.False(t, ar.GetHit())
		// D20-005: Aldric acts in the surprise segments, 0–2 for BBA 6.
		ar = find(t, f.do(player, attack("aldric", "brigand"), 1), (*d20segv1.Event).GetAttackRolled)
		require.Equal(t, []int32{0, 3}, []int32{ar.GetSegment(), ar.GetCost()})
		// D20-003: the Brute, neither attacker nor defender, takes no part in the surprise round.
		f.refuse(gm, endTurn("brute"), engine.CodePrecondition, "D20-003", "Brute", "neither attacker nor defender", "no part in the surprise round")
		// D20-004: at 2, one segment is left in the surprise round; carry_over does not apply.
		f.refuse(gm, attack("brigand", "berthe"), engine.CodePrecondition, "D20-004",
			"an attack costs 2 segments at BBA 11; Brigand has 1 left in the surprise round (segments 2 to 2)")
		evs := f.do(gm, other("brigand", "se replier", 0))
		require.Equal(t, int32(1), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound(), "the combat starts normally")

		// Round 1: no one is surprised or flat-footed any more, and the free action is gone.
		require.False(t, f.cs("berthe").GetSurprised())
		require.Equal(t, []int32{0, 0, 0, 0}, f.next("brigand", "aldric", "berthe", "brute"))
		f.refuse(gm, freeAttack("brigand", "berthe"), engine.CodePrecondition, "D20-004", "Brigand has no free action")
		ar = find(t, f.do(gm, attack("brigand", "berthe"), 4), (*d20segv1.Event).GetAttackRolled)
		require.Equal(t, []int32{13, 15}, []int32{ar.GetTotal(), ar.GetCa()})
		require.False(t, ar.GetFlatFooted())
		require.False(t, ar.GetHit())
		f.refuse(gm, surprise([]string{"brigand"}, defender("aldric")), engine.CodePrecondition, "D20-004", "before")
		f.replay()
	}

	// A surprise attack comes once, before anyone acts in round 1.
	f := ambush(t, nil)
	f.do(gm, surprise([]string{"brigand"}, defender("aldric")), 20, 1)
	f.do(gm, freeAttack("brigand", "aldric"), 1)
	for f.round() == 0 {
		f.do(gm, endTurn(f.upNext()))
	}
	f.refuse(gm, surprise([]string{"brigand"}, defender("aldric")), engine.CodePrecondition, "D20-004", "once")
	f = ambush(t, nil)
	f.do(gm, endTurn("brigand"))
	f.refuse(gm, surprise([]string{"aldric"}, defender("brigand")), engine.CodePrecondition, "D20-004", "before anyone acts")
}

// D20-006: flat-footed, a surprised defender loses its Agility bonus to CA, not a malus.
func TestD20_006_FlatFootedKeepsAgilityMalus(t *testing.T) {
	f := newFight(t, &d20segv1.Options{SkipApprehension: proto.Bool(true)},
		sheet("brigand", "Brigand", bba(11), initiative(6)),
		sheet("gauche", "Gauche", ca(9), func(s *d20segv1.Sheet) { s.Agility = -1 }))
	f.start()
	f.do(gm, surprise([]string{"brigand"}, defender("gauche")))
	ar := find(t, f.do(gm, freeAttack("brigand", "gauche"), 1, 1), (*d20segv1.Event).GetAttackRolled)
	require.True(t, ar.GetFlatFooted())
	require.Equal(t, []int32{12, 9}, []int32{ar.GetTotal(), ar.GetCa()})
	f.replay()
}

// D20-004, D20-003: the order of the surprise round. First every attacker's free action, in
// Initiative order, before anyone acts in a segment: a defender who passed its apprehension
// roll, with a higher Initiative than the ambushers, waits for both free actions; then segments
// 0–2, by segment, then Initiative. A combatant named neither attacker nor defender takes no
// part in the surprise round (and is not flat-footed); it acts from round 1.
func TestD20_004_FreeActionsComeFirst(t *testing.T) {
	newAmbush := func() *fight {
		f := newFight(t, nil,
			sheet("passant", "Passant", initiative(10), ca(13), func(s *d20segv1.Sheet) { s.Agility = 3 }),
			pc(sheet("guetteur", "Guetteur", initiative(8), bba(11), ca(25))),
			sheet("brigand", "Brigand", initiative(6), bba(11), ca(25), func(s *d20segv1.Sheet) { s.Agility, s.Stealth = -2, 4 }),
			sheet("spadassin", "Spadassin", initiative(3), bba(6)),
			sheet("berthe", "Berthe", initiative(1)))
		f.start()
		// Guetteur: 15 ≥ 5 + 2, not surprised; Berthe: 1 < 5 + 2, surprised.
		evs := f.do(gm, surprise([]string{"spadassin", "brigand"}, defender("guetteur"), defender("berthe")), 15, 5, 1, 5)
		sr := find(t, evs, (*d20segv1.Event).GetSurpriseRoundStarted)
		require.Equal(t, []string{"passant"}, sr.GetBystanderIds())
		require.True(t, f.cs("passant").GetBystander())
		require.False(t, f.cs("passant").GetSurprised())
		return f
	}
	f := newAmbush()
	// Before anyone acts in a segment: the Brigand's free action (Initiative 6) first; not the
	// Passant (10), not the Guetteur (8), not the Spadassin (3), nor a segment action of the
	// Brigand's own.
	require.Equal(t, "brigand", f.upNext())
	require.Equal(t, []string{"attack", "cast", "other", "end turn"}, f.legal("brigand"))
	legal, err := f.Reg.Legal(f.St, "brigand")
	require.NoError(t, err)
	for _, l := range legal[:3] { // a spell may be the free action too
		require.Equal(t, []any{int32(0), "D20-004"}, []any{l.GetCost(), l.GetRule()}, l.GetName())
	}
	freeCast, err := enginetest.Decide(t, f.Reg, proto.CloneOf(f.St), gm, cast("brigand", &d20segv1.Cast{Spell: "Sommeil", Level: 1, Free: true}))
	require.NoError(t, err)
	sc := find(t, freeCast, (*d20segv1.Event).GetSpellCast)
	require.Equal(t, []any{int32(0), true}, []any{sc.GetCost(), sc.GetFree()})
	f.refuse(player, attack("guetteur", "brigand"), engine.CodePrecondition, "D20-004", "Brigand's free action comes first", "before anyone acts in a segment")
	f.refuse(gm, freeAttack("spadassin", "berthe"), engine.CodePrecondition, "D20-004", "Brigand's free action comes first", "Initiative order")
	f.refuse(gm, attack("brigand", "berthe"), engine.CodePrecondition, "D20-004", "Brigand's free action comes first", "make an attack its free action")
	f.refuse(gm, other("passant", "fuit", 0), engine.CodePrecondition, "D20-003", "Passant", "no part in the surprise round")
	require.Empty(t, f.legal("passant"))
	require.Empty(t, f.legal("guetteur"))

	ar := find(t, f.do(gm, freeAttack("brigand", "berthe"), 10, 4), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{0, 0}, []int32{ar.GetSegment(), ar.GetCost()})
	// The Spadassin's free action next, still before the Guetteur; on the Passant, who is not
	// flat-footed: 10 + 6 = 16 against CA 13, its Agility bonus kept.
	require.Equal(t, "spadassin", f.upNext())
	f.refuse(player, attack("guetteur", "brigand"), engine.CodePrecondition, "D20-004", "Spadassin's free action comes first")
	ar = find(t, f.do(gm, freeAttack("spadassin", "passant"), 10, 4), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{16, 13}, []int32{ar.GetTotal(), ar.GetCa()})
	require.False(t, ar.GetFlatFooted())

	// Then segments 0–2: at segment 0 the Guetteur (8) before the Brigand (6) and the Spadassin (3).
	require.Equal(t, "guetteur", f.upNext())
	f.refuse(gm, attack("brigand", "guetteur"), engine.CodePrecondition, "D20-015", "Guetteur acts first")
	f.do(player, attack("guetteur", "brigand"), 1)
	require.Equal(t, "brigand", f.upNext())
	f.do(gm, attack("brigand", "guetteur"), 1)
	require.Equal(t, "spadassin", f.upNext())
	f.do(gm, attack("spadassin", "guetteur"), 1)
	f.refuse(gm, endTurn("passant"), engine.CodePrecondition, "D20-003", "Passant")
	f.do(player, other("guetteur", "recule", 0))
	require.Equal(t, "brigand", f.upNext(), "segment 2")
	evs := f.do(gm, other("brigand", "recule", 0))
	// The Passant and Berthe never acted; the surprise round ends without them, and in round 1
	// the Passant, Initiative 10, acts first.
	require.Equal(t, int32(1), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	require.False(t, f.cs("passant").GetBystander())
	require.Equal(t, "passant", f.upNext())
	f.replay()

	// Ending its turn in its free action's place, an attacker forgoes the free action and the
	// surprise segments; the next attacker's free action follows.
	f = newAmbush()
	f.do(gm, endTurn("brigand"))
	require.False(t, f.cs("brigand").GetFreeActionLeft())
	require.Equal(t, "spadassin", f.upNext())
	f.do(gm, endTurn("spadassin"))
	require.Equal(t, "guetteur", f.upNext())
	f.replay()
}
