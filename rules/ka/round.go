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

type fighter struct {
	c  *encounterv1.Combatant
	sh *kav1.Sheet
	cs *kav1.CombatantState
}

func (f fighter) id() string   { return f.c.GetId() }
func (f fighter) name() string { return f.c.GetName() }
func (f fighter) conscious() bool {
	return !f.cs.GetUnconscious() && !f.cs.GetDying() && f.cs.GetKaDice() > 0
}

// mayAct: may still take an action this pass (KA-012, KA-015), even out of the fight when
// put out at the same time as its own action (KA-014).
func (f fighter) mayAct() bool {
	return (f.conscious() || f.cs.GetStillActs()) && !f.cs.GetPassed() && f.cs.GetActionsLeft() > 0 && !f.cs.GetActedThisPass()
}

// sameTime: an action of att on t happens at the same time as t's own action in this pass
// (equal rank, t not yet acted): its result applies, and t still takes its action (KA-014).
func sameTime(att, t fighter) bool {
	return rank(att) == rank(t) && t.mayAct()
}

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		return fighter{}, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	cs := kaState(st).GetCombatants()[id]
	if cs == nil {
		cs = &kav1.CombatantState{}
	}
	return fighter{c: c, sh: c.GetKa(), cs: cs}, nil
}

func fighters(st *encounterv1.EncounterState) []fighter {
	var out []fighter
	for _, c := range st.GetCombatants() {
		f, _ := fighterOf(st, c.GetId())
		out = append(out, f)
	}
	return out
}

// rank orders the pass: Animalité first, then a player character before a non-player one
// (KA-014).
func rank(f fighter) int32 {
	r := f.sh.GetSpheres()[Animalite] * 2
	if f.sh.GetPlayerCharacter() {
		r++
	}
	return r
}

// upNext: the fighters whose turn it is in the pass; equal ranks act at the same time.
func upNext(st *encounterv1.EncounterState) []fighter {
	var best []fighter
	var top int32 = -1
	for _, f := range fighters(st) {
		if !f.mayAct() {
			continue
		}
		switch r := rank(f); {
		case r > top:
			top, best = r, []fighter{f}
		case r == top:
			best = append(best, f)
		}
	}
	return best
}

// Start shuffles the encounter's deck and opens the first round (KA-003, KA-010).
func (System) Start(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	sh := Shuffle(NewDeck(), env.Dice)
	return []*encounterv1.Event{
		event(&kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: sh}}),
		roundStarted(st, 1),
	}, nil
}

func roundStarted(st *encounterv1.EncounterState, round int32) *encounterv1.Event {
	rs := &kav1.RoundStarted{Round: round, Actions: map[string]int32{}}
	for _, f := range fighters(st) {
		if f.conscious() {
			rs.Actions[f.id()] = LowestSphere(f.sh) // KA-010
		}
	}
	return event(&kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: rs}})
}

// Decide validates a Ka action and returns its events.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetKa()
	if a == nil {
		return nil, engine.Unimplemented("Ka does not know this command")
	}
	s := kaState(st)
	var evs []*encounterv1.Event
	var err error
	if r := a.GetReact(); r != nil {
		evs, err = decideReact(st, a.GetCombatantId(), r, env)
	} else if t := a.GetTerror(); t != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, engine.Forbidden("only the Maître de Ka calls for a Terror draw")
		}
		f, ferr := fighterOf(st, a.GetCombatantId())
		if ferr != nil {
			return nil, ferr
		}
		evs = terror(st, f, t, env.Dice)
	} else {
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, ferr := fighterOf(st, a.GetCombatantId())
		if ferr != nil {
			return nil, ferr
		}
		if s.GetPending() != nil {
			d, _ := fighterOf(st, s.GetPending().GetDefenderId())
			return nil, engine.Refused("KA-020", "%s must first say whether it defends", d.name())
		}
		if err := turn(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *kav1.Action_Attack:
			evs, err = decideAttack(st, f, k.Attack, env)
		case *kav1.Action_Disarm:
			evs, err = decideDisarm(st, f, k.Disarm, env)
		case *kav1.Action_Pass:
			evs = one(&kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: f.id()}}})
		default:
			return nil, engine.Invalid("", "the action of %s is empty", f.name())
		}
	}
	if err != nil {
		return nil, err
	}
	return append(evs, nextPass(sys, st, evs)...), nil
}

