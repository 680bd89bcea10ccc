package loss

import (
	"fmt"
	"maps"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Loss part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := lossState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		s.GmFursa = p.EncounterCreated.GetOptions().GetLoss().GetGmFursa()
	case *encounterv1.Event_CombatantAdded:
		applyCombatantAdded(st, s, p.CombatantAdded)
	case *encounterv1.Event_CombatantRemoved:
		applyCombatantRemoved(st, s, p.CombatantRemoved.GetCombatantId())
		syncPending(st, s)
	case *encounterv1.Event_Loss:
		if err := sys.evolveLoss(st, s, p.Loss); err != nil {
			return err
		}
		syncPending(st, s)
	}
	return nil
}

// evolveLoss folds a Loss event: one named function per event, each changing the state as
// its rules say.
func (sys System) evolveLoss(st *encounterv1.EncounterState, s *lossv1.State, e *lossv1.Event) error {
	forgetFailedExploit(s, e)
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		applyTourStarted(st, s, k.TourStarted)
		return nil
	case *lossv1.Event_AttackRolled:
		return applyAttackRolled(st, s, k.AttackRolled)
	case *lossv1.Event_DefenceRolled:
		return sys.applyDefenceRolled(st, s, k.DefenceRolled)
	case *lossv1.Event_AttackResolved:
		return sys.applyAttackResolved(st, s, k.AttackResolved)
	case *lossv1.Event_Passed:
		return applyPassed(st, s, k.Passed)
	case *lossv1.Event_Declared:
		return applyDeclared(st, s, k.Declared)
	case *lossv1.Event_Waited:
		return sys.applyWaited(st, s, k.Waited)
	case *lossv1.Event_Aimed:
		return sys.applyAimed(st, s, k.Aimed)
	case *lossv1.Event_SimpleActed:
		return applySimpleActed(st, s, k.SimpleActed)
	case *lossv1.Event_DisasterDeclared:
		s.FailedExploitBy = ""
		return nil
	case *lossv1.Event_DyingResolved:
		return applyDyingResolved(st, s, k.DyingResolved)
	case *lossv1.Event_PursuitStarted:
		s.Pursuit = proto.CloneOf(k.PursuitStarted.GetPursuit()) // the state changes; the event does not
		return nil
	case *lossv1.Event_PursuitActed:
		return sys.applyPursuitActed(st, s, k.PursuitActed)
	case *lossv1.Event_FreeRaisesGranted:
		return applyFreeRaisesGranted(st, s, k.FreeRaisesGranted)
	default:
		return fmt.Errorf("unknown Loss event %T", k)
	}
}

// forgetFailedExploit: a Disaster follows the failed Exploit at once (LOS-006); any other
// action, or a pursuit action that is not the dodge it awaited, ends the chance of one.
func forgetFailedExploit(s *lossv1.State, e *lossv1.Event) {
	switch e.GetKind().(type) {
	case *lossv1.Event_AttackRolled, *lossv1.Event_DefenceRolled, *lossv1.Event_Passed, *lossv1.Event_Waited,
		*lossv1.Event_Aimed, *lossv1.Event_SimpleActed, *lossv1.Event_Declared:
		s.FailedExploitBy = ""
	case *lossv1.Event_PursuitActed:
		if !e.GetPursuitActed().GetResolves() {
			s.FailedExploitBy = ""
		}
	}
}

// foldedFighter is the fighter an event names, which must have a Loss state to fold into.
func foldedFighter(st *encounterv1.EncounterState, s *lossv1.State, id string) (fighter, error) {
	f, err := fighterOf(st, id)
	if err == nil && s.GetCombatants()[id] == nil {
		err = fmt.Errorf("combatant %s has no Loss state", id)
	}
	return f, err
}

// applyCombatantAdded gives a newcomer its Loss state: its Fursa (LOS-005), Inspiration and
// free raises, its health track (LOS-022, LOS-024), and, joining a fight in progress, its wait
// for the next Tour (LOS-039).
func applyCombatantAdded(st *encounterv1.EncounterState, s *lossv1.State, a *encounterv1.CombatantAdded) {
	c := a.GetCombatant()
	sh := c.GetLoss()
	cs := &lossv1.CombatantState{Fursa: sh.GetFursa(), Inspiration: maps.Clone(sh.GetInspiration()), FreeRaises: sh.GetFreeRaises()}
	if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER && sh.GetFursa() == 0 {
		cs.Fursa = options(st).GetPcStartingFursa() // LOS-005
	}
	if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE {
		cs.Health = SbireHealth
	} else {
		b := options(st).GetHealthBands()
		cs.Light, cs.Grave, cs.Fatal = b[0], b[1], b[2]
	}
	if a.GetInProgress() { // LOS-039
		cs.Joining, cs.Watched = true, a.GetWatched()
	}
	s.Combatants[c.GetId()] = cs
}

