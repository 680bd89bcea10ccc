package e2e_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/logtools"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// fray runs a CLI command and returns its exit code, standard output and standard error.
func frayCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// duel plays a few exchanges between Diego and the ruffian, whoever is up attacking and the
// defender dodging, with a rewind along the way.
func duel(t *testing.T, f *fight, steps int) {
	rewound := false
	for i := 0; i < steps; i++ {
		st := f.state().GetState()
		if p := st.GetPending(); len(p) > 0 {
			f.submit(ctl(p[0].GetCombatantId()), react(p[0].GetCombatantId(), lossv1.Reaction_REACTION_DODGE, 0, nil))
			continue
		}
		if i == steps/2 && !rewound { // the GM undoes the last two events
			r, err := f.c.RewindEncounter(as("gm"), &encounterv1.RewindEncounterRequest{EncounterId: f.id, ToSequence: st.GetSequence() - 2, Reason: "wrong target"})
			require.NoError(t, err)
			f.events = append(f.events, r.GetEvents()...)
			rewound = true
			continue
		}
		acted := false
		for _, who := range []string{"diego", "ruffian"} {
			opts := f.legal(who)
			if opts["pass"] == nil {
				continue
			}
			other := map[string]string{"diego": "ruffian", "ruffian": "diego"}[who]
			if opts["attack"] != nil {
				f.submit(ctl(who), attack(who, other, "", 0, nil))
			} else {
				f.submit(ctl(who), &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})
			}
			acted = true
			break
		}
		require.True(t, acted)
	}
}

func TestLogToolsReplayVerifyExportImportTail(t *testing.T) {
	ns, nc := natstest.Start(t)
	url := ns.ClientURL()
	resolverAddr := startResolver(t)
	sum := sha256.Sum256([]byte("fray-log-tools"))
	seed := sum[:]
	c := startEncounter(t, url, resolverAddr, seed)
	f := newFight(t, c, "Ruelle", diego(1, 1), ruffian(1))
	duel(t, f, 16)

	// The ExportLog RPC gives the log as recorded.
	exp, err := c.ExportLog(as("gm"), &encounterv1.ExportLogRequest{EncounterId: f.id})
	require.NoError(t, err)
	var exported []*encounterv1.Event
	for {
		m, err := exp.Recv()
		if err != nil {
			break
		}
		exported = append(exported, m.GetEvent())
	}
	require.Len(t, exported, len(f.events))
	for i := range exported {
		f.requireRecorded(i, exported[i], fmt.Sprintf("event %d differs in the export", i+1))
	}

	// Before the end, verify explains that the seed is still secret.
	code, _, stderr := frayCLI("audit", "verify", f.id, "--nats-url", url)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "not revealed")

	f.finish(seed, url, resolverAddr)
	n := len(f.events)

	// Verify: intact.
	code, stdout, stderr := frayCLI("audit", "verify", f.id, "--nats-url", url)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "intact")

	// Replay in every format, at the end and as of an earlier event.
	code, stdout, stderr = frayCLI("replay", f.id, "--nats-url", url)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "#1 ")
	require.Contains(t, stdout, "Tour 1")
	require.Contains(t, stdout, "d10[")
	require.Contains(t, stdout, "== state as of event "+itoa(n)+" ==")
	code, stdout, _ = frayCLI("replay", f.id, "--nats-url", url, "--at", "6")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "== state as of event 6 ==")
	require.NotContains(t, stdout, "#7 ")
	code, stdout, _ = frayCLI("replay", f.id, "--nats-url", url, "--format", "jsonl")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, n+1)
	for _, l := range lines {
		require.True(t, json.Valid([]byte(l)), l)
	}
	code, stdout, _ = frayCLI("replay", f.id, "--nats-url", url, "--format", "markdown")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "| 1 | ")
	require.Contains(t, stdout, "## State as of event")

	// Export, then import into another NATS: the copy verifies too.
	dir := t.TempDir()
	file := filepath.Join(dir, "log.jsonl")
	code, _, stderr = frayCLI("export", f.id, "--nats-url", url, "--out", file)
	require.Equal(t, 0, code, stderr)
	other, _ := natstest.Start(t)
	code, stdout, stderr = frayCLI("import", file, "--nats-url", other.ClientURL())
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "imported")
	code, stdout, stderr = frayCLI("audit", "verify", f.id, "--nats-url", other.ClientURL())
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "intact")
	code, _, stderr = frayCLI("import", file, "--nats-url", other.ClientURL())
	require.Equal(t, 1, code, "importing the same encounter twice is refused")
	require.Contains(t, stderr, "already")

	// Tamper one die face in the copy: caught, at that event.
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	events, err := logtools.ReadJSONL(bytes.NewReader(data))
	require.NoError(t, err)
	var target uint64
	for _, ev := range events {
		if ar := ev.GetLoss().GetAttackRolled(); ar != nil {
			r := ar.GetTest().GetRoll()
			r.Faces[0] = r.Faces[0]%9 + 1
			target = ev.GetSequence()
			break
		}
	}
	require.NotZero(t, target)
	var buf bytes.Buffer
	require.NoError(t, commands.WriteJSONL(&buf, events))
	tampered := filepath.Join(dir, "tampered.jsonl")
	require.NoError(t, os.WriteFile(tampered, buf.Bytes(), 0o600))
	third, _ := natstest.Start(t)
	code, _, stderr = frayCLI("import", tampered, "--nats-url", third.ClientURL())
	require.Equal(t, 0, code, stderr)
	code, _, stderr = frayCLI("audit", "verify", f.id, "--nats-url", third.ClientURL())
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "DIVERGENCE at event "+itoa(int(target)))
	code, _, stderr = frayCLI("audit", "verify", "--file", tampered)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "tampered roll")

	// Audit tail: a durable consumer over all encounters, resuming where it stopped.
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	records, err := store.Attach(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	recs, err := records.Load(context.Background(), f.id, 0)
	require.NoError(t, err)
	var seen []*encounterv1.Event
	collect := func(ev *encounterv1.Event) error { seen = append(seen, ev); return nil }
	require.NoError(t, logtools.Tail(context.Background(), js, "FRAY_ENCOUNTERS", "auditor", len(recs), collect))
	require.Len(t, seen, n, "every event of the encounter")
	// Meanwhile, another encounter is played; the auditor comes back and gets only that.
	g := newFight(t, c, "Bivouac", diego(0, 0), ruffian(0))
	seen = nil
	require.NoError(t, logtools.Tail(context.Background(), js, "FRAY_ENCOUNTERS", "auditor", 4, collect))
	require.Len(t, seen, len(g.events), "none missed, none repeated")
	for i, ev := range seen {
		require.Equal(t, g.id, ev.GetEncounterId())
		require.Equal(t, uint64(i+1), ev.GetSequence())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
