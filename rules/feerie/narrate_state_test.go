package feerie_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// TestNarrateFeerieState: what fray state shows of a combatant beyond its numbers, in English
// (as the CLI's table always wrote it) and French; a combatant the GM hides from the reader
// shows what the table sees, its maluses and penalties withheld.
func TestNarrateFeerieState(t *testing.T) {
	aude := &encounterv1.Combatant{Id: "aude", Name: "Aude", Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{Essence: 60}}}
	ogre := &encounterv1.Combatant{Id: "ogre", Name: "Le Croque-Mitaine", Hidden: true} // its sheet withheld from the reader
	statue := &encounterv1.Combatant{Id: "statue", Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{Inanimate: true}}}
	countdown := &feeriev1.State{Step: feeriev1.Step_STEP_COUNTDOWN}
	declaring := &feeriev1.State{Step: feeriev1.Step_STEP_DECLARING}
	cond := func(s feeriev1.SpecialStrike, malus int32) *feeriev1.Condition {
		return &feeriev1.Condition{Strike: s, By: "ogre", Malus: malus, FreeAgainst: 12, Ranks: malus}
	}
	all := []*feeriev1.Condition{cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE, 6), cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, 3),
		cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, 8), cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD, 8),
		cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE, 1), cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE, 5), cond(feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP, 4)}
	for _, c := range []struct {
		name   string
		cb     *encounterv1.Combatant
		cs     *feeriev1.CombatantState
		fs     *feeriev1.State
		en, fr string
	}{
		{"no state", aude, nil, countdown, "", ""},
		{"out of the fight, cannot act", aude, &feeriev1.CombatantState{Essence: 0}, countdown,
			"OUT (0 Essence)", "HORS DE COMBAT (0 Essence)"},
		{"cannot act, renounced, helpless, surprised, unseen, down, disarmed", aude, &feeriev1.CombatantState{Essence: 10, Renounced: true, Helpless: true, HelplessReason: "asleep",
			SurprisedActions: 1, SurpriseNoActivity: true, UnseenBonus: 3, Prone: true, Disarmed: true}, countdown,
			"renounced; helpless (asleep): Defense 0, no activity; surprised (1 Action); no activity while surprised; unseen: +3 Initiative; down: −4 to its activities until it gets up; disarmed",
			"a renoncé ; sans défense (asleep) : Défense 0, aucune activité ; surpris (1 Action) ; aucune activité tant qu'il est surpris ; sans être vu : +3 en Initiative ; à terre : −4 à ses activités tant qu'il ne s'est pas relevé ; désarmé"},
		{"cannot act; helpless without a reason; surprised for long", aude, &feeriev1.CombatantState{Essence: 10, Helpless: true, SurprisedActions: 2}, countdown,
			"helpless: Defense 0, no activity; surprised (2 Actions)", "sans défense : Défense 0, aucune activité ; surpris (2 Actions)"},
		{"cannot act this Action", aude, &feeriev1.CombatantState{Essence: 10}, countdown,
			"cannot act this Action", "ne peut pas agir pendant cette Action"},
		{"an object: the sheet's, a Power's", statue, &feeriev1.CombatantState{Inanimate: true, InanimatePower: "pétrification", CanAct: true}, countdown,
			"an object; an object through pétrification", "un objet ; un objet par pétrification"},
		{"an object through no Power", aude, &feeriev1.CombatantState{Essence: 10, Inanimate: true, CanAct: true}, declaring,
			"an object", "un objet"},
		{"every condition, relentless, intimidation, aim, penalties", aude, &feeriev1.CombatantState{Essence: 10, CanAct: true, Conditions: all,
			Relentless: true, RelentlessBonus: 2, IntimidationBonuses: map[string]int32{"ogre": 3, "aude": -1}, Aim: 4, ThisAction: 8,
			Penalties: []*feeriev1.Penalty{{FromRank: 12, Rolls: 2, Defense: 2, Reason: "activity"}, {FromRank: 9, Defense: 4, Reason: "change of intention"},
				{FromRank: 5, Rolls: 1, Reason: "the GM's malus: no room"}, {FromRank: 4, Rolls: 1}, {FromRank: 3}},
			ChangeMalus: 4, NextAction: 8, Aggressors: []string{"ogre", "aude"}, EngagedBy: []string{"ogre"}}, countdown,
			"entangled by Le Croque-Mitaine: −6 to its activities, frees itself against 12; stunned: −3 to its activities; kept at bay by Le Croque-Mitaine: −8 Attack against it; " +
				"Le Croque-Mitaine inside its guard: −8 Attack against it; an organ crippled for 1 rank; an organ crippled for 5 ranks; trip by Le Croque-Mitaine; " +
				"relentless: next Damage +2, Defense −8; next intimidation −1 against Aude, +3 against Le Croque-Mitaine; aiming +4; −8 on this Action (FEE-062, FEE-073); " +
				"−2 rolls, −2 Defense from rank 12 (activity); −4 Defense from rank 9 (change of intention); −1 rolls from rank 5 (the GM's malus: no room); −1 rolls from rank 4 (?); " +
				"−4 on its next activity (change of intention); −8 on the next Action; watches Le Croque-Mitaine and Aude (FEE-175); engaged by Le Croque-Mitaine",
			"entravé par Le Croque-Mitaine : −6 à ses activités, se dégage contre 12 ; étourdi : −3 à ses activités ; tenu en respect par Le Croque-Mitaine : −8 en Attaque contre lui ; " +
				"Le Croque-Mitaine dans sa garde : −8 en Attaque contre lui ; un organe handicapé pendant 1 rang ; un organe handicapé pendant 5 rangs ; faire tomber par Le Croque-Mitaine ; " +
				"acharnement : prochains Dommages +2, Défense −8 ; prochaine intimidation −1 contre Aude, +3 contre Le Croque-Mitaine ; visée +4 ; −8 sur cette Action (FEE-062, FEE-073) ; " +
				"−2 aux jets, −2 en Défense à partir du rang 12 (activité) ; −4 en Défense à partir du rang 9 (changement d'intention) ; −1 aux jets à partir du rang 5 (malus du MJ : no room) ; −1 aux jets à partir du rang 4 (?) ; " +
				"−4 à sa prochaine activité (changement d'intention) ; −8 à l'Action suivante ; surveille Le Croque-Mitaine et Aude (FEE-175) ; engagé par Le Croque-Mitaine"},
		{"one aggressor is not watched", aude, &feeriev1.CombatantState{Essence: 10, CanAct: true, Aggressors: []string{"ogre"}}, countdown, "", ""},
		{"hidden by the GM: what the strikes are, not their maluses", ogre, &feeriev1.CombatantState{CanAct: true, Conditions: all[:2], Relentless: true, RelentlessBonus: 2,
			HasDeclared: true, Declared: melee("aude")}, countdown,
			"hidden by the GM; entangle by Le Croque-Mitaine; stun by Le Croque-Mitaine; relentless: Defense −8; declared melee attack on Aude, its Attributes and tactic withheld",
			"caché par le MJ ; entraver par Le Croque-Mitaine ; étourdir par Le Croque-Mitaine ; acharnement : Défense −8 ; a déclaré attaque au corps à corps contre Aude, ses Attributs et sa tactique masqués"},
		{"hidden, helpless, cannot act, to declare", ogre, &feeriev1.CombatantState{Helpless: true}, declaring,
			"hidden by the GM; helpless: Defense 0, no activity", "caché par le MJ ; sans défense : Défense 0, aucune activité"},
		{"hidden, it cannot act", ogre, &feeriev1.CombatantState{}, countdown,
			"hidden by the GM; cannot act this Action", "caché par le MJ ; ne peut pas agir pendant cette Action"},
		{"to declare", aude, &feeriev1.CombatantState{Essence: 10}, declaring, "to declare", "doit déclarer"},
		{"an object does not declare", statue, &feeriev1.CombatantState{Essence: 10}, declaring, "an object", "un objet"},
		{"helpless, it does not declare", aude, &feeriev1.CombatantState{Essence: 10, Helpless: true}, declaring,
			"helpless: Defense 0, no activity", "sans défense : Défense 0, aucune activité"},
		{"out, it does not declare", aude, &feeriev1.CombatantState{}, declaring, "OUT (0 Essence)", "HORS DE COMBAT (0 Essence)"},
		{"declared", aude, &feeriev1.CombatantState{Essence: 10, HasDeclared: true, Declared: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}}, declaring,
			"declared a passive activity, tactic +0/+0/+0", "a déclaré une activité passive, tactique +0/+0/+0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for lang, want := range map[*narrate.Narrator]string{hiddenNarrator(narrate.English): c.en, hiddenNarrator(narrate.French): c.fr} {
				require.Equal(t, want, feerie.StateText(lang, c.cb, c.cs, c.fs))
			}
		})
	}
}
