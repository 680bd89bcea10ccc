package load

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// measure runs op from n goroutines for d and summarizes every call. Each goroutine makes one
// call at least, and a call under way at the end is let finish and counted: on a busy machine
// the figures are slower, never empty, and the slowest calls are not the ones left out. A call
// is given up a minute after the end (a server that does not answer is an error, not a run
// that never ends).
func measure(ctx context.Context, n int, d time.Duration, op func(ctx context.Context, worker int) error) Stats {
	end := time.Now().Add(d)
	callCtx, cancel := context.WithDeadline(ctx, end.Add(time.Minute))
	defer cancel()
	samples := make([][]sample, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for first := true; ctx.Err() == nil && (first || time.Now().Before(end)); first = false {
				t := time.Now()
				err := op(callCtx, i)
				if err != nil && ctx.Err() != nil {
					return // the caller stopped the run: not a figure
				}
				samples[i] = append(samples[i], sample{d: time.Since(t), code: codeOf(err), msg: messageOf(err)})
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []sample
	for _, s := range samples {
		all = append(all, s...)
	}
	return summarize(all, elapsed)
}

// HealthAnchor measures gRPC health Check, the trivial unary RPC, on cc.
func HealthAnchor(ctx context.Context, cc grpc.ClientConnInterface, n int, d time.Duration) Stats {
	h := healthpb.NewHealthClient(cc)
	return measure(ctx, n, d, func(ctx context.Context, _ int) error {
		_, err := h.Check(ctx, &healthpb.HealthCheckRequest{})
		return err
	})
}

// JetStreamAnchor measures a conditional publish (Nats-Expected-Last-Subject-Sequence, as the
// encounter service appends) from n goroutines, each on its own subject, to a scratch stream
// of file storage it creates on the NATS at url and deletes after.
func JetStreamAnchor(ctx context.Context, url string, opts []nats.Option, n int, d time.Duration) (Stats, error) {
	js, subject, done, err := scratchStream(ctx, url, opts, "fray-load", "FRAY_LOAD_ANCHOR_", "fray.loadanchor.")
	if err != nil {
		return Stats{}, err
	}
	defer done()
	last := make([]uint64, n)
	payload := make([]byte, 256) // about an event batch of one command
	return measure(ctx, n, d, func(ctx context.Context, i int) error {
		ack, err := js.Publish(ctx, fmt.Sprintf("%s.%d", subject, i), payload, jetstream.WithExpectLastSequencePerSubject(last[i]))
		if err != nil {
			return err
		}
		last[i] = ack.Sequence
		return nil
	}), nil
}

// scratchStream connects to the NATS at url as client and creates a stream of file storage
// named prefix and a random suffix, taking the subjects below subjectPrefix + that name; it
// returns the subject (without the trailing ".>") and done, which deletes the stream and
// closes the connection. Every anchor measures against a stream of its own.
func scratchStream(ctx context.Context, url string, opts []nats.Option, client, prefix, subjectPrefix string) (jetstream.JetStream, string, func(), error) {
	nc, err := nats.Connect(url, append(opts, nats.Name(client))...)
	if err != nil {
		return nil, "", nil, fmt.Errorf("NATS %s: %w", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, "", nil, err
	}
	name := prefix + newID()[:8]
	subject := subjectPrefix + name
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{subject + ".>"}, Storage: jetstream.FileStorage}); err != nil {
		nc.Close()
		return nil, "", nil, fmt.Errorf("scratch stream %s: %w", name, err)
	}
	return js, subject, func() { _ = js.DeleteStream(context.WithoutCancel(ctx), name); nc.Close() }, nil
}
