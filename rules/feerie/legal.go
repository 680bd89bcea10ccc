package feerie

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
)

// LegalCommands lists what a combatant may do now, each action with its command.
func (sys System) LegalCommands(st *encounterv1.EncounterState, id string) []engine.LegalCommand {
	f, err := fighterOf(st, id)
	if err != nil || !f.able() {
		return nil
	}
	var out []engine.LegalCommand
	add := func(key string, a *rulesetv1.LegalAction, act *feeriev1.Action, choices ...*rulesetv1.Choice) {
		a.Key, a.Choices = key, choices
		act.CombatantId = id
		out = append(out, engine.LegalCommand{Action: a, Command: &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: act}}})
	}
	s := feerieState(st)
	switch s.GetStep() {
	case feeriev1.Step_STEP_DECLARING:
		if f.cs.GetHasDeclared() {
			return nil
		}
		add("declare", &rulesetv1.LegalAction{Name: "declare", Description: declareTactic(f), Rule: "FEE-033"},
			&feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: &feeriev1.Intent{}}}}, intentChoices(st, f, "feerie.declare.intent", feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED)...)
	case feeriev1.Step_STEP_COUNTDOWN:
		if s.GetRank() == 0 || f.cs.GetRenounced() {
			return nil
		}
		if f.cs.GetSurpriseNoActivity() { // FEE-082: no activity, no gesture; it may renounce
			add("renounce", &rulesetv1.LegalAction{Name: "renounce", Rule: "FEE-075"}, &feeriev1.Action{Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}})
			return out
		}
		n := f.cs.GetActivities()
		rank := s.GetRank()
		essence := &rulesetv1.Choice{Field: "feerie.act.essence", Description: "Essence spent on the roll, +1 each (FEE-005)", Max: max(0, spendable(st, f))}
		act := &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}
		// The activity declared, as declared: not when it cannot take place now (an attack
		// with no angle left to attack from, FEE-092, FEE-093).
		if _, refused := sys.decideAct(st, f, act.GetAct()); refused == nil {
			if k := max(0, rank-f.cs.GetActingRank()); n == 0 && f.cs.GetCanAct() && (k == 0 || anyoneActed(st)) { // FEE-043, FEE-051
				add("act", &rulesetv1.LegalAction{Name: "act", Description: fmt.Sprintf("at rank %d: %+d", rank, -k), Cost: k, Rule: "FEE-050"}, act, essence)
			} else if n > 0 && rank < f.cs.GetLastRank() {
				k := max(0, rank-sys.furtherRank(f))
				add("act", &rulesetv1.LegalAction{Name: "act again", Description: fmt.Sprintf("at rank %d: %+d", rank, -(k + sys.n.SupplementaryMalus*n)), Cost: k + sys.n.SupplementaryMalus*n, Rule: "FEE-061"}, act, essence)
			}
		}
		if f.cs.GetCanAct() {
			add("change", &rulesetv1.LegalAction{Name: "change", Cost: sys.n.ChangeMalus, Rule: "FEE-070"},
				&feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: &feeriev1.Intent{}}}}, intentChoices(st, f, "feerie.change.intent", f.cs.GetDeclared().GetKind())...)
		}
		add("renounce", &rulesetv1.LegalAction{Name: "renounce", Rule: "FEE-075"}, &feeriev1.Action{Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}})
		add("gesture", &rulesetv1.LegalAction{Name: "gesture", Rule: "FEE-047"}, &feeriev1.Action{Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{}}},
			&rulesetv1.Choice{Field: "feerie.gesture.description", Description: "the gesture, in words: walking slowly, talking, a simple gesture", Min: 1, Max: engine.MaxNameLength, Required: true})
	}
	return out
}

