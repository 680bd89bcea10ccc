package faults

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Issue 22's measure of read-your-writes on the hosted topology (3 clustered nats-server
// processes, the stream and buckets at 3 replicas, 2 resolvers, 2 encounter services, as the
// prod overlay runs them): FRAY_CREATES creates, 8 at a time, each through one encounter
// service and read back at once through the other, then ended through the first. Before the
// reads were settled by the stream's leader, 62 of 973 creates answered NotFound for the
// encounter just recorded. Opt-in (a measure, not part of the suite):
//
//	FRAY_CREATES=2000 go test -count=1 -v -run '^TestCreatesReadThemselvesBack$' -timeout 60m ./cli/test/faults
func TestCreatesReadThemselvesBack(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FRAY_CREATES"))
	if n <= 0 {
		t.Skip("a measure: FRAY_CREATES=2000 runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Minute)
	defer cancel()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	bins, err := Build(ctx, root, t.TempDir())
	require.NoError(t, err)
	topo, err := Start(ctx, bins, t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(topo.Close)
	var clients []encounterv1.EncounterServiceClient
	for _, e := range topo.Encounters {
		src := &auth.MintedToken{Signer: topo.Signer, Claims: auth.DevClaims(auth.DevTenant, "gm", auth.DevTokenTTL)}
		cc, err := grpc.NewClient(e.addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithPerRPCCredentials(auth.PerRPCToken(src, "", false)))
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		clients = append(clients, encounterv1.NewEncounterServiceClient(cc))
	}
	var notFound, otherErrs, done atomic.Int64
	var mu sync.Mutex
	codesSeen := map[string]int{}
	note := func(what string, err error) {
		if status.Code(err) == codes.NotFound {
			notFound.Add(1)
		} else {
			otherErrs.Add(1)
		}
		mu.Lock()
		codesSeen[what+" "+status.Code(err).String()]++
		mu.Unlock()
		t.Logf("%s: %v", what, err)
	}
	began := time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range work {
				by, other := clients[i%2], clients[(i+1)%2]
				c, err := by.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: fmt.Sprint("Ruelle ", i), RuleSystem: "loss"}})
				if err != nil {
					note("create", err)
					continue
				}
				if _, err := other.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: c.GetEncounterId()}); err != nil {
					note("read back through the other service", err)
				}
				if _, err := by.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: c.GetEncounterId(), Reason: "measured"}); err != nil {
					note("end", err)
				}
				done.Add(1)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("%d creates through 2 encounter services on 3 NATS nodes (R3) in %s: %d NotFound, %d other errors %v",
		done.Load(), time.Since(began).Round(time.Millisecond), notFound.Load(), otherErrs.Load(), codesSeen)
	require.Zero(t, notFound.Load(), "NotFound for an encounter just created")
	require.Zero(t, otherErrs.Load())
}
