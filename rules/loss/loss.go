// Package loss implements Les Chants de Loss combat (docs/rules/loss.md): Tests of
// d10 + Trait + Talent against a Difficulty, Exploits, Action Points (PA) spent in phases.
package loss

import (
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// ID is the rule system's id.
const ID = "loss"

func (System) ID() string { return ID }

// JoinsInProgress: a newcomer joins a fight in progress and acts from the next Tour (LOS-039).
func (System) JoinsInProgress() {}
func (System) Name() string     { return "Les Chants de Loss" }

func lossState(st *encounterv1.EncounterState) *lossv1.State {
	if s := st.GetLoss(); s != nil {
		if s.Combatants == nil { // a cloned or decoded state has no empty maps
			s.Combatants = map[string]*lossv1.CombatantState{}
		}
		return s
	}
	s := &lossv1.State{Combatants: map[string]*lossv1.CombatantState{}}
	st.System = &encounterv1.EncounterState_Loss{Loss: s}
	return s
}

func options(st *encounterv1.EncounterState) *lossv1.Options { return st.GetOptions().GetLoss() }

// lossEvent is the common event of a Loss event. Its two parts, always made and kept
// together, are allocated together (as are the four of the events of an attack and its
// reaction, attackRolled and the like): a command's events are a good part of its allocations.
func lossEvent(e *lossv1.Event) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
	}{}
	b.w.Loss = e
	b.ev.Payload = &b.w
	return &b.ev
}

// attackRolled is the event of an attack's Test.
func attackRolled(ar *lossv1.AttackRolled) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_AttackRolled
	}{}
	b.k.AttackRolled = ar
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}

// defenceRolled is the event of a parry or dodge.
func defenceRolled(dr *lossv1.DefenceRolled) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_DefenceRolled
	}{}
	b.k.DefenceRolled = dr
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}

// attackResolved is the event of a blow resolved.
func attackResolved(r *lossv1.AttackResolved) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_AttackResolved
	}{}
	b.k.AttackResolved = r
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}

// fighter is a combatant with its sheet and its state.
type fighter struct {
	c  *encounterv1.Combatant
	sh *lossv1.Sheet
	cs *lossv1.CombatantState
}

func (f fighter) id() string   { return f.c.GetId() }
func (f fighter) name() string { return f.c.GetName() }

func (f fighter) isPC() bool {
	return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER
}

func (f fighter) isSbire() bool { return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE }

// owed: felled or hindered at its own phase by a combatant at the same phase, it still takes
// its action there (LOS-110).
func (f fighter) owed() bool { return f.cs.GetOwedPhase() > 0 }

// active: may still take actions this Tour (LOS-032, LOS-033, LOS-039).
func (f fighter) active() bool {
	if f.owed() {
		return true
	}
	return !f.cs.GetOut() && !f.cs.GetPassed() && !f.cs.GetJoining() && f.cs.GetActionPoints() > 0
}

// healthPenalty is the Difficulty added to the fighter's own Tests by its wounds (LOS-022): a
// fighter is in the grave band once it has lost a grave box, in the fatal band once it has
// lost a fatal box.
func (f fighter) healthPenalty(sys System, st *encounterv1.EncounterState) int32 {
	bands := options(st).GetHealthBands()
	switch {
	case f.isSbire() || len(bands) != 3:
		return 0
	case f.cs.GetFatal() < bands[2]:
		return sys.FatalPenalty
	case f.cs.GetGrave() < bands[1]:
		return sys.GravePenalty
	default:
		return 0
	}
}

// spec reports whether the fighter has a specialisation, for the weapon's type when one is
// given (LOS-094).
func (f fighter) spec(k lossv1.SpecialisationKind, w *lossv1.Weapon) bool {
	for _, s := range f.sh.GetSpecialisations() {
		if s.GetKind() != k {
			continue
		}
		if w == nil || s.GetWeaponType() == "" || s.GetWeaponType() == weaponType(w) {
			return true
		}
	}
	return false
}

func weaponType(w *lossv1.Weapon) string {
	if w.GetWeaponType() != "" {
		return w.GetWeaponType()
	}
	return w.GetName()
}

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		return fighter{}, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	cs := lossState(st).GetCombatants()[id]
	if cs == nil {
		cs = &lossv1.CombatantState{}
	}
	return fighter{c: c, sh: c.GetLoss(), cs: cs}, nil
}

