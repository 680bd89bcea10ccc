package encounter_test

import (
	"context"
	"log/slog"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// twoReplicas serves two encounter services, each with its own connection and store, on
// one NATS: replicas behind one address.
func twoReplicas(t *testing.T) (a, b encounterv1.EncounterServiceClient) {
	s := natstest.StartSecured(t)
	replica := func() encounterv1.EncounterServiceClient {
		nc, err := nats.Connect(s.Server.ClientURL(), append(natsconn.EncounterOptions(),
			nats.UserInfo(natsconn.EncounterUser, s.Users.Encounter))...)
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		st, err := store.Open(context.Background(), nc, store.Config{Log: slog.New(slog.DiscardHandler)})
		require.NoError(t, err)
		return serve(t, st, encounter.Options{})
	}
	return replica(), replica()
}

func expecting(req *encounterv1.SubmitRequest, seq uint64) *encounterv1.SubmitRequest {
	req.ExpectedSequence = &seq
	return req
}

// A client reads through replica A and submits through replica B with the sequence it read:
// B, whose copy is behind (A recorded a command since B last looked), reads the log before
// refusing, and the command passes, every time. A sequence the log has left behind, or one
// it has not reached, is still refused.
func TestReadThroughOneReplicaSubmitThroughAnother(t *testing.T) {
	a, b := twoReplicas(t)
	gm := as("gm")
	created, err := a.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	_, err = b.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id}) // B holds it too
	require.NoError(t, err)

	const rounds = 200
	passed := 0
	for i := range rounds {
		_, err := a.Submit(gm, setJoining(id, true)) // through A: B is now behind
		require.NoError(t, err)
		read, err := a.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err)
		seq := read.GetState().GetSequence()
		resp, err := b.Submit(gm, expecting(setJoining(id, false), seq))
		if err == nil {
			passed++
			require.Equal(t, seq+1, resp.GetState().GetSequence())
		} else {
			t.Logf("round %d: %v", i, err)
		}
	}
	require.Equal(t, rounds, passed, "passed %d of %d", passed, rounds)

	read, err := a.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	now := read.GetState().GetSequence()
	_, err = a.Submit(gm, setJoining(id, true)) // B behind again
	require.NoError(t, err)
	for _, tc := range []struct {
		name     string
		expected uint64
	}{
		{"a sequence the log has left behind", now},
		{"long behind", now - 10},
		{"one the log has not reached", now + 5},
	} {
		_, err := b.Submit(gm, expecting(setJoining(id, false), tc.expected))
		require.Equal(t, codes.FailedPrecondition, status.Code(err), "%s: %v", tc.name, err)
		require.Contains(t, status.Convert(err).Message(), "not at the", tc.name)
	}
	final, err := a.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, now+1, final.GetState().GetSequence(), "nothing was recorded for the refused commands")
}

// A command given no expected sequence, refused on B's copy behind the log (a role, or the
// encounter opened to joining, granted through A), is decided again on the log's state and
// passes; and the retry through B of a command recorded through A is recognised as that one.
func TestARefusalOnAStaleReplicaIsDecidedAgainOnTheLog(t *testing.T) {
	a, b := twoReplicas(t)
	gm := as("gm")
	created, err := a.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	_, err = b.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	// Joining opened through A: a stranger's combatant is added through B.
	_, err = a.Submit(gm, setJoining(id, true))
	require.NoError(t, err)
	_, err = b.AddCombatant(as("erin"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("erin", "erin", 6, sword(4))})
	require.NoError(t, err, "B read the log before refusing")

	// A role granted through A: its holder commands through B.
	_, err = a.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{
		GrantRole: &encounterv1.GrantRole{Principal: "carol", Role: encounterv1.Role_ROLE_CO_GM}}}})
	require.NoError(t, err)
	_, err = b.Submit(as("carol"), setJoining(id, false))
	require.NoError(t, err, "B read the log before refusing carol")

	// A command recorded through A, sent again through B with its id: the same record.
	first, err := a.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-again", Command: setJoining(id, true).GetCommand()})
	require.NoError(t, err)
	again, err := b.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-again", Command: setJoining(id, true).GetCommand()})
	require.NoError(t, err)
	require.Equal(t, first.GetEvents()[0].GetEventId(), again.GetEvents()[0].GetEventId())

	// A refusal that stands after reading the log is still a refusal.
	_, err = b.Submit(as("mallory"), setJoining(id, false))
	require.Equal(t, codes.PermissionDenied, status.Code(err), "%v", err)
}
