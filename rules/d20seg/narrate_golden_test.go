package d20seg_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var updateNarration = flag.Bool("update", false, "write testdata/narration/ from the golden logs")

// Every kind of d20seg event narrates, in both languages, to a text of its own: not empty,
// not the fallback of an unknown kind, the French not the English.
func TestNarrateEveryD20SegEventKind(t *testing.T) {
	kinds := (&d20segv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("kind")
	require.NotNil(t, kinds)
	fields := kinds.Fields()
	require.Positive(t, fields.Len())
	for i := range fields.Len() {
		fd := fields.Get(i)
		t.Run(string(fd.Name()), func(t *testing.T) {
			m := (&d20segv1.Event{}).ProtoReflect()
			m.Set(fd, protoreflect.ValueOfMessage(m.NewField(fd).Message()))
			ev := ntEv(1, m.Interface().(*d20segv1.Event))
			english, french := ntNarrator(narrate.English).Text(ev), ntNarrator(narrate.French).Text(ev)
			for _, s := range []string{english, french} {
				require.Greater(t, len(s), len("#1 "), s)
				require.NotContains(t, s, "d20seg event", s)
				require.NotContains(t, s, "évènement d20seg", s)
			}
			require.NotEqual(t, english, french)
		})
	}
}

// ntStep is one command of a scripted fight with fixed dice.
type ntStep struct {
	actor string
	cmd   *encounterv1.Command
	faces []int32
}

func ntD20(a *d20segv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}
}