func one(e *kav1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }

// FollowUp starts the next pass or round when the GM's removal of a combatant (the last one
// still to act in the pass, or a side of the attack awaiting an answer) leaves no one able to
// act (KA-015).
func (sys System) FollowUp(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	return nextPass(sys, st, nil), nil
}

// turn checks that it is f's turn in the pass (KA-012, KA-014, KA-015).
func turn(st *encounterv1.EncounterState, f fighter) error {
	switch {
	case !f.conscious() && !f.cs.GetStillActs():
		return engine.Refused("KA-025", "%s is out of the fight", f.name())
	case f.cs.GetPassed():
		return engine.Refused("KA-015", "%s has passed for the rest of the round", f.name())
	case f.cs.GetActionsLeft() <= 0:
		return engine.Refused("KA-012", "%s has used its %d action(s) this round: it can only soak", f.name(), LowestSphere(f.sh))
	case f.cs.GetActedThisPass():
		return engine.Refused("KA-015", "%s has already acted in this pass round the table", f.name())
	}
	next := upNext(st)
	if !slices.ContainsFunc(next, func(x fighter) bool { return x.id() == f.id() }) {
		return engine.Refused("KA-014", "it is %s's turn first (Animalité %d against %s's %d)", next[0].name(), next[0].sh.GetSpheres()[Animalite], f.name(), f.sh.GetSpheres()[Animalite])
	}
	return nil
}

// nextPass starts the next pass, or the next round, when no one may act any more (KA-015).
func nextPass(sys System, st *encounterv1.EncounterState, evs []*encounterv1.Event) []*encounterv1.Event {
	next := proto.CloneOf(st)
	for _, ev := range evs {
		_ = sys.Evolve(next, ev)
	}
	s := kaState(next)
	if s.GetPending() != nil || len(upNext(next)) > 0 {
		return nil
	}
	for _, f := range fighters(next) {
		if f.conscious() && !f.cs.GetPassed() && f.cs.GetActionsLeft() > 0 {
			return []*encounterv1.Event{event(&kav1.Event{Kind: &kav1.Event_PassStarted{PassStarted: &kav1.PassStarted{Pass: s.GetPass() + 1}}})}
		}
	}
	return []*encounterv1.Event{roundStarted(next, s.GetRound()+1)}
}

// drawFor makes a draw: sphere + skill + modifiers + cards (KA-004), the cumulative malus of
// actions already taken this round included (KA-011).
func drawFor(d *deck, f fighter, sphere, skill string, mods []int32, reasons []string, roller dice.Roller) *kav1.DrawResult {
	r := &kav1.DrawResult{Sphere: sphere, SphereValue: f.sh.GetSpheres()[sphere], Skill: skill, SkillValue: f.sh.GetSkills()[skill]}
	for i, m := range mods {
		if m != 0 {
			r.Modifiers += m
			r.ModifierReasons = append(r.ModifierReasons, fmt.Sprintf("%+d %s", m, reasons[i]))
		}
	}
	r.Draw = d.draw(roller)
	r.Total = r.GetSphereValue() + r.GetSkillValue() + r.GetModifiers() + r.GetDraw().GetValue()
	return r
}

func weaponOf(f fighter, name string) (*kav1.Weapon, error) {
	return engine.ByName(f.sh.GetWeapons(), name, f.name(), "weapon")
}

