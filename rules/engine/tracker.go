package engine

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"golang.org/x/text/language"
)

// Tracker is the encounter at a glance for v, in its rule system's terms and in lang
// (System.Tracker). view is the state as v may see it (View): no number hidden from v is in
// it. Nil for an encounter of no rule system the registry knows.
func (r *Registry) Tracker(view *encounterv1.EncounterState, v Viewer, lang language.Tag) *rulesetv1.Tracker {
	sys, err := r.system(view)
	if err != nil {
		return nil
	}
	return sys.Tracker(view, v, lang)
}

// Word is a tracker's word in lang: fr for French, en for any other.
func Word(lang language.Tag, en, fr string) string {
	if base, _ := lang.Base(); base.String() == "fr" {
		return fr
	}
	return en
}

// TrackerRow is a combatant's row: its cells (nil before the system knows its numbers: a
// row of empty cells, one per header) and its conditions.
func TrackerRow(header []string, id string, cells []string, conditions ...string) *rulesetv1.TrackerRow {
	if cells == nil {
		cells = make([]string, len(header))
	}
	return &rulesetv1.TrackerRow{CombatantId: id, Cells: cells, Conditions: conditions}
}

// Conditions are a tracker row's conditions in one language, each added when it holds.
type Conditions struct {
	Lang  language.Tag
	Words []string
}

// Add adds the condition, in Lang, when on.
func (c *Conditions) Add(on bool, en, fr string) {
	if on {
		c.Words = append(c.Words, Word(c.Lang, en, fr))
	}
}
