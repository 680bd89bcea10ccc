package resolver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The fairness run's flooder is this test binary run again (TestFairnessFlooder), told the
// server's address and the flooders' tokens by these variables.
const (
	floodAddrEnv   = "FRAY_FAIRNESS_FLOOD_ADDR"
	floodTokensEnv = "FRAY_FAIRNESS_FLOOD_TOKENS"
)

// Issue 23's flood (item 5): 20 principals of the player's tenant at 100 calls/s each, and one
// principal of another tenant sending RulesService.Odds at 90/s with a crafted state of 200
// combatants (44 KB).
const (
	floodPrincipals = 20
	floodRate       = 100
	costlyRate      = 90
	costlyCombatant = 200
)

// floodCounts is what the flooder tells when it stops: its calls by kind and code.
type floodCounts struct {
	Calls map[string]map[string]int64
	Bytes int // the costly state's size
}

// BenchmarkFairness is the fairness run of issue 23 (item 5), over real gRPC with the default
// rate limits (100/s per principal, 1,000/s per tenant): a well-behaved player asks the odds of
// a duel every 50 ms (2 tokens each: 40/s, under its share of its tenant's 1,000/s among 21),
// 200 calls, alone (baseline) and then beside issue 23's flood, sent by another process (this
// test binary run again, TestFairnessFlooder: a hostile caller is another machine), each
// flooder on a connection of its own, paced (a call every 1/rate s, whether the last one was
// answered or not): 20 principals of the player's tenant calling ListRulesets at 100/s each,
// and one principal of another tenant asking the odds at 90/s on a state of 200 combatants
// (44 KB, past the 64 one may send). The player's calls begin after 3 s of flood, when the
// flooders' bursts are spent. It reports the player's p50 and p99 in both runs, the ratio of
// the p99s, the player's refused calls (which must be 0), and the flooders' calls served and
// refused. What the server's process spends during the flood: -cpuprofile.
//
//	go test ./services/resolver -run '^$' -bench Fairness -benchtime 1x
func BenchmarkFairness(b *testing.B) {
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: ratelimit.DefaultPrincipalRate, PrincipalBurst: ratelimit.DefaultPrincipalBurst,
		TenantRate: ratelimit.DefaultTenantRate, TenantBurst: ratelimit.DefaultTenantBurst})
	addr := serveRules(b, ratelimit.WithLimiter(lim))
	c := dialRules(b, addr)
	duel := lossAttackRequest(b, 2)
	player := authtest.As("player")
	a := authtest.Default()
	var tokens []string
	for i := range floodPrincipals {
		tokens = append(tokens, a.Token(fmt.Sprintf("flooder-%d", i)))
	}
	tokens = append(tokens, a.Mint(a.Ed, authtest.Claims("other", "costly")))
	play := func() (lat []time.Duration, refused int) {
		for range 200 {
			start := time.Now()
			_, err := c.Odds(player, &rulesv1.OddsRequest{State: duel.GetState(), Command: duel.GetCommand(), Actor: duel.GetActor()})
			lat = append(lat, time.Since(start))
			if err != nil {
				require.Equal(b, codes.ResourceExhausted, status.Code(err), "%v", err)
				refused++
			}
			time.Sleep(50 * time.Millisecond)
		}
		slices.Sort(lat)
		return lat, refused
	}
	pct := func(lat []time.Duration, p float64) time.Duration { return lat[int(float64(len(lat)-1)*p)] }
	for b.Loop() {
		base, baseRefused := play()
		flood := startFlooder(b, addr, tokens)
		time.Sleep(3 * time.Second)
		loaded, loadedRefused := play()
		counts := flood.stop(b)
		b.ReportMetric(float64(pct(base, 0.5).Microseconds()), "base-p50-µs")
		b.ReportMetric(float64(pct(base, 0.99).Microseconds()), "base-p99-µs")
		b.ReportMetric(float64(pct(loaded, 0.5).Microseconds()), "loaded-p50-µs")
		b.ReportMetric(float64(pct(loaded, 0.99).Microseconds()), "loaded-p99-µs")
		b.ReportMetric(float64(pct(loaded, 0.99))/float64(pct(base, 0.99)), "p99-ratio")
		b.ReportMetric(float64(baseRefused+loadedRefused), "player-refused")
		for kind, codes := range counts.Calls {
			for code, n := range codes {
				b.ReportMetric(float64(n), kind+"-"+code)
			}
		}
		b.Logf("the costly state: %d bytes; the flood's calls: %v", counts.Bytes, counts.Calls)
	}
}

