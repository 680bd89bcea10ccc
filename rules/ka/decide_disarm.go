package ka

import (
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// disarmSkills: the skills f may disarm with: Bagarre, the skill of a weapon it holds, or one of
// its powers (KA-032); from version 2, also that of a weapon it lost at the same moment as this
// action (KA-014).
func (s System) disarmSkills(f fighter) []string {
	out := []string{Brawl}
	for _, w := range f.sh.GetWeapons() {
		held := !hasLost(f, w.GetName())
		if s.n.ExcuseOnlyLostAtOnce {
			held = s.mayUse(f, w.GetName())
		}
		if held && !slices.Contains(out, w.GetSkill()) {
			out = append(out, w.GetSkill())
		}
	}
	var powers []string
	for p := range f.sh.GetPowers() {
		if !slices.Contains(out, p) {
			powers = append(powers, p)
		}
	}
	slices.Sort(powers)
	return append(out, powers...)
}

// decideDisarm (KA-032): Humanité + skill against Humanité + the skill of the target's weapon;
// resisting is not an action; strictly higher, and at least 10, disarms.
func (s System) decideDisarm(st *encounterv1.EncounterState, f fighter, a *kav1.Disarm, env engine.Env) ([]*encounterv1.Event, error) {
	t, err := fighterOf(st, a.GetTargetId())
	if err != nil {
		return nil, err
	}
	if t.id() == f.id() {
		return nil, engine.Invalid("", "%s cannot disarm itself", f.name())
	}
	if skills := s.disarmSkills(f); !slices.Contains(skills, a.GetSkill()) {
		return nil, engine.Invalid("KA-032", "%s disarms with %s, the skill of a weapon it holds or one of its powers (%s), not %q",
			f.name(), Brawl, strings.Join(skills, ", "), a.GetSkill())
	}
	held := heldWeapons(t)
	switch {
	case len(held) == 0:
		return nil, engine.Refused("KA-032", "%s has no weapon to lose", t.name())
	case hasLost(t, a.GetWeapon()):
		return nil, engine.Refused("KA-032", "%s has already lost its %s", t.name(), a.GetWeapon())
	}
	tw, err := engine.ByName(held, a.GetWeapon(), t.name(), "weapon")
	if err != nil {
		return nil, err
	}
	d := s.deckOf(st)
	r := drawFor(d, f, Humanite, a.GetSkill(), []int32{a.GetModifier(), -f.cs.GetActionsTaken() * s.n.ActionMalus}, []string{"situation", "actions already taken this round (KA-011)"}, env.Dice)
	res := drawFor(d, t, Humanite, tw.GetSkill(), nil, nil, env.Dice) // not an action: no KA-011 malus
	ok := r.GetTotal() >= s.n.SimpleThreshold && r.GetTotal() > res.GetTotal()
	return one(&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{
		CombatantId: f.id(), TargetId: t.id(), Draw: r, Resistance: res, Success: ok, Weapon: tw.GetName(),
		StillActs: ok && sameTime(f, t),
	}}}), nil
}

// decidePickUp: a disarmed combatant picks its weapon up again, one action (KA-032).
func decidePickUp(f fighter, a *kav1.PickUp) ([]*encounterv1.Event, error) {
	w := a.GetWeapon()
	lost := f.cs.GetWeaponsLost()
	if w == "" && len(lost) == 1 {
		w = lost[0]
	}
	if !slices.Contains(lost, w) {
		if len(lost) == 0 {
			return nil, engine.Refused("KA-032", "%s has lost no weapon to pick up", f.name())
		}
		return nil, engine.Refused("KA-032", "%s has not lost %q; it may pick up %s", f.name(), w, strings.Join(lost, ", "))
	}
	return one(&kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: f.id(), Weapon: w}}}), nil
}
