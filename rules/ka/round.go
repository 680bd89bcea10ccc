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

// Start makes the encounter's deck whole and opens the first round (KA-003, KA-010). Nothing
// is rolled: each draw takes its cards at random from the cards left.
func (System) Start(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{
		event(&kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: DeckSize}}}),
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

// Decide validates a Ka action and returns its events; the engine then asks Close whether they
// end the pass.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetKa()
	if a == nil {
		return nil, engine.Invalid("", "Ka does not know this command")
	}
	s := kaState(st)
	var evs []*encounterv1.Event
	var err error
	if r := a.GetReact(); r != nil {
		evs, err = sys.decideReact(st, a.GetCombatantId(), r, env)
	} else if t := a.GetTerror(); t != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, engine.Forbidden("only the Maître de Ka calls for a Terror draw")
		}
		f, ferr := fighterOf(st, a.GetCombatantId())
		if ferr != nil {
			return nil, ferr
		}
		evs = sys.terror(st, f, t, env.Dice)
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
			return nil, engine.Because(engine.Refused("KA-020", "%s must first say whether it defends against the attack declared", d.name()),
				engine.ReasonReactionPending, nil)
		}
		if err := turn(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *kav1.Action_Attack:
			evs, err = sys.decideAttack(st, f, k.Attack, env)
		case *kav1.Action_Disarm:
			evs, err = sys.decideDisarm(st, f, k.Disarm, env)
		case *kav1.Action_PickUp:
			evs, err = decidePickUp(f, k.PickUp)
		case *kav1.Action_PassTurn:
			evs = one(&kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: f.id()}}})
		default:
			return nil, engine.Invalid("", "the action of %s is empty", f.name())
		}
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// Close starts the next pass, or the next round, when the events of an action, folded into
// next, leave no one able to act (KA-015).
func (System) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	ev := passOver(next)
	if ev == nil {
		return nil, nil
	}
	return []*encounterv1.Event{ev}, fold(ev)
}

func one(e *kav1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }

// FollowUp answers the GM's removal of a combatant: when the removed one was the last target
// of a declared attack still to answer, the draws are made (KA-020); when it leaves no one
// able to act, the next pass or round starts (KA-015).
func (sys System) FollowUp(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	var evs []*encounterv1.Event
	if p := kaState(st).GetPending(); p != nil && p.GetDefenderId() == "" {
		att, err := fighterOf(st, p.GetAttackerId())
		if err != nil {
			return nil, err
		}
		if evs, err = sys.drawStep(st, att, p.GetAttack(), p.GetActionsTaken(), true, p.GetAnswers(), env); err != nil {
			return nil, err
		}
	}
	return append(evs, nextPass(sys, st, evs)...), nil
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
		if next[0].c.GetHidden() { // its Animalité is the GM's secret: the order alone is seen
			return engine.Because(engine.Refused("KA-014", "it is %s's turn first", next[0].name()), engine.ReasonNotYourTurn, nil)
		}
		return engine.Because(engine.Refused("KA-014", "it is %s's turn first (Animalité %d against %s's %d)", next[0].name(), next[0].sh.GetSpheres()[Animalite], f.name(), f.sh.GetSpheres()[Animalite]),
			engine.ReasonNotYourTurn, nil)
	}
	return nil
}

// nextPass starts the next pass, or the next round, when evs, folded into st, leave no one
// able to act (KA-015).
func nextPass(sys System, st *encounterv1.EncounterState, evs []*encounterv1.Event) []*encounterv1.Event {
	next := proto.CloneOf(st)
	for _, ev := range evs {
		_ = sys.Evolve(next, ev)
	}
	if ev := passOver(next); ev != nil {
		return []*encounterv1.Event{ev}
	}
	return nil
}

// passOver is the event that starts the next pass, or the next round, when no one may act any
// more in st (KA-015); nil otherwise.
func passOver(st *encounterv1.EncounterState) *encounterv1.Event {
	s := kaState(st)
	if s.GetPending() != nil || len(upNext(st)) > 0 {
		return nil
	}
	for _, f := range fighters(st) {
		if f.conscious() && !f.cs.GetPassed() && f.cs.GetActionsLeft() > 0 {
			return event(&kav1.Event{Kind: &kav1.Event_PassStarted{PassStarted: &kav1.PassStarted{PassNumber: s.GetPassNumber() + 1}}})
		}
	}
	return roundStarted(st, s.GetRound()+1)
}

// skillValue is f's score in a skill, or in a power of that name (KA-032); false when it has
// neither.
func skillValue(f fighter, skill string) (int32, bool) {
	if v, ok := f.sh.GetSkills()[skill]; ok {
		return v, true
	}
	v, ok := f.sh.GetPowers()[skill]
	return v, ok
}

