package plugin_test

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
)

// server runs fray dev in process (embedded JetStream in its own folder, gRPC and the page on
// free loopback ports) and returns the gRPC address and the page's URL.
func server(t *testing.T) (addr, page string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, pageURL := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	cfg := dev.Config{
		Listen: "127.0.0.1:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1,
		Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"),
		Ready: func(a string) { ready <- a }, Web: "127.0.0.1:0", WebReady: func(u string) { pageURL <- u },
	}
	go func() { done <- dev.Run(ctx, cfg) }()
	for _, ch := range []chan string{ready, pageURL} {
		select {
		case v := <-ch:
			if addr == "" {
				addr = v
			} else {
				page = v
			}
		case err := <-done:
			cancel()
			t.Fatalf("fray dev stopped: %v", err)
		}
	}
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return addr, page
}

// fray runs one CLI command in process and returns its output.
func fray(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	require.Equal(t, 0, code, "fray %v: %s", args, errOut.String())
	return strings.TrimSpace(out.String())
}

// dial is an EncounterService client over loopback gRPC with token.
func dial(t *testing.T, addr, token string) encounterv1.EncounterServiceClient {
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(auth.PerRPCToken(auth.StaticToken(token), "", false)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = cc.Close() })
	return encounterv1.NewEncounterServiceClient(cc)
}

func get(t *testing.T, api encounterv1.EncounterServiceClient, id string) *encounterv1.GetEncounterResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	resp, err := api.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true, Language: "en"})
	require.NoError(t, err)
	return resp
}

// cells are the tracker's first cell of each combatant, in the state's order.
func cells(resp *encounterv1.GetEncounterResponse) []string {
	var out []string
	for _, r := range resp.GetTracker().GetRows() {
		out = append(out, r.GetCells()[0])
	}
	return out
}

// legal is the pre-filled command of combatant's legal action key.
func legal(t *testing.T, resp *encounterv1.GetEncounterResponse, combatant, key string) *encounterv1.Command {
	t.Helper()
	for _, ca := range resp.GetActions() {
		for _, lc := range ca.GetActions() {
			if ca.GetCombatantId() == combatant && lc.GetAction().GetKey() == key {
				return proto.CloneOf(lc.GetCommand())
			}
		}
	}
	require.Failf(t, "no such action", "%s may not %s: %v", combatant, key, resp.GetActions())
	return nil
}

func exportLog(t *testing.T, api encounterv1.EncounterServiceClient, id string) []*encounterv1.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	stream, err := api.ExportLog(ctx, &encounterv1.ExportLogRequest{EncounterId: id})
	require.NoError(t, err)
	var out []*encounterv1.Event
	for {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		out = append(out, resp.GetEvent())
	}
	require.NotEmpty(t, out)
	return out
}

// damage reads the poked event ev and checks it against its recorded die: the damage is the
// face rolled (the hit points were never run out of here), 1 to 6.
func damage(t *testing.T, ev *encounterv1.Event, from, to string) int {
	t.Helper()
	var e stickEvent
	require.NoError(t, engine.PluginOf(ev.GetPlugin(), &e), "a Stick fight event")
	require.NotNil(t, e.Poked)
	require.Equal(t, from, e.Poked.CombatantID)
	require.Equal(t, to, e.Poked.TargetID)
	faces := e.Poked.Roll.GetFaces()
	require.Len(t, faces, 1, "1d6")
	require.Equal(t, "1d6", e.Poked.Roll.GetExpression())
	require.GreaterOrEqual(t, faces[0], int32(1))
	require.LessOrEqual(t, faces[0], int32(6))
	require.Equal(t, faces[0], e.Poked.Damage, "the damage is the die")
	return int(e.Poked.Damage)
}

// browser is a tab of a headless Chromium; the test is skipped, loudly, without one.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("!!! no chromium to test the page in: apt-get install -y chromium")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx), "chromium does not start")
	return ctx
}

// run runs steps in the tab, bounded by patience.
func run(t *testing.T, tab context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, patience)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, steps...))
}

// text is the text of the first element sel matches ("" when none).
func text(t *testing.T, tab context.Context, sel string) string {
	t.Helper()
	return eval(t, tab, "(document.querySelector("+strconv.Quote(sel)+")||{}).textContent||''")
}

// eval is the value of the script js in the tab.
func eval(t *testing.T, tab context.Context, js string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, patience)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	require.NoError(t, err, js)
	return v
}

// poll waits until js is truthy in the tab (at most patience) and returns its value.
func poll(t *testing.T, tab context.Context, js string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, patience+5*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Poll[string](js, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(patience)))
	require.NoError(t, err, "waiting for %s", js)
	return v
}
