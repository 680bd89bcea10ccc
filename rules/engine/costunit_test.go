package engine_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// A cost is written in its system's unit, singular for one: "4 PA", "1 action", "2 actions".
func TestCostUnitWritesACountOfIt(t *testing.T) {
	require.Equal(t, "4 PA", loss.New(1).CostUnit().Of(4))
	require.Equal(t, "1 PA", loss.New(1).CostUnit().Of(1))
	require.Equal(t, "1 action", ka.New(ka.Latest).CostUnit().Of(1))
	require.Equal(t, "2 actions", ka.New(ka.Latest).CostUnit().Of(2))
	require.Equal(t, "0 segments", engine.CostUnit{One: "segment", Many: "segments"}.Of(0))
}
