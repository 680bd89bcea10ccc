package browser_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "copy the README's screenshots the tests take into docs/")

// readmeShots are the screenshots the README shows, copied to docs/ by -update.
var readmeShots = map[string]bool{"browser-gm.png": true, "browser-player.png": true}

// chromium finds Debian's chromium, installing it with apt-get when it is missing and this
// is root; where it cannot, the test is skipped, loudly.
var (
	chromiumOnce sync.Once
	chromiumPath string
	chromiumWhy  string
)

func chromium(t *testing.T) string {
	t.Helper()
	chromiumOnce.Do(func() {
		if p, err := exec.LookPath("chromium"); err == nil {
			chromiumPath = p
			return
		}
		if os.Geteuid() != 0 {
			chromiumWhy = "chromium is not installed and this is not root: apt-get install -y chromium"
			return
		}
		if _, err := exec.LookPath("apt-get"); err != nil {
			chromiumWhy = "chromium is not installed and there is no apt-get"
			return
		}
		out, err := exec.Command("apt-get", "install", "-y", "chromium").CombinedOutput()
		if err != nil {
			// The package lists may be missing on a fresh machine.
			if upd, err2 := exec.Command("apt-get", "update").CombinedOutput(); err2 != nil {
				chromiumWhy = fmt.Sprintf("apt-get update: %v\n%s", err2, upd)
				return
			}
			out, err = exec.Command("apt-get", "install", "-y", "chromium").CombinedOutput()
		}
		if err != nil {
			chromiumWhy = fmt.Sprintf("apt-get install -y chromium: %v\n%s", err, lastLines(out, 5))
			return
		}
		if p, err := exec.LookPath("chromium"); err == nil {
			chromiumPath = p
			return
		}
		chromiumWhy = "apt-get installed chromium but it is not on PATH"
	})
	if chromiumPath == "" {
		fmt.Fprintf(os.Stderr, "\n!!! SKIPPED %s: no browser to test the page in: %s\n\n", t.Name(), chromiumWhy)
		t.Skip("no chromium: " + chromiumWhy)
	}
	return chromiumPath
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// server runs fray dev in process with the demo's dice and its browser listener on free
// loopback ports; it returns the gRPC address and the page's URL.
func server(t *testing.T) (addr, page string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, pageURL := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	cfg := dev.Config{
		Listen: "127.0.0.1:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1,
		Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"),
		Ready: func(a string) { ready <- a }, Demo: true,
		Web: "127.0.0.1:0", WebReady: func(u string) { pageURL <- u },
	}
	go func() { done <- dev.Run(ctx, cfg) }()
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("fray dev did not start: %v", err)
	}
	// fray dev says where the page is after it says where it serves gRPC.
	select {
	case page = <-pageURL:
	case err := <-done:
		cancel()
		t.Fatalf("fray dev stopped before it said where the page is: %v", err)
	}
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return addr, page
}

// fray runs one CLI command and returns its output.
func fray(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	require.Equal(t, 0, code, "fray %v: %s", args, errOut.String())
	return strings.TrimSpace(out.String())
}

// tab is one page in its own browser context (its own storage, as another person's browser).
type tab struct {
	t    *testing.T
	name string
	ctx  context.Context
}

// browsers starts one headless Chromium and opens a tab for each name, each in a browser
// context of its own; the first at a desktop's width, the others at a phone's.
func browsers(t *testing.T, names ...string) []*tab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	root, cancelRoot := chromedp.NewContext(alloc)
	t.Cleanup(cancelRoot)
	require.NoError(t, chromedp.Do(root), "chromium does not start")
	var tabs []*tab
	for i, n := range names {
		ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		width, height := int64(1280), int64(900)
		if i > 0 {
			width, height = 390, 844
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, height)))
		tabs = append(tabs, &tab{t: t, name: n, ctx: ctx})
	}
	return tabs
}

// patience bounds every wait of these tests: generous, so that a busy machine slows them but
// does not fail them. How soon the pages show something is logged, never asserted (see the
// docs/testing.md).
const patience = 2 * time.Minute

// run runs steps on the tab, bounded by patience.
func (b *tab) run(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, patience)
	defer cancel()
	require.NoError(b.t, chromedp.Do(ctx, steps...), "%s's page", b.name)
}

// eval evaluates js in the tab.
func eval[T any](b *tab, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, patience)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	require.NoError(b.t, err, "%s's page: %s", b.name, js)
	return v
}

// poll waits until js is truthy in the tab (at most patience), and returns its value.
func poll[T any](b *tab, js string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, patience+5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Poll[T](js, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(patience)))
}

// logLines is the narrated log as the page shows it.
func (b *tab) logLines() []string {
	return eval[[]string](b, `Array.from(document.querySelectorAll('#log li .text'), e => e.textContent)`)
}