func decideAttack(st *encounterv1.EncounterState, f fighter, a *kav1.Attack, env engine.Env) ([]*encounterv1.Event, error) {
	w, err := weaponOf(f, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	if f.cs.GetDisarmed() && !f.cs.GetStillActs() {
		return nil, engine.Refused("KA-032", "%s has been disarmed", f.name())
	}
	ids := append([]string{a.GetTargetId()}, a.GetMoreTargetIds()...)
	burst := a.GetBurst() || len(a.GetMoreTargetIds()) > 0
	if burst && !w.GetBurst() {
		return nil, engine.Refused("KA-033", "only a sub-machine gun fires bursts; %s is not one", w.GetName())
	}
	if len(ids) > MaxBurstTargets {
		return nil, engine.Refused("KA-033", "a burst reaches at most %d targets", MaxBurstTargets)
	}
	var targets []fighter
	for _, id := range ids {
		t, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if t.id() == f.id() || slices.ContainsFunc(targets, func(x fighter) bool { return x.id() == id }) {
			return nil, engine.Invalid("", "%s: each target once, and not itself", f.name())
		}
		targets = append(targets, t)
	}
	sphere := w.GetSphere()
	if burst {
		sphere = Animalite // KA-033
	}
	mods := []int32{a.GetModifier(), -f.cs.GetActionsTaken()}
	reasons := []string{"situation", "actions already taken this round (KA-011)"}
	if len(ids) > 1 {
		mods = append(mods, -int32(len(ids)))
		reasons = append(reasons, "burst targets (KA-033)")
	}
	d := deckOf(kaState(st), options(st))
	r := drawFor(d, f, sphere, w.GetSkill(), mods, reasons, env.Dice)
	ad := &kav1.AttackDrawn{AttackerId: f.id(), TargetId: targets[0].id(), Attack: a, Draw: r}
	var evs []*encounterv1.Event
	var resolved []*encounterv1.Event
	for i, t := range targets {
		switch {
		case !t.conscious():
			if i == 0 {
				ad.NoDefenceReason = t.name() + " cannot defend"
			}
		case t.cs.GetActionsLeft() <= 0 || t.cs.GetPassed() && t.cs.GetActionsLeft() <= 0:
			if i == 0 {
				ad.NoDefenceReason = t.name() + " has no action left: it can only soak (KA-012)"
			}
		default:
			ad.PendingIds = append(ad.PendingIds, t.id())
			if i == 0 {
				ad.DefencePossible = true
			}
			continue
		}
		resolved = append(resolved, resolve(st, d, f, t, a, w, r.GetTotal()-SimpleThreshold, env.Dice, len(ids)))
	}
	evs = append(evs, event(&kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: ad}}))
	return append(evs, resolved...), nil
}

// resolve applies a successful or failed attack on one target (KA-021…KA-031, KA-033).
func resolve(st *encounterv1.EncounterState, d *deck, att, t fighter, a *kav1.Attack, w *kav1.Weapon, margin int32, roller dice.Roller, targets int) *encounterv1.Event {
	o := options(st)
	r := &kav1.AttackResolved{AttackerId: att.id(), TargetId: t.id(), Margin: margin, KaLeft: t.cs.GetKaDice(), RealityLeft: t.cs.GetRealityPoints(),
		Unconscious: t.cs.GetUnconscious(), Dying: t.cs.GetDying()}
	out := func() *encounterv1.Event {
		return event(&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: r}})
	}
	r.Level, r.Bonus = Level(o, margin)
	if margin < 0 {
		return out()
	}
	r.Success = true
	r.WeaponDamage = w.GetDamage()
	switch {
	case targets > 1:
		r.WeaponDamage = BurstPerBullet // KA-033: each target hit takes one bullet's damage
	case a.GetBurst():
		r.WeaponDamage = BurstSingle // KA-033: the whole burst on one target
	}
	r.Damage = r.GetBonus() + r.GetWeaponDamage() // KA-022
	if a.GetStun() {                              // KA-030, KA-031: reality points, no soak
		r.RealityLost = min(r.GetDamage(), t.cs.GetRealityPoints())
		r.RealityLeft = t.cs.GetRealityPoints() - r.GetRealityLost()
		switch {
		case r.GetDamage() >= Seuil(t.sh):
			r.Unconscious, r.Note = true, fmt.Sprintf("%d points at once reach the seuil of %d: knocked out (KA-027, KA-031)", r.GetDamage(), Seuil(t.sh))
		case r.GetRealityLeft() == 0 && t.cs.GetRealityPoints() > 0:
			r.Unconscious, r.KaLost = true, 1
			r.KaLeft = max(0, r.GetKaLeft()-1)
			r.Note = "no points de réalité left: knocked out, and one Ka die lost (KA-031)"
		}
	} else {
		r.Soak = t.sh.GetSpheres()[w.GetSphere()] + t.sh.GetEncaissement() + t.sh.GetProtection() // KA-023
		if a.GetBurst() || targets > 1 {
			r.Soak = t.sh.GetSpheres()[Animalite] + t.sh.GetEncaissement() + t.sh.GetProtection()
		}
		r.KaLost = min(KaLost(o, r.GetDamage()-r.GetSoak()), t.cs.GetKaDice()) // KA-024
		r.KaLeft = t.cs.GetKaDice() - r.GetKaLost()
	}
	if r.GetKaLeft() == 0 && t.cs.GetKaDice() > 0 { // KA-025: the death draw
		r.Dying = true
		dr := &kav1.DrawResult{Draw: d.draw(roller)}
		dr.Total = dr.GetDraw().GetValue()
		r.DeathDraw = dr
		r.Note = t.name() + " has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"
	}
	if (r.GetUnconscious() || r.GetDying()) && sameTime(att, t) {
		r.StillActs = true // KA-014: neither cancels the other's action
		r.Note = strings.TrimSpace(r.GetNote() + " " + t.name() + " acts at the same time as " + att.name() + " and still takes its action this pass (KA-014)")
	}
	return out()
}

