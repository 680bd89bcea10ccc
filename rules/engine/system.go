package engine

// The contract of a rule system: what the engine asks of every one (System), what only some
// do (FollowUp, Joiner, StateCopier in resolve.go), and how a system is described to clients.

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// System is one rule system at one version.
type System interface {
	ID() string
	Name() string
	Version() uint32
	// Options validates house rules and fills in every default, so that the creation event
	// records the effective rules.
	Options(*encounterv1.RuleOptions) (*encounterv1.RuleOptions, error)
	// CheckCombatant validates a combatant's sheet before it joins.
	CheckCombatant(*encounterv1.EncounterState, *encounterv1.Combatant) error
	// Start returns the system's events that open the fight (Initiative, first round…).
	Start(*encounterv1.EncounterState, Env) ([]*encounterv1.Event, error)
	// Decide returns the events a system command causes, or a *RuleError.
	Decide(*encounterv1.EncounterState, *encounterv1.Command, Env) ([]*encounterv1.Event, error)
	// Evolve folds the system's part of an event (any event, common ones included). It never
	// fails on an event Decide produced.
	Evolve(*encounterv1.EncounterState, *encounterv1.Event) error
	// Describe returns the system's sheet fields, actions, options and tables.
	Describe() *rulesetv1.RulesetDescriptor
	// CostUnit is the unit the costs of its legal actions (LegalAction.cost) are in.
	CostUnit() CostUnit
	// Teller narrates the system's events, sheets and house rules in plain language.
	Teller() narrate.Teller
	// Odds returns the exact odds of cmd, given by actor, on st (the state as the caller sees
	// it), reading the numbers the system's Decide reads by deciding cmd through reg with dice
	// that record them (rules/odds); nil, and no error, for a command it has no odds for.
	Odds(reg *Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error)
	// Tracker is the encounter at a glance for the reader v, in the system's terms and in lang:
	// where the fight is, and a row of cells per combatant of view, in its order. view is the
	// state as v may see it (Registry.View): a combatant whose sheet it withholds gets a row
	// of empty cells.
	Tracker(view *encounterv1.EncounterState, v Viewer, lang language.Tag) *rulesetv1.Tracker
	// WithOdds names the actions (ActionDescriptor.name, LegalAction.key) whose commands Odds
	// computes odds for: Describe marks them (ActionDescriptor.odds) for a client to offer.
	WithOdds() []string
	// Closer: every system closes its own commands (the next Tour, pass or round).
	Closer
	// Commander: what a combatant may do now, with costs and the commands that take it
	// (Registry.Legal is that list without the commands).
	Commander
	// Redactor: what a reader who may not see a combatant's numbers is left of them.
	Redactor
	// DiceEnder: how far in the dice stream the system's rolls of an event reach.
	DiceEnder
	// Outer: who is out of the fight by the system's rules (over.go: which sides still stand,
	// whether the fight is over).
	Outer
}

// CostUnit is the unit a system's costs are in, as a player reads a number of them: "4 PA",
// "1 action", "2 segments".
type CostUnit struct {
	One, Many string
}

// Of writes n of the unit: "1 action", "3 actions".
func (u CostUnit) Of(n int32) string {
	if n == 1 || n == -1 {
		return fmt.Sprint(n, " ", u.One)
	}
	return fmt.Sprint(n, " ", u.Many)
}

// FollowUp is implemented by a system whose own state may call for events after a common
// command of a running fight: a combatant removed mid-round can leave no one able to act,
// which ends the round. It gets the state with the command's events folded in.
type FollowUp interface {
	FollowUp(*encounterv1.EncounterState, Env) ([]*encounterv1.Event, error)
}

// Closer is the part of a System whose decision of one of its commands ends with events
// decided on the state the command's own events leave: the next Tour, pass or round when no
// one can act any more. Its Decide returns the command's own events; the engine folds them
// into the copy of the state that becomes the result (next), then calls Close, even when
// Decide returned no event. Close returns the closing events, each folded into next with fold
// (the engine's whole fold) as soon as it is decided, so that every event of a command is
// folded once. It may read next but changes it only through fold.
type Closer interface {
	Close(next *encounterv1.EncounterState, env Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error)
}

// Joiner is implemented by a system in which combatants may join a fight in progress.
type Joiner interface {
	JoinsInProgress()
}

// Describe is sys's descriptor as clients get it: its Describe, the actions it has odds for
// marked (WithOdds), so that a client asks odds of those and of no other, and the unit of its
// costs (CostUnit), so that a client writes a cost as the system's players read it.
func Describe(sys System) *rulesetv1.RulesetDescriptor {
	d := proto.CloneOf(sys.Describe()) // a system may keep the one it gives
	with := sys.WithOdds()
	for _, a := range d.GetActions() {
		a.Odds = slices.Contains(with, a.GetName())
	}
	u := sys.CostUnit()
	d.CostUnit = &rulesetv1.CostUnit{One: u.One, Many: u.Many}
	return d
}
