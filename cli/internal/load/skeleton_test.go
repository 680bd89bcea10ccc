package load_test

import (
	"context"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/load"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// samples plays a few real commands against a fray dev of the test's own and returns the
// Submits the sampler kept, as `fray load` does before its skeleton anchor.
func samples(t *testing.T, commands int64) []load.Exchange {
	t.Helper()
	addr := startDev(t, encounter.Options{})
	key, err := auth.LoadDevKey(mustFindDevKey(t, addr))
	require.NoError(t, err)
	sampler := &load.Sampler{Max: 2}
	dial := func(subject string) *grpc.ClientConn {
		src := &auth.MintedToken{Signer: key, Claims: auth.DevClaims(auth.DevTenant, subject, auth.DevTokenTTL)}
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithPerRPCCredentials(auth.PerRPCToken(src, "", false)), grpc.WithChainUnaryInterceptor(sampler.Interceptor()))
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	_, err = load.Run(context.Background(), load.Config{GM: dial(load.GMSubject), Player: dial(load.PlayerSubject), Encounters: 2,
		Systems: []string{"loss", "feerie"}, Commands: commands, Duration: 10 * time.Minute})
	require.NoError(t, err)
	return sampler.Samples()
}

func mustFindDevKey(t *testing.T, addr string) string {
	t.Helper()
	path, ok := auth.FindDevKey(addr)
	require.True(t, ok, "fray dev at %s noted its key", addr)
	return path
}

// The skeleton anchor carries the load's own Submits through a server built as the
// encounter service's (a real token verified by the real interceptors), a gRPC resolver and
// a conditional publish on a JetStream of the test's own. With no duration each of its callers
// makes exactly one Submit: bounded by count, every one succeeds, and the rate is positive.
func TestSkeletonAnchorCarriesTheLoadsSubmits(t *testing.T) {
	ex := samples(t, 20)
	require.NotEmpty(t, ex, "the load's Submits were kept")
	for _, e := range ex {
		require.NotNil(t, e.Request.GetCommand(), "a Submit's command")
		require.NotEmpty(t, e.Response.GetEvents(), "a Submit's events")
	}
	ns, err := natsconn.Embedded("127.0.0.1", -1, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })

	const callers = 3
	began := time.Now()
	st, err := load.SkeletonAnchor(context.Background(), ns.ClientURL(), nil, ex, callers, 0)
	require.NoError(t, err)
	t.Logf("%d skeleton Submits in %v", st.Count, time.Since(began).Round(time.Millisecond))
	require.Empty(t, st.Errors, st.Example)
	require.Equal(t, int64(callers), st.Count, "one Submit a caller")
	require.Positive(t, st.PerSecond)

	// Nothing to carry is said, not measured as zero.
	_, err = load.SkeletonAnchor(context.Background(), ns.ClientURL(), nil, nil, callers, 0)
	require.ErrorContains(t, err, "no Submit to copy")
}
