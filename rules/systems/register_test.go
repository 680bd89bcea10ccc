package systems_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
)

// A system registered again at a version the build has is a mistake of the program: Register
// panics, saying which, rather than let two sets of rules decide under one name.
func TestRegisterRefusesASystemAlreadyThere(t *testing.T) {
	before := systems.IDs()
	require.PanicsWithValue(t, "systems.Register: loss version 1 is already registered", func() { systems.Register(loss.Released()[0]) })
	require.Equal(t, before, systems.IDs(), "nothing registered")
}

// Every rule system's descriptor, as ListRulesets gives it, says the unit of its costs, the one
// its CostUnit writes: a client that knows nothing of the system writes "4 PA", "1 action".
func TestEveryRulesetSaysTheUnitOfItsCosts(t *testing.T) {
	reg := systems.Registry()
	for _, rs := range reg.Rulesets() {
		sys, err := reg.Lookup(rs.GetId(), 0)
		require.NoError(t, err)
		u := sys.CostUnit()
		require.NotEmpty(t, u.One, rs.GetId())
		require.Equal(t, u.One, rs.GetCostUnit().GetOne(), rs.GetId())
		require.Equal(t, u.Many, rs.GetCostUnit().GetMany(), rs.GetId())
	}
}
