//go:build unix

package faults

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/load"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
)

// Plan is what a run does: its load, and each fault, how many times and for how long.
type Plan struct {
	Name string
	// Encounters playing at once (fray load's --encounters).
	Encounters int
	// Warmup: the load alone before the first fault (the baseline); Settle: after the
	// topology serves again, before the next fault (and before the end).
	Warmup, Settle time.Duration
	// NATSKills: kill -9 of a NATS node (the stream's leader, then a follower, in turn), down
	// for NATSDown before it is started again.
	NATSKills int
	NATSDown  time.Duration
	// ReplicaKills: kill -9 of each encounter service, this many times each (in turn), down for
	// ReplicaDown.
	ReplicaKills int
	ReplicaDown  time.Duration
	// LeaderStops: SIGSTOP of the NATS node leading the event stream, for LeaderStop, then
	// SIGCONT.
	LeaderStops int
	LeaderStop  time.Duration
	// RoutePartitions, FullPartitions: a NATS node cut off from its peers (its clients still
	// reach it), or from everyone, for PartitionFor; the first of each the node of an
	// encounter service, the next the stream's leader, in turn. Skipped where the nodes have
	// no network namespaces (Topology.Net nil: not root).
	RoutePartitions, FullPartitions int
	PartitionFor                    time.Duration
	// NotServingWithin: an encounter service whose node is cut off says NOT_SERVING on its gRPC
	// health within this (asserted with FRAY_FAULTS_STRICT).
	NotServingWithin time.Duration
	// RollingRestarts: SIGTERM each encounter service in turn, waiting until it serves again.
	RollingRestarts int
	// ScaleUps: start one more resolver and add it to the name; it must get SpreadShare of the
	// Resolve calls within SpreadWithin (asserted with FRAY_FAULTS_STRICT).
	ScaleUps     int
	SpreadWithin time.Duration
	SpreadShare  float64
	// ResolverKills: kill -9 of a resolver (each in turn), down for ResolverDown, its address
	// left in DNS.
	ResolverKills int
	ResolverDown  time.Duration
	// RecoverWithin bounds each wait for the topology to serve again after a fault.
	RecoverWithin time.Duration
	// Policy is the clients' retries.
	Policy RetryPolicy
	// Sticky: each encounter's commands go to one encounter service first (by its id), not to
	// each service in turn.
	Sticky bool
}

// Short is the plan run by the test command: one fault of each kind, a few seconds each.
// Its bounds on readiness and spreading are generous (the machine running the tests may be
// busy); the full plan holds the product's own.
func Short() Plan {
	return Plan{Name: "short", Encounters: 8, Warmup: 4 * time.Second, Settle: 2500 * time.Millisecond,
		NATSKills: 1, NATSDown: 3 * time.Second, ReplicaKills: 1, ReplicaDown: time.Second,
		LeaderStops: 1, LeaderStop: 4 * time.Second, RecoverWithin: 30 * time.Second,
		// NOT_SERVING at any time during the cut (the product's 5 s is the full plan's).
		RoutePartitions: 1, FullPartitions: 1, PartitionFor: 15 * time.Second, NotServingWithin: 15 * time.Second,
		RollingRestarts: 1, ScaleUps: 1, SpreadWithin: time.Minute, SpreadShare: spreadShare,
		ResolverKills: 1, ResolverDown: 2 * time.Second,
		Policy: RetryPolicy{Attempt: 2 * time.Second, Budget: 30 * time.Second, Backoff: 50 * time.Millisecond, MaxBackoff: time.Second}}
}

// Full is the plan that shows the hosted topology survives its operator's worst week: a NATS
// node killed (the leader, then a follower), each encounter service killed 10 times, the
// stream's leader frozen for 10 s, a NATS node partitioned from its peers and from everyone
// (an encounter service's node, then the stream's leader), the encounter services restarted
// one after the other, a resolver added, and each resolver killed.
func Full() Plan {
	return Plan{Name: "full", Encounters: 16, Warmup: 10 * time.Second, Settle: 5 * time.Second,
		NATSKills: 2, NATSDown: 10 * time.Second, ReplicaKills: 10, ReplicaDown: 2 * time.Second,
		LeaderStops: 1, LeaderStop: 10 * time.Second, RecoverWithin: time.Minute,
		// The product's requirements: NOT_SERVING within 5 s of the node's loss; a new
		// resolver gets a third of the calls within 30 s.
		RoutePartitions: 2, FullPartitions: 2, PartitionFor: 15 * time.Second, NotServingWithin: 5 * time.Second,
		RollingRestarts: 2, ScaleUps: 1, SpreadWithin: 30 * time.Second, SpreadShare: spreadShare,
		ResolverKills: 3, ResolverDown: 5 * time.Second,
		Policy: RetryPolicy{Attempt: 3 * time.Second, Budget: time.Minute, Backoff: 50 * time.Millisecond, MaxBackoff: time.Second}}
}

