package encounter

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// Every RPC of EncounterService has a row in the access table (a new RPC without one fails
// here, and is refused at run time), each row is of an RPC, and what a row asks of the
// request is in it: encounter_id for an RPC about one encounter, tenant for an
// administration.
func TestEveryRPCHasAnAccessRow(t *testing.T) {
	sd := encounterv1.File_fray_encounter_v1_encounter_service_proto.Services().ByName("EncounterService")
	require.NotNil(t, sd)
	for i := range sd.Methods().Len() {
		m := sd.Methods().Get(i)
		method := "/" + string(sd.FullName()) + "/" + string(m.Name())
		row, ok := accessTable[method]
		require.True(t, ok, "%s has no row in accessTable", method)
		require.Equal(t, method, methodOf[string(m.Input().FullName())], "the request type names its RPC")
		switch row.scope {
		case scopeEncounter:
			require.NotNil(t, m.Input().Fields().ByName("encounter_id"), "%s is about an encounter: its request names it", method)
			require.NotEqual(t, 0, rank(row.role), "%s: the least role in the encounter", method)
		case scopeTenantAdmin:
			require.NotNil(t, m.Input().Fields().ByName("tenant"), "%s administers a tenant: its request names it", method)
		case scopeTenant:
		default:
			t.Fatalf("%s: no scope", method)
		}
	}
	require.Len(t, accessTable, sd.Methods().Len(), "a row of an RPC the service does not have")
}
