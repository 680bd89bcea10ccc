package encounter_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"math"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// soakEnv, a duration, runs TestSoakMemoryOfLongPlayedTables for that long (BENCHMARKS.md).
const soakEnv = "FRAY_SOAK"

// rssMiB is this process's resident memory, from /proc (0 where there is none).
func rssMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// A convention's tables, each one encounter played for hours, at a steady pace: the service
// and its JetStream (in one process, as fray dev runs them) should hold a flat memory once
// warm. FRAY_SOAK=6m runs it (FRAY_SOAK_TABLES, default 100; FRAY_SOAK_RATE, commands a
// second over all tables, default 200, at exponential intervals); every 30 s it logs the
// live heap after a GC and the RSS. Issue 31: every command id an encounter had recorded was
// kept in its entry, so a long-played table grew by each command.
func TestSoakMemoryOfLongPlayedTables(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv(soakEnv))
	if err != nil {
		t.Skipf("a measurement: %s=6m runs it", soakEnv)
	}
	tables, rate := 100, 200.0
	if n, err := strconv.Atoi(os.Getenv("FRAY_SOAK_TABLES")); err == nil && n > 0 {
		tables = n
	}
	if r, err := strconv.ParseFloat(os.Getenv("FRAY_SOAK_RATE"), 64); err == nil && r > 0 {
		rate = r
	}
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	svc := newService(js, encounter.Options{Snapshots: js})
	gm := incoming("gm")
	ids := make([]string, tables)
	for i := range ids {
		created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Table", RuleSystem: "loss"}})
		require.NoError(t, err)
		ids[i] = created.GetEncounterId()
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var sent, failed atomic.Int64
	var wg sync.WaitGroup
	mean := time.Duration(float64(tables) / rate * float64(time.Second)) // each table's
	for _, id := range ids {
		wg.Go(func() {
			for n := 0; ; n++ {
				wait := time.Duration(mrand.ExpFloat64() * float64(mean))
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
				var b [16]byte
				_, _ = rand.Read(b[:])
				_, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: hex.EncodeToString(b[:]), Command: joining(n%2 == 1)}) // closes joining (open when created), opens it, …
				sent.Add(1)
				if err != nil {
					failed.Add(1)
				}
			}
		})
	}
	start := time.Now()
	var heaps []float64
	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		heap := float64(m.HeapAlloc) / (1 << 20)
		heaps = append(heaps, heap)
		t.Logf("%4.0fs  commands %7d (%.0f/s)  failed %d  live heap %6.1f MiB  RSS %6.1f MiB  cached %d entries, %.1f MiB",
			time.Since(start).Seconds(), sent.Load(), float64(sent.Load())/time.Since(start).Seconds(), failed.Load(), heap, rssMiB(),
			svc.Cached(), float64(svc.CachedBytes())/(1<<20))
	}
	wg.Wait()
	require.Zero(t, failed.Load(), "commands refused or failed")
	if len(heaps) >= 4 {
		half := heaps[len(heaps)/2]
		last := heaps[len(heaps)-1]
		t.Logf("live heap from the middle to the end: %.1f → %.1f MiB (%+.1f%%)", half, last, 100*(last-half)/math.Max(half, 1))
	}
}
