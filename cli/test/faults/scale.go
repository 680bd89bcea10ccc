//go:build unix

package faults

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
)

// rollingRestart stops each encounter service in turn with SIGTERM (its graceful stop),
// starts it again and waits until it is SERVING and a command through it has succeeded
// before the next, as a Deployment's rolling update does.
func rollingRestart(ctx context.Context, topo *Topology, rec *Recorder, plan Plan) (*Fault, error) {
	f := &Fault{Kind: "rolling restart (SIGTERM) of the encounter services", replica: -1}
	var names []string
	f.Start = time.Now()
	for i, s := range topo.Encounters {
		names = append(names, s.name)
		t0 := time.Now()
		if err := s.term(time.Minute); err != nil {
			return nil, err
		}
		stopped := time.Now()
		if err := s.start(); err != nil {
			return nil, err
		}
		started := time.Now()
		back, err := topo.waitServing(ctx, s, plan.RecoverWithin)
		if err != nil {
			f.Problem += err.Error() + "; "
			continue
		}
		via := "no command through it"
		if err := waitSuccess(ctx, rec, started, i, plan.RecoverWithin); err != nil {
			f.Problem += fmt.Sprintf("nothing through %s: %v; ", s.name, err)
		} else {
			via = "a command through it " + dur(time.Since(started))
		}
		f.Notes = append(f.Notes, fmt.Sprintf("%s: stopped %s after SIGTERM, SERVING %s after its start, %s", s.name,
			dur(stopped.Sub(t0)), dur(back.Sub(started)), via))
	}
	f.Target = strings.Join(names, ", then ")
	f.End = time.Now()
	f.Back = f.End
	f.Problem = strings.TrimSuffix(f.Problem, "; ")
	return f, nil
}

