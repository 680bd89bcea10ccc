package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// What rules/odds reads of an activity the way the rules resolve it. Nothing here is used by
// Decide.

// ResolveQueued resolves a queued activity on st with roller, as the countdown does when it
// reaches the activity's rank (FEE-045), and returns its ActivityResolved event.
func ResolveQueued(st *encounterv1.EncounterState, q *feeriev1.Queued, roller dice.Roller) *encounterv1.Event {
	return resolve(st, q, roller)
}

// Succeeds reports whether a margin succeeds (FEE-002, option tie_succeeds).
func Succeeds(o *feeriev1.Options, margin int32) bool { return succeeds(o, margin) }

// HalfMargin is half a margin, rounded as the options say (FEE-003).
func HalfMargin(o *feeriev1.Options, margin int32) int32 { return halfMargin(o, margin) }
