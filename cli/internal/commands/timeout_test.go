package commands_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// stalled never answers a read; its watch holds the stream open.
type stalled struct {
	encounterv1.UnimplementedEncounterServiceServer
	watching chan struct{}
}

func (s *stalled) GetEncounter(ctx context.Context, _ *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *stalled) WatchEncounter(_ *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	if err := st.SendHeader(nil); err != nil {
		return err
	}
	close(s.watching)
	<-st.Context().Done()
	return nil
}

// A call without an answer gives up after --timeout (FRAY_TIMEOUT, 10 s by default) and says
// so (the server never answers: only the timeout can end the call); a watch is not bounded by
// it.
func TestTimeoutBoundsCallsNotWatches(t *testing.T) {
	clienttest.ClearEnv(t)
	s := &stalled{watching: make(chan struct{})}
	addr := clienttest.ServeWith(t, func(srv *grpc.Server) { encounterv1.RegisterEncounterServiceServer(srv, s) })

	start := time.Now()
	code, _, stderr := clienttest.Run(t, "state", "enc-1", "--addr", addr, "--timeout", "200ms")
	require.Equal(t, commands.ExitError, code)
	require.Contains(t, stderr, "fray state: DeadlineExceeded: no answer from "+addr+" within 200ms (--timeout, FRAY_TIMEOUT)")
	t.Logf("gave up after %v", time.Since(start).Round(time.Millisecond))

	t.Setenv("FRAY_TIMEOUT", "300ms")
	code, _, stderr = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, commands.ExitError, code)
	require.Contains(t, stderr, "within 300ms")

	t.Setenv("FRAY_TIMEOUT", "abc")
	code, _, stderr = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, commands.ExitUsage, code)
	require.Contains(t, stderr, `fray state: FRAY_TIMEOUT: "abc" is not a duration such as 500ms, 10s, 5m or 1h30m`)

	// The watch outlives the timeout many times over, until interrupted.
	t.Setenv("FRAY_TIMEOUT", "50ms")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() {
		code, _, _ := clienttest.RunCtx(ctx, "watch", "enc-1", "--addr", addr)
		done <- code
	}()
	<-s.watching
	outlived := time.NewTimer(500 * time.Millisecond)
	defer outlived.Stop()
	select {
	case code := <-done:
		t.Fatalf("the watch ended (exit %d) within 500ms", code)
	case <-outlived.C:
	}
	cancel()
	require.Equal(t, commands.ExitOK, <-done)
}

// flaky sends the log's events from the request's sequence, but breaks each of the first
// watches after `breakAfter` events with the error of breaks.
type flaky struct {
	encounterv1.UnimplementedEncounterServiceServer
	events     []*encounterv1.Event
	breakAfter int
	breaks     []error

	mu    sync.Mutex
	froms []uint64
}

func (f *flaky) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	f.mu.Lock()
	n := len(f.froms)
	f.froms = append(f.froms, req.GetFromSequence())
	f.mu.Unlock()
	if err := st.SendHeader(nil); err != nil {
		return err
	}
	sent := 0
	for _, ev := range f.events {
		if ev.GetSequence() < req.GetFromSequence() {
			continue
		}
		if n < len(f.breaks) && sent == f.breakAfter {
			return f.breaks[n]
		}
		if err := st.Send(&encounterv1.WatchEncounterResponse{Event: ev}); err != nil {
			return err
		}
		sent++
	}
	return nil
}

func (f *flaky) requested() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.froms...)
}

// A watch broken by the server's shutdown or a lost connection resumes after the last
// event printed: every event printed once, in order, and the user told on stderr.
func TestWatchResumesAfterTheLastEventPrinted(t *testing.T) {
	clienttest.ClearEnv(t)
	commands.QuickResume(t)
	_, events := clienttest.Ruelle(t)
	f := &flaky{events: events, breakAfter: 2, breaks: []error{
		status.Error(codes.Unavailable, "the server is shutting down; resume from sequence 3"),
		status.Error(codes.Unavailable, "error reading from server: EOF"),
		status.Error(codes.Internal, "stream terminated by RST_STREAM with error code: INTERNAL_ERROR"),
	}}
	addr := clienttest.ServeWith(t, func(srv *grpc.Server) { encounterv1.RegisterEncounterServiceServer(srv, f) })
	code, stdout, stderr := clienttest.Run(t, "watch", "enc-1", "--addr", addr, "--json")
	require.Equal(t, commands.ExitOK, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, len(events), "each event once")
	for i, ev := range events {
		require.Contains(t, lines[i], `"sequence":"`+strconv.FormatUint(ev.GetSequence(), 10)+`"`)
	}
	require.Equal(t, []uint64{1, 3, 5, 7}, f.requested())
	require.Contains(t, stderr, "fray watch: the stream of enc-1 broke (Unavailable: the server is shutting down; resume from sequence 3); resuming from #3 in 1ms (attempt 1 of 8)")
	require.Contains(t, stderr, "fray watch: resumed from #3")
	require.Contains(t, stderr, "resuming from #5")
	require.Contains(t, stderr, "resuming from #7")
}

// A refusal is not resumed; a server that never comes back is given up on after
// commands.ResumeAttempts attempts in a row.
func TestWatchGivesUp(t *testing.T) {
	clienttest.ClearEnv(t)
	commands.QuickResume(t)
	_, events := clienttest.Ruelle(t)
	refused := &flaky{events: events, breaks: []error{status.Error(codes.PermissionDenied, "dev/gm has no role in Ruelle")}}
	addr := clienttest.ServeWith(t, func(srv *grpc.Server) { encounterv1.RegisterEncounterServiceServer(srv, refused) })
	code, _, stderr := clienttest.Run(t, "watch", "enc-1", "--addr", addr)
	require.Equal(t, commands.ExitError, code)
	require.Contains(t, stderr, "PermissionDenied: dev/gm has no role in Ruelle")
	require.NotContains(t, stderr, "resuming")
	require.Len(t, refused.requested(), 1)

	var down []error
	for range commands.ResumeAttempts + 5 {
		down = append(down, status.Error(codes.Unavailable, "connection refused"))
	}
	gone := &flaky{events: events, breaks: down}
	addr = clienttest.ServeWith(t, func(srv *grpc.Server) { encounterv1.RegisterEncounterServiceServer(srv, gone) })
	code, _, stderr = clienttest.Run(t, "watch", "enc-1", "--addr", addr)
	require.Equal(t, commands.ExitError, code)
	require.Contains(t, stderr, "fray watch: gave up after 8 attempts in a row to resume from #1")
	require.Len(t, gone.requested(), commands.ResumeAttempts+1, "the first watch, then 8 attempts")
}
