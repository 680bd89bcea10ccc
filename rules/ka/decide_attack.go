package ka

import (
	"fmt"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// targetIDs: the targets of an attack, the first and those of a burst (KA-033).
func targetIDs(a *kav1.Attack) []string {
	return append([]string{a.GetTargetId()}, a.GetMoreTargetIds()...)
}

// isBurst: a burst on one target or, with more targets, several (KA-033).
func isBurst(a *kav1.Attack) bool { return a.GetBurst() || len(a.GetMoreTargetIds()) > 0 }

// mayDefend: a target may defend if it is in the fight with an action left (KA-012).
func mayDefend(t fighter) (bool, string) {
	switch {
	case !t.conscious():
		return false, t.name() + " cannot defend"
	case t.cs.GetActionsLeft() <= 0:
		return false, t.name() + " has no action left: it can only soak (KA-012)"
	}
	return true, ""
}

// decideAttack: the attacker declares its attack (KA-020). When a target may defend, the
// attack waits for the answers of those that may, before any card is drawn; when none may,
// the attacker draws at once, a simple draw.
func (s System) decideAttack(st *encounterv1.EncounterState, f fighter, a *kav1.Attack, env engine.Env) ([]*encounterv1.Event, error) {
	w, err := s.usableWeapon(f, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	ids := targetIDs(a)
	if isBurst(a) && !w.GetBurst() {
		return nil, engine.Refused("KA-033", "only a sub-machine gun fires bursts; %s is not one", w.GetName())
	}
	if len(ids) > int(s.n.MaxBurstTargets) {
		return nil, engine.Refused("KA-033", "a burst reaches at most %d targets", s.n.MaxBurstTargets)
	}
	var awaited []string
	for i, id := range ids {
		t, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if t.id() == f.id() || slices.Contains(ids[:i], id) {
			return nil, engine.Invalid("", "%s: each target once, and not itself", f.name())
		}
		if ok, _ := mayDefend(t); ok {
			awaited = append(awaited, id)
		}
	}
	if len(awaited) > 0 {
		return one(&kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{
			AttackerId: f.id(), Attack: a, PendingIds: awaited,
		}}}), nil
	}
	return s.drawStep(st, f, a, f.cs.GetActionsTaken(), false, nil, env)
}

// drawStep makes the draws of an attack in one step (KA-020): the attacker's draw, then, target
// by target, its defence draw if it defends and the outcome. taken is the attacker's actions
// taken this round before the attack (KA-011); declared, the attack was declared and answered.
func (s System) drawStep(st *encounterv1.EncounterState, att fighter, a *kav1.Attack, taken int32, declared bool, answers []*kav1.DefenceAnnounced, env engine.Env) ([]*encounterv1.Event, error) {
	w, err := weaponOf(att, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	ids := targetIDs(a)
	var targets []fighter
	for _, id := range ids {
		if t, err := fighterOf(st, id); err == nil {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		return nil, engine.Refused("KA-020", "no target of the attack of %s is left", att.name())
	}
	sphere := w.GetSphere()
	mods := []int32{a.GetModifier(), -taken * s.n.ActionMalus}
	reasons := []string{"situation", "actions already taken this round (KA-011)"}
	if isBurst(a) {
		sphere = Animalite                                   // KA-033
		mods = append(mods, -int32(len(ids))*s.n.BurstMalus) // KA-033: −1 for a single target, −n for n
		reasons = append(reasons, "burst targets (KA-033)")
	}
	dk := s.deckOf(st)
	r := drawFor(dk, att, sphere, w.GetSkill(), mods, reasons, env.Dice)
	ad := &kav1.AttackDrawn{AttackerId: att.id(), TargetId: targets[0].id(), Attack: a, Draw: r, Declared: declared}
	answerOf := func(id string) *kav1.React {
		for _, x := range answers {
			if x.GetDefenderId() == id {
				return x.GetReact()
			}
		}
		return nil
	}
	if answerOf(targets[0].id()) != nil {
		ad.DefencePossible = true
	} else {
		_, ad.NoDefenceReason = mayDefend(targets[0])
	}
	evs := one(&kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: ad}})
	total := r.GetTotal()
	for _, t := range targets {
		re := answerOf(t.id())
		switch {
		case re.GetAttackBack(): // KA-008: tied Animalité, both attack; only the winner succeeds
			evs = append(evs, s.attackBack(st, dk, att, t, a, w, total, re, len(ids), env)...)
		case re.GetDefend(): // KA-009, KA-013: the attack's sphere + the defence skill, one action
			skill := re.GetSkill()
			if skill == "" {
				skill = Dodge
			}
			dd := &kav1.DefenceDrawn{DefenderId: t.id(), Defended: true,
				Draw: drawFor(dk, t, sphere, skill, []int32{-t.cs.GetActionsTaken() * s.n.ActionMalus}, []string{"actions already taken this round (KA-011)"}, env.Dice)}
			evs = append(evs, event(&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: dd}}))
			t.cs = proto.CloneOf(t.cs) // the defence has spent an action (KA-013)
			t.cs.ActionsLeft--
			t.cs.ActionsTaken++
			if m := s.Margin(total, dd.GetDraw().GetTotal(), true); m >= 0 { // KA-007
				evs = append(evs, s.resolve(st, dk, att, t, a, w, m, env.Dice, len(ids)))
			} else {
				evs = append(evs, miss(att, t, "the defender wins: no effect (KA-021)"))
			}
		default: // no defence: a simple draw (KA-005, KA-020)
			evs = append(evs, s.resolve(st, dk, att, t, a, w, s.Margin(total, 0, false), env.Dice, len(ids)))
		}
	}
	return evs, nil
}