// spreadShare is "a third of the calls" with room for the measure's own noise: the calls of
// a 2 s window sampled every 500 ms, round_robin dealing each client's calls in turn.
const spreadShare = 0.30

// Fault is one fault as injected and what the clients saw of it.
type Fault struct {
	Kind   string
	Target string
	// Start: injected; End: the process started again, or continued.
	Start, End time.Time
	// Back: the encounter service SERVING again, or (NATS) every replica of the stream current.
	Back time.Time
	// Leader of the stream before and after.
	LeaderBefore, LeaderAfter string
	// Window: calls begun during the fault; After: from its end to the next fault.
	Window, After Availability
	// Outage: the longest stretch without a successful call, from the fault's start until the
	// next fault.
	Outage time.Duration
	// Recovered: from End to the first success of a call begun after it; RecoveredVia, for an
	// encounter service, of a call through that one. Negative: none within RecoverWithin.
	Recovered, RecoveredVia time.Duration
	// Problem: what did not come back within the plan's bound.
	Problem string
	// Health: what each encounter service whose NATS node was cut off said (partitions).
	Health []ServiceHealth
	// Spread: a scale-up's spreading of calls.
	Spread *SpreadFigures
	// Notes: the fault's other figures, in words.
	Notes   []string
	replica int
	// affected: the encounter services on the node a partition cut off.
	affected []int
}

// Report is a run's figures and findings.
type Report struct {
	Plan     Plan
	Elapsed  time.Duration
	Load     *load.Round
	Baseline Availability
	Faults   []*Fault
	// Total: every command of the run.
	Total Availability
	// Examples: one message of each failed attempts' code.
	Examples map[string]string
	// EndedAfter: encounters the run left open, ended afterwards (to audit them).
	EndedAfter int
	Findings   *Findings
	Audited    int
	// AuditFailures: encounters `fray audit verify` did not find intact, and why.
	AuditFailures []string
	commands      []*Command
	// Reads: each encounter read through each encounter service after the run, against the log.
	Reads []ReplicaReads
	// Network: how the NATS nodes were placed; Skipped: the faults not injected, and why.
	Network string
	Skipped []string
}

// ReplicaReads is what one encounter service answered GetEncounter after the run, each
// encounter's state compared with its log: Behind, an older sequence than the log's last.
type ReplicaReads struct {
	Service      string
	Read, Behind int
	Failed       int
	Example      string
}

