package commands_test

import (
	"bytes"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/commands"
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// hiddenStep is one command of a scripted fight with fixed dice.
type hiddenStep struct {
	actor string
	cmd   *encounterv1.Command
	faces []int32
}

// playHidden plays steps with reg and returns, as the viewer v reads them, every event (each
// viewed against the state before it, as WatchEncounter sends it) and the state after each
// step.
func playHidden(t *testing.T, reg *engine.Registry, v engine.Viewer, steps []hiddenStep) ([]*encounterv1.Event, []*encounterv1.EncounterState) {
	t.Helper()
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var seen []*encounterv1.Event
	var states []*encounterv1.EncounterState
	for _, s := range steps {
		before := proto.CloneOf(st)
		evs, err := enginetest.Decide(t, reg, st, s.actor, s.cmd, s.faces...)
		require.NoError(t, err)
		for _, ev := range evs {
			seen = append(seen, reg.ViewEvent(before, ev, v))
			require.NoError(t, reg.Evolve(before, ev))
		}
		states = append(states, reg.View(st, v))
	}
	return seen, states
}

// stateText is `fray state` of a viewed state.
func stateText(st *encounterv1.EncounterState) string {
	var out bytes.Buffer
	commands.WriteState(&out, &encounterv1.GetEncounterResponse{State: st}, "")
	return out.String()
}

// requireNoFakeZeros: no number of a hidden combatant is printed as a zero.
func requireNoFakeZeros(t *testing.T, lines []string) {
	t.Helper()
	for _, l := range lines {
		for _, zero := range []string{"(0 PA", " 0 PA", "0+0+", "= 0 ", "+0 =", "vs CA 0", "0 segments", "phase 0", "damage 0"} {
			require.NotContains(t, l, zero, l)
		}
	}
}

// narrate tells events as `fray log` prints them: the rules' narration in English.
func narrate(evs []*encounterv1.Event) []string {
	n := client.English()
	var out []string
	for _, ev := range evs {
		out = append(out, n.Narrate(ev))
	}
	return out
}

func lossCmd(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

func addCombatant(c *encounterv1.Combatant) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}
}

