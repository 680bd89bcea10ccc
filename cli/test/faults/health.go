package faults

import (
	"context"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Unreachable is a health answer that never came (the service down, or not answering).
const Unreachable = "UNREACHABLE"

// healthEvery is how often the monitor asks: a NOT_SERVING lasting less may go unseen, and a
// time measured is late by up to this much.
const healthEvery = 100 * time.Millisecond

// HealthChange is one change of what an encounter service's gRPC health said.
type HealthChange struct {
	At     time.Time
	Status string // SERVING, NOT_SERVING, UNREACHABLE…
}

// HealthMonitor asks an encounter service's health (the gRPC health protocol, its service's
// name, as a load balancer or the kubelet does) every healthEvery for the whole run and keeps
// every change.
type HealthMonitor struct {
	addr string
	mu   sync.Mutex
	log  []HealthChange
	stop context.CancelFunc
	done chan struct{}
}

// watchHealth starts a monitor of the service at addr.
func watchHealth(addr string) (*HealthMonitor, error) {
	// Dial again within 50 ms of a refused connection: a restart is seen when it happens.
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 20 * time.Millisecond, Multiplier: 1.2, MaxDelay: 50 * time.Millisecond}, MinConnectTimeout: time.Second}))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &HealthMonitor{addr: addr, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		defer cc.Close()
		h := healthpb.NewHealthClient(cc)
		t := time.NewTicker(healthEvery)
		defer t.Stop()
		for {
			c, cancel := context.WithTimeout(ctx, time.Second)
			r, err := h.Check(c, &healthpb.HealthCheckRequest{Service: encounterv1.EncounterService_ServiceDesc.ServiceName})
			cancel()
			if ctx.Err() != nil {
				return
			}
			st := Unreachable
			if err == nil {
				st = r.GetStatus().String()
			}
			m.note(time.Now(), st)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return m, nil
}

func (m *HealthMonitor) note(at time.Time, st string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.log); n > 0 && m.log[n-1].Status == st {
		return
	}
	m.log = append(m.log, HealthChange{At: at, Status: st})
}

// Close stops the monitor.
func (m *HealthMonitor) Close() {
	m.stop()
	<-m.done
}

// Changes are the changes so far.
func (m *HealthMonitor) Changes() []HealthChange {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]HealthChange(nil), m.log...)
}

// firstStatus is when, at or after t and before until, the service first answered status
// (zero if it did not).
func firstStatus(log []HealthChange, status string, t, until time.Time) time.Time {
	if statusAt(log, t) == status {
		return t
	}
	for _, c := range log {
		if c.At.After(t) && c.At.Before(until) && c.Status == status {
			return c.At
		}
	}
	return time.Time{}
}

// statusAt is the status the service answered last at or before t ("" before the first).
func statusAt(log []HealthChange, t time.Time) string {
	st := ""
	for _, c := range log {
		if c.At.After(t) {
			break
		}
		st = c.Status
	}
	return st
}
