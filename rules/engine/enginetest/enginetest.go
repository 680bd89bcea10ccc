// Package enginetest drives a rule system's Decide and Evolve in tests: commands decided with
// fixed dice and folded, refusals checked to change nothing, logs checked to replay, and a
// rule system's events picked out of a batch. Fight is the fight helper of every system's
// tests; Conformance checks one version of a system against the engine's contract on its
// golden log (rules/systems runs it for every registered system and version).
package enginetest

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Decide decides cmd on st with dice.NewFixed(faces...) and folds the events into st. On
// success every face must have been used: a command rolls exactly the dice its rules call
// for (and one more would panic).
func Decide(t testing.TB, reg *engine.Registry, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	t.Helper()
	if LegalEveryState && st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
		checkOnce(t, reg, st) // legal.go
	}
	d := dice.NewFixed(faces...)
	evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: d, Seed: make([]byte, dice.SeedSize)})
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		require.NoError(t, reg.Evolve(st, ev))
	}
	require.Zero(t, d.Left(), "the command rolled fewer dice than the faces given")
	return evs, nil
}

// Refuse checks that cmd is refused with code and rule, that the message names each of
// names, that no die is rolled and that st is untouched.
func Refuse(t testing.TB, reg *engine.Registry, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	t.Helper()
	before := proto.CloneOf(st)
	_, err := Decide(t, reg, st, actor, cmd)
	require.Error(t, err)
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "%v is not a RuleError", err)
	require.Equal(t, code, re.Code, "code of %q", re.Msg)
	require.Equal(t, rule, re.Rule, "rule of %q", re.Msg)
	for _, n := range names {
		require.Contains(t, re.Msg, n)
	}
	require.True(t, proto.Equal(before, st), "a refused command changes nothing")
	return re
}

// Replays checks that folding log from scratch gives the very state st: the same hash and
// the same fields.
func Replays(t testing.TB, reg *engine.Registry, st *encounterv1.EncounterState, log []*encounterv1.Event) {
	t.Helper()
	folded, err := reg.Fold(log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(st), engine.Hash(folded), "reg.Fold of the log gives the same state")
	require.True(t, proto.Equal(st, folded), "reg.Fold of the log gives the same state, field by field (a Ka deck included, KA-003)")
}

// All returns, in order, the events of evs that get picks out of their rule system's part
// (of: e.g. (*encounterv1.Event).GetKa).
func All[S, T any](evs []*encounterv1.Event, of func(*encounterv1.Event) *S, get func(*S) *T) []*T {
	var out []*T
	for _, ev := range evs {
		if m := get(of(ev)); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Find returns the one event of evs that get picks out.
func Find[S, T any](t testing.TB, evs []*encounterv1.Event, of func(*encounterv1.Event) *S, get func(*S) *T) *T {
	t.Helper()
	out := All(evs, of, get)
	require.Len(t, out, 1, "events: %v", evs)
	return out[0]
}

// None checks that no event of evs is of the kind get picks out.
func None[S, T any](t testing.TB, evs []*encounterv1.Event, of func(*encounterv1.Event) *S, get func(*S) *T) {
	t.Helper()
	require.Empty(t, All(evs, of, get), "events: %v", evs)
}