// attackBack: with tied Animalité the defender attacks back (KA-008); only the winner of the
// opposition succeeds, with its own margin (total − 10); equal totals, both fail.
func (s System) attackBack(st *encounterv1.EncounterState, dk *deck, att, d fighter, a *kav1.Attack, w *kav1.Weapon, total int32, re *kav1.React, targets int, env engine.Env) []*encounterv1.Event {
	dw, _ := weaponOf(d, re.GetWeapon())
	dd := &kav1.DefenceDrawn{DefenderId: d.id(), AttackedBack: true,
		Draw: drawFor(dk, d, dw.GetSphere(), dw.GetSkill(), []int32{-d.cs.GetActionsTaken() * s.n.ActionMalus}, []string{"actions already taken this round (KA-011)"}, env.Dice)}
	evs := one(&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: dd}})
	d.cs = proto.CloneOf(d.cs) // attacking back is its action of this pass (KA-008)
	d.cs.ActionsLeft--
	d.cs.ActionsTaken++
	d.cs.ActedThisPass = true
	mine := dd.GetDraw().GetTotal()
	lost := "only the winner of the opposition succeeds: no effect (KA-008)"
	switch {
	case total > mine: // the winner's margin is its own total − 10, whatever the loser drew
		return append(evs, s.resolve(st, dk, att, d, a, w, total-s.n.SimpleThreshold, env.Dice, targets), miss(d, att, lost))
	case mine > total:
		return append(evs, miss(att, d, lost), s.resolve(st, dk, d, att, &kav1.Attack{TargetId: att.id(), Weapon: dw.GetName()}, dw, mine-s.n.SimpleThreshold, env.Dice, 1))
	}
	return append(evs, miss(att, d, "equal totals: both fail (KA-008)"), miss(d, att, "equal totals: both fail (KA-008)"))
}

// resolve applies a successful or failed attack on one target (KA-021…KA-031, KA-033).
func (s System) resolve(st *encounterv1.EncounterState, d *deck, att, t fighter, a *kav1.Attack, w *kav1.Weapon, margin int32, roller dice.Roller, targets int) *encounterv1.Event {
	r := &kav1.AttackResolved{AttackerId: att.id(), TargetId: t.id(), Margin: margin, KaLeft: t.cs.GetKaDice(), RealityLeft: t.cs.GetRealityPoints(),
		Unconscious: t.cs.GetUnconscious(), Dying: t.cs.GetDying()}
	out := func() *encounterv1.Event {
		return event(&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: r}})
	}
	damage, sphere := s.WeaponHit(w, a, targets)
	tg := Target{Seuil: s.Seuil(t.sh), KaDice: t.cs.GetKaDice(), Reality: t.cs.GetRealityPoints()}
	if !a.GetStun() { // KA-030: a stun is not soaked
		tg.Soak = Soak(t.sh, sphere)
	}
	b := s.Blow(options(st), margin, damage, a.GetStun(), tg)
	r.Level, r.Bonus = b.Level, b.Bonus
	if margin < 0 {
		return out()
	}
	r.Success = true
	r.WeaponDamage, r.Damage = damage, b.Damage
	var notes []string
	if a.GetStun() { // KA-030, KA-031: reality points, no soak
		r.RealityLost = b.RealityLost
		r.RealityLeft = t.cs.GetRealityPoints() - r.GetRealityLost()
		if b.AtSeuil {
			r.Unconscious = true
			notes = append(notes, fmt.Sprintf("%d points at once reach the seuil of %d: knocked out (KA-027, KA-031)", r.GetDamage(), tg.Seuil))
		}
		if b.LastPoint { // always a Ka die, seuil or not
			r.Unconscious = true
			r.KaLost, r.KaLeft = b.KaLost, b.KaLeft
			notes = append(notes, "no points de réalité left: knocked out, and one Ka die lost (KA-031)")
		}
	} else {
		r.Soak, r.KaLost, r.KaLeft = tg.Soak, b.KaLost, b.KaLeft // KA-023, KA-024
	}
	if r.GetKaLeft() == 0 && t.cs.GetKaDice() > 0 { // KA-025: the death draw
		r.Dying = true
		dr := &kav1.DrawResult{Draw: d.draw(roller, t.id())}
		dr.Total = dr.GetDraw().GetValue()
		r.DeathDraw = dr
		notes = append(notes, t.name()+" has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)")
	}
	if (r.GetUnconscious() || r.GetDying()) && sameTime(att, t) {
		r.StillActs = true // KA-014: neither cancels the other's action
		notes = append(notes, t.name()+" acts at the same time as "+att.name()+" and still takes its action this pass (KA-014)")
	}
	r.Note = strings.Join(notes, "; ")
	return out()
}

func miss(att, t fighter, note string) *encounterv1.Event {
	return event(&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{
		AttackerId: att.id(), TargetId: t.id(), Margin: -1, KaLeft: t.cs.GetKaDice(), RealityLeft: t.cs.GetRealityPoints(),
		Unconscious: t.cs.GetUnconscious(), Dying: t.cs.GetDying(), Note: note,
	}}})
}
