package encounter

import (
	"context"
	"log/slog"
	"time"

	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/nats-io/nats.go"
)

// The event log's readiness follows JetStream itself, not only the NATS connection: a NATS
// node cut off from its peers still takes its clients' connections while every JetStream
// call through it fails (issue 22: "healthy" while unable to write, throughput down from
// ~290 to ~20 commands/s, for the whole partition). So the stream's leader is asked on an
// interval (store.JetStream.Check); the service is NOT_SERVING while it does not answer or
// has no quorum, and after reconnectAfter failures in a row the connection moves to another
// NATS node of its pool, at most once per reconnectGap.

const (
	// DefaultJetStreamCheckEvery is how often the event stream's leader is asked.
	DefaultJetStreamCheckEvery = time.Second
	// reconnectAfter is how many failed checks in a row move the connection to another node.
	reconnectAfter = 3
	// reconnectGap spaces those moves (a cluster electing a leader fails every node's checks).
	reconnectGap = 15 * time.Second
)

// checker is what logHealth asks: store.JetStream.Check.
type checker interface {
	Check(ctx context.Context) error
}

type logHealth struct {
	log     checker
	nc      *nats.Conn
	ready   *server.Readiness
	every   time.Duration
	timeout time.Duration
	logger  *slog.Logger

	failed int       // checks failed in a row
	moved  time.Time // the connection's last move to another node
}

func newLogHealth(log checker, nc *nats.Conn, ready *server.Readiness, every time.Duration, logger *slog.Logger) *logHealth {
	if every <= 0 {
		every = DefaultJetStreamCheckEvery
	}
	return &logHealth{log: log, nc: nc, ready: ready, every: every, timeout: max(every, 2*time.Second), logger: logger}
}

// run checks every h.every until ctx ends.
func (h *logHealth) run(ctx context.Context) {
	t := time.NewTicker(h.every)
	defer t.Stop()
	for {
		h.check(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (h *logHealth) check(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	err := h.log.Check(cctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	if err == nil {
		if h.failed > 0 {
			h.logger.Info("JetStream answers again", "after_failed_checks", h.failed, "nats", h.nc.ConnectedServerName())
		}
		h.failed = 0
		h.ready.Ready()
		return
	}
	h.failed++
	h.ready.NotReady("JetStream does not answer through NATS node " + h.nc.ConnectedServerName() + ": " + err.Error())
	if h.failed == 1 {
		h.logger.Warn("JetStream does not answer: not serving", "nats", h.nc.ConnectedServerName(), "err", err)
	}
	if h.failed >= reconnectAfter && time.Since(h.moved) >= reconnectGap && h.nc.IsConnected() {
		h.moved = time.Now()
		h.logger.Warn("JetStream has not answered through this NATS node for several checks: moving to another node",
			"nats", h.nc.ConnectedServerName(), "failed_checks", h.failed)
		if err := h.nc.ForceReconnect(); err != nil {
			h.logger.Warn("could not move to another NATS node", "err", err)
		}
	}
}