func fighters(st *encounterv1.EncounterState) []fighter {
	out := make([]fighter, 0, len(st.GetCombatants()))
	for _, c := range st.GetCombatants() {
		out = append(out, fighterIn(lossState(st), c))
	}
	return out
}

// fighterIn is fighterOf for a combatant of the state s is the Loss state of.
func fighterIn(s *lossv1.State, c *encounterv1.Combatant) fighter {
	cs := s.GetCombatants()[c.GetId()]
	if cs == nil {
		cs = &lossv1.CombatantState{}
	}
	return fighter{c: c, sh: c.GetLoss(), cs: cs}
}

// phase is the highest phase among the combatants still acting, 0 if none (LOS-031), and the
// first of them in the order they joined.
func phase(st *encounterv1.EncounterState) (int32, fighter) {
	var top int32
	var first fighter
	s := lossState(st)
	for _, c := range st.GetCombatants() {
		f := fighterIn(s, c)
		if !f.active() {
			continue
		}
		if ap := f.cs.GetActionPoints(); ap > top {
			top, first = ap, f
		}
	}
	return top, first
}

// Start rolls the first Tour's Initiative.
func (sys System) Start(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{sys.startTour(st, env.Dice)}, nil
}

// startTour rolls d10 + Initiative, never exploding, once per combatant or group (LOS-030,
// LOS-003, LOS-037), in the order the combatants joined; Take the advantage (LOS-067) and a
// newcomer who watched (LOS-039) add PA.
func (sys System) startTour(st *encounterv1.EncounterState, roller dice.Roller) *encounterv1.Event {
	s := lossState(st)
	tour := s.GetTour() + 1
	ts := &lossv1.TourStarted{Tour: tour, Sequence: (tour-1)/sys.ToursPerSequence + 1}
	groups := map[string]*lossv1.InitiativeRoll{}
	for _, f := range fighters(st) {
		if f.cs.GetOut() {
			continue
		}
		key := "combatant:" + f.id()
		if g := f.sh.GetInitiativeGroup(); g != "" {
			key = "group:" + g
		}
		r, ok := groups[key]
		if !ok {
			roll := roller.Roll(dice.D10(false))
			r = &lossv1.InitiativeRoll{
				Initiative:   f.sh.GetInitiative(),
				Roll:         roll,
				ActionPoints: roll.GetTotal() + f.sh.GetInitiative(),
			}
			groups[key] = r
			ts.Initiative = append(ts.Initiative, r)
		}
		r.CombatantIds = append(r.CombatantIds, f.id())
		bonus := min(f.cs.GetAdvantage(), sys.MaxAdvantage)
		if f.cs.GetJoining() && f.cs.GetWatched() {
			bonus += sys.JoinWatchBonus
		}
		if bonus > 0 {
			if r.Bonus == nil {
				r.Bonus = map[string]int32{}
			}
			r.Bonus[f.id()] = bonus
		}
	}
	return lossEvent(&lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: ts}})
}

// Decide validates a Loss action and returns its events; the engine then asks Close whether
// they end the Tour.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetLoss()
	if a == nil {
		return nil, engine.Invalid("", "Les Chants de Loss does not know this command")
	}
	return sys.decideAction(st, a, env)
}

