package feerie_test

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

var updateNarration = flag.Bool("update", false, "write testdata/golden-*.txt: the narration of the golden logs")

// readLog reads a golden log: one protojson event per line.
func readLog(t *testing.T, path string) []*encounterv1.Event {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []*encounterv1.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		ev := &encounterv1.Event{}
		require.NoError(t, protojson.Unmarshal(sc.Bytes(), ev))
		out = append(out, ev)
	}
	require.NoError(t, sc.Err())
	return out
}

// feerieLines narrates what Contes de Fées tells of a log, in lang, as viewer sees it: each
// Contes de Fées event, each sheet of a combatant who joins and the house rules of the
// encounter (the common events are the narrate package's, tested there).
func feerieLines(t *testing.T, events []*encounterv1.Event, lang language.Tag, viewer engine.Viewer) []string {
	reg := engine.NewRegistry(feerie.Released()...)
	teller := feerie.New(feerie.Latest).Teller() // as the registry's Narrator: the latest tells every version
	n := narrate.New(lang, teller)
	st := &encounterv1.EncounterState{}
	var lines []string
	for _, recorded := range events {
		ev := reg.ViewEvent(st, recorded, viewer)
		seq := "#" + strconv.FormatUint(ev.GetSequence(), 10)
		switch {
		case ev.GetFeerie() != nil:
			lines = append(lines, n.Text(ev))
		case ev.GetCombatantAdded() != nil:
			if s, ok := teller.Sheet(n, ev.GetCombatantAdded().GetCombatant()); ok {
				lines = append(lines, seq+" "+ev.GetCombatantAdded().GetCombatant().GetId()+": "+s)
			}
		case ev.GetEncounterCreated() != nil:
			s, ok := teller.Options(n, ev.GetEncounterCreated().GetOptions())
			require.True(t, ok)
			lines = append(lines, seq+" "+s)
		}
		n.Learn(ev)
		require.NoError(t, reg.Evolve(st, proto.CloneOf(recorded)))
	}
	return lines
}

// TestNarrateTheGoldenLogs narrates every event of the Contes de Fées golden logs in English
// and French, as the GM and as a player from whom the chien is hidden, and compares the lines
// with testdata/golden-<log>.<lang>.txt (written by -update, then read by eye).
func TestNarrateTheGoldenLogs(t *testing.T) {
	paths, err := filepath.Glob("../systems/testdata/golden/feerie-*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		events := readLog(t, path)
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		for _, lang := range narrate.Languages() {
			t.Run(name+"/"+lang.String(), func(t *testing.T) {
				var b bytes.Buffer
				b.WriteString("# The GM\n")
				gm := feerieLines(t, events, lang, engine.Viewer{SeesAll: true})
				for _, l := range gm {
					b.WriteString(l + "\n")
				}
				b.WriteString("\n# Alice, who plays Rübezahl: the lines that differ\n")
				player := feerieLines(t, events, lang, engine.Viewer{Controls: map[string]bool{"rubezahl": true}})
				require.Len(t, player, len(gm))
				for i, l := range player {
					if l != gm[i] {
						b.WriteString(l + "\n")
					}
				}
				file := filepath.Join("testdata", "golden-"+name+"."+lang.String()+".txt")
				if *updateNarration {
					require.NoError(t, os.MkdirAll("testdata", 0o755))
					require.NoError(t, os.WriteFile(file, b.Bytes(), 0o644))
				}
				want, err := os.ReadFile(file)
				require.NoError(t, err, "go test ./feerie -run TestNarrateTheGoldenLogs -update writes it")
				require.Equal(t, string(want), b.String())
			})
		}
	}
}
