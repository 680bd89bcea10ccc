package ka_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var updateNarration = flag.Bool("update", false, "write testdata/narration/ from the golden logs")

// Every kind of Ka event narrates, in both languages, to a text of its own: not empty, not
// the fallback of an unknown kind, the French not the English.
func TestNarrateEveryKaEventKind(t *testing.T) {
	kinds := (&kav1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("kind")
	require.NotNil(t, kinds)
	fields := kinds.Fields()
	require.Positive(t, fields.Len())
	for i := range fields.Len() {
		fd := fields.Get(i)
		t.Run(string(fd.Name()), func(t *testing.T) {
			m := (&kav1.Event{}).ProtoReflect()
			m.Set(fd, protoreflect.ValueOfMessage(m.NewField(fd).Message()))
			ev := ntEv(1, m.Interface().(*kav1.Event))
			english, french := ntNarrator(narrate.English).Text(ev), ntNarrator(narrate.French).Text(ev)
			for _, s := range []string{english, french} {
				require.Greater(t, len(s), len("#1 "), s)
				require.NotContains(t, s, "Ka event", s)
				require.NotContains(t, s, "évènement Ka", s)
			}
			require.NotEqual(t, english, french)
		})
	}
}

// The notes the rules write are told in French; another note is told as it is written.
func TestNarrateKaNotes(t *testing.T) {
	ev := func(note string) *encounterv1.Event {
		return ntEv(1, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien", Note: note}}})
	}
	for note, want := range map[string]string{
		"le chien cannot defend": "le chien ne peut pas se défendre",
		"only the winner of the opposition succeeds: no effect (KA-008)": "seul le vainqueur de l'opposition réussit : aucun effet (KA-008)",
		"equal totals: both fail (KA-008)":                               "totaux égaux : les deux échouent (KA-008)",
		"knocked out (KA-031)":                                           "hors de combat (KA-031)",
		"a note of a newer rule; equal totals: both fail (KA-008)":       "a note of a newer rule ; totaux égaux : les deux échouent (KA-008)",
	} {
		require.Equal(t, "#1 Joshua attaque le chien : "+want, ntNarrator(narrate.French).Text(ev(note)))
		require.Equal(t, "#1 Joshua's attack on le chien: "+note, ntNarrator(narrate.English).Text(ev(note)))
	}
}

// The golden log of each version of Ka narrated in both languages, as the GM reads it and as Joshua's player
// reads it when the GM hides le chien from the start: testdata/narration/, written by
// go test -run TestNarrateKaGoldenLog -update, then compared. The events common to every
// system are narrated by rules/narrate: here, the joining combatants' sheets and the house
// rules as this system tells them, and the system's own events.
func TestNarrateKaGoldenLog(t *testing.T) {
	for _, sys := range ka.Released() {
		ntNarrateGolden(t, sys.Version())
	}
}

func ntNarrateGolden(t *testing.T, version uint32) {
	events := ntGoldenOf(t, version)
	for _, view := range []string{"gm", "player"} {
		for _, lang := range narrate.Languages() {
			name := fmt.Sprintf("ka-v%d.%s.%s.txt", version, view, lang)
			t.Run(name, func(t *testing.T) {
				got := ntNarrateLog(t, engine.NewRegistry(ka.Released()...), events, view == "player", lang)
				enginetest.Golden(t, filepath.Join("testdata", "narration", name), got, *updateNarration, "go test -run TestNarrateKaGoldenLog -update")
				if lang == narrate.French { // no English left in the French
					require.NotRegexp(t, `\b(the|and|with|has|left|cards|deck|draws|attacks|hits|withheld)\b`, got)
				}
				if view == "player" { // le chien's numbers are withheld
					require.Contains(t, got, map[language.Tag]string{narrate.English: "its total withheld", narrate.French: "son total caché"}[lang])
				}
			})
		}
	}
}

func ntGolden(t *testing.T) []*encounterv1.Event { return ntGoldenOf(t, 1) }

// ntGoldenOf is the golden log of a version of Ka (rules/systems/testdata/golden).
func ntGoldenOf(t *testing.T, version uint32) []*encounterv1.Event {
	return enginetest.ReadLog(t, filepath.Join("..", "systems", "testdata", "golden", fmt.Sprintf("ka-v%d.jsonl", version)))
}

// ntNarrateLog narrates events in lang with reg's narrator, one line each that this system
// tells: as the GM reads them, or, hiding le chien, as the controller of Joshua reads them.
func ntNarrateLog(t *testing.T, reg *engine.Registry, events []*encounterv1.Event, player bool, lang language.Tag) string {
	viewer := engine.Viewer{SeesAll: true}
	if player {
		viewer = engine.Viewer{Controls: map[string]bool{"joshua": true}}
	}
	n := reg.Narrator(lang)
	st := &encounterv1.EncounterState{}
	var b strings.Builder
	for _, recorded := range events {
		ev := recorded
		if player {
			ev = ntHideChien(recorded)
		}
		seen := reg.ViewEvent(st, ev, viewer)
		require.NoError(t, reg.Evolve(st, ev))
		switch {
		case seen.GetKa() != nil:
			b.WriteString(n.Narrate(seen) + "\n")
			continue
		case seen.GetCombatantAdded() != nil:
			sheet, ok := ka.Teller{}.Sheet(n, seen.GetCombatantAdded().GetCombatant())
			if !ok {
				sheet = "—"
			}
			fmt.Fprintf(&b, "#%d %s: %s\n", seen.GetSequence(), seen.GetCombatantAdded().GetCombatant().GetId(), sheet)
		case seen.GetEncounterCreated() != nil:
			options, ok := ka.Teller{}.Options(n, seen.GetEncounterCreated().GetOptions())
			require.True(t, ok)
			fmt.Fprintf(&b, "#%d %s\n", seen.GetSequence(), options)
		}
		n.Learn(seen)
	}
	return b.String()
}

// ntHideChien is ev with le chien hidden by the GM from the start.
func ntHideChien(ev *encounterv1.Event) *encounterv1.Event {
	out := ev
	hide := func(cs []*encounterv1.Combatant) {
		for _, c := range cs {
			if c.GetId() == "chien" {
				c.Hidden = true
			}
		}
	}
	if c := ev.GetCombatantAdded().GetCombatant(); c.GetId() == "chien" {
		out = proto.CloneOf(ev)
		out.GetCombatantAdded().GetCombatant().Hidden = true
	}
	if rw := ev.GetEncounterRewound(); rw != nil {
		out = proto.CloneOf(ev)
		hide(out.GetEncounterRewound().GetState().GetCombatants())
	}
	return out
}