// TestNarrationOfAHiddenLossCombatant: `fray log` and `fray state` for Diego's player when the
// GM hides an ogre: what is known is told, what is hidden is said to be hidden, no zero stands
// for a number (LOS-009, LOS-012, LOS-021, LOS-022, LOS-031).
func TestNarrationOfAHiddenLossCombatant(t *testing.T) {
	diego := &encounterv1.Combatant{Id: "diego", Name: "Diego", Controller: "david", Side: "pj", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind: lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, Initiative: 8, Armour: 24,
		Traits: map[string]int32{"Puissance": 6, "Agilité": 5}, Talents: map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
		Dodge:   &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Weapons: []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 19, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}}},
	}}}
	ogre := &encounterv1.Combatant{Id: "ogre", Name: "L'ogre", Controller: "gm", Side: "monstres", Hidden: true, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind: lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, Initiative: 23, Armour: 22,
		Traits: map[string]int32{"Puissance": 27, "Agilité": 26}, Talents: map[string]int32{"Massue": 29, "Esquive": 25},
		Dodge:   &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Weapons: []*lossv1.Weapon{{Name: "Gourdin", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 28, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Massue"}}},
	}}}
	react := func(id string, r lossv1.Reaction) *encounterv1.Command {
		return lossCmd(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: r}}})
	}
	steps := []hiddenStep{
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Bivouac", RuleSystem: loss.ID}}}, nil},
		{"gm", addCombatant(diego), nil},
		{"gm", addCombatant(ogre), nil},
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, []int32{5, 9}},
		{"gm", lossCmd(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "diego"}}}), []int32{7}},
		{"david", react("diego", lossv1.Reaction_REACTION_DODGE), []int32{4, 3}},
		{"gm", lossCmd(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}), nil},
		{"david", lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "ogre"}}}), []int32{8}},
		{"gm", react("ogre", lossv1.Reaction_REACTION_NONE), []int32{5}},
		{"david", lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "ogre"}}}), []int32{8}},
		{"gm", react("ogre", lossv1.Reaction_REACTION_DODGE), []int32{9}},
	}
	player := engine.Viewer{Controls: map[string]bool{"diego": true}}
	evs, states := playHidden(t, engine.NewRegistry(loss.New(loss.Latest)), player, steps)
	lines := narrate(evs)
	requireNoFakeZeros(t, lines)
	for _, want := range []string{
		"#3 joins: L'ogre (ogre): hidden by the GM: its sheet is withheld, side monstres, controller gm",
		"#5 Tour 1 (Séquence 1): Diego 8+d10[5] = 13 PA; L'ogre rolls, hidden",
		"#6 L'ogre attacks Diego: roll hidden — success; Diego may parry or dodge at Difficulty 15",
		"#7 Diego dodges (1 PA): 5+5+d10[4] = 14 vs 15 — failure",
		"#8 L'ogre hits Diego: damage hidden, armour 24 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5",
		"#9 L'ogre passes, keeping its PA (hidden) to parry or dodge",
		"#12 Diego hits L'ogre: damage d10[5]+19 = 24; the NS L'ogre lost are hidden",
		"#14 L'ogre dodges: roll hidden — success",
	} {
		require.Contains(t, lines, want)
	}

	// fray state: the ogre acts now at the phase called (LOS-031), then its PA are hidden.
	started := stateText(states[3])
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+32 \(acts now\)\s+unhurt \(NS hidden\)\s+hidden by the GM`, started)
	pending := stateText(states[4])
	require.Contains(t, pending, "waiting for diego (david): L'ogre attacks Diego (the attack succeeds; Difficulty 15 to defend): parry, dodge or take the blow")
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+28 \(acts now\)\s+unhurt \(NS hidden\)`, pending, "its phase comes next again")
	passed := stateText(states[6])
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+hidden\s+unhurt \(NS hidden\)\s+passed, hidden by the GM`, passed)
	last := stateText(states[len(states)-1])
	require.Regexp(t, `diego\s+Diego\s+pj\s+david\s+4\s+light 0/5, grave 3/5, fatal 5/5`, last)
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+hidden\s+wounded \(NS hidden\)\s+passed, hidden by the GM`, last)
	require.NotContains(t, last, "light 0/5, grave 0/5")

	// The GM reads the same events whole.
	gmEvs, _ := playHidden(t, engine.NewRegistry(loss.New(loss.Latest)), engine.Viewer{SeesAll: true}, steps)
	gmLines := narrate(gmEvs)
	require.Contains(t, gmLines, "#8 L'ogre hits Diego: damage d10[3]+28 = 31, armour 24 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5")
	require.Contains(t, gmLines, "#12 Diego hits L'ogre: damage d10[5]+19 = 24, armour 22 → 2 NS lost; L'ogre has NS light 3, grave 5, fatal 5")
}

func d20Cmd(a *d20segv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}
}

