package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// What rules/odds reads of an activity the way the rules resolve it; the formulas it counts
// with (HitLoss, StrikesTakeEffect, in resolve.go) are those Decide uses.

// ResolveQueued resolves a queued activity on st with roller, as the countdown does when it
// reaches the activity's rank (FEE-045), and returns its ActivityResolved event.
func (sys System) ResolveQueued(st *encounterv1.EncounterState, q *feeriev1.Queued, roller dice.Roller) *encounterv1.Event {
	return sys.resolve(st, q, roller)
}

// Succeeds reports whether a margin succeeds (FEE-002, option tie_succeeds).
func Succeeds(o *feeriev1.Options, margin int32) bool { return succeeds(o, margin) }
