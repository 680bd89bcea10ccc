package feerie_test

// Edges of the narration: each test kills a mutant that lived in a mutation run of this
// package (a comparison moved by one or turned around, a sign flipped), with the numbers at
// the edge.

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

func edgeText(e *feeriev1.Event) string {
	return narrator(narrate.English).Text(feerieEv(3, e))
}

// FEE-047: a free gesture at step 1 (rank 0) names no rank; during the countdown it does.
func TestNarrateEdgeGestureRank(t *testing.T) {
	g := &feeriev1.Gestured{CombatantId: "pixie", Description: "salue"}
	require.Equal(t, `#3 Pixie, freely: "salue" (FEE-047)`, edgeText(&feeriev1.Event{Kind: &feeriev1.Event_Gestured{Gestured: g}}))
	g.Rank = 5
	require.Equal(t, `#3 rank 5: Pixie, freely: "salue" (FEE-047)`, edgeText(&feeriev1.Event{Kind: &feeriev1.Event_Gestured{Gestured: g}}))
}

// FEE-010, FEE-043: an Initiative of Vigilance alone shows no breakdown; a total of exactly 0
// cannot act.
func TestNarrateEdgeInitiative(t *testing.T) {
	s := edgeText(&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 1, TopRank: 14, Initiative: []*feeriev1.InitiativeRoll{
		{CombatantId: "pixie", Result: roll20(10, 10, fmod("Vigilance", 14, "FEE-010")), CanAct: true},
		{CombatantId: "serpent", Result: roll20(1, 15, fmod("Vigilance", 14, "FEE-010")), CanAct: false}}}}})
	require.Equal(t, "#3 Initiative: Pixie 14+d20[10]−d20[10] = 14; Serpent 14+d20[1]−d20[15] = 0, cannot act (FEE-043); the countdown starts at 14", s)
}

// FEE-110: an exposed part given as −4 reads as a malus of 4; FEE-061: a second activity
// reads −4.
func TestNarrateEdgeQueued(t *testing.T) {
	q := &feeriev1.Queued{CombatantId: "pixie", Act: &feeriev1.Act{Intent: melee("serpent"), Circumstances: &feeriev1.Circumstances{ExposedMalus: -4}}, Rank: 10, Nth: 1}
	require.Equal(t, "#3 Pixie acts at rank 10 (exposed part −4)", edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}))
	q = &feeriev1.Queued{CombatantId: "pixie", Act: &feeriev1.Act{Intent: melee("serpent")}, Rank: 10, Nth: 2, RollPenalty: 4}
	require.Equal(t, "#3 Pixie acts again at rank 10 (activity 2: −4)", edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}))
}

// FEE-101, FEE-021: a charge at a walk adds 0 (a term "+ charge 0"); a would-be loss of exactly
// 0 is "no Essence lost".
func TestNarrateEdgeResolved(t *testing.T) {
	r := &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 10, Intent: melee("serpent"), Success: true, Attack: roll20(15, 5, fmod("Habileté", 10, "FEE-011")),
		Defense: 12, Margin: 8, Damage: 10, DamageModifiers: []*feeriev1.Modifier{fmod("Puissance", 10, "FEE-014"), fmod("charge", 0, "FEE-101")}, Soak: 10, EssenceLost: 4, TargetEssence: 16}
	require.Equal(t, "#3 rank 10: Pixie attacks Serpent: 20 (H 10 + d20[15]−d20[5]) vs Defense 12 — margin 8: 4 + Damage 10 (P 10 + charge 0) − Soak 10 = 4 Essence lost (Serpent 16 left)",
		edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: r}}))
	r = &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 10, Intent: melee("serpent"), Success: true, Attack: roll20(10, 10, fmod("Habileté", 12, "FEE-011")),
		Defense: 12, Margin: 0, Damage: 10, Soak: 10, TargetEssence: 16}
	require.Equal(t, "#3 rank 10: Pixie attacks Serpent: 12 (H 12 + d20[10]−d20[10]) vs Defense 12 — margin 0: 0 + Damage 10 − Soak 10 = 0: no Essence lost",
		edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: r}}))
}

// FEE-061: a third activity's −8 is all the activity's own: no "earlier penalties".
func TestNarrateEdgeThirdActivity(t *testing.T) {
	q := &feeriev1.Queued{CombatantId: "pixie", Act: &feeriev1.Act{Intent: melee("serpent")}, Rank: 3, Nth: 3, RollPenalty: 8}
	require.Equal(t, "#3 Pixie acts again at rank 3 (activity 3: −8)", edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}))
}

// FEE-158: a knockback of 0 distance units throws no one; of 2 it says so (when the note does
// not already).
func TestNarrateEdgeKnockbackDistance(t *testing.T) {
	for _, d := range []int32{0, 2} {
		r := &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 10, Intent: melee("serpent"), Success: true, Attack: roll20(15, 5, fmod("Habileté", 10, "FEE-011")),
			Defense: 12, Margin: 8, Damage: 10, Soak: 10, TargetEssence: 16,
			Conditions: []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK, By: "pixie", Distance: d}}}
		s := edgeText(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: r}})
		if d == 0 {
			require.NotContains(t, s, "thrown")
			continue
		}
		require.Contains(t, s, "Serpent is thrown 2 distance units (FEE-158)")
	}
}

// FEE-010: an Initiative roll with no term (Vigilance 0, nothing applied) reads 0 + the dice.
func TestNarrateEdgeInitiativeOfNoTerm(t *testing.T) {
	s := edgeText(&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 1, TopRank: 2, Initiative: []*feeriev1.InitiativeRoll{
		{CombatantId: "pixie", Result: roll20(12, 10), CanAct: true}}}}})
	require.Equal(t, "#3 Initiative: Pixie 0+d20[12]−d20[10] = 2; the countdown starts at 2", s)
}