// intentChoices: the choices of an intention at path (FEE-040): its kind of activity (the
// kind declared, if any, last: a change is another intention), its target, the Aspect of
// another activity.
func intentChoices(st *encounterv1.EncounterState, f fighter, path string, declared feeriev1.ActivityKind) []*rulesetv1.Choice {
	kind := &rulesetv1.Choice{Field: path + ".kind", Description: "the activity", Min: 1, Max: 1, Required: true}
	var last *rulesetv1.ChoiceOption
	for _, k := range []struct {
		kind  feeriev1.ActivityKind
		label string
	}{
		{feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, "a melee attack"}, {feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, "a ranged attack"},
		{feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, "another roll: an Aspect against a difficulty"}, {feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, "no roll: moving, watching"},
	} {
		o := &rulesetv1.ChoiceOption{Value: k.kind.String(), Label: k.label}
		if k.kind == declared {
			last = o
			continue
		}
		kind.Options = append(kind.Options, o)
	}
	if last != nil {
		kind.Options = append(kind.Options, last)
	}
	target := &rulesetv1.Choice{Field: path + ".target_id", Description: "the target of an attack (required for an attack)", Max: 1, Required: true}
	for _, o := range fighters(st) {
		if o.id() != f.id() {
			target.Options = append(target.Options, &rulesetv1.ChoiceOption{Value: o.id(), Label: o.name()})
		}
	}
	aspects := &rulesetv1.Choice{Field: path + ".aspect", Description: "the Aspect rolled by another activity (required for one)", Max: 1}
	for _, a := range []string{"vigilance", "habilete", "puissance", "resistance", "charme"} {
		aspects.Options = append(aspects.Options, &rulesetv1.ChoiceOption{Value: a, Label: a})
	}
	out := []*rulesetv1.Choice{kind, target, aspects,
		{Field: path + ".difficulty", Description: "the difficulty of another activity", Max: 99}}
	return append(out, tacticChoices(f, path)...)
}

// appliedTo names the five lists of Attributes an intent applies, as a player reads them
// (FEE-010…FEE-017).
var appliedTo = []struct{ field, what, rule string }{
	{"attack", "the Attack: it makes the tactic cap", "FEE-011"},
	{"defense", "the Defense: it makes the tactic cap", "FEE-013"},
	{"initiative", "the Initiative", "FEE-010"},
	{"damage", "the Damage (not one applied to the Attack)", "FEE-016"},
	{"soak", "the Soak (not one applied to the Defense)", "FEE-017"},
}

// tacticChoices: the Attributes the combatant may apply, and the tactic they allow
// (FEE-030…FEE-035): a named one of FEE-034 within its greatest cap, or any three modifiers
// within it. A surprised combatant declares no tactic (FEE-080); one with no Attribute to apply
// has no cap, so no tactic.
func tacticChoices(f fighter, path string) []*rulesetv1.Choice {
	attrs := f.sh.GetAttributes()
	if len(attrs) == 0 {
		return nil
	}
	var out []*rulesetv1.Choice
	for _, a := range appliedTo {
		c := &rulesetv1.Choice{Field: path + ".applied." + a.field, Description: "the Attributes applied to " + a.what + " (" + a.rule + ")", Max: int32(len(attrs))}
		for _, at := range attrs {
			c.Options = append(c.Options, &rulesetv1.ChoiceOption{Value: at.GetName(), Label: at.GetName() + " " + narrate.Signed(at.GetValue())})
		}
		out = append(out, c)
	}
	most := greatestCap(f.sh)
	if most <= 0 || f.cs.GetSurprisedActions() > 0 {
		return out
	}
	presets := &rulesetv1.Choice{Field: path + ".tactic.preset", Description: "a named tactic (FEE-034), for a cap of 4 or more", Max: 1}
	for _, p := range Presets {
		if max(abs(p.Init), abs(p.Att), abs(p.Def)) <= most {
			presets.Options = append(presets.Options, &rulesetv1.ChoiceOption{Value: p.Name,
				Label: p.Name + " " + narrate.Signed(p.Init) + "/" + narrate.Signed(p.Att) + "/" + narrate.Signed(p.Def)})
		}
	}
	if len(presets.Options) > 0 {
		out = append(out, presets)
	}
	for _, m := range []string{"initiative", "attack", "defense"} {
		out = append(out, &rulesetv1.Choice{Field: path + ".tactic." + m, Min: -most, Max: most,
			Description: "the tactic's " + m + " modifier: the three add up to 0, each at most the cap of the Attributes applied to the Attack or the Defense (FEE-031, FEE-032)"})
	}
	return out
}

// greatestCap is the greatest tactic cap a sheet allows: every Attribute of positive value
// applied to the Attack or the Defense (FEE-032).
func greatestCap(sh *feeriev1.Sheet) int32 {
	var c int32
	for _, a := range sh.GetAttributes() {
		c += max(0, a.GetValue())
	}
	return c
}

// declareTactic describes the declaration's tactic: the cap its Attributes allow at most.
func declareTactic(f fighter) string {
	switch most := greatestCap(f.sh); {
	case f.cs.GetSurprisedActions() > 0:
		return "surprised: no tactic this Action (FEE-080)"
	case most <= 0:
		return "no tactic: no Affinity, Power or Accessoire to apply to the Attack or the Defense (FEE-030)"
	default:
		return fmt.Sprintf("tactic cap up to %d: the Attributes applied to the Attack or the Defense (FEE-032)", most)
	}
}