// TestNarrationOfAHiddenD20SegCombatant: `fray log` and `fray state` for Aldric's player when
// the GM's hidden ogre ambushes him (D20-003, D20-004, D20-010, D20-015, D20-017, D20-040,
// D20-044).
func TestNarrationOfAHiddenD20SegCombatant(t *testing.T) {
	sheet := func(id, name, controller string, edit func(*d20segv1.Sheet)) *encounterv1.Combatant {
		sh := &d20segv1.Sheet{Rapidite: 3, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE,
			WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED, Ca: 10, HitPoints: 100, Size: d20segv1.Size_SIZE_M,
			Weapons: []*d20segv1.Weapon{{Name: "épée longue", Dice: "1d8", Critical: 2}}}
		edit(sh)
		return &encounterv1.Combatant{Id: id, Name: name, Controller: controller, Sheet: &encounterv1.Combatant_D20Seg{D20Seg: sh}}
	}
	ogre := sheet("ogre", "L'ogre", "gm", func(s *d20segv1.Sheet) {
		s.Rapidite, s.Bba, s.Agility, s.Strength, s.Ca, s.HitPoints, s.Stealth = 23, 17, 13, 19, 29, 83, 21
		s.Weapons = []*d20segv1.Weapon{{Name: "Hache", Dice: "1d12", Bonus: 11, Critical: 3}}
		s.Feats = []*d20segv1.Feat{{Name: "Rage", Attack: 14, Damage: 12}}
	})
	ogre.Hidden, ogre.Side = true, "monstres"
	attack := func(id, target string, free bool) *encounterv1.Command {
		return d20Cmd(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: target, DistanceCm: 150, Free: free}}})
	}
	end := func(id string) *encounterv1.Command {
		return d20Cmd(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}})
	}
	steps := []hiddenStep{
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Le gué", RuleSystem: d20seg.ID}}}, nil},
		{"gm", addCombatant(sheet("aldric", "Aldric", "joueuse", func(s *d20segv1.Sheet) { s.Ca = 50; s.Weapons[0].Bonus = 18 })), nil},
		{"gm", addCombatant(ogre), nil},
		{"gm", addCombatant(sheet("garde", "Le garde", "gm", func(*d20segv1.Sheet) {})), nil},
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, []int32{15, 8}},
		{"gm", d20Cmd(&d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{AttackerIds: []string{"ogre"},
			Defenders: []*d20segv1.Apprehension{{DefenderId: "aldric", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_NIGHT}}}}}}), []int32{7, 4}},
		{"gm", attack("ogre", "aldric", true), []int32{5, 6}},
		{"gm", end("ogre"), nil},
		{"gm", attack("ogre", "aldric", false), []int32{4, 6}},
		{"joueuse", attack("aldric", "ogre", false), []int32{16, 7}},
		{"gm", end("garde"), nil},
		{"gm", d20Cmd(&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "rugit"}}}), nil},
	}
	player := engine.Viewer{Controls: map[string]bool{"aldric": true}}
	evs, states := playHidden(t, engine.NewRegistry(d20seg.Released()...), player, steps)
	lines := narrate(evs)
	requireNoFakeZeros(t, lines)
	for _, want := range []string{
		"#3 joins: L'ogre (ogre): hidden by the GM: its sheet is withheld, side monstres, controller gm",
		"#6 Initiative for the combat (D20-010, D20-012): Aldric 2 (Rapidité 3 − 1 equipment); Le garde 2 (Rapidité 3 − 1 equipment); hidden: L'ogre; roll-off: Aldric d20[15], Le garde d20[8] (D20-011); at a shared segment: Aldric, Le garde",
		"#8 Surprise attack by L'ogre: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); Aldric: apprehension d20[7] − 2 = 5 vs L'ogre's stealth, hidden: surprised, flat-footed (D20-003, D20-006); Le garde, named neither attacker nor defender, takes no part in the surprise round (D20-003)",
		"#9 free action (D20-004): L'ogre attacks Aldric: roll hidden vs CA 50 (flat-footed, D20-006) — a hit (D20-040): damage 48; Aldric has 52 hit points left",
		"#12 segment 0: L'ogre attacks Aldric (segments hidden): roll hidden vs CA 50 — a hit (D20-040): damage 48; Aldric has 4 hit points left",
		"#13 segment 0: Aldric attacks L'ogre with épée longue (4 segments, D20-017): d20[16] + 18 = 34 vs CA hidden — a hit (D20-040): damage d8[7] + 18 = 25; L'ogre's hit points are hidden",
		"#15 segment 1: L'ogre: \"rugit\" (segments hidden)",
	} {
		require.Contains(t, lines, want)
	}
	// fray state: the ogre's Initiative and hit points are hidden, its appearance shown; its
	// segment only when it is up next, and the one up next is the same as the GM's (D20-015).
	upNext := stateText(states[7])
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+hidden\s+unhurt\s+segment 0\s+0\s+hidden by the GM`, upNext)
	require.Contains(t, upNext, "L'ogre acts next, at segment 0")
	require.Regexp(t, `aldric\s+Aldric\s+-\s+joueuse\s+2 \(tie 1st\)\s+52/100`, upNext, "a placeholder makes no tie")
	require.Regexp(t, `garde\s+Le garde\s+-\s+gm\s+2 \(tie 2nd\)`, upNext, "places among the combatants shown, whatever room the server leaves for the hidden")
	waiting := stateText(states[9])
	require.Regexp(t, `ogre\s+L'ogre\s+monstres\s+gm\s+hidden\s+wounded\s+hidden\s+1\s+hidden by the GM`, waiting)
	require.Contains(t, waiting, "Le garde acts next, at segment 0")
	for _, st := range states {
		require.NotContains(t, stateText(st), "83", "the ogre's hit points")
		require.NotContains(t, stateText(st), "BBA 17")
	}
}
