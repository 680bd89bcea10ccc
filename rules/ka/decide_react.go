package ka

import (
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// decideReact: the defender announces, before any card is drawn, whether it defends (KA-020);
// once every target that may defend has answered, the draws are made in the same step.
func (s System) decideReact(st *encounterv1.EncounterState, id string, re *kav1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p := kaState(st).GetPending()
	if p == nil {
		return nil, engine.Because(engine.Refused("KA-020", "no attack is waiting for an answer"), engine.ReasonNoPendingReaction, nil)
	}
	if id == "" {
		id = p.GetDefenderId()
	}
	if id != p.GetDefenderId() {
		return nil, engine.Refused("KA-020", "the attack waiting for an answer is against %s", p.GetDefenderId())
	}
	if err := engine.MayCommand(st, env.Actor, id); err != nil {
		return nil, err
	}
	d, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	att, err := fighterOf(st, p.GetAttackerId())
	if err != nil {
		return nil, err
	}
	answer, err := s.answer(st, d, att, p, re)
	if err != nil {
		return nil, err
	}
	ann := &kav1.DefenceAnnounced{DefenderId: id, React: answer}
	evs := one(&kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: ann}})
	if len(p.GetQueuedIds()) > 0 { // the next target of the burst answers in its turn
		return evs, nil
	}
	answers := append(slices.Clone(p.GetAnswers()), ann)
	more, err := s.drawStep(st, att, p.GetAttack(), p.GetActionsTaken(), true, answers, env)
	if err != nil {
		return nil, err
	}
	return append(evs, more...), nil
}

// answer checks a defender's answer to the attack p awaits (KA-020): it takes it, defends with
// Esquive or, where allowed, a parry (KA-009, KA-012, KA-013, KA-030), or attacks back with the
// attacker's Animalité and its action of this pass left (KA-008); it never does both.
func (s System) answer(st *encounterv1.EncounterState, d, att fighter, p *kav1.Pending, re *kav1.React) (*kav1.React, error) {
	switch {
	case re.GetAttackBack() && re.GetDefend():
		return nil, engine.Invalid("KA-020", "%s either defends or attacks back, not both", d.name())
	case re.GetAttackBack():
		if d.sh.GetSpheres()[Animalite] != att.sh.GetSpheres()[Animalite] || d.cs.GetActedThisPass() || d.cs.GetActionsLeft() <= 0 {
			return nil, engine.Refused("KA-008", "%s can attack back only with the same Animalité as %s and an action left in this pass", d.name(), att.name())
		}
		if re.GetSkill() != "" {
			return nil, engine.Invalid("KA-008", "%s attacks back with a weapon, not a defence skill", d.name())
		}
		dw, err := s.usableWeapon(d, re.GetWeapon())
		if err != nil {
			return nil, err
		}
		return &kav1.React{AttackBack: true, Weapon: dw.GetName()}, nil
	case re.GetDefend():
		if d.cs.GetActionsLeft() <= 0 {
			return nil, engine.Refused("KA-012", "%s has no action left to defend", d.name())
		}
		skill := strings.TrimSpace(re.GetSkill())
		if skill == "" {
			skill = Dodge
		}
		switch {
		case skill != Dodge && !options(st).GetParry():
			return nil, engine.Refused("KA-013", "the Maître de Ka allows no parry in this encounter (option parry): %s may dodge with %s, or take it", d.name(), Dodge)
		case skill != Dodge && p.GetAttack().GetStun():
			return nil, engine.Refused("KA-030", "the victim of a stun may dodge it with %s, not parry it with %s", Dodge, skill)
		}
		if re.GetWeapon() != "" {
			return nil, engine.Invalid("KA-013", "a defence names its skill, not a weapon")
		}
		return &kav1.React{Defend: true, Skill: skill}, nil
	case re.GetSkill() != "" || re.GetWeapon() != "":
		return nil, engine.Invalid("KA-020", "%s takes the attack: no skill or weapon goes with that answer", d.name())
	}
	return &kav1.React{}, nil
}