// The narration of a hidden ogre's ambush, as Aldric's player reads it, every event viewed
// against the state before it as WatchEncounter sends it: what is known is told, what is
// hidden is said to be hidden, no zero stands for a number (D20-003, D20-004, D20-010,
// D20-017, D20-040, D20-044).
func TestNarrateAHiddenD20SegCombatant(t *testing.T) {
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
	add := func(c *encounterv1.Combatant) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}
	}
	attack := func(id, target string, free bool) *encounterv1.Command {
		return ntD20(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: target, DistanceCm: 150, Free: free}}})
	}
	end := func(id string) *encounterv1.Command {
		return ntD20(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}})
	}
	steps := []ntStep{
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Le gué", RuleSystem: d20seg.ID}}}, nil},
		{"gm", add(sheet("aldric", "Aldric", "joueuse", func(s *d20segv1.Sheet) { s.Ca = 50; s.Weapons[0].Bonus = 18 })), nil},
		{"gm", add(ogre), nil},
		{"gm", add(sheet("garde", "Le garde", "gm", func(*d20segv1.Sheet) {})), nil},
		{"gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, []int32{15, 8}},
		{"gm", ntD20(&d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{AttackerIds: []string{"ogre"},
			Defenders: []*d20segv1.Apprehension{{DefenderId: "aldric", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_NIGHT}}}}}}), []int32{7, 4}},
		{"gm", attack("ogre", "aldric", true), []int32{5, 6}},
		{"gm", end("ogre"), nil},
		{"gm", attack("ogre", "aldric", false), []int32{4, 6}},
		{"joueuse", attack("aldric", "ogre", false), []int32{16, 7}},
		{"gm", end("garde"), nil},
		{"gm", ntD20(&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "rugit"}}}), nil},
	}
	reg := engine.NewRegistry(d20seg.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var seen []*encounterv1.Event
	for _, s := range steps {
		before := proto.CloneOf(st)
		evs, err := enginetest.Decide(t, reg, st, s.actor, s.cmd, s.faces...)
		require.NoError(t, err)
		for _, ev := range evs {
			seen = append(seen, reg.ViewEvent(before, ev, engine.Viewer{Controls: map[string]bool{"aldric": true}}))
			require.NoError(t, reg.Evolve(before, ev))
		}
	}
	lines := map[language.Tag][]string{}
	for _, lang := range narrate.Languages() {
		n := reg.Narrator(lang)
		for _, ev := range seen {
			if ev.GetD20Seg() != nil {
				lines[lang] = append(lines[lang], n.Narrate(ev))
			} else {
				n.Learn(ev)
			}
		}
	}
	for _, l := range lines[narrate.English] {
		for _, zero := range []string{"= 0 ", "+0 =", "vs CA 0", "0 segments", "damage 0", "83", "BBA 17"} {
			require.NotContains(t, l, zero, l)
		}
	}
	for _, want := range []string{
		"#6 Initiative for the combat (D20-010, D20-012): Aldric 2 (Rapidité 3 − 1 equipment); Le garde 2 (Rapidité 3 − 1 equipment); hidden: L'ogre; roll-off: Aldric d20[15], Le garde d20[8] (D20-011); at a shared segment: Aldric, Le garde",
		"#8 Surprise attack by L'ogre: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); Aldric: apprehension d20[7] − 2 = 5 vs L'ogre's stealth, hidden: surprised, flat-footed (D20-003, D20-006); Le garde, named neither attacker nor defender, takes no part in the surprise round (D20-003)",
		"#9 free action (D20-004): L'ogre attacks Aldric: roll hidden vs CA 50 (flat-footed, D20-006) — a hit (D20-040): damage 48; Aldric has 52 hit points left",
		"#12 segment 0: L'ogre attacks Aldric (segments hidden): roll hidden vs CA 50 — a hit (D20-040): damage 48; Aldric has 4 hit points left",
		"#13 segment 0: Aldric attacks L'ogre with épée longue (4 segments, D20-017): d20[16] + 18 = 34 vs CA hidden — a hit (D20-040): damage d8[7] + 18 = 25; L'ogre's hit points are hidden",
		"#15 segment 1: L'ogre: \"rugit\" (segments hidden)",
	} {
		require.Contains(t, lines[narrate.English], want)
	}
	for _, want := range []string{
		"#6 Initiative du combat (D20-010, D20-012) : Aldric 2 (Rapidité 3 − 1 équipement) ; Le garde 2 (Rapidité 3 − 1 équipement) ; caché : L'ogre ; départage : Aldric d20[15], Le garde d20[8] (D20-011) ; à un même segment : Aldric, Le garde",
		"#8 Attaque-surprise par L'ogre : d'abord une action gratuite chacun, dans l'ordre d'Initiative, puis les segments 0–2 du round de surprise (D20-004) ; Aldric : appréhension d20[7] − 2 = 5 contre L'ogre, discrétion cachée : surprise, au dépourvu (D20-003, D20-006) ; Le garde, ni attaquant ni défenseur, ne prend pas part au round de surprise (D20-003)",
		"#9 action gratuite (D20-004) : L'ogre attaque Aldric : jet caché contre CA 50 (au dépourvu, D20-006) — touché (D20-040) : dégâts 48 ; Aldric est à 52 PV",
		"#12 segment 0 : L'ogre attaque Aldric (segments cachés) : jet caché contre CA 50 — touché (D20-040) : dégâts 48 ; Aldric est à 4 PV",
		"#13 segment 0 : Aldric attaque L'ogre avec épée longue (4 segments, D20-017) : d20[16] + 18 = 34 contre CA cachée — touché (D20-040) : dégâts d8[7] + 18 = 25 ; L'ogre : PV cachés",
		"#15 segment 1 : L'ogre : « rugit » (segments cachés)",
	} {
		require.Contains(t, lines[narrate.French], want)
	}
}