// killResolver kills -9 resolver i, leaves its address in DNS (as a pod's endpoint lingers
// until its readiness fails), starts it again on the same address after plan.ResolverDown,
// and waits until it is SERVING and the encounter services send it calls again.
func killResolver(ctx context.Context, topo *Topology, plan Plan, i int) (*Fault, error) {
	s := topo.Resolvers[i]
	f := &Fault{Kind: "kill -9 resolver (one DNS name)", Target: fmt.Sprintf("%s of %d", s.name, len(topo.Resolvers)), replica: -1}
	f.Start = time.Now()
	if err := s.kill(); err != nil {
		return nil, err
	}
	if err := sleep(ctx, plan.ResolverDown); err != nil {
		return nil, err
	}
	if err := s.start(); err != nil {
		return nil, err
	}
	f.End = time.Now()
	serving, err := waitHealth(ctx, s, s.health, rulesv1.RulesService_ServiceDesc.ServiceName, plan.RecoverWithin)
	if err != nil {
		f.Problem = err.Error()
		return f, nil
	}
	// Back: the first Resolve it answers since its start (its counters start at zero).
	deadline := time.Now().Add(plan.RecoverWithin)
	for {
		n, err := resolveCalls(ctx, s)
		if err == nil && n > 0 {
			f.Back = time.Now()
			break
		}
		if time.Now().After(deadline) {
			f.Problem = fmt.Sprintf("%s SERVING %s after its start, yet no Resolve reached it within %v", s.name, dur(serving.Sub(f.End)), plan.RecoverWithin)
			break
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
	f.Notes = append(f.Notes, fmt.Sprintf("%s SERVING %s after its start", s.name, dur(serving.Sub(f.End))))
	return f, nil
}

// SpreadFigures are how the calls spread over the resolvers after a scale-up.
type SpreadFigures struct {
	// Share: the new resolver's share of the Resolve calls over the last spreadWindow, when
	// the wait ended; Reached: from its joining DNS to a share of at least plan.SpreadShare,
	// negative when not within plan.SpreadWithin.
	Share   float64
	Reached time.Duration
	// Calls: the Resolve calls each resolver answered over the last window.
	Calls []int64
	// Queries: DNS queries of the name during the wait (the clients' re-resolutions).
	Queries int
}

// spreadWindow is the stretch over which a resolver's share of calls is measured, sampled
// every spreadSample; a window of fewer than spreadMinCalls calls is not judged (too few to
// tell a share).
const (
	spreadWindow   = 2 * time.Second
	spreadSample   = 500 * time.Millisecond
	spreadMinCalls = 60
)

// scaleUp starts one more resolver, adds its address to the name once it is SERVING, and
// measures how soon the encounter services send it its share of the calls: each resolver's
// Resolve count, from its Prometheus metrics, every spreadSample.
func scaleUp(ctx context.Context, topo *Topology, plan Plan) (*Fault, error) {
	f := &Fault{Kind: "scale-up of the resolvers", replica: -1}
	f.Start = time.Now()
	s, err := topo.addResolver(ctx)
	if err != nil {
		return nil, err
	}
	f.End = time.Now()
	f.Target = fmt.Sprintf("%s added to %s (%d resolvers)", s.name, ResolverName, len(topo.Resolvers))
	q0 := topo.DNS.Queries()
	sp := &SpreadFigures{Reached: -1}
	f.Spread = sp
	type sample struct {
		at    time.Time
		calls []int64
	}
	var samples []sample
	deadline := f.End.Add(plan.SpreadWithin)
	for {
		var calls []int64
		for _, r := range topo.Resolvers {
			n, err := resolveCalls(ctx, r)
			if err != nil {
				n = -1 // not answering: this sample is left out
			}
			calls = append(calls, n)
		}
		now := time.Now()
		samples = append(samples, sample{now, calls})
		// The share over the last window: the oldest sample at least a window old.
		var from *sample
		for i := len(samples) - 1; i >= 0; i-- {
			if now.Sub(samples[i].at) >= spreadWindow {
				from = &samples[i]
				break
			}
		}
		if from != nil {
			var all, ours int64
			sp.Calls = sp.Calls[:0]
			ok := true
			for j, n := range calls {
				if n < 0 || from.calls[j] < 0 || n < from.calls[j] {
					ok = false // a resolver not answering, or restarted
					break
				}
				sp.Calls = append(sp.Calls, n-from.calls[j])
				all += n - from.calls[j]
				if topo.Resolvers[j] == s {
					ours = n - from.calls[j]
				}
			}
			if ok && all >= spreadMinCalls {
				sp.Share = float64(ours) / float64(all)
				if sp.Share >= plan.SpreadShare {
					sp.Reached = now.Sub(f.End)
					f.Back = now
					break
				}
			}
		}
		if now.After(deadline) {
			f.Problem = fmt.Sprintf("%s had %.1f%% of the calls of the last %v, %v after it joined the name (want %.0f%%)",
				s.name, 100*sp.Share, spreadWindow, plan.SpreadWithin, 100*plan.SpreadShare)
			break
		}
		if err := sleep(ctx, spreadSample); err != nil {
			return nil, err
		}
	}
	sp.Queries = topo.DNS.Queries() - q0
	return f, nil
}

// resolveCalls is how many Resolve calls resolver s has handled since it started, from its
// Prometheus metrics (grpc_server_handled_total of RulesService/Resolve, every code).
func resolveCalls(ctx context.Context, s *service) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.metrics+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s/metrics: %s", s.metrics, resp.Status)
	}
	return countHandled(bufio.NewScanner(resp.Body), "Resolve")
}

// countHandled sums grpc_server_handled_total of method over its codes, in Prometheus's text
// exposition.
func countHandled(sc *bufio.Scanner, method string) (int64, error) {
	var n int64
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "grpc_server_handled_total{") || !strings.Contains(line, `grpc_method="`+method+`"`) {
			continue
		}
		fs := strings.Fields(line[strings.LastIndexByte(line, '}')+1:])
		if len(fs) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fs[0], 64)
		if err != nil {
			return 0, fmt.Errorf("metrics line %q: %w", line, err)
		}
		n += int64(v)
	}
	return n, sc.Err()
}
