package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// LegalCommands lists what a combatant may do now, each action with its command.
func (sys System) LegalCommands(st *encounterv1.EncounterState, id string) []engine.LegalCommand {
	f, err := fighterOf(st, id)
	if err != nil || sys.turn(st, f) != nil {
		return nil
	}
	var out []engine.LegalCommand
	add := func(key string, a *rulesetv1.LegalAction, act *d20segv1.Action, choices ...*rulesetv1.Choice) {
		a.Key, a.Choices = key, choices
		act.CombatantId = id
		out = append(out, engine.LegalCommand{Action: a, Command: &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: act}}})
	}
	target := &rulesetv1.Choice{Field: "d20seg.attack.target_id", Description: "the target, one not down", Min: 1, Max: 1, Required: true}
	for _, o := range fighters(st) {
		if o.id() != id && !o.cs.GetDown() {
			target.Options = append(target.Options, &rulesetv1.ChoiceOption{Value: o.id(), Label: o.name()})
		}
	}
	attack := func(w *d20segv1.Weapon, a *rulesetv1.LegalAction, free bool) {
		if len(target.Options) == 0 {
			return
		}
		choices := []*rulesetv1.Choice{target}
		if !w.GetRanged() { // D20-031
			reach := w.GetReachCm()
			if reach == 0 {
				reach = sys.Reach(f.sh.GetSize())
			}
			choices = append(choices, &rulesetv1.Choice{Field: "d20seg.attack.distance_cm", Description: "the distance to the target in centimetres, within reach (D20-031)", Max: reach})
		}
		a.Weapon = w.GetName()
		add("attack", a, &d20segv1.Action{Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{Weapon: w.GetName(), Free: free}}}, choices...)
	}
	spell := &rulesetv1.Choice{Field: "d20seg.cast.spell", Description: "the spell, by name", Max: engine.MaxNameLength}
	special := &rulesetv1.Choice{Field: "d20seg.cast.special", Description: fmt.Sprintf("damaging, summoning or special: +%s (D20-018)", plural(sys.n.SpecialSpell)), Max: 1,
		Options: []*rulesetv1.ChoiceOption{{Value: "false", Label: "no"}, {Value: "true", Label: "yes"}}}
	other := &rulesetv1.Choice{Field: "d20seg.other.description", Description: "the action, in words: move, draw a weapon, stand up, use an object", Max: engine.MaxNameLength}
	s := segState(st)
	left := sys.last(f, s.GetRound()) - f.cs.GetNextSegment() + 1
	endTurn := &d20segv1.Action{Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}
	if inFreePhase(st, f) { // D20-004: the free action first, costing no segment
		for _, w := range f.sh.GetWeapons() {
			attack(w, &rulesetv1.LegalAction{Name: "attack", Description: fmt.Sprintf("with %s as its free action", w.GetName()), Rule: "D20-004"}, true)
		}
		add("cast", &rulesetv1.LegalAction{Name: "cast", Description: "a spell as its free action", Rule: "D20-004"},
			&d20segv1.Action{Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Free: true}}}, spell)
		add("other", &rulesetv1.LegalAction{Name: "other", Description: "as its free action", Rule: "D20-004"},
			&d20segv1.Action{Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Free: true}}}, other)
		add("end turn", &rulesetv1.LegalAction{Name: "end turn", Description: "forgoing its free action and the surprise segments", Rule: "D20-016"}, endTurn)
		return out
	}
	if c := sys.AttackCost(f.sh.GetBba(), f.cs.GetAttacksThisRound()); sys.canStart(st, f, c) {
		for _, w := range f.sh.GetWeapons() {
			attack(w, &rulesetv1.LegalAction{Name: "attack", Description: fmt.Sprintf("with %s at segment %d", w.GetName(), f.cs.GetNextSegment()), Cost: c, Rule: "D20-017"}, false)
		}
	}
	// D20-018: a spell of each category whose casting time fits; +1 segment if damaging,
	// summoning or special, and a spell's own stated time prevails (D20-021).
	for i, k := range sys.n.SpellCosts {
		if c, _ := sys.SpellCost(&d20segv1.Cast{Level: k.FromLevel}); sys.canStart(st, f, c) {
			add("cast", &rulesetv1.LegalAction{Name: "cast", Cost: c, Rule: "D20-018", Description: fmt.Sprintf(
				"a spell of level %s (%s) at segment %d; +%s if damaging, summoning or special; a spell's stated time prevails", levels(k), spellCategories[i], f.cs.GetNextSegment(), plural(sys.n.SpecialSpell))},
				&d20segv1.Action{Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Level: k.FromLevel}}}, spell, special)
		}
	}
	if left >= sys.n.OtherCost {
		add("other", &rulesetv1.LegalAction{Name: "other", Cost: sys.n.OtherCost, Rule: "D20-022"}, &d20segv1.Action{Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{}}}, other)
	}
	add("end turn", &rulesetv1.LegalAction{Name: "end turn", Rule: "D20-016"}, endTurn)
	return out
}