// The narration of what else a hidden combatant does, as a player reads it.
func TestNarrateD20SegHiddenOutcomes(t *testing.T) {
	hidden := func(lang language.Tag, e *d20segv1.Event) string {
		n := ntNarrator(lang)
		n.SetName("ogre", "L'ogre")
		n.SetHidden("ogre", true)
		ev := ntEv(3, e)
		ev.Redacted = true
		return n.Text(ev)
	}
	for _, c := range []struct {
		ev     *d20segv1.Event
		en, fr string
	}{
		{&d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{AttackerId: "ogre", TargetId: "ogre", Free: true, Hit: true, Critical: true, Down: true}}},
			"#3 free action (D20-004): L'ogre attacks L'ogre: roll hidden vs CA hidden — a critical hit, 20 or more above the CA (D20-042): damage hidden; L'ogre's hit points are hidden: down (D20-044)",
			"#3 action gratuite (D20-004) : L'ogre attaque L'ogre : jet caché contre CA cachée — un coup critique, 20 ou plus au-dessus de la CA (D20-042) : dégâts cachés ; L'ogre : PV cachés : hors de combat (D20-044)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{AttackerId: "maitre", TargetId: "ogre", Weapon: "lance", Segment: 2, Cost: 2,
			Roll: ntDie(20, 19), Bonus: 20, Total: 39, Hit: true, Critical: true, DamageRoll: ntDie(8, 3), Damage: 21}}},
			"#3 segment 2: Maître attacks L'ogre with lance (2 segments, D20-017): d20[19] + 20 = 39 vs CA hidden — a critical hit, 20 or more above the CA (D20-042): damage 21 (d8[3]); L'ogre's hit points are hidden",
			"#3 segment 2 : Maître attaque L'ogre avec lance (2 segments, D20-017) : d20[19] + 20 = 39 contre CA cachée — un coup critique, 20 ou plus au-dessus de la CA (D20-042) : dégâts 21 (d8[3]) ; L'ogre : PV cachés"},
		{&d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{AttackerId: "ogre", TargetId: "maitre", Segment: 1, Ca: 24, Hit: true, Damage: 30, HitPointsLeft: -3, Down: true}}},
			"#3 segment 1: L'ogre attacks Maître (segments hidden): roll hidden vs CA 24 — a hit (D20-040): damage 30; Maître has −3 hit points left: down (D20-044)",
			"#3 segment 1 : L'ogre attaque Maître (segments cachés) : jet caché contre CA 24 — touché (D20-040) : dégâts 30 ; Maître est à −3 PV : hors de combat (D20-044)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "ogre", Spell: "brume", Segment: 1, Cost: 2}}},
			"#3 segment 1: L'ogre casts brume (segments hidden)",
			"#3 segment 1 : L'ogre lance brume (segments cachés)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "ogre", Free: true}}},
			"#3 free action (D20-004): L'ogre casts ?",
			"#3 action gratuite (D20-004) : L'ogre lance ?"},
		{&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "ogre", Free: true}}},
			"#3 free action (D20-004): L'ogre: acts",
			"#3 action gratuite (D20-004) : L'ogre : agit"},
		{&d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 2, Carried: []*d20segv1.CarriedOver{{CombatantId: "ogre"}, {CombatantId: "mage", Segments: 1}}}}},
			"#3 Round 2: segments 0 to 5 (D20-013); carried over from the last round: L'ogre (segments hidden), Mage 1 segment (D20-020)",
			"#3 Round 2 : segments 0 à 5 (D20-013) ; reporté du round précédent : L'ogre (segments cachés), Mage 1 segment (D20-020)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{AttackerIds: []string{"mage"},
			Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "ogre", StealthBy: "mage", StealthRoll: ntDie(20, 3), Opposition: 9}}}}},
			"#3 Surprise attack by Mage: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); L'ogre: apprehension roll hidden vs Mage's stealth d20[3] + 6 = 9: not surprised (D20-003, D20-005)",
			"#3 Attaque-surprise par Mage : d'abord une action gratuite chacun, dans l'ordre d'Initiative, puis les segments 0–2 du round de surprise (D20-004) ; L'ogre : jet d'appréhension caché contre Mage, discrétion d20[3] + 6 = 9 : pas de surprise (D20-003, D20-005)"},
	} {
		require.Equal(t, c.en, hidden(narrate.English, c.ev))
		require.Equal(t, c.fr, hidden(narrate.French, c.ev))
	}
	// The GM reads the same events whole: no one is withheld from an event not redacted.
	n := ntNarrator(narrate.English)
	n.SetHidden("mage", true)
	require.Equal(t, "#3 segment 4: Mage casts boule de feu (3 segments, D20-018)",
		n.Text(ntEv(3, &d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "mage", Spell: "boule de feu", Segment: 4, Cost: 3}}})))
	require.Equal(t, "#3 Initiative for the combat (D20-010, D20-012): no one",
		n.Text(ntEv(3, &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{}}})))
}

