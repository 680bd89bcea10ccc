package encounter_test

import (
	"context"
	"encoding/hex"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// clock is a time a test sets: the services' Now, stamped on events and read by the sweep.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// serveService is serve that also returns the Service, to sweep it.
func serveService(t *testing.T, b backend, opts encounter.Options) (encounterv1.EncounterServiceClient, *encounter.Service) {
	t.Helper()
	if opts.Log == nil {
		opts.Log = telemetry.NewLogger("text", "error")
	}
	svc := encounter.New(b, b, encounter.LocalDecider{Registry: systems.Registry()}, systems.Registry(), opts)
	srv := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	encounter.Register(srv.GRPC, svc)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return encounterv1.NewEncounterServiceClient(cc), svc
}

func exportLog(t *testing.T, c encounterv1.EncounterServiceClient, ctx context.Context, id string) []*encounterv1.Event {
	t.Helper()
	exp, err := c.ExportLog(ctx, &encounterv1.ExportLogRequest{EncounterId: id, Language: "en"})
	require.NoError(t, err)
	var events []*encounterv1.Event
	for {
		r, err := exp.Recv()
		if err == io.EOF {
			return events
		}
		require.NoError(t, err)
		events = append(events, r.GetEvent())
	}
}

func retryInfo(err error) *errdetails.RetryInfo {
	for _, d := range status.Convert(err).Details() {
		if r, ok := d.(*errdetails.RetryInfo); ok {
			return r
		}
	}
	return nil
}

func newEncounter(t *testing.T, c encounterv1.EncounterServiceClient, name string) (string, error) {
	t.Helper()
	resp, err := c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
	return resp.GetEncounterId(), err
}

// An encounter that records no event for IdleEnd is ended by the sweep: an EncounterEnded of
// the service's own actor, its idle set, the seed revealed (and the audit verifies every roll
// with it) and deleted from the seed bucket; the tenant's count goes down, so a create refused
// at the cap succeeds; an encounter that recorded an event since is kept. The refusal at the
// cap says how to get out, and carries a RetryInfo once an idle end is near.
func TestIdleEncountersEndByThemselves(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := open()
			clk := newClock()
			c, svc := serveService(t, b, encounter.Options{Now: clk.Now, MaxOpenEncounters: 2, IdleEnd: 720 * time.Hour, IdleSweepEvery: time.Minute})
			gm := as("gm")
			old, err := newEncounter(t, c, "Ruelle")
			require.NoError(t, err)
			for _, f := range []*encounterv1.Combatant{fighter("diego", "gm", 8, sword(4)), fighter("ruffian", "gm", 5, sword(3))} {
				_, err := c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: old, Combatant: f})
				require.NoError(t, err)
			}
			_, err = c.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: old}) // rolls the first Tour's dice
			require.NoError(t, err)
			seed, err := b.Seed(ctx, old)
			require.NoError(t, err)

			clk.advance(10 * 24 * time.Hour)
			kept, err := newEncounter(t, c, "Taverne")
			require.NoError(t, err)

			// At the cap: refused, saying how to get out; no idle end is near: no RetryInfo.
			_, err = newEncounter(t, c, "Trop")
			requireCode(t, err, codes.ResourceExhausted, "end some of your open encounters with `fray end`", "open encounters idle for 720h end by themselves", "2 are open")
			require.Nil(t, retryInfo(err), "a wait of 20 days does not help")

			// Nothing is idle for 720h yet.
			n, err := svc.SweepIdle(ctx)
			require.NoError(t, err)
			require.Zero(t, n)

			// 30 days and an hour after the old one's last event (20 after the kept one's): the
			// refusal now says a wait helps, until the next sweep.
			clk.advance(20*24*time.Hour + time.Hour)
			_, err = newEncounter(t, c, "Trop")
			requireCode(t, err, codes.ResourceExhausted, "one ends for idleness within 1m0s")
			ri := retryInfo(err)
			require.NotNil(t, ri, "a wait helps: %v", err)
			require.Equal(t, time.Minute, ri.GetRetryDelay().AsDuration())

			n, err = svc.SweepIdle(ctx)
			require.NoError(t, err)
			require.Equal(t, 1, n, "the old encounter is ended")

			events := exportLog(t, c, gm, old)
			last := events[len(events)-1]
			end := last.GetEncounterEnded()
			require.NotNil(t, end, "the last event ends it: %v", last)
			require.Equal(t, engine.IdleActor, last.GetActor())
			require.Equal(t, 720*time.Hour, end.GetIdle().AsDuration())
			require.Equal(t, seed, end.GetSeed(), "the seed revealed")
			require.Equal(t, hex.EncodeToString(dice.Commitment(seed)), hex.EncodeToString(events[0].GetEncounterCreated().GetSeedSha256()))
			require.Equal(t, "idle-end-", last.GetCommandId()[:len("idle-end-")])
			rep, err := systems.Registry().Audit(events)
			require.NoError(t, err, "the audit verifies the log ended for idleness")
			require.Positive(t, rep.Rolls)
			_, err = b.Seed(ctx, old)
			require.ErrorIs(t, err, store.ErrNotFound, "the seed bucket no longer holds it")

			got, err := c.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: old, Language: "fr"})
			require.NoError(t, err)
			require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, got.GetState().GetStatus())
			require.Contains(t, got.GetNarration(), "Fin de la rencontre pour inactivité : aucun événement depuis 30 jours")
			_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: old, Command: attack("diego", "ruffian")})
			requireCode(t, err, codes.FailedPrecondition, "ended")

			// Room for one more; the kept one plays on.
			_, err = newEncounter(t, c, "Place")
			require.NoError(t, err, "the idle end made room")
			_, err = c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: kept, Combatant: fighter("diego", "gm", 8, sword(4))})
			require.NoError(t, err)
			n, err = svc.SweepIdle(ctx)
			require.NoError(t, err)
			require.Zero(t, n, "nothing else is idle")
		})
	}
}

