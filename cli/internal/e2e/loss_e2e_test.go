// Package e2e_test plays Les Chants de Loss worked examples through the real services: the
// resolver and the encounter service on loopback gRPC sockets, an embedded NATS JetStream
// server holding the log.
package e2e_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
)

func quietLog() *slog.Logger { return telemetry.NewLogger("text", "error") }

// serveOn runs srv on a fresh loopback listener until the test ends.
func serveOn(t *testing.T, srv *server.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return lis.Addr().String()
}

func dial(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return cc
}

// startResolver serves RulesService as its own server.
func startResolver(t *testing.T) string {
	srv := server.New(quietLog(), authtest.ServerOptions()...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	return serveOn(t, srv)
}

// startEncounter serves EncounterService against NATS, asking the resolver over gRPC; each
// call is a fresh process state (an empty cache).
func startEncounter(t *testing.T, natsURL, resolverAddr string, seed []byte) encounterv1.EncounterServiceClient {
	srv := server.New(quietLog(), authtest.ServerOptions()...)
	// The role matrix opens one encounter a cell, every one the same GM's: past the default
	// cap of encounters one principal may hold open (100).
	opts := encounter.Options{MaxOpenPerPrincipal: 10_000}
	if seed != nil {
		opts.NewSeed = func() []byte { return seed }
	}
	run, err := encounter.Start(context.Background(), encounter.Config{NATSURL: natsURL, ResolverAddr: resolverAddr, Log: quietLog(), Options: opts,
		ResolverToken: auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))}, srv, systems.Registry())
	require.NoError(t, err)
	t.Cleanup(run.Close)
	return encounterv1.NewEncounterServiceClient(dial(t, serveOn(t, srv)))
}

// seedFor finds a seed whose first d10s, drawn as the engine draws them, satisfy ok: the
// worked examples need exact faces, and fray rolls every die itself.
func seedFor(t *testing.T, n int, ok func(f []int32) bool) []byte {
	t.Helper()
	faces := make([]int32, n)
	for i := range 5_000_000 {
		sum := sha256.Sum256(fmt.Appendf(nil, "fray-e2e-%d", i))
		s, err := dice.NewStreamScheme(dice.Latest, sum[:], 0) // a new encounter's scheme
		require.NoError(t, err)
		for j := range faces {
			faces[j] = s.Roll(dice.D10(false)).GetFaces()[0]
		}
		if ok(faces) {
			return sum[:]
		}
	}
	t.Fatal("no seed gives the faces of the example")
	return nil
}

func in(f, lo, hi int32) bool { return f >= lo && f <= hi }

// Sheets of the examples.
func diego(fursa, courage int32) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "diego", Name: "Diego", Controller: "david", Side: "heroes", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:        lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER,
		Traits:      map[string]int32{"Puissance": 6, "Agilité": 5},
		Talents:     map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
		Initiative:  8,
		Weapons:     []*lossv1.Weapon{{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 4, Damage: 3}},
		Dodge:       &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Fursa:       fursa,
		Inspiration: map[string]int32{"Courage": courage},
	}}}
}

func ruffian(courage int32) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "ruffian", Name: "Le malfrat", Controller: "gm", Side: "villains", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:        lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
		Traits:      map[string]int32{"Agilité": 5, "Puissance": 5},
		Talents:     map[string]int32{"Esquive": 7, "Arme de mêlée": 5},
		Initiative:  6,
		Weapons:     []*lossv1.Weapon{{Name: "dague", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 3, Damage: 2}},
		Dodge:       &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Armour:      1,
		Inspiration: map[string]int32{"Courage": courage},
	}}}
}

func canahan() *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "canahan", Name: "Canahan", Controller: "florence", Side: "heroes", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:       lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER,
		Traits:     map[string]int32{"Puissance": 7, "Agilité": 6},
		Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 6},
		Initiative: 7,
		Weapons:    []*lossv1.Weapon{{Name: "claymore", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 6, Damage: 5}},
		Dodge:      &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
	}}}
}

