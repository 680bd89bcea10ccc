package encounter_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

// The access table's rows at work over gRPC: an RPC about an encounter answers
// InvalidArgument naming encounter_id when the request names none (unary and streaming), one
// of the caller's tenant needs none, and an administration needs the admin scope.
func TestTheAccessTableIsReadForEveryCall(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{})
	_, err := c.EndEncounter(as("gm"), &encounterv1.EndEncounterRequest{})
	requireCode(t, err, codes.InvalidArgument, "encounter_id", "required")
	_, err = c.GetOdds(as("gm"), &encounterv1.GetOddsRequest{Command: &encounterv1.Command{}})
	requireCode(t, err, codes.InvalidArgument, "encounter_id", "required")
	w, err := c.WatchEncounter(as("gm"), &encounterv1.WatchEncounterRequest{})
	require.NoError(t, err)
	_, err = w.Recv()
	requireCode(t, err, codes.InvalidArgument, "encounter_id", "required")

	_, err = c.ListEncounters(as("gm"), &encounterv1.ListEncountersRequest{})
	require.NoError(t, err, "the caller's own list names no encounter")
	_, err = c.ListIdleEncounters(as("gm"), &encounterv1.ListIdleEncountersRequest{Tenant: "dev"})
	requireCode(t, err, codes.PermissionDenied, "scope")

	// A stranger of the tenant is told nothing of an encounter, whether it reads or commands.
	id := create(t, c)
	_, err = c.GetEncounter(as("mallory"), &encounterv1.GetEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.PermissionDenied, "read it")
	_, err = c.StartEncounter(as("mallory"), &encounterv1.StartEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.PermissionDenied, "give it commands")
}
