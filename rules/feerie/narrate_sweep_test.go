package feerie_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// FEE-094: a sweep's narration names every defender and tells what each further one met with
// the same roll; a player from whom one is hidden reads only whether it was hit.
func TestNarrateASweep_FEE094(t *testing.T) {
	bite := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", AlsoTargetIds: []string{"ogre", "lutin"}, Physical: true}
	ev := &encounterv1.Event{Sequence: 9, RulesVersion: 2, Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
		CombatantId: "dragon", Rank: 12, Intent: bite, Success: true, Margin: 4, Defense: 10, Damage: 12, Soak: 8, EssenceLost: 6, TargetEssence: 14,
		Attack: &feeriev1.RollResult{Score: 14, Total: 14, Modifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 14, Rule: "FEE-011"}}},
		Also: []*feeriev1.Struck{
			{TargetId: "ogre", Defense: 8, Margin: 6, Success: true, Soak: 9, EssenceLost: 6, TargetEssence: 24},
			{TargetId: "lutin", Defense: 16, Margin: -2, TargetEssence: 20},
		},
	}}}}}
	n := func() *narrate.Narrator {
		n := hiddenNarrator(narrate.English)
		n.SetName("dragon", "Dragon")
		n.SetName("lutin", "Lutin")
		return n
	}
	gm := n().Text(ev)
	require.Contains(t, gm, "Dragon attacks Aude, Le Croque-Mitaine and Lutin: 14")
	require.Contains(t, gm, "; Le Croque-Mitaine: Defense 8, margin 6 — a hit: Soak 9, 6 Essence lost (Le Croque-Mitaine 24 left)")
	require.Contains(t, gm, "; Lutin: Defense 16, margin −2 — a miss")
	player := n().Text(asPlayer(ev, "ogre"))
	require.Contains(t, player, "; Le Croque-Mitaine: a hit, its numbers withheld; Lutin: Defense 16, margin −2 — a miss")
	require.NotContains(t, player, "Soak 9")
}

// FEE-003: the narration of a hit halves the margin as the encounter's house rules round it,
// as the rules did: with half_margin_rounding up, a margin of 5 gives 3 + Damage 10 − Soak 8 =
// 5 Essence lost (it read "2 + Damage 10 − Soak 8 = 5", which does not add up), whether the
// narration learnt the house rules from the log or from a state.
func TestNarrateAHitRoundsTheHalfMarginAsTheRules_FEE003(t *testing.T) {
	created := &encounterv1.Event{Sequence: 1, Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: &feeriev1.Options{HalfMarginRounding: proto.String("up")}}}}}}
	hit := &encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
		CombatantId: "ogre", Rank: 12, Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", Physical: true},
		Success: true, Margin: 5, Defense: 10, Damage: 10, Soak: 8, EssenceLost: 5, TargetEssence: 15,
		Attack: &feeriev1.RollResult{Score: 15, Total: 15, Modifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 15, Rule: "FEE-011"}}},
	}}}}}
	want := "— margin 5: 3 + Damage 10 − Soak 8 = 5 Essence lost (Aude 15 left)"
	n := hiddenNarrator(narrate.English)
	n.Learn(created)
	require.Contains(t, n.Text(hit), want, "from the log")
	n = hiddenNarrator(narrate.English)
	n.LearnState(&encounterv1.EncounterState{Options: created.GetEncounterCreated().GetOptions()})
	require.Contains(t, n.Text(hit), want, "from a state")
}