// text is the page's whole text.
func (b *tab) text() string {
	return eval[string](b, `document.body.innerText + '\n' + document.documentElement.outerHTML`)
}

// tracks is what the tracker shows of a combatant (or "" when it is not there).
func (b *tab) tracks(id string) string {
	return eval[string](b, fmt.Sprintf(`(document.querySelector('#c-%s .tracks')||{}).textContent||''`, id))
}

func (b *tab) turn() string {
	return eval[string](b, `(document.getElementById('turn')||{}).textContent||''`)
}

// click clicks the first element sel matches, once it is visible.
func (b *tab) click(sel string) {
	b.t.Helper()
	b.run(chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel)))
}

func (b *tab) has(sel string) bool {
	return eval[bool](b, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
}

func (b *tab) screenshot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, patience)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(b.t, err)
	path := filepath.Join(b.t.ArtifactDir(), name)
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	b.t.Logf("screenshot: %s", path)
	if *update && readmeShots[name] {
		require.NoError(b.t, os.WriteFile(filepath.Join("..", "..", "..", "docs", name), png, 0o644))
	}
}

// sequence is the sequence of the last line of the page's log.
func (b *tab) sequence() string {
	return eval[string](b, `(document.querySelector('#log li:last-child')||{dataset:{}}).dataset.sequence||'0'`)
}

// settle waits until the page shows the state and the log up to the same event, at seq or
// after it, and returns that event's sequence.
func (b *tab) settle(seq string) string {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.body.dataset.sequence; const l = (document.querySelector('#log li:last-child')||{dataset:{}}).dataset.sequence; return s && s === l && Number(s) >= %s ? s : ''; })()`, seq)
	got, err := poll[string](b, js)
	require.NoError(b.t, err, "%s's page never showed event %s (it shows %s; status %q): %q", b.name, seq,
		eval[string](b, `document.body.dataset.sequence||''`), eval[string](b, `document.getElementById('status').textContent`), b.logLines())
	return got
}

// lastSequence waits until the page's log has a line containing want, and returns its sequence.
// A want of "after N" waits for a line after event N.
func (b *tab) lastSequence(want string) string {
	b.t.Helper()
	after := "0"
	if n, ok := strings.CutPrefix(want, "after "); ok {
		after, want = n, ""
	}
	js := fmt.Sprintf(`(() => { const l = Array.from(document.querySelectorAll('#log li')).filter(li => li.textContent.includes(%q) && Number(li.dataset.sequence) > %s); return l.length ? l[l.length-1].dataset.sequence : ''; })()`, want, after)
	seq, err := poll[string](b, js)
	require.NoError(b.t, err, "%s's log never said %q: %q", b.name, want, b.logLines())
	return seq
}

// dicePosition is the clause a rewind's narration gives the dice's position in, for the GMs
// (rules/narrate: English and French).
var dicePosition = regexp.MustCompile(`(; the dice go on from position \d+, none rolled again| ; les dés reprennent à la position \d+, aucun n'est relancé)`)

// bothShow waits for a log line containing want on a, then until both pages show the log and
// the state up to its event, and checks that they show the same lines, turn and tracks for ids;
// it logs how long after since (the click) that was.
// A line naming one of hidden may differ (b may see less of it: the server redacts it), but
// not its event.
func bothShow(t *testing.T, since time.Time, a, b *tab, want string, hidden []string, ids ...string) {
	t.Helper()
	seq := a.lastSequence(want)
	for range 5 {
		sa := a.settle(seq)
		sb := b.settle(sa)
		if sa == sb && a.settle(sb) == sb {
			seq = sb
			break
		}
		seq = sb
	}
	took := time.Since(since)
	la, lb := a.logLines(), b.logLines()
	require.Len(t, lb, len(la), "the two pages' logs: %q\n%q", la, lb)
	for i := range la {
		// Dice positions reach only the GMs (issue 23): b, the player's page, tells none, and
		// a's line is b's but for that clause.
		require.NotRegexp(t, dicePosition, lb[i], "a position of the dice on %s's page", b.name)
		if slices.ContainsFunc(hidden, func(h string) bool { return strings.Contains(la[i], h) }) {
			require.Equal(t, strings.Fields(la[i])[0], strings.Fields(lb[i])[0], "the two pages' logs")
			continue
		}
		require.Equal(t, dicePosition.ReplaceAllString(la[i], ""), lb[i], "the two pages' logs")
	}
	if len(hidden) == 0 { // with a hidden combatant, b may not know the phase a's numbers make
		require.Equal(t, a.turn(), b.turn(), "the two pages' turn")
	}
	for _, id := range ids {
		require.NotEmpty(t, a.tracks(id), id)
		require.Equal(t, a.tracks(id), b.tracks(id), "%s's tracks", id)
	}
	t.Logf("both pages show event %s (%q) %v after the click", seq, la[len(la)-1], took.Round(time.Millisecond))
}