// Run plays fray load's fights through both encounter services of topo while it injects the
// plan's faults, then checks the log. logf, when set, hears of each step.
func Run(ctx context.Context, topo *Topology, plan Plan, logf func(string, ...any)) (*Report, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rec := &Recorder{}
	dial := func(subject string) (*Spread, error) {
		s := &Spread{Policy: plan.Policy, Rec: rec, Sticky: plan.Sticky, Subject: subject}
		for _, e := range topo.Encounters {
			src := &auth.MintedToken{Signer: topo.Signer, Claims: auth.DevClaims(auth.DevTenant, subject, auth.DevTokenTTL)}
			// Dial a restarted service again within 250 ms (gRPC's default backoff starts at 1 s
			// and grows to 2 min): the recovery measured is the service's, not the client's.
			cc, err := grpc.NewClient(e.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithPerRPCCredentials(auth.PerRPCToken(src, "", false)),
				grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 50 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 250 * time.Millisecond}, MinConnectTimeout: time.Second}))
			if err != nil {
				return nil, err
			}
			s.Conns = append(s.Conns, cc)
			s.closers = append(s.closers, cc)
		}
		return s, nil
	}
	gm, err := dial(load.GMSubject)
	if err != nil {
		return nil, err
	}
	defer gm.Close()
	player, err := dial(load.PlayerSubject)
	if err != nil {
		return nil, err
	}
	defer player.Close()

	rep := &Report{Plan: plan}
	start := time.Now()
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	var round *load.Round
	var loadErr error
	var loadDone sync.WaitGroup
	loadDone.Add(1)
	go func() {
		defer loadDone.Done()
		round, loadErr = load.Run(loadCtx, load.Config{GM: gm, Player: player, Encounters: plan.Encounters, Duration: 24 * time.Hour})
	}()
	stop := func() { stopLoad(); loadDone.Wait() }

	logf("load: %d encounters through %s and %s; baseline for %v", plan.Encounters, topo.Encounters[0].addr, topo.Encounters[1].addr, plan.Warmup)
	if err := sleep(ctx, plan.Warmup); err != nil {
		stop()
		return nil, err
	}
	rep.Baseline.From, rep.Baseline.To = start, time.Now()

	var steps []func() (*Fault, error)
	for i := range plan.NATSKills {
		steps = append(steps, func() (*Fault, error) { return killNATS(ctx, topo, rec, plan, i%2 == 0) })
	}
	for i := range 2 * plan.ReplicaKills {
		steps = append(steps, func() (*Fault, error) { return killReplica(ctx, topo, rec, plan, i%2) })
	}
	for range plan.LeaderStops {
		steps = append(steps, func() (*Fault, error) { return stopLeader(ctx, topo, rec, plan) })
	}
	// The full plan's second NATS kill comes among the replica kills, not next to the first.
	if plan.NATSKills > 1 && plan.ReplicaKills > 0 {
		second := steps[1]
		steps = append(steps[:1], steps[2:]...)
		mid := 1 + plan.ReplicaKills
		steps = append(steps[:mid], append([]func() (*Fault, error){second}, steps[mid:]...)...)
	}
	rep.Network = "every NATS node on 127.0.0.1"
	if topo.Net != nil {
		rep.Network = topo.Net.Describe()
		for i := range max(plan.RoutePartitions, plan.FullPartitions) {
			// The first of each kind cuts off an encounter service's node (the first's, then
			// the second's), the next ones the stream's leader.
			routesOf, fullOf := -1, -1
			if i == 0 {
				routesOf, fullOf = 0, len(topo.Encounters)-1
			}
			if i < plan.RoutePartitions {
				steps = append(steps, func() (*Fault, error) { return partition(ctx, topo, rec, plan, false, routesOf) })
			}
			if i < plan.FullPartitions {
				steps = append(steps, func() (*Fault, error) { return partition(ctx, topo, rec, plan, true, fullOf) })
			}
		}
	} else if plan.RoutePartitions+plan.FullPartitions > 0 {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("%d partitions of a NATS node (routes only, full) SKIPPED: %s", plan.RoutePartitions+plan.FullPartitions, topo.NetUnavailable))
		logf("SKIPPED: the partitions of a NATS node: %s", topo.NetUnavailable)
	}
	for range plan.RollingRestarts {
		steps = append(steps, func() (*Fault, error) { return rollingRestart(ctx, topo, rec, plan) })
	}
	// The scale-up before the resolver kills: a kill has the clients resolve the name again,
	// and gRPC resolves it at most every 30 s — a scale-up right after would be found late
	// through no fault of the servers.
	for range plan.ScaleUps {
		steps = append(steps, func() (*Fault, error) { return scaleUp(ctx, topo, plan) })
	}
	for i := range plan.ResolverKills {
		steps = append(steps, func() (*Fault, error) { return killResolver(ctx, topo, plan, i%len(topo.Resolvers)) })
	}
	for i, step := range steps {
		f, err := step()
		if err != nil {
			stop()
			return nil, fmt.Errorf("fault %d: %w", i+1, err)
		}
		rep.Faults = append(rep.Faults, f)
		back := "never"
		if !f.Back.IsZero() {
			back = f.Back.Sub(f.End).Round(time.Millisecond).String()
		}
		logf("fault %d/%d: %s %s: down %v, back after %s%s", i+1, len(steps), f.Kind, f.Target, f.End.Sub(f.Start).Round(time.Millisecond),
			back, problem(f.Problem))
		if err := sleep(ctx, plan.Settle); err != nil {
			stop()
			return nil, err
		}
	}
	stop()
	end := time.Now()
	if loadErr != nil {
		return nil, fmt.Errorf("load: %w", loadErr)
	}
	rep.Load = round
	logf("load stopped after %v: %d commands", end.Sub(start).Round(time.Millisecond), round.Commands.Count)

	// Every encounter is ended (its seed revealed) so that it can be audited.
	log, err := readLog(ctx, topo, plan.RecoverWithin)
	if err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	gmc := encounterv1.NewEncounterServiceClient(gm)
	for _, id := range log.Encounters() {
		if log.Ended(id) {
			continue
		}
		if _, err := gmc.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, CommandId: newID(), Reason: "fault run over"}); err != nil {
			return nil, fmt.Errorf("end %s after the run: %w", id, err)
		}
		rep.EndedAfter++
	}
	if log, err = readLog(ctx, topo, plan.RecoverWithin); err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	cmds := rec.Commands()
	rep.Findings = Check(log, cmds)
	rep.commands = cmds
	audits := AuditAll(ctx, log, 2, func(ctx context.Context, id string) (string, error) {
		var out, errOut bytes.Buffer
		args := []string{"audit", "verify", id, "--nats-url", topo.NATSURL(), "--nats-user", natsconn.AuditorUser, "--nats-password", topo.Users.Auditor}
		if code := commands.Run(ctx, args, &out, &errOut); code != 0 {
			return out.String(), fmt.Errorf("fray audit verify exited %d: %s", code, strings.TrimSpace(errOut.String()))
		}
		return out.String(), nil
	})
	rep.Reads = readBack(ctx, topo, gm, log)
	for _, a := range audits {
		rep.Audited++
		if a.Err != nil || !strings.HasPrefix(a.Output, "intact:") {
			rep.AuditFailures = append(rep.AuditFailures, fmt.Sprintf("%s: %v %s", a.Encounter, a.Err, strings.TrimSpace(a.Output)))
		}
	}

	// The figures, from what the clients recorded.
	rep.Elapsed = end.Sub(start)
	// A window ends an attempt's time before the next fault begins: no call it counts was
	// caught by the next fault.
	before := func(t, from time.Time) time.Time {
		if u := t.Add(-plan.Policy.Attempt); u.After(from) {
			return u
		}
		return t
	}
	if len(rep.Faults) > 0 {
		rep.Baseline.To = before(rep.Faults[0].Start, rep.Baseline.From)
	}
	rep.Baseline = availability(cmds, rep.Baseline.From, rep.Baseline.To)
	for i, f := range rep.Faults {
		until := end
		if i+1 < len(rep.Faults) {
			until = before(rep.Faults[i+1].Start, f.End)
		}
		f.Window = availability(cmds, f.Start, f.End)
		f.After = availability(cmds, f.End, until)
		healthDuring(topo, f, until)
		if f.Window.Attempts == 0 {
			f.Notes = append(f.Notes, stalled(cmds, f.Start, f.End))
		}
		f.Outage = outage(cmds, f.Start, until)
		f.Recovered, f.RecoveredVia = -1, -1
		if t := firstAfter(cmds, f.End, -1); !t.IsZero() && t.Before(until) {
			f.Recovered = t.Sub(f.End)
		}
		if f.replica >= 0 {
			if t := firstAfter(cmds, f.End, f.replica); !t.IsZero() && t.Before(until) {
				f.RecoveredVia = t.Sub(f.End)
			}
		}
	}
	rep.Total = availability(cmds, start, end.Add(time.Hour))
	rep.Examples = map[string]string{}
	for _, c := range cmds {
		for _, a := range c.Attempts {
			if a.Code != 0 {
				rep.Examples[a.Code.String()] = a.Message
			}
		}
	}
	return rep, nil
}

