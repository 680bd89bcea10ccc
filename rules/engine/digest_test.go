package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

func TestCommandDigest(t *testing.T) {
	end := func(reason string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: reason}}}
	}
	d := engine.CommandDigest(end("fled"), "t/ann")
	require.Len(t, d, 32)
	require.Equal(t, d, engine.CommandDigest(end("fled"), "t/ann"), "the same command by the same actor")
	require.NotEqual(t, d, engine.CommandDigest(end("won"), "t/ann"), "another command")
	require.NotEqual(t, d, engine.CommandDigest(end("fled"), "t/bob"), "another actor")
	// The actor and the command are kept apart: no actor can pass for a prefix of the command.
	require.NotEqual(t, engine.CommandDigest(end(""), "t/ann"), engine.CommandDigest(&encounterv1.Command{}, "t/ann"))
}
