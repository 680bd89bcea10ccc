package server

import (
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Health is a server's gRPC health service (grpc.health.v1), answered on its main port and on
// the plaintext health port (ServeHealthOn). A service is SERVING while the server serves
// (between Serve and Shutdown) and every dependency it declared (Readiness) is ready; the
// server as a whole — the service "", what a probe naming no service asks — is SERVING only
// while every service is, so that such a probe fails as soon as one of them cannot serve.
type Health struct {
	hs  *health.Server
	log *slog.Logger

	mu       sync.Mutex
	serving  bool
	services map[string]struct{}
	// down holds, per service, the dependencies that are not ready and why.
	down map[string]map[string]string
	// was is the status last set per service, to log the changes only.
	was   map[string]healthpb.HealthCheckResponse_ServingStatus
	quiet bool
}

// LivenessService is the health service a liveness probe asks: SERVING whenever the process
// answers, whatever its dependencies and through its drain. A service that cannot reach NATS
// or the resolver is not ready, but restarting it would not bring them back; one that no
// longer answers a gRPC call at all is what a restart is for. It is no service of the
// server's: the server as a whole ("") does not wait for it.
const LivenessService = "liveness"

func newHealth(log *slog.Logger) *Health {
	h := &Health{hs: health.NewServer(), log: log, services: map[string]struct{}{},
		down: map[string]map[string]string{}, was: map[string]healthpb.HealthCheckResponse_ServingStatus{}}
	h.hs.SetServingStatus(LivenessService, healthpb.HealthCheckResponse_SERVING)
	h.mu.Lock()
	h.update()
	h.mu.Unlock()
	return h
}

// Readiness is one dependency of a service (a connection to NATS, to the resolver): while it
// is not ready, the service and the server as a whole answer NOT_SERVING. A new Readiness is
// ready; a service declares each of its dependencies once and feeds it as its state changes.
type Readiness struct {
	h                   *Health
	service, dependency string
}

// Readiness declares that service depends on dependency (a name for the logs: "nats",
// "resolver"). The service "" is the server itself.
func (h *Health) Readiness(service, dependency string) *Readiness {
	h.mu.Lock()
	defer h.mu.Unlock()
	if service != "" {
		h.services[service] = struct{}{}
	}
	h.update()
	return &Readiness{h: h, service: service, dependency: dependency}
}

// Ready marks the dependency ready.
func (r *Readiness) Ready() { r.h.set(r.service, r.dependency, "") }

// NotReady marks the dependency not ready, saying why (logged when the service's status
// changes).
func (r *Readiness) NotReady(why string) {
	if why == "" {
		why = "not ready"
	}
	r.h.set(r.service, r.dependency, why)
}

// SetServingStatus sets a service's own word on its status, as grpc's health.Server does: a
// dependency of the service named "status". The service is SERVING only if every other
// dependency is ready too, and the server as a whole only if every service is.
func (h *Health) SetServingStatus(service string, st healthpb.HealthCheckResponse_ServingStatus) {
	if service != "" {
		h.mu.Lock()
		h.services[service] = struct{}{}
		h.mu.Unlock()
	}
	if st == healthpb.HealthCheckResponse_SERVING {
		h.set(service, "status", "")
		return
	}
	h.set(service, "status", "set "+st.String())
}

// Status is the status the health service answers for service.
func (h *Health) Status(service string) healthpb.HealthCheckResponse_ServingStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st, ok := h.was[service]; ok {
		return st
	}
	return healthpb.HealthCheckResponse_SERVICE_UNKNOWN
}

func (h *Health) set(service, dependency, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if why == "" {
		delete(h.down[service], dependency)
	} else {
		if h.down[service] == nil {
			h.down[service] = map[string]string{}
		}
		h.down[service][dependency] = why
	}
	h.update()
}

// setServing is called by Serve (true) and Shutdown (false).
func (h *Health) setServing(serving bool, services []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.serving = serving
	for _, s := range services {
		h.services[s] = struct{}{}
	}
	h.quiet = true // the start and the stop are logged by Serve and Shutdown
	h.update()
	h.quiet = false
}

// update sets every status from the state; h.mu is held.
func (h *Health) update() {
	all := h.serving
	for _, s := range slices.Sorted(maps.Keys(h.services)) {
		ok := h.serving && len(h.down[s]) == 0
		all = all && ok
		h.put(s, ok)
	}
	h.put("", all && len(h.down[""]) == 0)
}

func (h *Health) put(service string, ok bool) {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if ok {
		st = healthpb.HealthCheckResponse_SERVING
	}
	before, known := h.was[service]
	h.was[service] = st
	h.hs.SetServingStatus(service, st)
	if !known || before == st || h.log == nil || h.quiet {
		return
	}
	if service == "" && len(h.down[""]) == 0 {
		return // a service's change, logged for that service
	}
	name := service
	if name == "" {
		name = "(the server)"
	}
	if ok {
		h.log.Info("health: serving again", "service", name)
		return
	}
	h.log.Warn("health: not serving", "service", name, "why", h.why(service))
}

// why says which dependencies of service are not ready and why; h.mu is held.
func (h *Health) why(service string) string {
	var parts []string
	for _, d := range slices.Sorted(maps.Keys(h.down[service])) {
		parts = append(parts, d+": "+h.down[service][d])
	}
	return strings.Join(parts, "; ")
}