// serveRules serves the rules service over loopback gRPC and returns its address.
func serveRules(t testing.TB, opts ...grpc.ServerOption) string {
	t.Helper()
	srv := server.New(telemetry.NewLogger("text", "error"), append(authtest.ServerOptions(), opts...)...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return lis.Addr().String()
}

func dialRules(t testing.TB, addr string) rulesv1.RulesServiceClient {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return rulesv1.NewRulesServiceClient(cc)
}

// flooder is the flooding process: it floods until its standard input closes, then writes
// its counts.
type flooder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   chan string
}

func startFlooder(t testing.TB, addr string, tokens []string) *flooder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFairnessFlooder$", "-test.v")
	cmd.Env = append(os.Environ(), floodAddrEnv+"="+addr, floodTokensEnv+"="+strings.Join(tokens, ","))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	f := &flooder{cmd: cmd, stdin: stdin, out: make(chan string, 16)}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) // by its PID, if still running
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "FLOOD "); ok {
				f.out <- line
			}
		}
		close(f.out)
	}()
	// Under way once every flooder has its connection.
	select {
	case line, ok := <-f.out:
		require.True(t, ok, "the flooder ended before flooding")
		require.Equal(t, "flooding", line)
	case <-time.After(2 * time.Minute):
		t.Fatal("the flooder did not start in 2 minutes")
	}
	return f
}

// stop closes the flooder's input and returns its counts.
func (f *flooder) stop(t testing.TB) floodCounts {
	t.Helper()
	require.NoError(t, f.stdin.Close())
	var counts floodCounts
	select {
	case line, ok := <-f.out:
		require.True(t, ok, "the flooder ended without its counts")
		require.NoError(t, json.Unmarshal([]byte(line), &counts))
	case <-time.After(2 * time.Minute):
		t.Fatal("the flooder did not stop in 2 minutes")
	}
	require.NoError(t, f.cmd.Wait())
	return counts
}

// TestFairnessFlooder is the flooding process of BenchmarkFairness, and nothing when run
// otherwise.
func TestFairnessFlooder(t *testing.T) {
	addr := os.Getenv(floodAddrEnv)
	if addr == "" {
		t.Skip("the flooder of BenchmarkFairness, run by it")
	}
	tokens := strings.Split(os.Getenv(floodTokensEnv), ",")
	require.Len(t, tokens, floodPrincipals+1)
	big := lossAttackRequest(t, costlyCombatant)
	costly := &rulesv1.OddsRequest{State: big.GetState(), Command: big.GetCommand(), Actor: big.GetActor()}

	var mu sync.Mutex
	counts := floodCounts{Calls: map[string]map[string]int64{}, Bytes: proto.Size(costly.GetState())}
	count := func(kind string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if counts.Calls[kind] == nil {
			counts.Calls[kind] = map[string]int64{}
		}
		counts.Calls[kind][strings.ToLower(status.Code(err).String())]++
	}
	ctx, stop := context.WithCancel(context.Background())
	var calls sync.WaitGroup
	// paced calls call every 1/rate s, each in its own goroutine (at most 100 at a time: a
	// server that stops answering is not met with ever more calls).
	paced := func(rate int, call func() error, kind string) {
		inFlight := make(chan struct{}, 100)
		tick := time.NewTicker(time.Second / time.Duration(rate))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			select {
			case inFlight <- struct{}{}:
			default:
				count(kind, status.Error(codes.Canceled, "not sent: 100 calls in flight"))
				continue
			}
			calls.Go(func() {
				defer func() { <-inFlight }()
				count(kind, call())
			})
		}
	}
	dial := func(token string) (rulesv1.RulesServiceClient, context.Context) {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		cc.Connect()
		return rulesv1.NewRulesServiceClient(cc), authtest.WithToken(context.Background(), token)
	}
	var flooders sync.WaitGroup
	for _, tok := range tokens[:floodPrincipals] {
		c, who := dial(tok)
		flooders.Go(func() {
			paced(floodRate, func() error { _, err := c.ListRulesets(who, &rulesv1.ListRulesetsRequest{}); return err }, "list")
		})
	}
	c, who := dial(tokens[floodPrincipals])
	flooders.Go(func() {
		paced(costlyRate, func() error { _, err := c.Odds(who, costly); return err }, "odds200")
	})
	fmt.Println("FLOOD flooding")
	_, _ = io.Copy(io.Discard, os.Stdin)
	stop()
	flooders.Wait()
	calls.Wait()
	out, err := json.Marshal(counts)
	require.NoError(t, err)
	fmt.Println("FLOOD " + string(out))
}