func griffon(n int) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: fmt.Sprint("griffon-", n), Name: fmt.Sprint("Griffon ", n), Controller: "gm", Side: "beasts", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:            lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
		Traits:          map[string]int32{"Agilité": 6},
		Talents:         map[string]int32{"Combat naturel": 6, "Esquive": 4},
		Initiative:      5,
		InitiativeGroup: "griffons",
		Weapons:         []*lossv1.Weapon{{Name: "griffes", Kind: lossv1.WeaponKind_WEAPON_KIND_NATURAL, Attack: &lossv1.Score{Trait: "Agilité", Talent: "Combat naturel"}, Damage: 2}},
		Dodge:           &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
	}}}
}

// fight is one encounter played through the service, with everything the commands returned.
type fight struct {
	t       *testing.T
	c       encounterv1.EncounterServiceClient
	id      string
	events  []*encounterv1.Event
	watched chan []*encounterv1.Event
	// byPlayer marks the events (by index in events) as a player's command returned them:
	// without the dice positions, which only the GMs read (engine.View).
	byPlayer map[int]bool
}

// record adds the events a command of who returned.
func (f *fight) record(who string, evs []*encounterv1.Event) {
	if who != "gm" {
		if f.byPlayer == nil {
			f.byPlayer = map[int]bool{}
		}
		for i := range evs {
			f.byPlayer[len(f.events)+i] = true
		}
	}
	f.events = append(f.events, evs...)
}

// requireRecorded checks that the i-th event the commands returned is recorded, the one the
// GM reads: to a player, less the dice positions, of which it gets none.
func (f *fight) requireRecorded(i int, recorded *encounterv1.Event, msg string) {
	f.t.Helper()
	want := recorded
	if f.byPlayer[i] {
		require.Empty(f.t, enginetest.DicePositions(f.events[i]), "%s: a player gets no dice position", msg)
		want = proto.CloneOf(recorded)
		engine.WithholdDicePositions(want)
	}
	require.True(f.t, proto.Equal(want, f.events[i]), msg)
}

// as is a context whose calls carry a token of tenant dev for who.
func as(who string) context.Context { return authtest.As(who) }

// watchedFight creates an encounter of ruleSystem and watches it from its first event on, as
// its GM from another client: the watcher sees history, then every event live, and its stream
// ends with the encounter; what it saw arrives on f.watched.
func watchedFight(t *testing.T, c encounterv1.EncounterServiceClient, name, ruleSystem string) *fight {
	t.Helper()
	resp, err := c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: ruleSystem}})
	require.NoError(t, err)
	f := &fight{t: t, c: c, id: resp.GetEncounterId(), events: resp.GetEvents(), watched: make(chan []*encounterv1.Event, 1)}
	stream, err := c.WatchEncounter(as("gm"), &encounterv1.WatchEncounterRequest{EncounterId: f.id, FromSequence: 1})
	require.NoError(t, err)
	go func() {
		var got []*encounterv1.Event
		for {
			m, err := stream.Recv()
			if err != nil {
				f.watched <- got
				return
			}
			got = append(got, m.GetEvent())
		}
	}()
	return f
}

func newFight(t *testing.T, c encounterv1.EncounterServiceClient, name string, people ...*encounterv1.Combatant) *fight {
	f := watchedFight(t, c, name, "loss")
	for _, p := range people {
		r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: p})
		require.NoError(t, err)
		f.events = append(f.events, r.GetEvents()...)
	}
	r, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	f.events = append(f.events, r.GetEvents()...)
	return f
}

func (f *fight) submit(who string, a *lossv1.Action) []*lossv1.Event {
	f.t.Helper()
	r, err := f.c.Submit(as(who), &encounterv1.SubmitRequest{EncounterId: f.id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}})
	require.NoError(f.t, err)
	f.record(who, r.GetEvents())
	var out []*lossv1.Event
	for _, ev := range r.GetEvents() {
		out = append(out, ev.GetLoss())
	}
	return out
}

func attack(who, target, weapon string, exploits int, spend *lossv1.Spend) *lossv1.Action {
	a := &lossv1.Attack{TargetId: target, Weapon: weapon, Spend: spend}
	for range exploits {
		a.Exploits = append(a.Exploits, lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE)
	}
	return &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Attack{Attack: a}}
}

func react(who string, r lossv1.Reaction, exploits int32, spend *lossv1.Spend) *lossv1.Action {
	return &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: r, Exploits: exploits, Spend: spend}}}
}