// applyCombatantRemoved takes a combatant the GM removed out of the Loss state: the attacks
// it makes or awaits, its place in a pursuit (which ends with no one left on a side), and its
// declaration (LOS-038).
func applyCombatantRemoved(st *encounterv1.EncounterState, s *lossv1.State, id string) {
	delete(s.Combatants, id)
	involves := func(pa *lossv1.PendingAttack) bool { return pa.GetAttackerId() == id || pa.GetDefenderId() == id }
	s.Queued = slices.DeleteFunc(s.Queued, involves)
	if involves(s.GetPending()) {
		s.Pending = nil
		nextPending(s)
	}
	if pu := s.GetPursuit(); pu != nil {
		pu.PursuerIds = slices.DeleteFunc(pu.PursuerIds, func(x string) bool { return x == id })
		pu.PursuedIds = slices.DeleteFunc(pu.PursuedIds, func(x string) bool { return x == id })
		if len(pu.PursuerIds) == 0 || len(pu.PursuedIds) == 0 {
			s.Pursuit = nil
		}
	}
	s.Declaring = s.GetDeclaring() && !allDeclared(st) // LOS-038: the one removed may have been the last to declare
}

// applyTourStarted starts a Tour: what lasts a Tour ends (LOS-033, LOS-051, LOS-061…LOS-068),
// each combatant's PA are its Initiative roll and bonus (LOS-030, LOS-037, LOS-039, LOS-067),
// Zigzags end unless they last until the next action (LOS-107), and the declarations open
// (LOS-038).
func applyTourStarted(st *encounterv1.EncounterState, s *lossv1.State, t *lossv1.TourStarted) {
	s.Tour, s.Sequence = t.GetTour(), t.GetSequence()
	for _, cs := range s.GetCombatants() {
		cs.ActionPoints, cs.InitiativeTotal, cs.Passed, cs.NextActionBonus = 0, 0, false, 0
		cs.Wall, cs.ProtectBonus, cs.Countered, cs.AssautUsed = 0, 0, nil, false
		cs.Acted, cs.Parried = false, false
		cs.OwedPhase, cs.Declared, cs.Intention, cs.WaitDiscount = 0, false, "", 0
		cs.MeleeAttackers = nil
		for id, until := range cs.Feints {
			if until < s.Tour {
				delete(cs.Feints, id)
			}
		}
	}
	for _, r := range t.GetInitiative() {
		for _, id := range r.GetCombatantIds() {
			if cs := s.GetCombatants()[id]; cs != nil {
				cs.ActionPoints = r.GetActionPoints() + r.GetBonus()[id]
				cs.InitiativeTotal = cs.ActionPoints
				cs.Joining, cs.Watched, cs.Advantage = false, false, 0
			}
		}
	}
	if p := s.GetPursuit(); p != nil && !options(st).GetZigzagUntilNextAction() {
		p.Zigzag, p.ZigzagBy = 0, ""
	}
	s.Declaring = options(st).GetDeclareLowToHigh() && len(t.GetInitiative()) > 0
}