// stalled says, of a window in which no call began, what the clients were doing: the
// attempts under way at its start, and the longest of them.
func stalled(cmds []*Command, from, to time.Time) string {
	n, cmdsUnderway := 0, 0
	var longest time.Duration
	var what string
	for _, c := range cmds {
		if c.Start.Before(to) && c.End.After(from) {
			cmdsUnderway++
		}
		for _, a := range c.Attempts {
			if a.Start.Before(from) && a.End.After(from) {
				n++
				if d := a.End.Sub(a.Start); d > longest {
					longest, what = d, fmt.Sprintf("%s %s through %d, %v", short(c.Method), c.CommandID, a.Replica, a.Code)
				}
			}
		}
	}
	return fmt.Sprintf("no call began during the fault: %d commands under way, %d attempts under way at its start, the longest %s (%s)", cmdsUnderway, n, dur(longest), what)
}

// readLog reads the log, again while JetStream answers that it is unavailable (a meta leader
// being elected after the last fault), for up to within.
func readLog(ctx context.Context, topo *Topology, within time.Duration) (Log, error) {
	deadline := time.Now().Add(within)
	for {
		log, err := ReadLog(ctx, topo.js, StreamName)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return log, err
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// readBack reads every encounter through each encounter service, as the GM, and compares its
// sequence with the log's.
func readBack(ctx context.Context, topo *Topology, gm *Spread, log Log) []ReplicaReads {
	var out []ReplicaReads
	for i, cc := range gm.Conns {
		rr := ReplicaReads{Service: topo.Encounters[i].name}
		c := encounterv1.NewEncounterServiceClient(cc)
		for _, id := range log.Encounters() {
			recs := log[id]
			evs := recs[len(recs)-1].Batch.GetEvents()
			last := evs[len(evs)-1].GetSequence()
			rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			r, err := c.GetEncounter(rctx, &encounterv1.GetEncounterRequest{EncounterId: id})
			cancel()
			rr.Read++
			switch {
			case err != nil:
				rr.Failed++
				rr.Example = fmt.Sprintf("%s: %v", id, err)
			case r.GetState().GetSequence() < last:
				rr.Behind++
				rr.Example = fmt.Sprintf("%s at sequence %d, the log at %d", id, r.GetState().GetSequence(), last)
			}
		}
		out = append(out, rr)
	}
	return out
}

func problem(p string) string {
	if p == "" {
		return ""
	}
	return " — " + p
}

// Close closes the connections of the spread.
func (s *Spread) Close() {
	for _, c := range s.closers {
		_ = c.Close()
	}
}

// waitSuccess waits until a call begun at or after t has succeeded (through replica, if >= 0).
func waitSuccess(ctx context.Context, rec *Recorder, t time.Time, replica int, within time.Duration) error {
	deadline := time.Now().Add(within)
	for !rec.succeededSince(t, replica) {
		if time.Now().After(deadline) {
			return fmt.Errorf("no call succeeded within %v", within)
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// killNATS kills -9 the stream's leader (or a follower), waits, starts it again, and waits
// until a command succeeds and every replica of the stream is current.
func killNATS(ctx context.Context, topo *Topology, rec *Recorder, plan Plan, leader bool) (*Fault, error) {
	l, err := topo.leader(ctx)
	if err != nil {
		return nil, err
	}
	target := l
	if !leader {
		for _, n := range topo.NATS {
			if n != l {
				target = n
				break
			}
		}
	}
	f := &Fault{Kind: "kill -9 NATS node", Target: target.name, LeaderBefore: l.name, replica: -1}
	if target == l {
		f.Target += " (the stream's leader)"
	} else {
		f.Target += " (a follower)"
	}
	f.Start = time.Now()
	if err := target.kill(); err != nil {
		return nil, err
	}
	if err := sleep(ctx, plan.NATSDown); err != nil {
		return nil, err
	}
	if err := target.start(); err != nil {
		return nil, err
	}
	f.End = time.Now()
	recovered(ctx, topo, rec, plan, f)
	return f, nil
}

// killReplica kills -9 encounter service i, waits, starts it again, and waits until it is
// SERVING and a command through it succeeds.
func killReplica(ctx context.Context, topo *Topology, rec *Recorder, plan Plan, i int) (*Fault, error) {
	s := topo.Encounters[i]
	f := &Fault{Kind: "kill -9 encounter service", Target: s.name, replica: i}
	f.Start = time.Now()
	if err := s.kill(); err != nil {
		return nil, err
	}
	if err := sleep(ctx, plan.ReplicaDown); err != nil {
		return nil, err
	}
	if err := s.start(); err != nil {
		return nil, err
	}
	f.End = time.Now()
	back, err := topo.waitServing(ctx, s, plan.RecoverWithin)
	if err != nil {
		f.Problem = err.Error()
	}
	f.Back = back
	if err := waitSuccess(ctx, rec, f.End, i, plan.RecoverWithin); err != nil {
		f.Problem += fmt.Sprintf("nothing through %s: %v", s.name, err)
	}
	return f, nil
}

// stopLeader freezes the stream's leader (SIGSTOP), then continues it.
func stopLeader(ctx context.Context, topo *Topology, rec *Recorder, plan Plan) (*Fault, error) {
	l, err := topo.leader(ctx)
	if err != nil {
		return nil, err
	}
	f := &Fault{Kind: "SIGSTOP stream leader", Target: l.name, LeaderBefore: l.name, replica: -1}
	f.Start = time.Now()
	if err := l.signal(syscall.SIGSTOP); err != nil {
		return nil, err
	}
	serr := sleep(ctx, plan.LeaderStop)
	if err := l.signal(syscall.SIGCONT); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	f.End = time.Now()
	recovered(ctx, topo, rec, plan, f)
	return f, nil
}

// recovered waits for a success after a NATS fault and for the stream's replicas, and notes
// the leader.
func recovered(ctx context.Context, topo *Topology, rec *Recorder, plan Plan, f *Fault) {
	var problems []string
	if err := waitSuccess(ctx, rec, f.End, -1, plan.RecoverWithin); err != nil {
		problems = append(problems, err.Error())
	}
	back, err := topo.waitCurrent(ctx, plan.RecoverWithin)
	if err != nil {
		problems = append(problems, err.Error())
	}
	f.Back = back
	if l, err := topo.leader(ctx); err == nil {
		f.LeaderAfter = l.name
	}
	f.Problem = strings.Join(problems, "; ")
}