func (f *fight) state() *encounterv1.GetEncounterResponse {
	f.t.Helper()
	r, err := f.c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: f.id})
	require.NoError(f.t, err)
	return r
}

func (f *fight) pa(id string) int32 {
	return f.state().GetState().GetLoss().GetCombatants()[id].GetActionPoints()
}

// finish ends the encounter, then checks the watch, the revealed seed and a rebuild from
// JetStream alone.
func (f *fight) finish(seed []byte, natsURL, resolverAddr string) {
	t := f.t
	before := f.state()
	end, err := f.c.EndEncounter(as("gm"), &encounterv1.EndEncounterRequest{EncounterId: f.id, Reason: "example played"})
	require.NoError(t, err)
	f.events = append(f.events, end.GetEvents()...)

	// The watcher saw every event, in order, exactly as the commands returned them.
	watched := <-f.watched
	require.Len(t, watched, len(f.events))
	for i, ev := range watched {
		require.Equal(t, uint64(i+1), ev.GetSequence())
		f.requireRecorded(i, ev, fmt.Sprintf("event %d differs on the watch", i+1))
	}

	// Rebuild from JetStream alone: a new connection, a fresh registry, nothing cached.
	nc, err := nats.Connect(natsURL)
	require.NoError(t, err)
	defer nc.Close()
	log, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	recs, err := log.Load(context.Background(), f.id, 0)
	require.NoError(t, err)
	var replayed []*encounterv1.Event
	for _, r := range recs {
		replayed = append(replayed, r.Batch.GetEvents()...)
	}
	require.Len(t, replayed, len(f.events))

	// The seed is revealed, matches the commitment, and re-derives every roll of the log
	// (the recorded one: what the GM reads lacks what never leaves the server, such as the
	// rolls of a Ka shuffle).
	revealed := end.GetEvents()[0].GetEncounterEnded().GetSeed()
	require.Equal(t, seed, revealed)
	require.Equal(t, f.events[0].GetEncounterCreated().GetSeedSha256(), dice.Commitment(revealed))
	var rolls []*dicev1.Roll
	for _, ev := range replayed {
		rolls = append(rolls, engine.Rolls(ev)...)
	}
	require.NotEmpty(t, rolls)
	for _, r := range rolls {
		require.NoError(t, dice.Verify(revealed, r))
	}
	// The whole log audits: every roll re-derived, every command decided again (issue 4).
	rep, err := systems.Registry().Audit(replayed)
	require.NoError(t, err)
	require.Equal(t, len(replayed), rep.Events)
	require.Equal(t, len(rolls), rep.Rolls)
	tampered := proto.CloneOf(rolls[len(rolls)-1])
	tampered.Faces[0] = tampered.Faces[0]%10 + 1
	require.Error(t, dice.Verify(revealed, tampered), "a changed face is caught")

	rebuilt, err := systems.Registry().Fold(replayed)
	require.NoError(t, err)
	// The GM reads the state as the GM sees it (appearances filled in, nothing that never
	// leaves the server): the same view of the rebuilt state, byte for byte.
	live := f.state()
	rebuilt = systems.Registry().View(rebuilt, engine.Viewer{SeesAll: true})
	marshal := proto.MarshalOptions{Deterministic: true}
	want, err := marshal.Marshal(live.GetState())
	require.NoError(t, err)
	got, err := marshal.Marshal(rebuilt)
	require.NoError(t, err)
	require.Equal(t, want, got, "the rebuilt state is byte-identical")
	require.Equal(t, live.GetStateSha256(), engine.Hash(rebuilt))
	require.NotEqual(t, before.GetStateSha256(), live.GetStateSha256())

	// A fresh encounter service (a new process state) loads the same state from the log.
	fresh := startEncounter(t, natsURL, resolverAddr, nil)
	r, err := fresh.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	require.Equal(t, live.GetStateSha256(), r.GetStateSha256())
	// And the state as of any earlier sequence, e.g. before the end.
	r, err = fresh.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: f.id, AtSequence: before.GetState().GetSequence()})
	require.NoError(t, err)
	require.Equal(t, before.GetStateSha256(), r.GetStateSha256())
}

