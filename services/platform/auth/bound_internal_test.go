package auth

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// A token bound to an encounter calls what a service declared (AllowBound), nothing else: no
// RPC is allowed here by a list of its own, not even one of the encounter service, which
// declares its own as it is registered (encounter.Register, from its access table).
func TestABoundTokenCallsWhatIsDeclared(t *testing.T) {
	require.False(t, mayBound(encounterv1.EncounterService_Submit_FullMethodName))
	require.False(t, mayBound(encounterv1.EncounterService_ListEncounters_FullMethodName))
	const declared = "/fray.test.v1.Encounters/Peek"
	require.False(t, mayBound(declared))
	AllowBound(declared)
	require.True(t, mayBound(declared))
}
