package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// told narrates a fight's log as viewer v reads it, in lang.
func told(t *testing.T, f *fight, v engine.Viewer, lang language.Tag) []string {
	n := narrate.New(lang, loss.Teller{})
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var out []string
	for _, ev := range f.Log {
		before := proto.CloneOf(st)
		out = append(out, n.Narrate(f.Reg.ViewEvent(before, ev, v)))
		require.NoError(t, f.Reg.Evolve(st, ev))
	}
	return out
}

// TestNarrationOfAHiddenLossCombatant: the log of the hidden ogre's fight as Diego's player
// reads it tells what is known and says what is hidden, no zero standing for a number
// (LOS-009, LOS-012, LOS-021, LOS-022, LOS-031, LOS-040); the GM reads the same events whole.
// The English lines are the CLI's (cli hidden_test.go).
func TestNarrationOfAHiddenLossCombatant(t *testing.T) {
	f := hiddenFight(t)
	en, fr := told(t, f, davidsView, narrate.English), told(t, f, davidsView, narrate.French)
	for _, want := range []string{
		"#3 joins: L'ogre (ogre): hidden by the GM: its sheet is withheld, side monstres, controller gm",
		"#5 Tour 1 (Séquence 1): Diego 8+d10[5] = 13 PA; L'ogre rolls, hidden",
		"#6 the GM grants L'ogre free raises or takes some back: how many and why is hidden (LOS-004)",
		"#7 L'ogre attacks Diego: roll hidden — success; Diego may parry or dodge at Difficulty 15",
		"#9 L'ogre hits Diego: damage hidden, armour 24 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5",
		"#10 L'ogre passes, keeping its PA (hidden) to parry or dodge",
		"#13 Diego hits L'ogre: damage d10[5]+19 = 24; the NS L'ogre lost are hidden",
		"#15 L'ogre dodges: roll hidden — success",
		"#19 L'ogre waits to act at a later phase (its phases are hidden)",
	} {
		require.Contains(t, en, want)
	}
	for _, want := range []string{
		"#3 rejoint la rencontre : L'ogre (ogre) : caché par le MJ : sa fiche est masquée, camp monstres, contrôleur gm",
		"#5 Tour 1 (Séquence 1) : Diego 8+d10[5] = 13 PA ; L'ogre lance, caché",
		"#6 le MJ accorde des Augmentations Gratuites à l'ogre ou en reprend : combien et pourquoi est caché (LOS-004)",
		"#7 L'ogre attaque Diego : jet caché — réussite ; Diego peut parer ou esquiver à Difficulté 15",
		"#9 L'ogre touche Diego : dégâts cachés, armure 24 → 7 NS perdus ; NS de Diego : légères 0, graves 3, fatales 5",
		"#10 L'ogre passe et garde ses PA (cachés) pour parer ou esquiver",
		"#13 Diego touche L'ogre : dégâts d10[5]+19 = 24 ; les NS perdus par L'ogre sont cachés",
		"#15 L'ogre esquive : jet caché — réussite",
		"#19 L'ogre attend pour agir à une phase plus tardive (ses phases sont cachées)",
	} {
		require.Contains(t, fr, want)
	}
	for _, l := range append(en, fr...) {
		for _, zero := range []string{"(0 PA", " 0 PA", "0+0+", "= 0 ", "+0 =", "phase 0", "damage 0", "dégâts 0", "Zorglub"} {
			require.NotContains(t, l, zero, l)
		}
	}

	gm := told(t, f, gmView, narrate.English)
	require.Contains(t, gm, "#9 L'ogre hits Diego: damage d10[3]+28 = 31, armour 24 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5")
	require.Contains(t, gm, "#13 Diego hits L'ogre: damage d10[5]+19 = 24, armour 22 → 2 NS lost; L'ogre has NS light 3, grave 5, fatal 5")
	require.Contains(t, gm, "#19 L'ogre waits from phase 32 to 28 (next action −4 PA, minimum 2)")
	gmFr := told(t, f, gmView, narrate.French)
	require.Contains(t, gmFr, "#13 Diego touche L'ogre : dégâts d10[5]+19 = 24, armure 22 → 2 NS perdus ; NS de l'ogre : légères 3, graves 5, fatales 5")
	require.Contains(t, gmFr, "#7 L'ogre attaque Diego avec Gourdin-de-Zorglub (4 PA) : 27+29+d10[7]+5 = 68 contre 15 — réussite (+5 1 Augmentation Gratuite (LOS-004)) ; Diego peut parer ou esquiver")
}