// applyPassed: the combatant passes for the rest of the Tour (LOS-033); passing is no action,
// so its Zigzags hold (LOS-107), but it gives up an action owed (LOS-110).
func applyPassed(st *encounterv1.EncounterState, s *lossv1.State, p *lossv1.Passed) error {
	f, err := foldedFighter(st, s, p.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.Passed = true
	f.cs.OwedPhase = 0 // passing is no action: Zigzags hold (LOS-107)
	return nil
}

// applyDeclared records an intention; the declarations close once everyone has declared
// (LOS-038).
func applyDeclared(st *encounterv1.EncounterState, s *lossv1.State, d *lossv1.Declared) error {
	f, err := foldedFighter(st, s, d.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.Declared, f.cs.Intention = true, d.GetIntention()
	s.Declaring = s.GetDeclaring() && !allDeclared(st)
	return nil
}

// applyWaited: the combatant acts later, at the phase it waits for, its next action cheaper
// by the phases waited (LOS-040).
func (sys System) applyWaited(st *encounterv1.EncounterState, s *lossv1.State, w *lossv1.Waited) error {
	f, err := foldedFighter(st, s, w.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.ActionPoints = w.GetUntilPhase()
	f.cs.WaitDiscount += w.GetDiscount()
	f.cs.OwedPhase = 0
	if sys.WaitForfeitsBonus { // LOS-016: the bonus is for an « Action suivante Immédiate »
		f.cs.NextActionBonus = 0
	}
	return nil
}

// applyAimed: aiming with PA adds up to MaxAim with one weapon (LOS-035); aiming for a whole
// Tour holds its bonus for the next shot with that weapon (LOS-084).
func (sys System) applyAimed(st *encounterv1.EncounterState, s *lossv1.State, a *lossv1.Aimed) error {
	f, err := foldedFighter(st, s, a.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.ActionPoints -= a.GetActionPointsSpent()
	if a.GetWholeTour() {
		f.cs.AimTourBonus, f.cs.AimTourWeapon = a.GetBonus(), a.GetWeapon()
	} else {
		if f.cs.GetAimWeapon() != a.GetWeapon() {
			f.cs.AimBonus = 0
		}
		f.cs.AimBonus, f.cs.AimWeapon = min(sys.MaxAim, f.cs.GetAimBonus()+a.GetBonus()), a.GetWeapon()
	}
	acted(st, s, f, true)
	return nil
}

// applySimpleActed spends an action without a Test (LOS-035): standing up ends a fall or a
// Disarm, picking up one's weapon a Disarm (LOS-072, LOS-074); speaking is no action.
func applySimpleActed(st *encounterv1.EncounterState, s *lossv1.State, a *lossv1.SimpleActed) error {
	f, err := foldedFighter(st, s, a.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.ActionPoints -= a.GetActionPointsSpent()
	switch a.GetKind() {
	case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
		return nil
	case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP: // standing up or regaining one's balance (LOS-072, LOS-074)
		f.cs.Prone, f.cs.Disarmed = false, false
	case lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON: // the Disarm's Tour still forbids attacks (LOS-074)
		f.cs.Disarmed = false
	}
	acted(st, s, f, true)
	return nil
}

// applyDyingResolved: a dying character is saved or dead; one saved by its own Inspiration
// spends it (LOS-023).
func applyDyingResolved(st *encounterv1.EncounterState, s *lossv1.State, d *lossv1.DyingResolved) error {
	t, err := foldedFighter(st, s, d.GetTargetId())
	if err != nil {
		return err
	}
	t.cs.Dying = false
	t.cs.Dead = d.GetDead()
	if d.GetChoice() == lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION {
		spend(s, t, &lossv1.Spend{Inspiration: map[string]int32{d.GetVertu(): 1}})
	}
	return nil
}

// applyFreeRaisesGranted: the GM's free raises (Augmentations Gratuites) join those held
// (LOS-004).
func applyFreeRaisesGranted(st *encounterv1.EncounterState, s *lossv1.State, g *lossv1.FreeRaisesGranted) error {
	f, err := foldedFighter(st, s, g.GetCombatantId())
	if err != nil {
		return err
	}
	f.cs.FreeRaises += g.GetCount()
	return nil
}

// applyPursuitActed folds a pursuit action (LOS-100…LOS-107): taken, it spends its PA and what
// its Test spent, and counts as the actor's action; a dodge it awaited resolves it. A shot at
// the legs uses up the aims with its weapon (LOS-084).
func (sys System) applyPursuitActed(st *encounterv1.EncounterState, s *lossv1.State, a *lossv1.PursuitActed) error {
	f, err := foldedFighter(st, s, a.GetCombatantId())
	if err != nil {
		return err
	}
	var phase int32 // the pursuer's phase when it acted (LOS-110)
	if a.GetResolves() {
		if p := s.GetPending(); p.GetAttackerId() == f.id() {
			phase = p.GetPhase()
		}
		s.Pending = nil
		nextPending(s)
	} else {
		phase = f.cs.GetActionPoints()
		f.cs.ActionPoints -= a.GetActionPointsSpent()
		spend(s, f, a.GetTest().GetSpend())
		acted(st, s, f, true)
		failedExploit(st, s, f, a.GetExploits(), a.GetTest(), false)
	}
	if a.GetShot() != nil {
		spendAim(f, a.GetWeapon())
	}
	if p := s.GetPursuit(); p != nil {
		sys.pursuitOutcome(st, s, p, f, a, phase)
	}
	return nil
}

// pursuitOutcome changes the pursuit as the action says: Zigzags (LOS-107), a dodge awaited
// (LOS-102, LOS-103, LOS-105, LOS-106), a target down and, where the version says so, owed its
// action at the pursuer's phase (LOS-110), the distance, or the pursuit's end (LOS-100,
// LOS-105).
func (sys System) pursuitOutcome(st *encounterv1.EncounterState, s *lossv1.State, p *lossv1.Pursuit, f fighter, a *lossv1.PursuitActed, phase int32) {
	if a.GetZigzag() > 0 {
		p.Zigzag, p.ZigzagBy = a.GetZigzag(), f.id()
	}
	if a.GetDodgePossible() {
		s.Queued = append(s.Queued, &lossv1.PendingAttack{
			AttackerId: f.id(), DefenderId: a.GetTargetId(), Difficulty: sys.pursuitDifficulty(a.GetKind(), a.GetExploits()),
			AttackTotal: a.GetTest().GetTotal(), Pursuit: a.GetKind(), Phase: f.cs.GetActionPoints() + a.GetActionPointsSpent(),
		})
		nextPending(s)
		return
	}
	if a.GetTargetDown() {
		if t, err := foldedFighter(st, s, a.GetTargetId()); err == nil {
			t.cs.Prone = true
			if sys.PursuitDownOwes { // thrown down at its own phase, it still acts there
				sys.owe(st, t, phase)
			}
		}
	}
	if a.GetEnded() {
		s.Pursuit = nil
	} else if a.GetSuccess() || a.GetResolves() {
		p.Distance = a.GetDistance()
	}
}

// allDeclared: everyone taking part in the Tour has declared (LOS-038).
func allDeclared(st *encounterv1.EncounterState) bool {
	for _, o := range fighters(st) {
		if !o.cs.GetOut() && !o.cs.GetJoining() && !o.cs.GetDeclared() {
			return false
		}
	}
	return true
}

// nextPending moves the next queued reaction up.
func nextPending(s *lossv1.State) {
	if s.Pending == nil && len(s.Queued) > 0 {
		s.Pending, s.Queued = s.Queued[0], s.Queued[1:]
	}
}

// syncPending mirrors the awaited reaction into the engine's common state. A pending reaction
// that is already the one it would write (its three fields, nothing unknown) is kept, shared
// with the state before: while an attack awaits its reaction, every event folds through here.
func syncPending(st *encounterv1.EncounterState, s *lossv1.State) {
	p := s.GetPending()
	if p == nil {
		st.Pending = nil
		return
	}
	d, err := fighterOf(st, p.GetDefenderId())
	a, err2 := fighterOf(st, p.GetAttackerId())
	if err != nil || err2 != nil {
		st.Pending = nil
		return
	}
	var buf [256]byte
	what := appendPrompt(buf[:0], a.name(), d.name(), p, true)
	if len(st.Pending) == 1 {
		if r := st.Pending[0]; r.GetCombatantId() == d.id() && r.GetController() == d.c.GetController() &&
			r.GetPrompt() == string(what) && r.ProtoReflect().GetUnknown() == nil {
			return
		}
	}
	st.Pending = []*encounterv1.PendingReaction{{CombatantId: d.id(), Controller: d.c.GetController(), Prompt: string(what)}}
}

// spend takes what a Test spent from its holder (LOS-005).
func spend(s *lossv1.State, f fighter, sp *lossv1.Spend) {
	if f.isPC() {
		f.cs.Fursa -= sp.GetFursa()
	} else {
		s.GmFursa -= sp.GetFursa()
	}
	f.cs.FreeRaises -= sp.GetFreeRaises()
	for v, k := range sp.GetInspiration() {
		if f.cs.Inspiration == nil {
			f.cs.Inspiration = map[string]int32{}
		}
		f.cs.Inspiration[v] -= k
	}
}

// acted records that a combatant took an action this Tour (LOS-084) and clears what lasts until
// its next action: the bonus of a defensive Exploit, used up or lost (LOS-016), a wait's
// discount (LOS-040), the owed phase (LOS-110), its Zigzags (LOS-107).
func acted(st *encounterv1.EncounterState, s *lossv1.State, f fighter, discountUsed bool) {
	f.cs.Acted = true
	f.cs.NextActionBonus = 0
	f.cs.OwedPhase = 0
	if discountUsed {
		f.cs.WaitDiscount = 0
	}
	if p := s.GetPursuit(); p != nil && p.GetZigzagBy() == f.id() && options(st).GetZigzagUntilNextAction() {
		p.Zigzag, p.ZigzagBy = 0, "" // LOS-107
	}
}

// spendAim: a shot with a weapon uses up the aims taken with it, and only those (LOS-035,
// LOS-084, LOS-090).
func spendAim(f fighter, weapon string) {
	if f.cs.GetAimWeapon() == weapon {
		f.cs.AimBonus, f.cs.AimWeapon = 0, ""
	}
	if f.cs.GetAimTourWeapon() == weapon {
		f.cs.AimTourBonus, f.cs.AimTourWeapon = 0, ""
	}
}

// failedExploit: the GM gains a Fursa when a player character fails an Exploit (LOS-005), and
// may call a Disaster (LOS-006, LOS-086).
func failedExploit(st *encounterv1.EncounterState, s *lossv1.State, f fighter, exploits int32, t *lossv1.TestResult, thrower bool) {
	if exploits == 0 || t == nil || t.GetSuccess() {
		return
	}
	if f.isPC() && options(st).GetGmFursaOnFailedExploit() {
		s.GmFursa++
	}
	if f.isPC() || thrower {
		s.FailedExploitBy = f.id()
	}
}
