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