// The log decides, not the index: an encounter whose summary in the index is behind (its last
// command written into the index later, IndexDelay) is not ended by another replica's sweep
// when its log shows a recent event.
func TestTheLogDecidesWhetherAnEncounterIsIdle(t *testing.T) {
	ctx := context.Background()
	b := store.NewMemory()
	clk := newClock()
	c, _ := serveService(t, b, encounter.Options{Now: clk.Now, IdleEnd: 48 * time.Hour, IndexDelay: time.Hour})
	id, err := newEncounter(t, c, "Ruelle")
	require.NoError(t, err)
	clk.advance(47 * time.Hour)
	// A command that changes only the sequence and the activity: written into the index an
	// hour later (never, in this test).
	_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("diego", "gm", 8, sword(4))})
	require.NoError(t, err)
	clk.advance(2 * time.Hour)
	sums, err := b.IdleEncounters(ctx, "", clk.Now().Add(-48*time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, sums, 1, "the index, behind, shows it idle")

	_, other := serveService(t, b, encounter.Options{Now: clk.Now, IdleEnd: 48 * time.Hour})
	n, err := other.SweepIdle(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "its log shows an event 2 hours ago")
	recs, err := b.Load(ctx, id, 0)
	require.NoError(t, err)
	require.Nil(t, recs[len(recs)-1].Batch.GetEvents()[0].GetEncounterEnded())
}

// Two replicas sweeping one store at once end each idle encounter once: one EncounterEnded per
// encounter, whichever replica recorded it, and the tenant's count at zero.
func TestRacingSweepersEndEachIdleEncounterOnce(t *testing.T) {
	for name, replicas := range map[string]func(t *testing.T) (backend, backend){
		"memory": func(*testing.T) (backend, backend) { m := store.NewMemory(); return m, m },
		"jetstream, as the encounter user": func(t *testing.T) (backend, backend) {
			nc := natstest.StartSecured(t).Encounter
			open := func() backend {
				js, err := store.Open(context.Background(), nc, store.Config{})
				require.NoError(t, err)
				return js
			}
			return open(), open() // two stores, each remembering only what it wrote
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b, replica := replicas(t)
			clk := newClock()
			opts := encounter.Options{Now: clk.Now, IdleEnd: time.Hour, IdleSweepBatch: 50}
			c, a := serveService(t, b, opts)
			_, other := serveService(t, replica, opts)
			const n = 12
			ids := map[string]bool{}
			for range n {
				id, err := newEncounter(t, c, "Ruelle")
				require.NoError(t, err)
				ids[id] = true
			}
			clk.advance(2 * time.Hour)
			var wg sync.WaitGroup
			var ended [2]int
			var errs [2]error
			for i, svc := range []*encounter.Service{a, other} {
				wg.Go(func() { ended[i], errs[i] = svc.SweepIdle(ctx) })
			}
			wg.Wait()
			require.NoError(t, errs[0])
			require.NoError(t, errs[1])
			require.Equal(t, n, ended[0]+ended[1], "each encounter ended by one of them (%d and %d)", ended[0], ended[1])
			for id := range ids {
				recs, err := b.Load(ctx, id, 0)
				require.NoError(t, err)
				ends := 0
				for _, r := range recs {
					for _, ev := range r.Batch.GetEvents() {
						if ev.GetEncounterEnded() != nil {
							ends++
						}
					}
				}
				require.Equal(t, 1, ends, "encounter %s", id)
			}
			open, err := b.(store.OpenCounter).OpenEncounters(ctx, "dev")
			require.NoError(t, err)
			require.Zero(t, open)
		})
	}
}

