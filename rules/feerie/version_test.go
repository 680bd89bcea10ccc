package feerie_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// Every released version is a value of the one package: Released lists them oldest first, each
// describes itself as its own version, and a version never released is a programmer's error.
func TestReleasedVersions(t *testing.T) {
	rel := feerie.Released()
	require.Len(t, rel, feerie.Latest)
	for i, s := range rel {
		v := uint32(i + 1)
		require.Equal(t, v, s.Version())
		require.Equal(t, feerie.ID, s.ID())
		require.Equal(t, v, s.Describe().GetVersion())
		require.Equal(t, feerie.New(v), s, "Released holds New(%d)", v)
	}
	require.Panics(t, func() { feerie.New(0) }, "version 0 is the registry's word for the latest, not a version")
	require.Panics(t, func() { feerie.New(feerie.Latest + 1) })
}
