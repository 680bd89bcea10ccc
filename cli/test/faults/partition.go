//go:build unix

package faults

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// ServiceHealth is what one encounter service's gRPC health said during a fault that cut off
// the NATS node it was connected to.
type ServiceHealth struct {
	Service string
	// NotServing: from the fault's start to the first NOT_SERVING; negative when never during
	// the fault. Serving: from the fault's start to SERVING again after that (it reconnected
	// to another node, or the partition healed); negative when never until the next fault.
	NotServing, Serving time.Duration
}

// nodeOf is the NATS node encounter service s is connected to now, or nil.
func (t *Topology) nodeOf(s *service) *natsNode {
	var addrs []string
	for _, n := range t.NATS {
		addrs = append(addrs, n.clientAddr)
	}
	i, err := connectedTo(s.pid(), addrs)
	if err != nil || i < 0 {
		return nil
	}
	return t.NATS[i]
}

// partitionTarget picks the node to cut off: the node of encounter service `of` (so that a
// service's readiness is put to the test), or the stream's leader when of < 0 or that service
// is on no node.
func partitionTarget(ctx context.Context, topo *Topology, of int) (*natsNode, *natsNode, error) {
	l, err := topo.leader(ctx)
	if err != nil {
		return nil, nil, err
	}
	if of >= 0 {
		if n := topo.nodeOf(topo.Encounters[of]); n != nil {
			return n, l, nil
		}
	}
	return l, l, nil
}

// partition cuts a NATS node off for plan.PartitionFor — from its peers only (routes: it
// still serves its clients, who find JetStream unanswering), or from everyone (full) — then
// heals it and waits as after any NATS fault. It notes what each encounter service connected
// to that node said of its health.
func partition(ctx context.Context, topo *Topology, rec *Recorder, plan Plan, full bool, of int) (*Fault, error) {
	target, l, err := partitionTarget(ctx, topo, of)
	if err != nil {
		return nil, err
	}
	idx := -1
	for i, n := range topo.NATS {
		if n == target {
			idx = i
		}
	}
	kind, cut := "partition (routes only) of NATS node", topo.Net.CutRoutes
	if full {
		kind, cut = "partition (full) of NATS node", topo.Net.CutAll
	}
	f := &Fault{Kind: kind, Target: target.name, LeaderBefore: l.name, replica: -1}
	var on []string
	for i, s := range topo.Encounters {
		if topo.nodeOf(s) == target {
			f.affected = append(f.affected, i)
			on = append(on, s.name)
		}
	}
	if target == l {
		f.Target += " (the stream's leader)"
	}
	if len(on) > 0 {
		f.Target += " (the node of " + strings.Join(on, " and ") + ")"
	}
	f.Start = time.Now()
	if err := cut(ctx, idx); err != nil {
		_ = topo.Net.Heal(context.WithoutCancel(ctx), idx)
		return nil, err
	}
	serr := sleep(ctx, plan.PartitionFor)
	if err := topo.Net.Heal(context.WithoutCancel(ctx), idx); err != nil {
		return nil, fmt.Errorf("heal the partition of %s: %w", target.name, err)
	}
	if serr != nil {
		return nil, serr
	}
	f.End = time.Now()
	recovered(ctx, topo, rec, plan, f)
	return f, nil
}

// healthDuring fills f.Health from the monitors: for each encounter service the fault cut
// off, when it said NOT_SERVING and when SERVING again, until until.
func healthDuring(topo *Topology, f *Fault, until time.Time) {
	for _, i := range f.affected {
		log := topo.Health[i].Changes()
		h := ServiceHealth{Service: topo.Encounters[i].name, NotServing: -1, Serving: -1}
		if ns := firstStatus(log, "NOT_SERVING", f.Start, f.End); !ns.IsZero() {
			h.NotServing = ns.Sub(f.Start)
			if back := firstStatus(log, "SERVING", ns, until); !back.IsZero() {
				h.Serving = back.Sub(f.Start)
			}
		}
		f.Health = append(f.Health, h)
	}
}
