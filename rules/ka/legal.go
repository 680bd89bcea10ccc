package ka

import (
	"fmt"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// LegalCommands lists what a combatant may do now, each action with its command: its answers
// to the attack awaiting them, or, in its turn, its actions.
func (s System) LegalCommands(st *encounterv1.EncounterState, id string) []engine.LegalCommand {
	f, err := fighterOf(st, id)
	if err != nil {
		return nil
	}
	l := &legalList{st: st, id: id}
	if p := kaState(st).GetPending(); p != nil {
		if p.GetDefenderId() != id {
			return nil
		}
		s.legalAnswers(l, f, p)
		return l.out
	}
	if turn(st, f) != nil {
		return nil
	}
	var targets []string
	for _, o := range fighters(st) {
		if o.id() != id && o.conscious() {
			targets = append(targets, o.id())
		}
	}
	s.legalAttacks(l, f, targets)
	for _, w := range f.cs.GetWeaponsLost() {
		l.add("pick up", &rulesetv1.LegalAction{Name: "pick up", Description: "with " + w + ", lost to a disarm", Cost: 1, Rule: "KA-032", Weapon: w}, &kav1.PickUp{Weapon: w})
	}
	s.legalDisarm(l, f, targets)
	l.add("pass", &rulesetv1.LegalAction{Name: "pass", Rule: "KA-015"}, &kav1.Pass{})
	return l.out
}

// legalList gathers the legal actions of one combatant, each with its command.
type legalList struct {
	st  *encounterv1.EncounterState
	id  string
	out []engine.LegalCommand
}

// add lists an action under key, with the Ka command kind carries and its choices; a React is
// a reaction.
func (l *legalList) add(key string, a *rulesetv1.LegalAction, kind proto.Message, choices ...*rulesetv1.Choice) {
	a.Key, a.Choices = key, choices
	act := &kav1.Action{CombatantId: l.id}
	engine.SetKind(act, kind)
	if _, ok := kind.(*kav1.React); ok {
		a.Reaction = true
	}
	l.out = append(l.out, engine.LegalCommand{Action: a, Command: &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: act}}})
}

// targetChoice is the choice of a target among ids, by their names.
func (l *legalList) targetChoice(field string, ids []string) *rulesetv1.Choice {
	c := &rulesetv1.Choice{Field: field, Description: "the target", Min: 1, Max: 1, Required: true}
	for _, id := range ids {
		c.Options = append(c.Options, &rulesetv1.ChoiceOption{Value: id, Label: engine.FindCombatant(l.st, id).GetName()})
	}
	return c
}