func decideReact(st *encounterv1.EncounterState, id string, re *kav1.React, env engine.Env) ([]*encounterv1.Event, error) {
	s := kaState(st)
	p := s.GetPending()
	if p == nil {
		return nil, engine.Refused("KA-020", "no attack is waiting for an answer")
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
	d, _ := fighterOf(st, id)
	att, err := fighterOf(st, p.GetAttackerId())
	if err != nil {
		return nil, err
	}
	w, err := weaponOf(att, p.GetAttack().GetWeapon())
	if err != nil {
		return nil, err
	}
	dk := deckOf(s, options(st))
	targets := 1 + len(p.GetAttack().GetMoreTargetIds())
	total := p.GetDraw().GetTotal()
	dd := &kav1.DefenceDrawn{DefenderId: id, Defended: re.GetDefend(), AttackedBack: re.GetAttackBack()}
	var evs []*encounterv1.Event
	switch {
	case re.GetAttackBack(): // KA-008: tied Animalité, both attack; only the winner succeeds
		if d.sh.GetSpheres()[Animalite] != att.sh.GetSpheres()[Animalite] || d.cs.GetActedThisPass() || d.cs.GetActionsLeft() <= 0 {
			return nil, engine.Refused("KA-008", "%s can attack back only with the same Animalité as %s and an action left in this pass", d.name(), att.name())
		}
		if d.cs.GetDisarmed() && !d.cs.GetStillActs() {
			return nil, engine.Refused("KA-032", "%s has been disarmed", d.name())
		}
		dw, err := weaponOf(d, re.GetWeapon())
		if err != nil {
			return nil, err
		}
		dd.Draw = drawFor(dk, d, dw.GetSphere(), dw.GetSkill(), []int32{-d.cs.GetActionsTaken()}, []string{"actions already taken this round (KA-011)"}, env.Dice)
		evs = one(&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: dd}})
		d.cs = proto.CloneOf(d.cs) // attacking back is its action of this pass (KA-008)
		d.cs.ActionsLeft--
		d.cs.ActionsTaken++
		d.cs.ActedThisPass = true
		mine := dd.GetDraw().GetTotal()
		lost := "only the winner of the opposition succeeds: no effect (KA-008)"
		switch {
		case total > mine: // the winner's margin is its own total − 10, whatever the loser drew
			evs = append(evs, resolve(st, dk, att, d, p.GetAttack(), w, total-SimpleThreshold, env.Dice, targets))
			evs = append(evs, miss(d, att, lost))
		case mine > total:
			evs = append(evs, miss(att, d, lost))
			evs = append(evs, resolve(st, dk, d, att, &kav1.Attack{TargetId: att.id(), Weapon: dw.GetName()}, dw, mine-SimpleThreshold, env.Dice, 1))
		default:
			evs = append(evs, miss(att, d, "equal totals: both fail (KA-008)"), miss(d, att, "equal totals: both fail (KA-008)"))
		}
		return evs, nil
	case re.GetDefend(): // KA-009, KA-013: the attack's sphere + Esquive, one action
		if d.cs.GetActionsLeft() <= 0 {
			return nil, engine.Refused("KA-012", "%s has no action left to defend", d.name())
		}
		sphere := w.GetSphere()
		if targets > 1 || p.GetAttack().GetBurst() {
			sphere = Animalite
		}
		dd.Draw = drawFor(dk, d, sphere, "Esquive", []int32{-d.cs.GetActionsTaken()}, []string{"actions already taken this round (KA-011)"}, env.Dice)
		evs = one(&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: dd}})
		d.cs = proto.CloneOf(d.cs) // the dodge has spent an action (KA-013)
		d.cs.ActionsLeft--
		d.cs.ActionsTaken++
		def := dd.GetDraw().GetTotal()
		if total >= SimpleThreshold && total > def { // KA-007
			return append(evs, resolve(st, dk, att, d, p.GetAttack(), w, total-max(def, SimpleThreshold), env.Dice, targets)), nil
		}
		return append(evs, miss(att, d, "the defender wins: no effect (KA-021)")), nil
	default:
		evs = one(&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: dd}})
		return append(evs, resolve(st, dk, att, d, p.GetAttack(), w, total-SimpleThreshold, env.Dice, targets)), nil
	}
}