// A tenant's administrator (fray:admin, its own tenant) lists the idle encounters and ends
// them, each recorded as the service's end for idleness with the administrator named; no one
// else may, nor for another tenant.
func TestAnAdministratorListsAndEndsIdleEncounters(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			b := open()
			clk := newClock()
			c, _ := serveService(t, b, encounter.Options{Now: clk.Now})
			stale, err := newEncounter(t, c, "Ruelle")
			require.NoError(t, err)
			clk.advance(3 * 24 * time.Hour)
			fresh, err := newEncounter(t, c, "Taverne")
			require.NoError(t, err)
			clk.advance(time.Hour)
			admin := authtest.As("ops", identity.ScopeAdmin)
			twoDays := durationpb.New(48 * time.Hour)

			_, err = c.ListIdleEncounters(as("gm"), &encounterv1.ListIdleEncountersRequest{Tenant: "dev"})
			requireCode(t, err, codes.PermissionDenied, `"fray:admin" scope`)
			_, err = c.EndIdleEncounters(as("gm"), &encounterv1.EndIdleEncountersRequest{Tenant: "dev", OlderThan: twoDays})
			requireCode(t, err, codes.PermissionDenied, `"fray:admin" scope`)
			_, err = c.ListIdleEncounters(admin, &encounterv1.ListIdleEncountersRequest{Tenant: "other"})
			requireCode(t, err, codes.PermissionDenied, `administers tenant "dev", not "other"`)
			_, err = c.ListIdleEncounters(admin, &encounterv1.ListIdleEncountersRequest{Tenant: "dev", Max: 5000})
			requireCode(t, err, codes.InvalidArgument, "max 5000")

			list, err := c.ListIdleEncounters(admin, &encounterv1.ListIdleEncountersRequest{Tenant: "dev", OlderThan: twoDays})
			require.NoError(t, err)
			require.Len(t, list.GetEncounters(), 1)
			require.Equal(t, stale, list.GetEncounters()[0].GetEncounterId())
			require.Equal(t, "dev/gm", list.GetEncounters()[0].GetGameMaster())
			require.EqualValues(t, 2, list.GetOpen())
			list, err = c.ListIdleEncounters(admin, &encounterv1.ListIdleEncountersRequest{Tenant: "dev", OlderThan: durationpb.New(time.Minute)})
			require.NoError(t, err)
			require.Len(t, list.GetEncounters(), 2, "both, the oldest first")
			require.Equal(t, []string{stale, fresh}, []string{list.GetEncounters()[0].GetEncounterId(), list.GetEncounters()[1].GetEncounterId()})
			list, err = c.ListIdleEncounters(admin, &encounterv1.ListIdleEncountersRequest{Tenant: "dev"})
			require.NoError(t, err)
			require.Empty(t, list.GetEncounters(), "none idle for the service's 720h")

			ended, err := c.EndIdleEncounters(admin, &encounterv1.EndIdleEncountersRequest{Tenant: "dev", OlderThan: twoDays})
			require.NoError(t, err)
			require.Len(t, ended.GetEnded(), 1)
			require.Equal(t, stale, ended.GetEnded()[0].GetEncounterId())
			require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, ended.GetEnded()[0].GetStatus())
			require.EqualValues(t, 1, ended.GetOpen())
			events := exportLog(t, c, as("gm"), stale)
			last := events[len(events)-1]
			require.Equal(t, engine.IdleActor, last.GetActor())
			require.Equal(t, "ended by dev/ops", last.GetEncounterEnded().GetReason())
			require.Equal(t, 48*time.Hour, last.GetEncounterEnded().GetIdle().AsDuration())
			_, err = systems.Registry().Audit(events)
			require.NoError(t, err)

			again, err := c.EndIdleEncounters(admin, &encounterv1.EndIdleEncountersRequest{Tenant: "dev", OlderThan: twoDays})
			require.NoError(t, err)
			require.Empty(t, again.GetEnded(), "nothing left idle for two days")
		})
	}
}

// A player's client may not end an encounter for idleness through Submit: the rules take an
// idle end only from the service's own actor.
func TestNoClientEndsForIdleness(t *testing.T) {
	c, _ := serveService(t, store.NewMemory(), encounter.Options{})
	id, err := newEncounter(t, c, "Ruelle")
	require.NoError(t, err)
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Idle: durationpb.New(time.Hour)}}}})
	requireCode(t, err, codes.PermissionDenied, "only the encounter service does")
	require.True(t, strings.Contains(status.Convert(err).Message(), "EndEncounter"))
}

// The encounters ended for idleness are counted (fray_encounter_idle_ended_total).
func TestIdleEndsAreCounted(t *testing.T) {
	clk := newClock()
	o := startObserved(t, encounter.Options{Now: clk.Now, IdleEnd: time.Hour}, nil)
	o.create(t, "Ruelle")
	require.Zero(t, o.scrape(t).Value(t, encounter.MetricIdleEnded))
	clk.advance(2 * time.Hour)
	n, err := o.svc.SweepIdle(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 1.0, o.scrape(t).Value(t, encounter.MetricIdleEnded))
}
