package d20seg_test

import (
	"fmt"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const miss = 10 // a d20 face that misses the pell (CA 100)

// D20-T02 (D20-017, D20-015, D20-020): in standard rounds of segments 0–5 without carry-over,
// BBA 0 makes 1 attack (2 segments left, too few for another), BBA 6 makes 2, BBA 11 makes 3,
// BBA 16 makes 3 (1 + 2 + 2, 1 segment left). Played through two real rounds: whoever is next
// attacks the pell while an attack fits, else is refused and ends its turn.
func TestD20_T02_AttacksPerRoundByBBA(t *testing.T) {
	f := newFight(t, nil,
		sheet("novice", "Novice", bba(0), initiative(4)),
		sheet("soldat", "Soldat", bba(6), initiative(3)),
		sheet("veteran", "Vétéran", bba(11), initiative(2)),
		sheet("maitre", "Maître", bba(16), initiative(1)),
		pell())
	f.start()
	names := map[string]string{"novice": "Novice", "soldat": "Soldat", "veteran": "Vétéran", "maitre": "Maître"}
	bbas := map[string]int32{"novice": 0, "soldat": 6, "veteran": 11, "maitre": 16}
	for _, round := range []int32{1, 2} {
		segs := map[string][]int32{}
		ends := map[string]int32{} // the next free segment after the last attack
		var order []string
		for f.round() == round {
			id := f.upNext()
			if id == "pell" {
				f.do(gm, endTurn("pell"))
				order = append(order, "pell end@0")
				continue
			}
			next := f.cs(id).GetNextSegment()
			cost := d20seg.New(1).AttackCost(bbas[id], int32(len(segs[id])))
			if next+cost-1 > d20seg.New(1).Numbers().LastSegment {
				// D20-020: an attack that does not fit is not started.
				re := f.refuse(gm, attack(id, "pell"), engine.CodePrecondition, "D20-020", names[id])
				require.Contains(t, re.Msg, fmt.Sprintf("an attack costs %d segments at BBA %d; %s has %d left this round (segments %d to 5)",
					cost, bbas[id], names[id], 6-next, next))
				f.do(gm, endTurn(id))
				order = append(order, fmt.Sprintf("%s end@%d", id, next))
				continue
			}
			ar := find(t, f.do(gm, attack(id, "pell"), miss), (*d20segv1.Event).GetAttackRolled)
			require.Equal(t, next, ar.GetSegment(), "an attack is resolved at the segment where it starts (D20-015)")
			require.Equal(t, cost, ar.GetCost())
			segs[id] = append(segs[id], ar.GetSegment())
			ends[id] = ar.GetSegment() + ar.GetCost()
			order = append(order, fmt.Sprintf("%s@%d", id, next))
		}
		require.Equal(t, round+1, f.round())
		require.Equal(t, map[string][]int32{
			"novice":  {0},       // 1 attack, segments 0–3
			"soldat":  {0, 3},    // 2 attacks
			"veteran": {0, 2, 4}, // 3 attacks
			"maitre":  {0, 1, 3}, // 3 attacks: 1 + 2 + 2
		}, segs, "round %d", round)
		left := map[string]int32{}
		for id, end := range ends {
			left[id] = 6 - end
		}
		require.Equal(t, map[string]int32{"novice": 2, "soldat": 0, "veteran": 0, "maitre": 1}, left, "segments left in round %d", round)
		// D20-015: the earliest next free segment acts next, the higher Initiative first at
		// the same segment.
		require.Equal(t, []string{
			"novice@0", "soldat@0", "veteran@0", "maitre@0", "pell end@0",
			"maitre@1", "veteran@2", "soldat@3", "maitre@3", "novice end@4", "veteran@4", "maitre end@5",
		}, order, "round %d", round)
	}
	f.replay()
}

// D20-013: a round has the usable segments 0 to 5, six of them; everyone starts it at segment 0;
// the round ends when they are used (D20-016).
func TestD20_013_SixUsableSegments(t *testing.T) {
	f := newFight(t, nil, sheet("aldric", "Aldric", initiative(5)), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	require.Equal(t, []int32{0, 0}, f.next("aldric", "berthe"), "everyone starts the round at segment 0")
	require.Equal(t, []int32{0, 5}, []int32{d20seg.New(1).Numbers().FirstSegment, d20seg.New(1).Numbers().LastSegment})
	od := find(t, f.do(gm, other("aldric", "dégainer", 0)), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{0, 1}, []int32{od.GetSegment(), od.GetCost()})
	f.do(gm, endTurn("berthe"))
	var used []int32
	used = append(used, od.GetSegment())
	for range 4 {
		od := find(t, f.do(gm, other("aldric", "avancer", 0)), (*d20segv1.Event).GetOtherDone)
		used = append(used, od.GetSegment())
	}
	// At segment 5, one segment is left: a two-segment action is not started (D20-020).
	f.refuse(gm, other("aldric", "fouiller le sac", 2), engine.CodePrecondition, "D20-020",
		"fouiller le sac costs 2 segments; Aldric has 1 left this round (segments 5 to 5)")
	evs := f.do(gm, other("aldric", "se relever", 0))
	used = append(used, find(t, evs, (*d20segv1.Event).GetOtherDone).GetSegment())
	require.Equal(t, []int32{0, 1, 2, 3, 4, 5}, used)
	require.Equal(t, int32(2), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound(), "all six segments used: the round ends")
	require.Equal(t, []int32{0, 0}, f.next("aldric", "berthe"))
	f.replay()
}

// D20-014: segments −1, 6 and 7 only for the combatants whose sheet gives them.
func TestD20_014_ExtraSegments(t *testing.T) {
	f := newFight(t, nil,
		sheet("bas", "Bas-niveau", initiative(5)),
		sheet("haut", "Haut-niveau", initiative(0), extra(-1, 6, 7)),
		sheet("six", "Sixième", initiative(-1), extra(6)))
	f.start()
	// Haut starts at −1 and so acts before a higher Initiative.
	require.Equal(t, []int32{0, -1, 0}, f.next("bas", "haut", "six"))
	require.Equal(t, "haut", f.upNext())
	f.refuse(gm, endTurn("bas"), engine.CodePrecondition, "D20-015", "Haut-niveau acts first, at segment -1 (Bas-niveau is at segment 0)")
	var haut, six []int32
	haut = append(haut, find(t, f.do(gm, other("haut", "", 0)), (*d20segv1.Event).GetOtherDone).GetSegment())
	f.do(gm, endTurn("bas"))
	for f.round() == 1 {
		switch id := f.upNext(); id {
		case "haut":
			haut = append(haut, find(t, f.do(gm, other(id, "", 0)), (*d20segv1.Event).GetOtherDone).GetSegment())
		case "six":
			six = append(six, find(t, f.do(gm, other(id, "", 0)), (*d20segv1.Event).GetOtherDone).GetSegment())
		default:
			t.Fatalf("%s acts again", id)
		}
	}
	require.Equal(t, []int32{-1, 0, 1, 2, 3, 4, 5, 6, 7}, haut, "−1 to 7: nine segments")
	require.Equal(t, []int32{0, 1, 2, 3, 4, 5, 6}, six, "0 to 6")
	require.Equal(t, []int32{0, -1, 0}, f.next("bas", "haut", "six"), "round 2")
	f.replay()

	// A BBA 6 with nine segments makes three attacks.
	g := newFight(t, nil, sheet("haut", "Haut-niveau", bba(6), extra(-1, 6, 7)), pell())
	g.start()
	var segs []int32
	for g.round() == 1 {
		if id := g.upNext(); id == "pell" {
			g.do(gm, endTurn(id))
		} else {
			segs = append(segs, find(t, g.do(gm, attack(id, "pell"), miss), (*d20segv1.Event).GetAttackRolled).GetSegment())
		}
	}
	require.Equal(t, []int32{-1, 2, 5}, segs)
	g.replay()

	// Only −1, 6 and 7; 7 comes after 6.
	b := newFight(t, nil)
	for _, segs := range [][]int32{{8}, {-2}, {5}, {7}, {-1, 7}} {
		b.refuse(gm, addCmd(sheet("x", "Prodige", extra(segs...))), engine.CodeInvalid, "D20-014", "Prodige")
	}
}

// D20-015: the combatant with the earliest next free segment acts next; at the same segment
// the higher Initiative. Aldric (Initiative 5, BBA 6: 3 segments) and Berthe (Initiative 3,
// BBA 11: 2 segments) interleave 0 A, 0 B, 2 B, 3 A, 4 B.
func TestD20_015_OrderBySegmentThenInitiative(t *testing.T) {
	f := newFight(t, nil,
		sheet("aldric", "Aldric", bba(6), initiative(5), ca(100)),
		sheet("berthe", "Berthe", bba(11), initiative(3), ca(100)))
	f.start()
	f.refuse(gm, attack("berthe", "aldric"), engine.CodePrecondition, "D20-015", "Aldric acts first, at segment 0 (Berthe is at segment 0)")
	var order []string
	for f.round() == 1 {
		id := f.upNext()
		foe := map[string]string{"aldric": "berthe", "berthe": "aldric"}[id]
		ar := find(t, f.do(gm, attack(id, foe), miss), (*d20segv1.Event).GetAttackRolled)
		order = append(order, fmt.Sprintf("%s@%d", id, ar.GetSegment()))
		if len(order) == 2 {
			f.refuse(gm, attack("aldric", "berthe"), engine.CodePrecondition, "D20-015", "Berthe acts first, at segment 2 (Aldric is at segment 3)")
		}
	}
	require.Equal(t, []string{"aldric@0", "berthe@0", "berthe@2", "aldric@3", "berthe@4"}, order)
	f.replay()
}

// D20-016: the round ends when every combatant has used its segments or ended its turn; a
// combatant that ended its turn does not act again this round; the GM removing the last one
// who could act ends the round too.
func TestD20_016_RoundEnds(t *testing.T) {
	f := newFight(t, nil,
		sheet("aldric", "Aldric", initiative(5)),
		sheet("berthe", "Berthe", initiative(4)),
		sheet("cedric", "Cédric", initiative(3)))
	f.start()
	none(t, f.do(gm, endTurn("aldric")), (*d20segv1.Event).GetRoundStarted)
	f.refuse(gm, other("aldric", "", 0), engine.CodePrecondition, "D20-016", "Aldric has ended its turn")
	none(t, f.do(gm, endTurn("berthe")), (*d20segv1.Event).GetRoundStarted)
	none(t, f.do(gm, other("cedric", "", 0)), (*d20segv1.Event).GetRoundStarted)
	evs := f.do(gm, endTurn("cedric"))
	require.Equal(t, int32(2), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	require.Equal(t, []int32{0, 0, 0}, f.next("aldric", "berthe", "cedric"))
	for _, id := range []string{"aldric", "berthe", "cedric"} {
		require.False(t, f.cs(id).GetEndedTurn(), "a new round: %s acts again", id)
	}
	f.do(gm, endTurn("aldric"))
	f.do(gm, endTurn("berthe"))
	// Cédric is the last who may act: removing him ends round 2.
	evs = f.do(gm, removeCmd("cedric"))
	require.NotNil(t, evs[0].GetCombatantRemoved())
	require.Equal(t, int32(3), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	require.Equal(t, "aldric", f.upNext())
	f.replay()
}

// D20-T04 (D20-011, D20-012, D20-015): two combatants of Initiative 4 roll off; the d20 decides
// who acts first at each shared segment for the whole combat, without another roll.
func TestD20_T04_RollOffDecidesTheWholeCombat(t *testing.T) {
	for _, tc := range []struct {
		faces        []int32 // Aldric's d20, Berthe's
		first, other string
	}{
		{[]int32{7, 15}, "berthe", "aldric"},
		{[]int32{15, 7}, "aldric", "berthe"},
	} {
		t.Run(tc.first, func(t *testing.T) {
			name := map[string]string{"aldric": "Aldric", "berthe": "Berthe"}
			f := newFight(t, nil,
				sheet("aldric", "Aldric", bba(6), initiative(4), ca(100)),
				sheet("berthe", "Berthe", bba(6), initiative(4), ca(100)))
			cs := f.start(tc.faces...)
			require.Len(t, cs.GetRollOffs(), 1)
			require.Equal(t, []string{"aldric", "berthe"}, cs.GetRollOffs()[0].GetCombatantIds())
			require.Equal(t, tc.faces, []int32{cs.GetRollOffs()[0].GetRolls()[0].GetTotal(), cs.GetRollOffs()[0].GetRolls()[1].GetTotal()})
			require.Equal(t, int32(0), f.cs(tc.first).GetTieOrder())
			require.Equal(t, int32(1), f.cs(tc.other).GetTieOrder())
			for round := int32(1); round <= 3; round++ {
				for _, seg := range []int32{0, 3} { // BBA 6: both attack at 0 and 3
					require.Equal(t, []int32{seg, seg}, f.next(tc.first, tc.other), "round %d", round)
					f.refuse(gm, attack(tc.other, tc.first), engine.CodePrecondition, "D20-015",
						fmt.Sprintf("%s acts first, at segment %d", name[tc.first], seg))
					require.Equal(t, seg, find(t, f.do(gm, attack(tc.first, tc.other), miss), (*d20segv1.Event).GetAttackRolled).GetSegment())
					evs := f.do(gm, attack(tc.other, tc.first), miss) // one die: no new roll-off (D20-012)
					require.Equal(t, seg, find(t, evs, (*d20segv1.Event).GetAttackRolled).GetSegment())
				}
				require.Equal(t, round+1, f.round())
				// D20-012: the Initiative and its tie order stay as they were set.
				require.Equal(t, []int32{4, 4}, []int32{f.cs("aldric").GetInitiative(), f.cs("berthe").GetInitiative()})
				require.Equal(t, int32(0), f.cs(tc.first).GetTieOrder())
			}
			f.replay()
		})
	}
}

// D20-011: only the tied combatants roll off, and those still tied roll again; the highest
// acts first. D20-012: the Initiative is set once, at the start, and recorded.
func TestD20_011_012_RollOffAmongTiedOnly(t *testing.T) {
	f := newFight(t, nil,
		sheet("aldric", "Aldric", initiative(4)),
		sheet("berthe", "Berthe", initiative(4)),
		sheet("cedric", "Cédric", initiative(4)),
		sheet("dame", "Dame Ysolde", initiative(6)))
	// Aldric 12, Berthe 12, Cédric 3; then Aldric 4, Berthe 9.
	cs := f.start(12, 12, 3, 4, 9)
	require.Len(t, cs.GetRollOffs(), 2)
	require.Equal(t, []string{"aldric", "berthe", "cedric"}, cs.GetRollOffs()[0].GetCombatantIds())
	require.Equal(t, []string{"aldric", "berthe"}, cs.GetRollOffs()[1].GetCombatantIds())
	require.Len(t, cs.GetRollOffs()[1].GetRolls(), 2)
	var order []string
	for range 4 {
		id := f.upNext()
		order = append(order, id)
		f.do(gm, endTurn(id))
	}
	require.Equal(t, []string{"dame", "berthe", "aldric", "cedric"}, order)
	require.Equal(t, int32(2), f.round())
	// Round 2: the same order, no die rolled (f.do gives none).
	order = nil
	for range 4 {
		id := f.upNext()
		order = append(order, id)
		f.do(gm, endTurn(id))
	}
	require.Equal(t, []string{"dame", "berthe", "aldric", "cedric"}, order)
	for id, init := range map[string]int32{"aldric": 4, "berthe": 4, "cedric": 4, "dame": 6} {
		require.Equal(t, init, f.cs(id).GetInitiative())
	}
	f.replay()
}

// D20-020 without carry_over: an action that does not fit in the segments left is not
// started; with carry_over it runs on into the next round, taking its first segments there,
// and no further than that round.
func TestD20_020_CarryOver(t *testing.T) {
	sheets := func() []*encounterv1.Combatant {
		return []*encounterv1.Combatant{
			sheet("aldric", "Aldric", bba(0), initiative(5), ca(100)),
			sheet("berthe", "Berthe", bba(0), initiative(3), ca(100)),
		}
	}
	// Without: BBA 0 attacks at 0–3, and has 2 segments left, too few for another.
	f := newFight(t, nil, sheets()...)
	f.start()
	f.do(gm, attack("aldric", "berthe"), miss)
	f.do(gm, attack("berthe", "aldric"), miss)
	f.refuse(gm, attack("aldric", "berthe"), engine.CodePrecondition, "D20-020",
		"an attack costs 4 segments at BBA 0; Aldric has 2 left this round (segments 4 to 5)", "no carry-over")
	require.Equal(t, []string{"cast", "cast", "other", "end turn"}, f.legal("aldric"), "a spell of level 0 (1 segment) or 1–3 (2) still fits (D20-018)")
	f.replay()

	// With: Aldric's attack at 4 takes 4, 5 and segments 0, 1 of round 2.
	f = newFight(t, &d20segv1.Options{CarryOver: proto.Bool(true)}, sheets()...)
	f.start()
	f.do(gm, attack("aldric", "berthe"), miss)
	f.do(gm, attack("berthe", "aldric"), miss)
	require.Equal(t, []string{"attack", "cast", "cast", "cast", "cast", "other", "end turn"}, f.legal("aldric"))
	ar := find(t, f.do(gm, attack("aldric", "berthe"), miss), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{4, 4}, []int32{ar.GetSegment(), ar.GetCost()})
	evs := f.do(gm, endTurn("berthe"))
	rs := find(t, evs, (*d20segv1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Len(t, rs.GetCarried(), 1)
	require.Equal(t, "aldric", rs.GetCarried()[0].GetCombatantId())
	require.Equal(t, int32(2), rs.GetCarried()[0].GetSegments())
	require.Equal(t, []int32{2, 0}, f.next("aldric", "berthe"), "Aldric's attack takes segments 0 and 1 of round 2")
	require.Equal(t, "berthe", f.upNext(), "Berthe acts at 0 before Aldric, despite the Initiative")
	f.refuse(gm, attack("aldric", "berthe"), engine.CodePrecondition, "D20-015", "Berthe acts first, at segment 0 (Aldric is at segment 2)")
	f.do(gm, attack("berthe", "aldric"), miss) // 0–3
	ar = find(t, f.do(gm, attack("aldric", "berthe"), miss), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(2), ar.GetSegment())
	// An action carries over into the next round only: at 4 (2 left), 9 segments would
	// reach beyond round 3.
	f.refuse(gm, other("berthe", "rituel", 9), engine.CodePrecondition, "D20-020",
		"rituel costs 9 segments; Berthe has 2 left this round (segments 4 to 5), and an action carries over into the next round only (6 segments there)")
	f.replay()

	// Both take the whole of the next round: it starts and ends at once, the one after begins.
	f = newFight(t, &d20segv1.Options{CarryOver: proto.Bool(true)}, sheets()...)
	f.start()
	f.do(gm, other("aldric", "", 4))
	f.do(gm, other("berthe", "", 4))
	f.do(gm, other("aldric", "rituel", 8))
	evs = f.do(gm, other("berthe", "rituel", 8))
	starts := all(evs, (*d20segv1.Event).GetRoundStarted)
	require.Len(t, starts, 2)
	require.Equal(t, int32(2), starts[0].GetRound())
	require.Len(t, starts[0].GetCarried(), 2)
	require.Equal(t, int32(3), starts[1].GetRound())
	require.Empty(t, starts[1].GetCarried())
	require.Equal(t, []int32{0, 0}, f.next("aldric", "berthe"))
	f.replay()
}

// D20-018, D20-020, D20-004: Legal lists a spell of each category whose casting time fits in
// the segments left (it listed none), with that time; each is one Decide accepts. The
// surprise round's free action may be a spell, at no segment.
func TestD20_018_LegalCastsWhatFits(t *testing.T) {
	f := newFight(t, nil, sheet("mage", "Mage", initiative(5)), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	casts := func(id string) (costs []int32, rules []string) {
		t.Helper()
		legal, err := f.Reg.Legal(f.St, id)
		require.NoError(t, err)
		for _, l := range legal {
			if l.GetName() == "cast" {
				costs, rules = append(costs, l.GetCost()), append(rules, l.GetRule())
			}
		}
		return costs, rules
	}
	accepted := func(c *d20segv1.Cast) error {
		_, err := f.Reg.Decide(proto.CloneOf(f.St), cast("mage", c), engine.Env{Actor: gm, Dice: dice.NewFixed(), Seed: make([]byte, dice.SeedSize)})
		return err
	}
	// Segment 0 of 0–5: level 0 → 1, 1–3 → 2, 4–6 → 3, 7–9 → 4 segments.
	costs, rules := casts("mage")
	require.Equal(t, []int32{1, 2, 3, 4}, costs)
	require.Equal(t, []string{"D20-018", "D20-018", "D20-018", "D20-018"}, rules)
	for _, level := range []int32{0, 1, 4, 7} {
		require.NoError(t, accepted(&d20segv1.Cast{Spell: "sort", Level: level}))
	}
	// At segment 3, 3 segments left (3–5): a supreme spell (4) no longer fits.
	f.do(gm, other("mage", "recule", 3))
	f.do(gm, endTurn("berthe"))
	costs, _ = casts("mage")
	require.Equal(t, []int32{1, 2, 3}, costs)
	require.NoError(t, accepted(&d20segv1.Cast{Spell: "sort", Level: 4}))
	f.refuse(gm, cast("mage", &d20segv1.Cast{Spell: "Tempête", Level: 7}), engine.CodePrecondition, "D20-020", "Mage")
	// At segment 5, one left: only pre-magic.
	sc := find(t, f.do(gm, cast("mage", &d20segv1.Cast{Spell: "Bouclier", Level: 1})), (*d20segv1.Event).GetSpellCast)
	require.Equal(t, []int32{3, 2}, []int32{sc.GetSegment(), sc.GetCost()})
	costs, _ = casts("mage")
	require.Equal(t, []int32{1}, costs)
	require.NoError(t, accepted(&d20segv1.Cast{Spell: "Lumière", Level: 0}))
	f.refuse(gm, cast("mage", &d20segv1.Cast{Spell: "Bouclier", Level: 1}), engine.CodePrecondition, "D20-020", "Mage")
	f.replay()
}

// D20-019: a spell that takes effect at the start of the next round is announced by that
// round's start, once.
func TestD20_019_SpellTakesEffectNextRound(t *testing.T) {
	f := newFight(t, nil, sheet("mage", "Mage", initiative(5)), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	sc := find(t, f.do(gm, cast("mage", &d20segv1.Cast{Spell: "Mur de feu", Level: 4, Special: true, NextRound: true})), (*d20segv1.Event).GetSpellCast)
	require.Equal(t, []int32{0, 4}, []int32{sc.GetSegment(), sc.GetCost()}, "level 4 (3) + special (1) (D20-018)")
	require.True(t, sc.GetNextRound())
	require.Equal(t, []string{"Mur de feu"}, f.seg().GetDelayedSpells())
	f.do(gm, cast("berthe", &d20segv1.Cast{Spell: "Lumière", Level: 0})) // takes effect now
	f.do(gm, endTurn("berthe"))
	evs := f.do(gm, endTurn("mage"))
	rs := find(t, evs, (*d20segv1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Equal(t, []string{"Mur de feu"}, rs.GetSpellsTakingEffect())
	require.Empty(t, f.seg().GetDelayedSpells())
	f.do(gm, endTurn("mage"))
	rs = find(t, f.do(gm, endTurn("berthe")), (*d20segv1.Event).GetRoundStarted)
	require.Equal(t, int32(3), rs.GetRound())
	require.Empty(t, rs.GetSpellsTakingEffect())
	f.replay()
}

// D20-018 and D20-021 through real casts: the cost is paid in segments; pure magic without a
// stated time and a level beyond 9 are refused, naming the caster.
func TestD20_018_021_CastingTakesSegments(t *testing.T) {
	f := newFight(t, nil, sheet("mage", "Mage", initiative(5)), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	f.refuse(gm, cast("mage", &d20segv1.Cast{Spell: "Souhait", PureMagic: true}), engine.CodeInvalid, "D20-021", "Mage casting Souhait", "stated")
	f.refuse(gm, cast("mage", &d20segv1.Cast{Spell: "Apocalypse", Level: 10}), engine.CodeInvalid, "D20-018", "Mage casting Apocalypse")
	var segs [][]int32
	for i, c := range []*d20segv1.Cast{
		{Spell: "Projectile magique", Level: 1, Special: true},  // 2 + 1
		{Spell: "Prestidigitation", Level: 0},                   // 1
		{Spell: "Flux pur", PureMagic: true, StatedSegments: 2}, // stated
	} {
		sc := find(t, f.do(gm, cast("mage", c)), (*d20segv1.Event).GetSpellCast)
		segs = append(segs, []int32{sc.GetSegment(), sc.GetCost()})
		if i == 0 {
			f.do(gm, endTurn("berthe"))
		}
	}
	require.Equal(t, [][]int32{{0, 3}, {3, 1}, {4, 2}}, segs)
	require.Equal(t, int32(2), f.round())
	// A spell that does not fit is not started (D20-020).
	f.do(gm, cast("mage", &d20segv1.Cast{Spell: "Boule de feu", Level: 3, Special: true})) // 0–2
	f.do(gm, endTurn("berthe"))
	f.refuse(gm, cast("mage", &d20segv1.Cast{Spell: "Cône de froid", Level: 5, Special: true}), engine.CodePrecondition, "D20-020",
		"casting Cône de froid costs 4 segments; Mage has 3 left this round")
	f.replay()
}

// D20-022: other actions cost 1 segment unless the GM says otherwise.
func TestD20_022_OtherActionsOneSegment(t *testing.T) {
	f := newFight(t, nil, pc(sheet("aldric", "Aldric", initiative(5))), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	od := find(t, f.do(player, other("aldric", "dégainer", 0)), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{0, 1}, []int32{od.GetSegment(), od.GetCost()})
	f.do(gm, endTurn("berthe"))
	od = find(t, f.do(player, other("aldric", "boire une potion", 1)), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{1, 1}, []int32{od.GetSegment(), od.GetCost()})
	f.refuse(player, other("aldric", "escalader", 3), engine.CodePermission, "D20-022", "Aldric", "unless the GM says otherwise")
	od = find(t, f.do(gm, other("aldric", "escalader", 3)), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{2, 3}, []int32{od.GetSegment(), od.GetCost()}, "the GM says so")
	require.Equal(t, int32(5), f.cs("aldric").GetNextSegment())
	f.replay()
}
