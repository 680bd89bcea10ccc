package losscmd_test

import (
	"io"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/losscmd"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

func TestParseInspiration(t *testing.T) {
	for in, want := range map[string]map[string]int32{
		"Courage=1":                     {"Courage": 1},
		"Courage=1,Honneur=2":           {"Courage": 1, "Honneur": 2},
		" courage = 2 , SAGESSE=1 ,":    {"Courage": 2, "Sagesse": 1},
		"Honneur":                       {"Honneur": 1},
		"Sagesse=0":                     {"Sagesse": 0},
		"Courage=3,Honneur=1,Sagesse=2": {"Courage": 3, "Honneur": 1, "Sagesse": 2},
	} {
		got, err := losscmd.ParseInspiration(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for in, msg := range map[string]string{
		"":                    "empty",
		",":                   "empty",
		"Courage=-1":          "not a count",
		"Courage=one":         "not a count",
		"Courage=1.5":         "not a count",
		"Bravoure=1":          `"Bravoure" is not a Vertu`,
		"Courage=1,courage=2": "Courage given twice",
		"=1":                  `"" is not a Vertu`,
	} {
		_, err := losscmd.ParseInspiration(in)
		require.ErrorContains(t, err, msg, in)
	}
}

func TestInspirationFlag(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var sp losscmd.SpendFlags
	sp.Register(fs)
	require.NoError(t, fs.Parse([]string{"--inspiration", "Courage=1", "--inspiration=honneur=2", "--fursa", "1"}))
	require.Equal(t, "Courage=1,Honneur=2", sp.Inspiration.String())
	s, err := sp.Spend()
	require.NoError(t, err)
	clienttest.RequireProtoEqual(t, &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Courage": 1, "Honneur": 2}}, s)

	require.ErrorContains(t, fs.Parse([]string{"--inspiration", "Courage=2"}), "Courage given twice")

	var none losscmd.SpendFlags
	s, err = none.Spend()
	require.NoError(t, err)
	require.Nil(t, s, "nothing spent: no Spend")

	neg := losscmd.SpendFlags{Fursa: -1}
	_, err = neg.Spend()
	var ue *client.UsageError
	require.ErrorAs(t, err, &ue)
}

func TestInspirationFlagErrorsAreUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	code, out, errOut := clienttest.Run(t, "attack", "enc-1", "diego", "ruffian", "--inspiration", "Bravoure=1")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errOut, `invalid argument "Bravoure=1" for "--inspiration" flag`)
	require.Contains(t, errOut, "usage: fray attack ENCOUNTER ATTACKER TARGET")

	code, _, errOut = clienttest.Run(t, "react", "enc-1", "ruffian", "parry", "--fursa", "-2")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "Fursa spent cannot be negative")
}
