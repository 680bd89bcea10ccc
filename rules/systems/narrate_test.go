package systems

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

var updateNarration = flag.Bool("update-narration", false, "write testdata/narration/ from the golden logs")

// fallbacks are what a narration says of an event it has no words for.
var fallbacks = []string{"%!", "(event", "(événement", "(empty", "event *", "event without payload", "(Loss event", "(Contes de Fées event", "(Ka event", "(d20seg event"}

// numbersOnly matches a line that is only numbers and dice: the same in every language.
var numbersOnly = regexp.MustCompile(`^#\d+ [\d\s+\-−=\[\],d()→]*$`)

// commonPackage holds the events every rule system shares.
const commonPackage = "fray.encounter.v1"

// systemEvents lists, for the payload field of each rule system's own events (loss, feerie…),
// one event per kind: the system's message with only that kind set, empty.
func systemEvents() map[string][]*encounterv1.Event {
	out := map[string][]*encounterv1.Event{}
	payload := (&encounterv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("payload")
	for i := range payload.Fields().Len() {
		fd := payload.Fields().Get(i)
		if fd.Message().ParentFile().Package() == commonPackage {
			ev := &encounterv1.Event{Sequence: 1}
			ev.ProtoReflect().Mutable(fd) // the payload, an empty message of its type
			out[""] = append(out[""], ev)
			continue
		}
		if fd.Message().FullName() == "google.protobuf.Struct" {
			continue // the plug-ins' arm: JSON values, no kinds of its own to list
		}
		mt, err := protoregistry.GlobalTypes.FindMessageByName(fd.Message().FullName())
		if err != nil {
			panic(err)
		}
		kinds := fd.Message().Oneofs().Get(0).Fields()
		for j := range kinds.Len() {
			m := mt.New()
			m.Mutable(kinds.Get(j))
			ev := &encounterv1.Event{Sequence: 1}
			ev.ProtoReflect().Set(fd, protoreflect.ValueOfMessage(m))
			out[string(fd.Name())] = append(out[string(fd.Name())], ev)
		}
	}
	return out
}

// told reports whether a system's Teller narrates any of its events: an empty Teller
// narrates none.
func told(t *testing.T, reg *engine.Registry, system string, events []*encounterv1.Event) bool {
	vs := reg.Versions(system)
	require.NotEmpty(t, vs, "the registry keeps %s", system)
	sys, err := reg.Lookup(system, vs[len(vs)-1])
	require.NoError(t, err)
	n := narrate.New(narrate.English)
	for _, ev := range events {
		if _, ok := sys.Teller().Event(n, ev); ok {
			return true
		}
	}
	return false
}

// TestEveryEventKindIsNarrated builds one event of every kind, the common ones and each rule
// system's (every system of the registry: Les Chants de Loss, Contes de Fées, Ka, d20
// segments), and narrates it in English and French through the registry's narrators: each
// has words of its own (no fallback), and its French is not its English.
func TestEveryEventKindIsNarrated(t *testing.T) {
	reg := Registry()
	bySystem := systemEvents()
	require.Len(t, bySystem[""], 10, "the common events")
	require.Len(t, bySystem, 5, "the common events and the four systems'")
	require.GreaterOrEqual(t, len(bySystem["loss"]), 14, "the Loss events")
	require.GreaterOrEqual(t, len(bySystem["feerie"]), 14, "the Contes de Fées events")
	require.GreaterOrEqual(t, len(bySystem["ka"]), 9, "the Ka events")
	require.GreaterOrEqual(t, len(bySystem["d20seg"]), 7, "the d20seg events")
	for system, events := range bySystem {
		name := system
		if name == "" {
			name = "common"
		}
		t.Run(name, func(t *testing.T) {
			if system != "" {
				require.True(t, told(t, reg, system, events), "the Teller of %s narrates its events", system)
			}
			for _, ev := range events {
				lines := map[language.Tag]string{}
				for _, lang := range narrate.Languages() {
					s := reg.Narrator(lang).Narrate(ev)
					require.NotEqual(t, "#1 ", s, "%s in %v: no text", enginetest.KindOf(ev), lang)
					for _, f := range fallbacks {
						require.NotContains(t, s, f, "%s in %v: %s", enginetest.KindOf(ev), lang, s)
					}
					lines[lang] = s
				}
				if !numbersOnly.MatchString(lines[narrate.English]) {
					require.NotEqual(t, lines[narrate.English], lines[narrate.French], "%s: its French is its English", enginetest.KindOf(ev))
				}
			}
		})
	}
}

// TestGoldenNarration narrates every event of the golden logs in English and French and
// compares the lines with testdata/narration/<system>-v<N>.<lang>.txt: a change to the
// narration shows in review. Write them again with -update-narration. The logs of Les Chants
// de Loss are always checked; another system's once its narration files exist.
func TestGoldenNarration(t *testing.T) {
	reg := Registry()
	for _, system := range IDs() {
		for _, version := range reg.Versions(system) {
			for _, lang := range narrate.Languages() {
				path := filepath.Join("testdata", "narration", fmt.Sprintf("%s-v%d.%s.txt", system, version, lang))
				t.Run(filepath.Base(path), func(t *testing.T) {
					events, _ := readGolden(t, system, version)
					if system != "loss" && !told(t, reg, system, systemEvents()[system]) {
						t.Skipf("the Teller of %s narrates none of its events yet", system)
					}
					if _, err := os.Stat(path); err != nil && system != "loss" && !*updateNarration {
						t.Skipf("no %s yet: write it with -update-narration", path)
					}
					n := reg.Narrator(lang)
					var b strings.Builder
					for _, ev := range events {
						b.WriteString(n.Narrate(ev) + "\n")
					}
					if *updateNarration {
						require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
						require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
					}
					want, err := os.ReadFile(path)
					require.NoError(t, err)
					wantLines, gotLines := strings.Split(string(want), "\n"), strings.Split(b.String(), "\n")
					for i := range min(len(wantLines), len(gotLines)) {
						require.Equal(t, wantLines[i], gotLines[i], "%s line %d; run go test ./systems -run TestGoldenNarration -update-narration to write it again", path, i+1)
					}
					require.Len(t, gotLines, len(wantLines), "%s: its lines", path)
				})
			}
		}
	}
}