// The other events of a hidden combatant, as a redacted event carries them: what it does is
// told, its numbers are said to be hidden.
func TestNarrationOfWithheldNumbers(t *testing.T) {
	redacted := func(seq uint64, e *lossv1.Event) *encounterv1.Event {
		ev := nEv(seq, e)
		ev.Redacted = true
		return ev
	}
	for _, tc := range []struct {
		en, fr string
		e      *lossv1.Event
	}{
		{"#1 L'ogre aims (LOS-035) (weapon, PA and bonus hidden)", "#1 L'ogre vise (LOS-035) (arme, PA et bonus cachés)",
			&lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "ogre"}}}},
		{"#2 L'ogre aims for the whole Tour (LOS-084) (weapon, PA and bonus hidden)", "#2 L'ogre vise pendant tout le Tour (LOS-084) (arme, PA et bonus cachés)",
			&lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "ogre", WholeTour: true}}}},
		{`#3 L'ogre moves: "vers la porte"`, "#3 L'ogre se déplace : « vers la porte »",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "ogre", Kind: lossv1.SimpleKind_SIMPLE_KIND_MOVE, Description: "vers la porte"}}}},
		{"#4 L'ogre sacrifices 1 Inspiration: L'ogre is saved (LOS-023)", "#4 L'ogre sacrifie 1 Inspiration : L'ogre est sauvé (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "ogre", TargetId: "ogre",
				Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION}}}},
		{"#5 pursuit: L'ogre zigzags: roll hidden — failure", "#5 poursuite : L'ogre zigzague : jet caché — échec",
			&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "ogre", Kind: lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS,
				Test: &lossv1.TestResult{}}}}},
		{"#6 L'ogre parries: roll hidden — success", "#6 L'ogre pare : jet caché — réussite",
			&lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: &lossv1.DefenceRolled{DefenderId: "ogre", Reaction: lossv1.Reaction_REACTION_PARRY,
				Test: &lossv1.TestResult{Success: true}}}}},
		// A hidden attacker's second weapon, both withheld, halved: what the target lost is seen.
		{"#7 L'ogre hits Diego: damage hidden, halved, armour 2 → 3 NS lost, and the second weapon hidden → 1 NS lost; Diego has 6 NS",
			"#7 L'ogre touche Diego : dégâts cachés, divisés par deux, armure 2 → 3 NS perdus, et les dégâts de la seconde arme cachés → 1 NS perdu ; Diego a 6 NS",
			&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{AttackerId: "ogre", TargetId: "diego", Hit: true, Halved: true,
				Damage: &lossv1.Damage{Armour: 2, LevelsLost: 3}, SecondDamage: &lossv1.Damage{LevelsLost: 1}, Health: 6}}}},
		{"#8 L'ogre hits Diego: damage hidden, shield 1 → 4 NS lost", "#8 L'ogre touche Diego : dégâts cachés, bouclier 1 → 4 NS perdus",
			&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{AttackerId: "ogre", TargetId: "diego", Hit: true,
				Damage: &lossv1.Damage{Shield: 1, LevelsLost: 4}}}}},
		// The target hidden: its armour, shield and losses are withheld, the attacker's roll is not.
		{"#9 Diego hits L'ogre: damage d10[5]+2 = 7, and the second weapon d10[1]+2 = 3; the NS L'ogre lost are hidden",
			"#9 Diego touche L'ogre : dégâts d10[5]+2 = 7, et les dégâts de la seconde arme d10[1]+2 = 3 ; les NS perdus par L'ogre sont cachés",
			&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ogre", Hit: true,
				Damage: &lossv1.Damage{Roll: nD10(5), WeaponDamage: 2, Total: 7}, SecondDamage: &lossv1.Damage{Roll: nD10(1), WeaponDamage: 2, Total: 3}}}}},
	} {
		for lang, want := range map[language.Tag]string{narrate.English: tc.en, narrate.French: tc.fr} {
			n := namedIn(lang, map[string]string{"ogre": "L'ogre", "diego": "Diego"})
			n.SetHidden("ogre", true)
			var seq uint64
			_, _ = seqOf(want, &seq)
			require.Equal(t, want, n.Text(redacted(seq, tc.e)))
		}
	}
}
