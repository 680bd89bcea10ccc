package platform

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// A token bound to an encounter calls what boundAccess lists and what a service declared
// (AllowBound), nothing else.
func TestABoundTokenCallsWhatIsListedOrDeclared(t *testing.T) {
	require.True(t, mayBound(encounterv1.EncounterService_Submit_FullMethodName))
	require.False(t, mayBound(encounterv1.EncounterService_ListEncounters_FullMethodName))
	const declared = "/fray.test.v1.Encounters/Peek"
	require.False(t, mayBound(declared))
	AllowBound(declared)
	require.True(t, mayBound(declared))
}
