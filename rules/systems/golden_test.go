package systems

// Golden logs: one full fight per rule system, played once under the released version of its
// rules and stored in testdata/golden/. Every test run folds each stored log and compares the
// state hash it reaches with the stored one, and audits it (every roll re-derived from the
// revealed seed, every command decided again under the version the log pinned). A change that
// alters how a recorded event folds, or what a released version decides, fails here: such a
// change is a new version of the rules, and the old one stays (docs/versions.md).
//
// Every version of every system the registry keeps has one: testdata/golden/<system>-v<N>.jsonl
// (one protojson event per line, as `fray export` writes) and <system>-v<N>.sha256. Each
// fight is a script in golden_<system>_test.go, registered as "<system>/v<N>". To write the
// stored files of a new version (never those of a released one):
//
//	go test ./systems/ -run 'TestEverySystemConforms/<system>/v<N>' -update-golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

var updateGolden = flag.Bool("update-golden", false, "play the golden fights again and write testdata/golden/")

// goldenFights holds the scripted fight of each version of each rule system, by
// "<system>/v<version>".
var goldenFights = map[string]func(*goldenFight){}

// goldenFight plays one encounter through the registry, as the encounter service would: the
// real dice stream of a fixed seed, each command recorded on its first event.
type goldenFight struct {
	t      testing.TB
	reg    *engine.Registry
	system string
	// SeedPhrase picks the seed: sha256("fray golden <system> <SeedPhrase>"). Set it before
	// the first command.
	SeedPhrase string
	seed       []byte
	st         *encounterv1.EncounterState
	events     []*encounterv1.Event
	commands   int
}

// goldenTenant is the tenant of every golden encounter; a bare actor in a script is one of its
// subjects.
const goldenTenant = "golden"

var goldenEpoch = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// Try decides cmd for actor, records and folds its events, and returns them, or the refusal.
func (g *goldenFight) Try(actor string, cmd *encounterv1.Command) ([]*encounterv1.Event, error) {
	g.t.Helper()
	if g.seed == nil {
		s := sha256.Sum256([]byte("fray golden " + g.system + " " + g.SeedPhrase))
		g.seed = s[:]
	}
	var rewind *encounterv1.EncounterState
	if rw := cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && int(rw.GetToSequence()) <= len(g.events) {
		past, err := g.reg.Fold(g.events[:rw.GetToSequence()])
		require.NoError(g.t, err)
		rewind = past
	}
	if !strings.Contains(actor, "/") {
		actor = goldenTenant + "/" + actor
	}
	events, next, err := g.reg.ResolveWith(g.st, cmd, engine.Env{Actor: actor, Tenant: goldenTenant, Seed: g.seed, RewindState: rewind})
	if err != nil {
		return nil, err
	}
	g.commands++
	commandID := fmt.Sprintf("%s-c%03d", g.system, g.commands)
	for i, ev := range events {
		ev.EventId = fmt.Sprintf("%s-e%04d", g.system, ev.GetSequence())
		ev.Time = timestamppb.New(goldenEpoch.Add(time.Duration(g.commands) * time.Second))
		ev.CommandId = commandID
		if i == 0 {
			ev.Command = proto.CloneOf(cmd)
		}
	}
	g.events = append(g.events, events...)
	g.st = next
	return events, nil
}

// Do is Try that fails the test on a refusal.
func (g *goldenFight) Do(actor string, cmd *encounterv1.Command) []*encounterv1.Event {
	g.t.Helper()
	events, err := g.Try(actor, cmd)
	require.NoError(g.t, err, "%s: command %d of the golden fight (%v) is refused", g.system, g.commands+1, cmd)
	return events
}

// Table records the common events that set up the table rather than the fight: a role granted
// and revoked, the encounter opened to joining, and the GM hiding a combatant and showing it
// again. None rolls a die, so a script may call it anywhere without moving its dice.
func (g *goldenFight) Table(hidden string) {
	g.t.Helper()
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{
		Principal: "erin", Role: encounterv1.Role_ROLE_OBSERVER}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: hidden, Hidden: true}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: hidden}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{RevokeRole: &encounterv1.RevokeRole{
		Principal: "erin", Role: encounterv1.Role_ROLE_OBSERVER}}})
}

