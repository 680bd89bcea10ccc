package encounter_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

type backend interface {
	store.Log
	store.Seeds
	store.Snapshots
}

// serve runs an encounter service over a real loopback gRPC listener, deciding in-process.
func serve(t *testing.T, b backend, opts encounter.Options) encounterv1.EncounterServiceClient {
	t.Helper()
	srv := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	encounter.Register(srv.GRPC, encounter.New(b, b, encounter.LocalDecider{Registry: systems.Registry()}, systems.Registry(), opts))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return encounterv1.NewEncounterServiceClient(cc)
}

// as is a context whose calls carry a token of tenant dev for who.
func as(who string) context.Context { return authtest.As(who) }

func fighter(id, controller string, initiative int32, weapon *lossv1.Weapon) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: strings.ToUpper(id[:1]) + id[1:], Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
		Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
		Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
		Initiative: initiative,
		Weapons:    []*lossv1.Weapon{weapon},
		Dodge:      &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
	}}}
}

func sword(vitesse int32) *lossv1.Weapon {
	return &lossv1.Weapon{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: vitesse, Damage: 3}
}

func attack(who, target string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: target}}}}}
}

// records counts what the log holds for an encounter.
func records(t *testing.T, b backend, id string) int {
	recs, err := b.Load(context.Background(), id, 0)
	require.NoError(t, err)
	return len(recs)
}

func create(t *testing.T, c encounterv1.EncounterServiceClient) string {
	resp, err := c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	return resp.GetEncounterId()
}

func requireCode(t *testing.T, err error, code codes.Code, contains ...string) {
	t.Helper()
	require.Error(t, err)
	st, ok := status.FromError(err)
	require.True(t, ok, "not a gRPC status: %v", err)
	require.Equal(t, code, st.Code(), st.Message())
	for _, c := range contains {
		require.Contains(t, st.Message(), c)
	}
}

func TestBadInputGetsClearCodesAndRecordsNothing(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{})
	ctx := as("gm")

	_, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: "enc-nope"})
	requireCode(t, err, codes.NotFound, "enc-nope")
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: "enc-nope", Command: attack("a", "b")})
	requireCode(t, err, codes.NotFound)
	_, err = c.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "chess"}})
	requireCode(t, err, codes.NotFound, "chess")
	_, err = c.CreateEncounter(context.Background(), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "loss"}})
	requireCode(t, err, codes.Unauthenticated, "no token")

	id := create(t, c)
	require.Equal(t, 1, records(t, b, id))

	// Malformed sheet: a weapon using a talent the sheet lacks (LOS-001).
	bad := fighter("diego", "david", 8, sword(4))
	bad.GetLoss().Weapons[0].Attack.Talent = "Escrime"
	_, err = c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: bad})
	requireCode(t, err, codes.InvalidArgument, "malformed sheet", "Escrime", "LOS-001")
	noKind := fighter("diego", "david", 8, sword(4))
	noKind.GetLoss().Kind = lossv1.CombatantKind_COMBATANT_KIND_UNSPECIFIED
	_, err = c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: noKind})
	requireCode(t, err, codes.InvalidArgument, "LOS-024")
	_, err = c.AddCombatant(as("mallory"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("x", "david", 1, sword(4))})
	requireCode(t, err, codes.PermissionDenied)
	require.Equal(t, 1, records(t, b, id), "nothing recorded for refused commands")

	// Fast has Initiative 30 (31–40 PA), slow 0 (1–10 PA): slow never acts first, and its
	// Vitesse-20 weapon costs more PA than it can ever have.
	_, err = c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("fast", "gm", 30, sword(4))})
	require.NoError(t, err)
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}}})
	require.NoError(t, err, "the GM opens the encounter to joining")
	_, err = c.AddCombatant(as("sam"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("slow", "sam", 0, sword(20))})
	require.NoError(t, err, "a player may add a combatant they control")
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: attack("fast", "slow")})
	requireCode(t, err, codes.FailedPrecondition, "not started")
	_, err = c.StartEncounter(as("sam"), &encounterv1.StartEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.PermissionDenied, "GM")
	started, err := c.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	before := records(t, b, id)

	// LOS-031: acting out of turn.
	_, err = c.Submit(as("sam"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("slow", "fast")})
	requireCode(t, err, codes.FailedPrecondition, "LOS-031", "not Slow's turn")
	// A player may not command another's combatant.
	_, err = c.Submit(as("sam"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("fast", "slow")})
	requireCode(t, err, codes.PermissionDenied, "sam does not control Fast")
	// Stale expected sequence.
	stale := started.GetState().GetSequence() - 1
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, ExpectedSequence: &stale, Command: attack("fast", "slow")})
	requireCode(t, err, codes.FailedPrecondition, "sequence")
	// Empty and unknown things.
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id})
	requireCode(t, err, codes.InvalidArgument)
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: attack("fast", "ghost")})
	requireCode(t, err, codes.NotFound, "ghost")
	require.Equal(t, before, records(t, b, id))

	// Fast passes; now slow is up but its weapon costs 20 PA (LOS-035).
	_, err = c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "fast", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}})
	require.NoError(t, err)
	_, err = c.Submit(as("sam"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("slow", "fast")})
	requireCode(t, err, codes.FailedPrecondition, "LOS-035", "Slow has", "costs 20")
	require.Equal(t, before+1, records(t, b, id))

	got, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id, AtSequence: 99})
	requireCode(t, err, codes.OutOfRange)
	require.Nil(t, got)
}