func (sys System) decideAction(st *encounterv1.EncounterState, a *lossv1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	gm := engine.IsGameMaster(st, env.Actor)
	switch k := a.GetKind().(type) {
	case *lossv1.Action_React:
		return sys.decideReact(st, a.GetCombatantId(), k.React, env)
	case *lossv1.Action_Dying:
		return decideDying(st, a.GetCombatantId(), k.Dying, env)
	case *lossv1.Action_Disaster:
		return decideDisaster(st, a.GetCombatantId(), k.Disaster, gm)
	case *lossv1.Action_StartPursuit:
		return sys.decideStartPursuit(st, k.StartPursuit, gm)
	case *lossv1.Action_GrantFreeRaises:
		return decideGrant(st, a.GetCombatantId(), k.GrantFreeRaises, gm)
	case *lossv1.Action_Declare:
		return decideDeclare(st, a.GetCombatantId(), k.Declare, env)
	case nil:
		name := a.GetCombatantId()
		if f, err := fighterOf(st, name); err == nil {
			name = f.name()
		}
		return nil, engine.Invalid("", "the action of %s is empty", name)
	}
	if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, a.GetCombatantId())
	if err != nil {
		return nil, err
	}
	if sp := a.GetSimple(); sp != nil && sp.GetKind() == lossv1.SimpleKind_SIMPLE_KIND_SPEAK {
		return sys.decideSimple(st, f, sp) // speaking costs nothing and needs no turn (LOS-035)
	}
	if p := lossState(st).GetPending(); p != nil {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, engine.Because(engine.Refused("LOS-009", "%s must first answer the attack (parry, dodge or take the blow)", d.name()),
			engine.ReasonReactionPending, nil)
	}
	if err := mayAct(st, f); err != nil {
		return nil, err
	}
	switch k := a.GetKind().(type) {
	case *lossv1.Action_Attack:
		return sys.decideAttack(st, f, k.Attack, env, false)
	case *lossv1.Action_PassTurn:
		return one(&lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{
			CombatantId: f.id(), ActionPointsLeft: f.cs.GetActionPoints(),
		}}}), nil
	case *lossv1.Action_Wait:
		return decideWait(st, f, k.Wait)
	case *lossv1.Action_Aim:
		return sys.decideAim(st, f, k.Aim)
	case *lossv1.Action_Simple:
		return sys.decideSimple(st, f, k.Simple)
	case *lossv1.Action_Pursuit:
		return sys.decidePursuit(st, f, k.Pursuit, env)
	default:
		return nil, engine.Unimplemented("this action is not part of Les Chants de Loss version %d", sys.version)
	}
}

func one(e *lossv1.Event) []*encounterv1.Event { return []*encounterv1.Event{lossEvent(e)} }

// Close starts the next Tour when the events of an action, folded into next, leave no one
// able to act (LOS-033).
func (sys System) Close(next *encounterv1.EncounterState, env engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	if !tourOver(next) {
		return nil, nil
	}
	ev := sys.startTour(next, env.Dice)
	return []*encounterv1.Event{ev}, fold(ev)
}

// FollowUp starts the next Tour when the GM's removal of a combatant (the last one still
// acting, or one side of the attack awaiting a reaction) leaves no one able to act (LOS-033).
func (sys System) FollowUp(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	if !tourOver(st) {
		return nil, nil
	}
	return []*encounterv1.Event{sys.startTour(st, env.Dice)}, nil
}

// tourOver: no attack awaits a reaction and no one is left to act this Tour (LOS-033).
func tourOver(st *encounterv1.EncounterState) bool {
	if s := lossState(st); s.GetPending() != nil || len(s.GetQueued()) > 0 {
		return false
	}
	top, _ := phase(st)
	return top <= 0
}

// mayAct checks that it is f's turn: it has PA and its phase is the highest (LOS-031, LOS-032,
// LOS-110), and the Tour is not waiting for declarations (LOS-038).
func mayAct(st *encounterv1.EncounterState, f fighter) error {
	if !f.owed() {
		switch {
		case f.cs.GetDead():
			return engine.Refused("LOS-023", "%s is dead", f.name())
		case f.cs.GetOut():
			return engine.Refused("LOS-022", "%s is out of the fight", f.name())
		case f.cs.GetJoining():
			return engine.Refused("LOS-039", "%s joined during this Tour and acts from the next", f.name())
		case f.cs.GetPassed():
			return engine.Refused("LOS-033", "%s has passed for the rest of this Tour", f.name())
		case f.cs.GetActionPoints() <= 0:
			return engine.Because(engine.Refused("LOS-032", "%s has no PA left this Tour and cannot act", f.name()),
				engine.ReasonNotEnoughActionPoints, map[string]int64{"available": int64(f.cs.GetActionPoints())})
		}
	}
	if lossState(st).GetDeclaring() {
		return engine.Because(engine.Refused("LOS-038", "the Tour waits for everyone to declare their first action, from the lowest Initiative to the highest"),
			engine.ReasonNotYourTurn, nil)
	}
	top, first := phase(st)
	if f.cs.GetActionPoints() < top {
		return engine.Because(engine.Refused("LOS-031", "it is not %s's turn: %s is at phase %d, %s acts first at phase %d",
			f.name(), f.name(), f.cs.GetActionPoints(), first.name(), top), engine.ReasonNotYourTurn, nil)
	}
	return nil
}