// drawFor makes a draw: sphere + skill + modifiers + cards (KA-004), the cumulative malus of
// actions already taken this round included (KA-011). A combatant without the skill draws at
// skill 0, and the draw says so (KA-013).
func drawFor(d *deck, f fighter, sphere, skill string, mods []int32, reasons []string, roller dice.Roller) *kav1.DrawResult {
	r := &kav1.DrawResult{Sphere: sphere, SphereValue: f.sh.GetSpheres()[sphere], Skill: skill}
	if skill != "" {
		v, ok := skillValue(f, skill)
		r.SkillValue, r.SkillMissing = v, !ok
	}
	for i, m := range mods {
		if m != 0 {
			r.Modifiers += m
			r.ModifierReasons = append(r.ModifierReasons, fmt.Sprintf("%+d %s", m, reasons[i]))
		}
	}
	r.Draw = d.draw(roller, f.id())
	r.Total = r.GetSphereValue() + r.GetSkillValue() + r.GetModifiers() + r.GetDraw().GetValue()
	return r
}

// bareHands is the weapon every combatant has: Animalité + Bagarre, no damage of its own
// (KA-018, KA-032), unless its sheet gives one of that name.
func bareHands() *kav1.Weapon {
	return &kav1.Weapon{Name: BareHands, Sphere: Animalite, Skill: Brawl}
}

// arsenal is f's weapons: its sheet's, then bare hands.
func arsenal(f fighter) []*kav1.Weapon {
	ws := f.sh.GetWeapons()
	if slices.ContainsFunc(ws, func(w *kav1.Weapon) bool { return w.GetName() == BareHands }) {
		return ws
	}
	return append(slices.Clone(ws), bareHands())
}

// weaponOf finds f's weapon by name; no name is the sheet's only weapon, or bare hands when it
// has none.
func weaponOf(f fighter, name string) (*kav1.Weapon, error) {
	if name == "" {
		if len(f.sh.GetWeapons()) == 0 {
			return bareHands(), nil
		}
		return engine.ByName(f.sh.GetWeapons(), "", f.name(), "weapon")
	}
	return engine.ByName(arsenal(f), name, f.name(), "weapon")
}

// hasLost: f lost the weapon to a disarm and has not picked it up (KA-032).
func hasLost(f fighter, weapon string) bool { return slices.Contains(f.cs.GetWeaponsLost(), weapon) }

// mayUse: f may use the weapon for its action: it has not lost it to a disarm, or it keeps
// its action in this pass, acting at the same time as what disarmed it (KA-014, KA-032).
func (s System) mayUse(f fighter, weapon string) bool {
	switch {
	case !hasLost(f, weapon):
		return true
	case !f.cs.GetStillActs():
		return false
	case s.n.ExcuseOnlyLostAtOnce: // only a weapon lost at that same moment
		return slices.Contains(f.cs.GetWeaponsLostAtOnce(), weapon)
	}
	return true // version 1: keeping its action excused every weapon it had lost
}

// usableWeapon is weaponOf for an attack: a weapon lost to a disarm cannot attack, unless the
// disarm came at the same time as this very action (KA-014, KA-032).
func (s System) usableWeapon(f fighter, name string) (*kav1.Weapon, error) {
	w, err := weaponOf(f, name)
	if err != nil {
		return nil, err
	}
	if !s.mayUse(f, w.GetName()) {
		return nil, engine.Refused("KA-032", "%s has lost its %s to a disarm: it may pick it up (one action) or fight with %s (%s + %s)",
			f.name(), w.GetName(), BareHands, Animalite, Brawl)
	}
	return w, nil
}

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
	answer := &kav1.React{}
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
		answer = &kav1.React{AttackBack: true, Weapon: dw.GetName()}
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
		answer = &kav1.React{Defend: true, Skill: skill}
	case re.GetSkill() != "" || re.GetWeapon() != "":
		return nil, engine.Invalid("KA-020", "%s takes the attack: no skill or weapon goes with that answer", d.name())
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

func miss(att, t fighter, note string) *encounterv1.Event {
	return event(&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{
		AttackerId: att.id(), TargetId: t.id(), Margin: -1, KaLeft: t.cs.GetKaDice(), RealityLeft: t.cs.GetRealityPoints(),
		Unconscious: t.cs.GetUnconscious(), Dying: t.cs.GetDying(), Note: note,
	}}})
}

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

// heldWeapons: the weapons of f's sheet it has not lost (KA-032).
func heldWeapons(f fighter) []*kav1.Weapon {
	var out []*kav1.Weapon
	for _, w := range f.sh.GetWeapons() {
		if !hasLost(f, w.GetName()) && w.GetName() != BareHands {
			out = append(out, w)
		}
	}
	return out
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

// terror (KA-034): Animalité + encaissement with the GM's malus; a failure below Animalité × 3
// enters Abysse.
func (s System) terror(st *encounterv1.EncounterState, f fighter, t *kav1.Terror, roller dice.Roller) []*encounterv1.Event {
	d := s.deckOf(st)
	r := drawFor(d, f, Animalite, "", []int32{f.sh.GetEncaissement(), t.GetModifier()}, []string{"encaissement", "situation"}, roller)
	abysse := r.GetTotal() < s.n.SimpleThreshold && r.GetTotal() < f.sh.GetSpheres()[Animalite]*s.n.TerrorFactor
	return one(&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: f.id(), Draw: r, Abysse: abysse}}})
}
