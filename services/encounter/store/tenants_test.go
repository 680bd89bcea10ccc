package store_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// hogCPU keeps spinners goroutines busy until the test ends or stop is called, as the other
// processes of a busy machine do: the store's answers and its writers wait for the CPU.
func hogCPU(t *testing.T, spinners int) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	stop = func() { once.Do(func() { close(done) }) }
	t.Cleanup(stop)
	for range spinners {
		go func() {
			for x := 0; ; x++ {
				if x%1024 == 0 {
					select {
					case <-done:
						return
					default:
					}
				}
			}
		}()
	}
	return stop
}

// Issue 31: the tenant's count of open encounters, which the cap per tenant reads, fell
// behind when creates in one tenant raced on its compare-and-set (31 of 200 lost it on a busy
// machine). 200 encounters opened at once in one tenant, through 4 stores on one server (as 4
// replicas of the service) while goroutines spin on every core, count 200 — and each GM's 1.
func TestATenantsCountIsExactUnderContentionAndACPUHog(t *testing.T) {
	_, nc := natstest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // the callers' deadline: far
	defer cancel()
	const replicas, n = 4, 200
	stores := make([]*store.JetStream, replicas)
	for i := range stores {
		s, err := store.Open(ctx, nc, store.Config{})
		require.NoError(t, err)
		stores[i] = s
	}
	stop := hogCPU(t, 2*runtime.GOMAXPROCS(0))
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			errs <- stores[i%replicas].PutSummary(ctx, store.Summary{EncounterID: fmt.Sprint("enc-", i), Tenant: "convention", Name: "Table",
				RuleSystem: "loss", Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 1, LastActivity: time.Now(),
				Members: map[string]encounterv1.Role{fmt.Sprint("convention/gm-", i): encounterv1.Role_ROLE_GM}})
		})
	}
	wg.Wait()
	stop()
	t.Logf("%d creates at once over %d stores, with a CPU hog: %s", n, replicas, time.Since(start))
	close(errs)
	failed := 0
	for err := range errs {
		if err != nil {
			failed++
			t.Log(err)
		}
	}
	open, err := stores[0].OpenEncounters(ctx, "convention")
	require.NoError(t, err)
	require.Zero(t, failed, "creates whose index write failed")
	require.Equal(t, n, open, "the tenant's count of open encounters")
	for _, i := range []int{0, n / 2, n - 1} {
		mine, err := stores[1].OpenEncountersOf(ctx, fmt.Sprint("convention/gm-", i))
		require.NoError(t, err)
		require.Equal(t, 1, mine, "a GM's count")
	}
}