// hindered refuses what a fallen or disarmed fighter may not do (LOS-072, LOS-074); an owed
// action at the same phase is not hindered (LOS-110). A fighter disarmed in this Tour cannot
// attack at all until the Tour ends, even once it has recovered; one disarmed in an earlier
// Tour and not yet recovered must recover first (pick up its weapon, 2 PA, or regain its
// balance, 4 PA).
func (sys System) hindered(st *encounterv1.EncounterState, f fighter, standingUp, recovering, attacking bool) error {
	if f.owed() {
		return nil
	}
	if f.cs.GetProne() && !standingUp {
		return engine.Refused("LOS-072", "%s is down and must stand up first (%d PA)", f.name(), sys.StandUpCost)
	}
	tour := lossState(st).GetTour()
	if f.cs.GetDisarmed() && f.cs.GetDisarmedTour() < tour && !recovering {
		return engine.Refused("LOS-074", "%s was disarmed: its first action this Tour is to recover (pick up its weapon, %d PA, or regain its balance, %d PA)",
			f.name(), sys.PickUpCost, sys.StandUpCost)
	}
	if attacking && f.cs.GetDisarmedTour() == tour && tour > 0 {
		return engine.Refused("LOS-074", "%s was disarmed this Tour and cannot attack at all until the next, even with its weapon back", f.name())
	}
	return nil
}

// cost applies the reduction of a wait to an action's cost (LOS-040, erratum).
func (sys System) cost(f fighter, base int32) int32 {
	d := f.cs.GetWaitDiscount()
	if d <= 0 || base <= sys.MinWaitedCost {
		return base
	}
	return max(sys.MinWaitedCost, base-d)
}

// needPA refuses an action that costs more PA than f has left; what names the action, its
// parts joined only then.
func needPA(f fighter, cost int32, what ...string) error {
	if f.cs.GetActionPoints() < cost { // LOS-111
		return engine.Because(engine.Refused("LOS-035", "%s has %d PA left; %s costs %d", f.name(), f.cs.GetActionPoints(), strings.Join(what, ""), cost),
			engine.ReasonNotEnoughActionPoints, map[string]int64{"needed": int64(cost), "available": int64(f.cs.GetActionPoints())})
	}
	return nil
}

// spendBonus checks that f holds what it spends and returns the bonus (LOS-004, LOS-005).
func (sys System) spendBonus(st *encounterv1.EncounterState, f fighter, sp *lossv1.Spend, m *mods) error {
	if sp.GetFursa() < 0 || sp.GetFreeRaises() < 0 {
		return engine.Invalid("LOS-004", "what a Test spends cannot be negative")
	}
	if n := sp.GetFursa(); n > 0 {
		switch {
		case f.isSbire():
			return engine.Refused("LOS-005", "%s is a Sbire and has no Fursa", f.name())
		case f.isPC() && n > f.cs.GetFursa():
			return engine.Refused("LOS-005", "%s holds %d Fursa and cannot spend %d", f.name(), f.cs.GetFursa(), n)
		case !f.isPC() && n > lossState(st).GetGmFursa():
			return engine.Refused("LOS-005", "the GM's Fursa reserve holds %d and %s cannot spend %d", lossState(st).GetGmFursa(), f.name(), n)
		}
		m.test(plural(n, "Fursa", "Fursa"), "LOS-004", n*sys.SpendBonus)
	}
	if n := sp.GetFreeRaises(); n > 0 {
		if n > f.cs.GetFreeRaises() {
			return engine.Refused("LOS-004", "%s holds %d free raises and cannot spend %d", f.name(), f.cs.GetFreeRaises(), n)
		}
		m.test(plural(n, "free raise", "free raises"), "LOS-004", n*sys.SpendBonus)
	}
	vertus := make([]string, 0, len(sp.GetInspiration()))
	for v := range sp.GetInspiration() {
		vertus = append(vertus, v)
	}
	slices.Sort(vertus)
	for _, v := range vertus {
		k := sp.GetInspiration()[v]
		switch held := f.cs.GetInspiration()[v]; {
		case k < 0:
			return engine.Invalid("LOS-004", "Inspiration spent cannot be negative")
		case k > held:
			return engine.Refused("LOS-005", "%s holds %d Inspiration of %s and cannot spend %d", f.name(), held, v, k)
		case k > 0:
			m.test(plural(k, "Inspiration of "+v, "Inspiration of "+v), "LOS-004", k*sys.SpendBonus)
		}
	}
	return nil
}