// The golden log of d20 segments narrated in both languages, as the GM reads it and as
// Alice's player reads it when the GM hides the brigand from the start: testdata/narration/,
// written by go test -run TestNarrateD20SegGoldenLog -update, then compared. The events common
// to every system are narrated by rules/narrate: here, the joining combatants' sheets and the
// house rules as this system tells them, and the system's own events.
func TestNarrateD20SegGoldenLog(t *testing.T) {
	for _, version := range []uint32{1, 2} {
		events := ntGolden(t, version)
		for _, view := range []string{"gm", "player"} {
			for _, lang := range narrate.Languages() {
				name := fmt.Sprintf("d20seg-v%d.%s.%s.txt", version, view, lang)
				t.Run(name, func(t *testing.T) {
					got := ntNarrateLog(t, engine.NewRegistry(d20seg.New(version)), d20seg.New(version), events, view == "player", lang)
					enginetest.Golden(t, filepath.Join("testdata", "narration", name), got, *updateNarration, "go test -run TestNarrateD20SegGoldenLog -update")
					if lang == narrate.French { // no English left in the French
						require.NotRegexp(t, `\b(the|and|with|has|left|vs|attacks|hit|hidden|roll|free)\b`, got)
					}
					if view == "player" { // the brigand's numbers are withheld
						require.Contains(t, got, map[language.Tag]string{narrate.English: "hidden: Brigand;", narrate.French: "caché : Brigand ;"}[lang])
					}
				})
			}
		}
	}
}

func ntGolden(t *testing.T, version uint32) []*encounterv1.Event {
	return enginetest.ReadLog(t, filepath.Join("..", "systems", "testdata", "golden", fmt.Sprintf("d20seg-v%d.jsonl", version)))
}

// ntNarrateLog narrates events in lang, one line each that this system tells: as the GM reads
// them, or, hiding the brigand, as the controller of the guetteur and Berthe reads them; the
// events told by reg's Narrator, the sheets and house rules by rules' Teller.
func ntNarrateLog(t *testing.T, reg *engine.Registry, rules d20seg.System, events []*encounterv1.Event, player bool, lang language.Tag) string {
	viewer := engine.Viewer{SeesAll: true}
	if player {
		viewer = engine.Viewer{Controls: map[string]bool{"guetteur": true, "berthe": true}}
	}
	n := reg.Narrator(lang)
	st := &encounterv1.EncounterState{}
	var b strings.Builder
	for _, recorded := range events {
		ev := recorded
		if player {
			ev = ntHide(recorded, "brigand")
		}
		seen := reg.ViewEvent(st, ev, viewer)
		require.NoError(t, reg.Evolve(st, ev))
		switch {
		case seen.GetD20Seg() != nil:
			b.WriteString(n.Narrate(seen) + "\n")
			continue
		case seen.GetCombatantAdded() != nil:
			sheet, ok := rules.Teller().Sheet(n, seen.GetCombatantAdded().GetCombatant())
			if !ok {
				sheet = "—"
			}
			fmt.Fprintf(&b, "#%d %s: %s\n", seen.GetSequence(), seen.GetCombatantAdded().GetCombatant().GetId(), sheet)
		case seen.GetEncounterCreated() != nil:
			options, ok := rules.Teller().Options(n, seen.GetEncounterCreated().GetOptions())
			require.True(t, ok)
			fmt.Fprintf(&b, "#%d %s\n", seen.GetSequence(), options)
		}
		n.Learn(seen)
	}
	return b.String()
}

// ntHide is ev with combatant id hidden by the GM from the start.
func ntHide(ev *encounterv1.Event, id string) *encounterv1.Event {
	if c := ev.GetCombatantAdded().GetCombatant(); c.GetId() == id {
		out := proto.CloneOf(ev)
		out.GetCombatantAdded().GetCombatant().Hidden = true
		return out
	}
	if rw := ev.GetEncounterRewound(); rw != nil {
		out := proto.CloneOf(ev)
		for _, c := range out.GetEncounterRewound().GetState().GetCombatants() {
			if c.GetId() == id {
				c.Hidden = true
			}
		}
		return out
	}
	return ev
}