func TestRetriedCommandIsRecordedOnce(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{})
	id := create(t, c)
	req := &encounterv1.AddCombatantRequest{EncounterId: id, CommandId: "add-diego", Combatant: fighter("diego", "david", 8, sword(4))}
	first, err := c.AddCombatant(as("gm"), req)
	require.NoError(t, err)
	again, err := c.AddCombatant(as("gm"), req)
	require.NoError(t, err)
	require.Len(t, again.GetEvents(), 1)
	require.True(t, proto.Equal(first.GetEvents()[0], again.GetEvents()[0]), "the retry returns the recorded event")
	require.Equal(t, 2, records(t, b, id))

	// The same create command id gives back the same encounter.
	creq := &encounterv1.CreateEncounterRequest{CommandId: "create-1", Encounter: &encounterv1.CreateEncounter{Name: "Bivouac", RuleSystem: "loss"}}
	c1, err := c.CreateEncounter(as("gm"), creq)
	require.NoError(t, err)
	c2, err := c.CreateEncounter(as("gm"), creq)
	require.NoError(t, err)
	require.Equal(t, c1.GetEncounterId(), c2.GetEncounterId())
	list, err := c.ListEncounters(as("gm"), &encounterv1.ListEncountersRequest{})
	require.NoError(t, err)
	require.Len(t, list.GetEncounters(), 2)
}

// rival is a replica's view of the log in which another replica appends first, just before
// this replica's next append: a race lost, deterministically.
type rival struct {
	backend
	once  sync.Once
	first func()
}

func (r *rival) Append(ctx context.Context, id string, expected uint64, msgID string, b *encounterv1.EventBatch) (store.Appended, error) {
	r.once.Do(r.first)
	return r.backend.Append(ctx, id, expected, msgID, b)
}

// Replicas of the service share one JetStream log; each caches the encounter.
func TestRacingReplicasNeverForkHistory(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	a := serve(t, js, encounter.Options{})
	id := create(t, a)
	addVia := func(r encounterv1.EncounterServiceClient, who string) (*encounterv1.AddCombatantResponse, error) {
		return r.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter(who, "gm", 6, sword(3))})
	}

	// The impatient replica loses the race and has no retry left: Aborted, nothing of its
	// command recorded.
	impatient := serve(t, &rival{backend: js, first: func() { _, err := addVia(a, "diego"); require.NoError(t, err) }}, encounter.Options{MaxAttempts: 1})
	_, err = addVia(impatient, "ruffian")
	requireCode(t, err, codes.Aborted, "nothing was recorded")
	require.Equal(t, 2, records(t, js, id))

	// The patient one loses the race too, retries on fresh state and lands after the winner.
	patient := serve(t, &rival{backend: js, first: func() { _, err := addVia(a, "canahan"); require.NoError(t, err) }}, encounter.Options{})
	resp, err := addVia(patient, "ruffian")
	require.NoError(t, err)
	require.Equal(t, uint64(4), resp.GetEvents()[0].GetSequence())
	require.Len(t, resp.GetState().GetCombatants(), 3)
	require.Equal(t, []string{"diego", "canahan", "ruffian"}, []string{resp.GetState().GetCombatants()[0].GetId(), resp.GetState().GetCombatants()[1].GetId(), resp.GetState().GetCombatants()[2].GetId()})

	// Many concurrent commands through three replicas: every one lands once, in one line.
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		r := []encounterv1.EncounterServiceClient{a, patient, serve(t, js, encounter.Options{MaxAttempts: 20})}[i%3]
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("x"+string(rune('a'+i)), "gm", 5, sword(3))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	landed := 0
	for err := range errs {
		if err == nil {
			landed++
			continue
		}
		requireCode(t, err, codes.Aborted)
	}
	recs, err := js.Load(context.Background(), id, 0)
	require.NoError(t, err)
	require.Len(t, recs, 4+landed)
	var events []*encounterv1.Event
	for _, r := range recs {
		events = append(events, r.Batch.GetEvents()...)
	}
	for i, ev := range events {
		require.Equal(t, uint64(i+1), ev.GetSequence(), "one gapless line of events")
	}
	st, err := systems.Registry().Fold(events)
	require.NoError(t, err)
	got, err := a.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, gmHash(st), got.GetStateSha256())
	require.Len(t, st.GetCombatants(), 3+landed)
	require.Greater(t, landed, 0)
}

// A sheet's bare controller is a subject of the caller's tenant; a principal of another
// tenant is refused; the old fray-principal metadata names no one.
func TestControllersArePrincipalsOfTheCallersTenant(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{})
	id := create(t, c)
	r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("diego", "david", 8, sword(4))})
	require.NoError(t, err)
	require.Equal(t, "dev/david", r.GetState().GetCombatants()[0].GetController())
	require.Equal(t, "dev/gm", r.GetState().GetGameMaster())
	_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("rita", "dev/rita", 8, sword(4))})
	require.NoError(t, err)
	_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("spy", "other/mallory", 8, sword(4))})
	requireCode(t, err, codes.InvalidArgument, `controller "other/mallory" of spy is of tenant "other"`)
	_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("odd", "dev/a/b", 8, sword(4))})
	requireCode(t, err, codes.InvalidArgument, "give a subject of your tenant")
	_, err = c.GetEncounter(metadata.AppendToOutgoingContext(context.Background(), "fray-principal", "gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.Unauthenticated, "no token")
	require.Equal(t, 3, records(t, b, id))
}

// gmHash is the state_sha256 a GM reads for the recorded state st: the hash of the GM's view
// of it (appearances filled in, nothing that never leaves the server).
func gmHash(st *encounterv1.EncounterState) []byte {
	return engine.Hash(systems.Registry().View(st, engine.Viewer{SeesAll: true}))
}