func miss(att, t fighter, note string) *encounterv1.Event {
	return event(&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{
		AttackerId: att.id(), TargetId: t.id(), Margin: -1, KaLeft: t.cs.GetKaDice(), RealityLeft: t.cs.GetRealityPoints(),
		Unconscious: t.cs.GetUnconscious(), Dying: t.cs.GetDying(), Note: note,
	}}})
}

// decideDisarm (KA-032): Humanité + skill against Humanité + the skill of the target's weapon;
// resisting is not an action; strictly higher, and at least 10, disarms.
func decideDisarm(st *encounterv1.EncounterState, f fighter, a *kav1.Disarm, env engine.Env) ([]*encounterv1.Event, error) {
	t, err := fighterOf(st, a.GetTargetId())
	if err != nil {
		return nil, err
	}
	if t.id() == f.id() {
		return nil, engine.Invalid("", "%s cannot disarm itself", f.name())
	}
	if _, ok := f.sh.GetSkills()[a.GetSkill()]; !ok {
		return nil, engine.Invalid("KA-032", "%s has no skill %q to disarm with", f.name(), a.GetSkill())
	}
	if len(t.sh.GetWeapons()) == 0 || t.cs.GetDisarmed() {
		return nil, engine.Refused("KA-032", "%s has no weapon to lose", t.name())
	}
	tw, err := weaponOf(t, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	d := deckOf(kaState(st), options(st))
	r := drawFor(d, f, Humanite, a.GetSkill(), []int32{a.GetModifier(), -f.cs.GetActionsTaken()}, []string{"situation", "actions already taken this round (KA-011)"}, env.Dice)
	res := drawFor(d, t, Humanite, tw.GetSkill(), nil, nil, env.Dice) // not an action: no KA-011 malus
	ok := r.GetTotal() >= SimpleThreshold && r.GetTotal() > res.GetTotal()
	return one(&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{
		CombatantId: f.id(), TargetId: t.id(), Draw: r, Resistance: res, Success: ok, Weapon: tw.GetName(),
		StillActs: ok && sameTime(f, t),
	}}}), nil
}

// terror (KA-034): Animalité + encaissement with the GM's malus; a failure below Animalité × 3
// enters Abysse.
func terror(st *encounterv1.EncounterState, f fighter, t *kav1.Terror, roller dice.Roller) []*encounterv1.Event {
	d := deckOf(kaState(st), options(st))
	r := drawFor(d, f, Animalite, "", []int32{f.sh.GetEncaissement(), t.GetModifier()}, []string{"encaissement", "situation"}, roller)
	abysse := r.GetTotal() < SimpleThreshold && r.GetTotal() < f.sh.GetSpheres()[Animalite]*TerrorFactor
	return one(&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: f.id(), Draw: r, Abysse: abysse}}})
}
