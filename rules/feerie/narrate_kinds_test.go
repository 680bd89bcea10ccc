package feerie_test

import (
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestEveryFeerieEventKindIsNarratedInBothLanguages walks the kinds of feeriev1.Event: each,
// empty or as the tests fill it, is narrated by the registry's Narrator in English and French,
// to a line that is neither empty nor the fallback for a kind unknown, the French its own.
func TestEveryFeerieEventKindIsNarratedInBothLanguages(t *testing.T) {
	reg := engine.NewRegistry(feerie.New(1))
	kinds := (&feeriev1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("kind").Fields()
	require.Equal(t, 15, kinds.Len(), "a new kind of event: narrate it, and count it here")
	for i := range kinds.Len() {
		fd := kinds.Get(i)
		t.Run(string(fd.Name()), func(t *testing.T) {
			e := &feeriev1.Event{}
			m := e.ProtoReflect()
			m.Set(fd, m.NewField(fd))
			ev := &encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_Feerie{Feerie: e}}
			en := reg.Narrator(narrate.English).Text(ev)
			fr := reg.Narrator(narrate.French).Text(ev)
			for _, s := range []string{en, fr} {
				require.True(t, strings.HasPrefix(s, "#7 ") && len(s) > len("#7 "), s)
				require.NotContains(t, s, "Contes de Fées event")
				require.NotContains(t, s, "événement de Contes de Fées")
				require.NotContains(t, s, "feerie ", "a message key printed instead of its text")
			}
			require.NotEqual(t, en, fr)
		})
	}
	// An event without a kind, and the events of other systems, are not Contes de Fées's.
	n := reg.Narrator(narrate.English)
	require.Equal(t, "#7 (empty Contes de Fées event)", n.Text(&encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{}}}))
	require.Equal(t, "#7 (événement de Contes de Fées vide)",
		reg.Narrator(narrate.French).Text(&encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{}}}))
	_, ok := feerie.New(1).Teller().Event(n, &encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{}})
	require.False(t, ok)
}

// TestNarrateFeerieSheetsAndHouseRules: a joining combatant's sheet and the house rules of an
// encounter, as the common narration of those events includes them.
func TestNarrateFeerieSheetsAndHouseRules(t *testing.T) {
	en, fr := narrate.New(narrate.English), narrate.New(narrate.French)
	teller := feerie.New(1).Teller()
	w := &encounterv1.Combatant{Id: "wichtln", Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: 15, Habilete: 20, Puissance: 10, Resistance: 15, Taille: -2, Essence: 30}}}
	s, ok := teller.Sheet(en, w)
	require.True(t, ok)
	require.Equal(t, "V 15, H 20, P 10, R 15, Taille −2, Essence 30", s)
	s, _ = teller.Sheet(fr, w)
	require.Equal(t, "V 15, H 20, P 10, R 15, Taille −2, Essence 30", s)
	w.GetFeerie().Inanimate, w.GetFeerie().Flier, w.GetFeerie().Burrower, w.GetFeerie().Taille = true, true, true, 1
	s, _ = teller.Sheet(en, w)
	require.Equal(t, "V 15, H 20, P 10, R 15, Taille +1, Essence 30, an object, flies, burrows", s)
	s, _ = teller.Sheet(fr, w)
	require.Equal(t, "V 15, H 20, P 10, R 15, Taille +1, Essence 30, un objet, volant, fouisseur", s)
	_, ok = teller.Sheet(en, &encounterv1.Combatant{Id: "x"})
	require.False(t, ok, "no Contes de Fées sheet")

	opts := func(o *feeriev1.Options) *encounterv1.RuleOptions {
		return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: o}}
	}
	s, ok = teller.Options(en, opts(&feeriev1.Options{Roll: "2d10-11", FumbleMargin: proto.Int32(8), EssenceSpendCap: proto.Int32(3)}))
	require.True(t, ok)
	require.Equal(t, "roll 2d10-11, a fumble at a margin of −8 or worse, at most 3 Essence spent on a roll", s)
	s, _ = teller.Options(fr, opts(&feeriev1.Options{Roll: "2d10-11", FumbleMargin: proto.Int32(8), EssenceSpendCap: proto.Int32(3)}))
	require.Equal(t, "jet 2d10-11, un échec critique à une marge de −8 ou pire, au plus 3 points d'Essence dépensés sur un jet", s)
	s, _ = teller.Options(fr, opts(&feeriev1.Options{EssenceSpendCap: proto.Int32(1)}))
	require.Equal(t, "au plus 1 point d'Essence dépensé sur un jet", s)
	// The other house rules when they depart from the catalogue's choice (FEE-002, FEE-153,
	// FEE-171); those that keep it are not repeated.
	o := &feeriev1.Options{EssenceSpendCap: proto.Int32(0), TieSucceeds: proto.Bool(false), StunMalus: proto.String("damage"),
		DivisionRounding: proto.String(feerie.RoundDown), LightingOnDefense: proto.Bool(false)}
	s, _ = teller.Options(en, opts(o))
	require.Equal(t, "Essence spent on a roll unlimited, tie_succeeds false (FEE-002), stun_malus damage (FEE-153)", s)
	s, _ = teller.Options(fr, opts(o))
	require.Equal(t, "Essence dépensée sur un jet sans limite, tie_succeeds false (FEE-002), stun_malus damage (FEE-153)", s)
	s, ok = teller.Options(en, opts(&feeriev1.Options{}))
	require.True(t, ok)
	require.Empty(t, s)
	_, ok = teller.Options(en, &encounterv1.RuleOptions{})
	require.False(t, ok, "not Contes de Fées's house rules")

	// What a combatant declared, for a state table.
	in := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, Tactic: &feeriev1.Tactic{Attack: 1, Defense: -1}}
	require.Equal(t, "a passive activity, tactic +0/+1/−1", feerie.IntentText(en, in, false))
	require.Equal(t, "une activité passive, ses Attributs et sa tactique masqués", feerie.IntentText(fr, in, true))

	require.Equal(t, "ranged attack", feerie.KindText(en, feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK))
	require.Equal(t, "attaque à distance", feerie.KindText(fr, feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK))
	require.Equal(t, "enter the guard", feerie.StrikeText(en, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD))
	require.Equal(t, "entrer dans la garde", feerie.StrikeText(fr, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD))

	// Nothing to learn: the names and who is hidden are the Narrator's.
	teller.Learn(en, &encounterv1.Event{})
	teller.LearnState(en, &encounterv1.EncounterState{})
}
