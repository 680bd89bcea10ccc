package engine

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// VerifyRolls is verifyRolls, for the external tests: the number of rolls checked, or the
// first divergence.
func VerifyRolls(events []*encounterv1.Event, seed []byte, scheme dice.Scheme) (int, error) {
	rep := &AuditReport{}
	err := verifyRolls(events, seed, scheme, rep)
	return rep.Rolls, err
}