// legalAnswers: the target of a declared attack takes it, dodges or, where the Maître de Ka
// allows it and the attack is no stun, parries (KA-013, KA-020, KA-030); with the attacker's
// Animalité and its action of this pass left, it may attack back (KA-008).
func (s System) legalAnswers(l *legalList, f fighter, p *kav1.Pending) {
	l.add("take it", &rulesetv1.LegalAction{Name: "take it", Description: "no defence: the attacker's draw stands alone", Rule: "KA-020"}, &kav1.React{})
	if f.cs.GetActionsLeft() > 0 {
		l.add("dodge", &rulesetv1.LegalAction{Name: "dodge", Description: "with " + Dodge, Cost: 1, Rule: "KA-013"}, &kav1.React{Defend: true, Skill: Dodge})
		if options(l.st).GetParry() && !p.GetAttack().GetStun() {
			skill := &rulesetv1.Choice{Field: "ka.react.skill", Description: "the defence skill", Min: 1, Max: 1, Required: true}
			var names []string
			for n := range f.sh.GetSkills() {
				if n != Dodge {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			for _, n := range names {
				skill.Options = append(skill.Options, &rulesetv1.ChoiceOption{Value: n, Label: n})
			}
			l.add("parry", &rulesetv1.LegalAction{Name: "parry", Description: "with a defence skill the reaction names", Cost: 1, Rule: "KA-013"}, &kav1.React{Defend: true}, skill)
		}
	}
	if att, err := fighterOf(l.st, p.GetAttackerId()); err == nil && f.cs.GetActionsLeft() > 0 && !f.cs.GetActedThisPass() &&
		att.sh.GetSpheres()[Animalite] == f.sh.GetSpheres()[Animalite] {
		for _, w := range s.usableWeapons(f) {
			l.add("attack back", &rulesetv1.LegalAction{Name: "attack back", Description: fmt.Sprintf("with %s: only the winner succeeds", w.GetName()),
				Cost: 1, Rule: "KA-008", Targets: []string{att.id()}, Weapon: w.GetName()}, &kav1.React{AttackBack: true, Weapon: w.GetName()})
		}
	}
}

// legalAttacks: an attack with each weapon f may use (KA-018, KA-032) on one of the targets
// standing, a stun or not (KA-030), a burst with a sub-machine gun (KA-033).
func (s System) legalAttacks(l *legalList, f fighter, targets []string) {
	for _, w := range s.usableWeapons(f) {
		if len(targets) == 0 { // no one left standing to attack
			break
		}
		choices := []*rulesetv1.Choice{l.targetChoice("ka.attack.target_id", targets),
			{Field: "ka.attack.stun", Description: "a stun: the damage goes to points de réalité (KA-030)", Max: 1,
				Options: []*rulesetv1.ChoiceOption{{Value: "true", Label: "stun"}, {Value: "false", Label: "no stun"}}}}
		if w.GetBurst() {
			more := l.targetChoice("ka.attack.more_target_ids", targets)
			more.Description, more.Min, more.Max, more.Required = "a burst's further targets within 1 m (KA-033)", 0, s.n.MaxBurstTargets-1, false
			choices = append(choices, &rulesetv1.Choice{Field: "ka.attack.burst", Description: "a burst (KA-033)", Max: 1,
				Options: []*rulesetv1.ChoiceOption{{Value: "true", Label: "burst"}, {Value: "false", Label: "single shot"}}}, more)
		}
		l.add("attack", &rulesetv1.LegalAction{Name: "attack", Description: fmt.Sprintf("with %s (%s + %s, −%d)", w.GetName(), w.GetSphere(), w.GetSkill(), f.cs.GetActionsTaken()*s.n.ActionMalus),
			Cost: 1, Rule: "KA-018", Targets: targets, Weapon: w.GetName()}, &kav1.Attack{Weapon: w.GetName()}, choices...)
	}
}

// legalDisarm: a disarm needs a target with a weapon to lose (KA-032): the choices offer those,
// the first target's weapons first. A hidden target's weapons are its sheet, which only some
// readers see: it comes last, its weapons not offered (to be named by whoever knows them).
func (s System) legalDisarm(l *legalList, f fighter, targets []string) {
	target := &rulesetv1.Choice{Field: "ka.disarm.target_id", Description: "the target, one holding a weapon", Min: 1, Max: 1, Required: true}
	weapon := &rulesetv1.Choice{Field: "ka.disarm.weapon", Description: "the target's weapon to knock away (a hidden target's, by its name)", Min: 1, Max: 1, Required: true}
	var hidden []*rulesetv1.ChoiceOption
	for _, id := range targets {
		t, _ := fighterOf(l.st, id)
		if t.c.GetHidden() {
			hidden = append(hidden, &rulesetv1.ChoiceOption{Value: id, Label: t.name()})
			continue
		}
		held := heldWeapons(t)
		if len(held) == 0 {
			continue
		}
		target.Options = append(target.Options, &rulesetv1.ChoiceOption{Value: id, Label: t.name()})
		for _, w := range held {
			weapon.Options = append(weapon.Options, &rulesetv1.ChoiceOption{Value: w.GetName(), Label: t.name() + "'s " + w.GetName()})
		}
	}
	target.Options = append(target.Options, hidden...)
	weapon.Required = len(weapon.Options) > 0
	if len(target.Options) == 0 {
		return
	}
	skill := &rulesetv1.Choice{Field: "ka.disarm.skill", Description: "the skill to disarm with", Min: 1, Max: 1, Required: true}
	for _, k := range s.disarmSkills(f) {
		skill.Options = append(skill.Options, &rulesetv1.ChoiceOption{Value: k, Label: k})
	}
	l.add("disarm", &rulesetv1.LegalAction{Name: "disarm", Description: "with " + strings.Join(s.disarmSkills(f), ", "), Cost: 1, Rule: "KA-032", Targets: targets},
		&kav1.Disarm{}, target, skill, weapon)
}
