package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// Registry.Fork copies a state with its own rule system's copier (Loss's CopyState, which
// shares the attack awaiting a reaction, as Evolve only ever replaces it), not with a deep
// clone. Written against a mutant of Registry.Fork (err != nil negated: every known system
// dropped for the deep clone) that lived in a mutation run of rules/engine (issue 26).
func TestForkCopiesWithTheSystemsOwnCopier(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	pending := &lossv1.PendingAttack{AttackerId: "a", DefenderId: "b"}
	st := &encounterv1.EncounterState{EncounterId: "e1", RuleSystem: "loss", RulesVersion: 1,
		System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{Tour: 1, Pending: pending}}}
	next := reg.Fork(st)
	require.Same(t, pending, next.GetLoss().GetPending(), "Loss's CopyState shares the awaited attack")
	require.NotSame(t, st.GetLoss(), next.GetLoss())
}