func TestLossWorkedExamplesOverGRPC(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)

	t.Run("LOS-T01 attack dodged with an Exploit", func(t *testing.T) {
		// Initiative: Diego first; then Diego's attack d10 8, the ruffian's dodge d10 9.
		seed := seedFor(t, 4, func(f []int32) bool { return 8+f[0] > 6+f[1] && f[2] == 8 && f[3] == 9 })
		c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
		f := newFight(t, c, "Ruelle sombre", diego(0, 0), ruffian(0))
		ruffianPA := f.pa("ruffian")

		// David (Diego's player) attacks: 6 + 6 + 8 = 20 ≥ 15 (LOS-001, LOS-010, LOS-011).
		evs := f.submit("david", attack("diego", "ruffian", "épée", 0, nil))
		ar := evs[0].GetAttackRolled()
		require.Equal(t, []int32{8}, ar.GetTest().GetRoll().GetFaces())
		require.Equal(t, int32(20), ar.GetTest().GetTotal())
		require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
		require.True(t, ar.GetTest().GetSuccess())
		require.True(t, ar.GetDefencePossible())
		st := f.state().GetState()
		require.Equal(t, "ruffian", st.GetPending()[0].GetCombatantId(), "the ruffian must answer (LOS-009)")

		// Another client — the GM, who controls the ruffian — answers: a dodge with 1 Exploit,
		// Difficulty 20; 5 + 7 + 9 = 21: the attack fails (LOS-012, LOS-013).
		evs = f.submit("gm", react("ruffian", lossv1.Reaction_REACTION_DODGE, 1, nil))
		dr := evs[0].GetDefenceRolled()
		require.Equal(t, int32(21), dr.GetTest().GetTotal())
		require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
		require.True(t, dr.GetTest().GetSuccess())
		require.False(t, evs[1].GetAttackResolved().GetHit())
		cs := f.state().GetState().GetLoss().GetCombatants()["ruffian"]
		require.Equal(t, int32(5), cs.GetNextActionBonus(), "the Exploit becomes +5 on his next action (LOS-016)")
		require.Equal(t, ruffianPA-1, cs.GetActionPoints(), "a dodge costs 1 PA (LOS-036)")
		f.finish(seed, ns.ClientURL(), resolverAddr)
	})

	t.Run("LOS-T02 three Exploits, Fursa and Inspiration, partial defence", func(t *testing.T) {
		seed := seedFor(t, 4, func(f []int32) bool { return 8+f[0] > 6+f[1] && f[2] == 7 && f[3] == 4 })
		c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
		f := newFight(t, c, "Ruelle, suite", diego(2, 1), ruffian(1))
		// 3 Exploits: Difficulty 30; 12 + 7 + 2 Fursa (+10) + 1 Inspiration (+5) = 34.
		evs := f.submit("david", attack("diego", "ruffian", "épée", 3, &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}))
		ar := evs[0].GetAttackRolled()
		require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
		require.Equal(t, int32(34), ar.GetTest().GetTotal())
		require.True(t, ar.GetTest().GetSuccess())
		// The ruffian spends his Inspiration: 12 + 4 + 5 = 21 < 30, but ≥ 20 cancels 1 Exploit.
		evs = f.submit("gm", react("ruffian", lossv1.Reaction_REACTION_DODGE, 0, &lossv1.Spend{Inspiration: map[string]int32{"Courage": 1}}))
		dr := evs[0].GetDefenceRolled()
		require.Equal(t, int32(21), dr.GetTest().GetTotal())
		require.False(t, dr.GetTest().GetSuccess())
		require.Equal(t, int32(1), dr.GetExploitsCancelled())
		res := evs[1].GetAttackResolved()
		require.True(t, res.GetHit())
		require.Equal(t, int32(2), res.GetExploitsStanding())
		// Damage: épée 3 + 3d10 (1d10 + two extra-damage Exploits); armour 1.
		d := res.GetDamage()
		require.Equal(t, "3d10", d.GetRoll().GetExpression())
		require.Len(t, d.GetRoll().GetFaces(), 3)
		sum := d.GetRoll().GetFaces()[0] + d.GetRoll().GetFaces()[1] + d.GetRoll().GetFaces()[2]
		require.Equal(t, sum+3, d.GetTotal())
		require.Equal(t, sum+3-1, d.GetLevelsLost())
		st := f.state().GetState().GetLoss()
		require.Equal(t, int32(0), st.GetCombatants()["diego"].GetFursa())
		require.Equal(t, int32(0), st.GetCombatants()["diego"].GetInspiration()["Courage"])
		require.Equal(t, int32(0), st.GetCombatants()["ruffian"].GetInspiration()["Courage"])
		lost := sum + 2
		require.Equal(t, 15-lost, st.GetCombatants()["ruffian"].GetLight()+st.GetCombatants()["ruffian"].GetGrave()+st.GetCombatants()["ruffian"].GetFatal())
		f.finish(seed, ns.ClientURL(), resolverAddr)
	})

	t.Run("LOS-T03 Action Points and phases with a group of griffons", func(t *testing.T) {
		// Initiative d10s: Canahan 4, Diego 7, the griffons' group roll 8; Diego's attack misses
		// (≤ 2); both griffon attacks hit their 15 (3–9); both of Canahan's dodges succeed.
		seed := seedFor(t, 8, func(f []int32) bool {
			return f[0] == 4 && f[1] == 7 && f[2] == 8 && in(f[3], 1, 2) && in(f[4], 3, 9) && in(f[5], 3, 9) && in(f[6], 3, 9) && in(f[7], 3, 9)
		})
		c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
		f := newFight(t, c, "Bivouac", canahan(), diego(0, 0), griffon(1), griffon(2), griffon(3))
		st := f.state().GetState().GetLoss()
		require.Equal(t, int32(11), st.GetCombatants()["canahan"].GetActionPoints())
		require.Equal(t, int32(15), st.GetCombatants()["diego"].GetActionPoints())
		for i := 1; i <= 3; i++ {
			require.Equal(t, int32(13), st.GetCombatants()[fmt.Sprint("griffon-", i)].GetActionPoints())
		}
		legal, err := c.GetEncounter(as("david"), &encounterv1.GetEncounterRequest{EncounterId: f.id, LegalFor: "diego"})
		require.NoError(t, err)
		require.Equal(t, "attack", legal.GetLegal()[0].GetName())
		require.Equal(t, int32(4), legal.GetLegal()[0].GetCost())
		require.Equal(t, "épée", legal.GetLegal()[0].GetWeapon())

		// Diego acts first, at 15, on the third griffon, and misses.
		evs := f.submit("david", attack("diego", "griffon-3", "", 0, nil))
		require.False(t, evs[1].GetAttackResolved().GetHit())
		// Then the griffons, at 13: two attack Canahan, who dodges each through her own client.
		for _, g := range []string{"griffon-1", "griffon-2"} {
			evs = f.submit("gm", attack(g, "canahan", "griffes", 0, nil))
			require.Equal(t, int32(2), evs[0].GetAttackRolled().GetActionPointsSpent(), "a natural attack costs 2 PA")
			require.True(t, evs[0].GetAttackRolled().GetDefencePossible())
			evs = f.submit("florence", react("canahan", lossv1.Reaction_REACTION_DODGE, 0, nil))
			require.Equal(t, int32(1), evs[0].GetDefenceRolled().GetActionPointsSpent())
			require.False(t, evs[1].GetAttackResolved().GetHit())
		}
		st = f.state().GetState().GetLoss()
		require.Equal(t, int32(9), st.GetCombatants()["canahan"].GetActionPoints(), "she can act next at 9")
		require.Equal(t, int32(11), st.GetCombatants()["griffon-1"].GetActionPoints(), "each attacking griffon can attack again at 11")
		require.Equal(t, int32(11), st.GetCombatants()["griffon-2"].GetActionPoints())
		require.Equal(t, int32(13), st.GetCombatants()["griffon-3"].GetActionPoints())
		require.Equal(t, int32(11), st.GetCombatants()["diego"].GetActionPoints())
		legal, err = c.GetEncounter(as("florence"), &encounterv1.GetEncounterRequest{EncounterId: f.id, LegalFor: "canahan"})
		require.NoError(t, err)
		require.Empty(t, legal.GetLegal(), "not her turn: the griffons act before her")
		f.finish(seed, ns.ClientURL(), resolverAddr)
	})
}