// State is the encounter's state after the commands so far.
func (g *goldenFight) State() *encounterv1.EncounterState { return g.st }

func goldenPath(system string, version uint32, ext string) string {
	return filepath.Join("testdata", "golden", fmt.Sprintf("%s-v%d%s", system, version, ext))
}

func writeGolden(t *testing.T, system string, version uint32, events []*encounterv1.Event, hash []byte) {
	var buf bytes.Buffer
	for _, ev := range events {
		b, err := protojson.Marshal(ev)
		require.NoError(t, err)
		// protojson's spacing is deliberately unstable: compact it so a rewrite of the same
		// log gives the same bytes.
		require.NoError(t, json.Compact(&buf, b))
		buf.WriteByte('\n')
	}
	require.NoError(t, os.MkdirAll(filepath.Join("testdata", "golden"), 0o755))
	require.NoError(t, os.WriteFile(goldenPath(system, version, ".jsonl"), buf.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(goldenPath(system, version, ".sha256"), []byte(hex.EncodeToString(hash)+"\n"), 0o644))
}

func readGolden(t *testing.T, system string, version uint32) ([]*encounterv1.Event, []byte) {
	raw, err := os.ReadFile(goldenPath(system, version, ".jsonl"))
	require.NoError(t, err, "the golden log of %s", system)
	var events []*encounterv1.Event
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		ev := &encounterv1.Event{}
		require.NoError(t, protojson.Unmarshal([]byte(line), ev), "%s line %d", goldenPath(system, version, ".jsonl"), i+1)
		events = append(events, ev)
	}
	sum, err := os.ReadFile(goldenPath(system, version, ".sha256"))
	require.NoError(t, err)
	hash, err := hex.DecodeString(strings.TrimSpace(string(sum)))
	require.NoError(t, err)
	return events, hash
}

// TestEverySystemConforms checks every version of every rule system the registry keeps with
// enginetest.Conformance, on its golden log: a subtest per "<system>/v<N>". With
// -update-golden it first plays the version's golden fight again and writes its stored files.
func TestEverySystemConforms(t *testing.T) {
	reg := Registry()
	for _, system := range IDs() {
		for _, version := range reg.Versions(system) {
			t.Run(fmt.Sprintf("%s/v%d", system, version), func(t *testing.T) {
				sys, err := reg.Lookup(system, version)
				require.NoError(t, err)
				if *updateGolden {
					play, ok := goldenFights[fmt.Sprintf("%s/v%d", system, version)]
					require.True(t, ok, "no golden fight is scripted for %s version %d (golden_%s_test.go)", system, version, system)
					g := &goldenFight{t: t, reg: reg, system: system, st: &encounterv1.EncounterState{EncounterId: "golden-" + system}}
					play(g)
					require.NotEmpty(t, g.events)
					writeGolden(t, system, version, g.events, engine.Hash(g.st))
				}
				events, hash := readGolden(t, system, version)
				enginetest.Conformance(t, sys, enginetest.GoldenLog{Log: events, Hash: hash})
			})
		}
	}
}

// TestGoldenEventKinds checks the helpers the golden test counts with.
func TestGoldenEventKinds(t *testing.T) {
	kinds := enginetest.EventKinds("loss")
	require.Contains(t, kinds, "encounter_created")
	require.Contains(t, kinds, "encounter_rewound")
	require.Contains(t, kinds, "loss.tour_started")
	require.NotContains(t, kinds, "loss")
	require.False(t, slices.ContainsFunc(kinds, func(k string) bool { return strings.HasPrefix(k, "ka.") }), "no other system's kinds: %v", kinds)
	require.Equal(t, "encounter_started", enginetest.KindOf(&encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}}))
}
