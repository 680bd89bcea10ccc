package commands_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
)

// limited is a RulesService whose Roll is refused at a limit, with a RetryInfo of after, the
// first refusals times, as the services' limits refuse (refusal.OverLimitRetry).
type limited struct {
	rulesv1.UnimplementedRulesServiceServer
	after    time.Duration
	refusals int32
	calls    atomic.Int32
}

func (l *limited) Roll(ctx context.Context, req *rulesv1.RollRequest) (*rulesv1.RollResponse, error) {
	if l.calls.Add(1) <= l.refusals {
		return nil, refusal.OverLimitRetry(refusal.LimitRatePrincipal, l.after, "dev/gm: more than 1 requests/s; retry in %s", l.after)
	}
	return (&clienttest.Fake{}).Roll(ctx, req)
}

// Issue 28, item 9: a refusal at a limit carrying a google.rpc.RetryInfo is sent again after
// its delay by the CLI (every command's connection), when the delay is short; a long one is
// the refusal the user reads, at once.
func TestTheCLIWaitsAsARetryInfoAsks(t *testing.T) {
	clienttest.ClearEnv(t)
	short := &limited{after: 20 * time.Millisecond, refusals: 2}
	addr := clienttest.ServeWith(t, func(g *grpc.Server) { rulesv1.RegisterRulesServiceServer(g, short) })
	code, out, errOut := clienttest.Run(t, "roll", "3d10+4", "--addr", addr, "--seed", "0a0b")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "= 23")
	require.Equal(t, int32(3), short.calls.Load(), "two refusals waited out, then the answer")

	long := &limited{after: 1000 * time.Second, refusals: 1}
	addr = clienttest.ServeWith(t, func(g *grpc.Server) { rulesv1.RegisterRulesServiceServer(g, long) })
	begin := time.Now()
	code, _, errOut = clienttest.Run(t, "roll", "d10", "--addr", addr, "--seed", "0a0b")
	t.Logf("refused in %s", time.Since(begin))
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "ResourceExhausted")
	require.Contains(t, errOut, "retry in 16m40s")
	require.Equal(t, int32(1), long.calls.Load(), "a delay past client.MaxRetryWait is not waited for")
}
