package encounter_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
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

// A convention's tables, each one encounter played for hours at a steady pace and watched,
// over gRPC on loopback: the service and its JetStream (in one process, as fray dev runs
// them) should hold a flat memory once warm. FRAY_SOAK=6m runs it (FRAY_SOAK_TABLES, default
// 100; FRAY_SOAK_RATE, commands a second over all tables, default 200, at exponential
// intervals; FRAY_SOAK_WATCHERS, watches of each table, default 5); every 30 s it logs the
// live heap after a GC and the RSS (with FRAY_SOAK_PROFILES=DIR, it writes a heap profile
// there too). Issue 31: every command id an encounter had recorded was kept in its entry, so
// a long-played table grew by each command.
func TestSoakMemoryOfLongPlayedTables(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv(soakEnv))
	if err != nil {
		t.Skipf("a measurement: %s=6m runs it", soakEnv)
	}
	tables, rate, watchers := 100, 200.0, 5
	if n, err := strconv.Atoi(os.Getenv("FRAY_SOAK_TABLES")); err == nil && n > 0 {
		tables = n
	}
	if r, err := strconv.ParseFloat(os.Getenv("FRAY_SOAK_RATE"), 64); err == nil && r > 0 {
		rate = r
	}
	if n, err := strconv.Atoi(os.Getenv("FRAY_SOAK_WATCHERS")); err == nil && n >= 0 {
		watchers = n
	}
	js := jetStream(t)
	s := serveWatches(t, js, encounter.Options{Snapshots: js, MaxWatchesPerPrincipal: tables*watchers + 16, MaxWatchersPerEncounter: watchers + 16})
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = create(t, s.c)
	}
	ctx, cancel := context.WithTimeout(as("gm"), d) // the watches' too
	defer cancel()
	var sent, failed, delivered, cut atomic.Int64
	var wg sync.WaitGroup
	for _, id := range ids {
		for range watchers {
			w, err := s.c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
			require.NoError(t, err)
			wg.Go(func() {
				for {
					if _, err := w.Recv(); err != nil {
						if ctx.Err() == nil {
							cut.Add(1)
							t.Logf("a watch of %s ended: %v", id, err)
						}
						return
					}
					delivered.Add(1)
				}
			})
		}
	}
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
				// Opens joining (closed when created), closes it, …
				_, err := s.c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, CommandId: hex.EncodeToString(b[:]), Command: joining(n%2 == 0)})
				sent.Add(1)
				if err != nil && ctx.Err() == nil {
					failed.Add(1)
					t.Logf("a command on %s: %v", id, err)
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
		if dir := os.Getenv("FRAY_SOAK_PROFILES"); dir != "" { // to compare: go tool pprof -base
			if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap-%04.0fs.pb.gz", time.Since(start).Seconds()))); err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
		t.Logf("%4.0fs  commands %7d (%.0f/s)  failed %d  delivered %8d  watches cut %d  live heap %6.1f MiB  RSS %6.1f MiB  cached %d, %.1f MiB",
			time.Since(start).Seconds(), sent.Load(), float64(sent.Load())/time.Since(start).Seconds(), failed.Load(), delivered.Load(), cut.Load(),
			heap, rssMiB(), s.svc.Cached(), float64(s.svc.CachedBytes())/(1<<20))
	}
	wg.Wait()
	require.Zero(t, failed.Load(), "commands refused or failed")
	require.Zero(t, cut.Load(), "watches ended before the soak did")
	if len(heaps) >= 4 {
		half := heaps[len(heaps)/2]
		last := heaps[len(heaps)-1]
		t.Logf("live heap from the middle to the end: %.1f → %.1f MiB (%+.1f%%)", half, last, 100*(last-half)/math.Max(half, 1))
	}
}
