package loss

import (
	"slices"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// decideDeclare records an intention for the first action of the Tour (LOS-038).
func decideDeclare(st *encounterv1.EncounterState, id string, d *lossv1.Declare, env engine.Env) ([]*encounterv1.Event, error) {
	if err := engine.MayCommand(st, env.Actor, id); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if f.cs.GetOut() || f.cs.GetJoining() {
		return nil, engine.Refused("LOS-038", "%s is not in this Tour's fight", f.name())
	}
	if f.cs.GetDeclared() {
		return nil, engine.Refused("LOS-038", "%s has already declared this Tour", f.name())
	}
	if f.cs.GetActionPoints() < f.cs.GetInitiativeTotal() {
		return nil, engine.Refused("LOS-038", "%s has already acted this Tour; intentions are declared before the Tour", f.name())
	}
	if len(d.GetIntention()) > engine.MaxNameLength {
		return nil, engine.Invalid("", "an intention has at most %d characters", engine.MaxNameLength)
	}
	if lossState(st).GetDeclaring() { // from the lowest Initiative to the highest
		for _, o := range fighters(st) {
			if o.id() != f.id() && !o.cs.GetOut() && !o.cs.GetJoining() && !o.cs.GetDeclared() && o.cs.GetInitiativeTotal() < f.cs.GetInitiativeTotal() {
				return nil, engine.Refused("LOS-038", "%s (Initiative %d) declares before %s (Initiative %d)", o.name(), o.cs.GetInitiativeTotal(), f.name(), f.cs.GetInitiativeTotal())
			}
		}
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_Declared{Declared: &lossv1.Declared{CombatantId: id, Intention: d.GetIntention()}}}), nil
}

// decideWait: se préparer (LOS-040, with the catalogue's erratum).
func decideWait(st *encounterv1.EncounterState, f fighter, w *lossv1.Wait) ([]*encounterv1.Event, error) {
	ap := f.cs.GetActionPoints()
	if w.GetUntilPhase() < 1 || w.GetUntilPhase() >= ap {
		return nil, engine.Invalid("LOS-040", "%s is at phase %d and can wait until a phase from 1 to %d", f.name(), ap, ap-1)
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{
		CombatantId: f.id(), FromPhase: ap, UntilPhase: w.GetUntilPhase(), Discount: ap - w.GetUntilPhase(),
	}}}), nil
}

// decideAim: 1 PA per +1 with a ranged weapon, at most +5 (LOS-035); or a whole Tour, the
// combatant's first action of the Tour taking all its PA, for its next shot with that weapon
// (LOS-084; +15 with Visée of that weapon type, LOS-090, LOS-094).
func (sys System) decideAim(st *encounterv1.EncounterState, f fighter, a *lossv1.Aim) ([]*encounterv1.Event, error) {
	if err := sys.hindered(st, f, false, false, false); err != nil {
		return nil, err
	}
	w, err := weaponOf(f, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	if !isRanged(w) {
		return nil, engine.Refused("LOS-035", "aiming is for ranged weapons; %s is not one", w.GetName())
	}
	if sys.AimNeedsUsableWeapon {
		if f.sh.GetMounted() && w.GetHeavy() {
			return nil, engine.Refused("LOS-090", "%s cannot aim the heavy %s mounted", f.name(), w.GetName())
		}
		if f.cs.GetDisarmed() && !f.owed() {
			return nil, engine.Refused("LOS-074", "%s was disarmed and cannot aim until it has its weapon back", f.name())
		}
	}
	ev := &lossv1.Aimed{CombatantId: f.id(), Weapon: w.GetName(), WholeTour: a.GetWholeTour()}
	if a.GetWholeTour() {
		if f.cs.GetActed() {
			return nil, engine.Refused("LOS-084", "%s has already acted this Tour; aiming for a whole Tour is the first action of a Tour", f.name())
		}
		ev.ActionPointsSpent = f.cs.GetActionPoints()
		ev.Bonus = sys.AimTourBonus
		if f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, w) {
			ev.Bonus = sys.AimTourVisee
		}
	} else {
		held := int32(0)
		if f.cs.GetAimWeapon() == w.GetName() {
			held = f.cs.GetAimBonus()
		}
		if a.GetPoints() < 1 || held+a.GetPoints() > sys.MaxAim {
			return nil, engine.Invalid("LOS-035", "aiming gives +1 per PA, at most +%d in all; %s already has +%d", sys.MaxAim, f.name(), held)
		}
		ev.ActionPointsSpent = sys.cost(f, a.GetPoints())
		ev.Bonus = a.GetPoints()
		if err := needPA(f, ev.ActionPointsSpent, "aiming +", strconv.Itoa(int(a.GetPoints()))); err != nil {
			return nil, err
		}
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: ev}}), nil
}

// SimpleCost is the PA cost of a simple action (LOS-035).
func (sys System) simpleCost(f fighter, k lossv1.SimpleKind) int32 {
	switch k {
	case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
		return 0
	case lossv1.SimpleKind_SIMPLE_KIND_SOCIAL:
		return 1
	case lossv1.SimpleKind_SIMPLE_KIND_MOVE:
		return sys.MoveCost
	case lossv1.SimpleKind_SIMPLE_KIND_PICK_UP, lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON:
		return sys.PickUpCost // recovering from a Disarm is picking up one's weapon (LOS-074)
	case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP:
		return sys.StandUpCost
	}
	return -1
}

func (sys System) decideSimple(st *encounterv1.EncounterState, f fighter, s *lossv1.Simple) ([]*encounterv1.Event, error) {
	k := s.GetKind()
	cost := sys.simpleCost(f, k)
	if cost < 0 {
		return nil, engine.Invalid("LOS-035", "choose an action: speak, social, pick up, move, stand up or recover weapon")
	}
	if k != lossv1.SimpleKind_SIMPLE_KIND_SPEAK {
		standing := k == lossv1.SimpleKind_SIMPLE_KIND_STAND_UP
		// A disarmed fighter recovers by picking up its weapon or regaining its balance (LOS-074).
		recovering := k == lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON || (standing && f.cs.GetDisarmed())
		if err := sys.hindered(st, f, standing, recovering, false); err != nil {
			return nil, err
		}
		if standing && !f.cs.GetProne() && !f.cs.GetDisarmed() {
			return nil, engine.Refused("LOS-072", "%s is neither down nor disarmed: there is nothing to stand up or regain one's balance from", f.name())
		}
		if recovering && !f.cs.GetDisarmed() {
			return nil, engine.Refused("LOS-074", "%s is not disarmed", f.name())
		}
		cost = sys.cost(f, cost)
		if err := needPA(f, cost, simpleName(k)); err != nil {
			return nil, err
		}
	}
	if len(s.GetDescription()) > engine.MaxNameLength {
		return nil, engine.Invalid("", "a description has at most %d characters", engine.MaxNameLength)
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{
		CombatantId: f.id(), Kind: k, ActionPointsSpent: cost, Description: s.GetDescription(),
	}}}), nil
}

func simpleName(k lossv1.SimpleKind) string {
	switch k {
	case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
		return "speaking"
	case lossv1.SimpleKind_SIMPLE_KIND_SOCIAL:
		return "a social Talent"
	case lossv1.SimpleKind_SIMPLE_KIND_PICK_UP:
		return "picking up an object"
	case lossv1.SimpleKind_SIMPLE_KIND_MOVE:
		return "moving"
	case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP:
		return "standing up"
	case lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON:
		return "picking up one's weapon"
	}
	return "this action"
}

// decideDisaster: the GM turns a failed Exploit into a Désastre (LOS-006, LOS-086).
func decideDisaster(st *encounterv1.EncounterState, id string, d *lossv1.Disaster, gm bool) ([]*encounterv1.Event, error) {
	if !gm {
		return nil, engine.Forbidden("only the GM declares a Disaster")
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if lossState(st).GetFailedExploitBy() != id {
		return nil, engine.Refused("LOS-006", "a Disaster follows a failed Exploit of a player character (or a thrower's); %s's last Test was not one", f.name())
	}
	if d.GetDescription() == "" || len(d.GetDescription()) > engine.MaxNameLength {
		return nil, engine.Invalid("LOS-006", "describe the Disaster in 1 to %d characters", engine.MaxNameLength)
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_DisasterDeclared{DisasterDeclared: &lossv1.DisasterDeclared{CombatantId: id, Description: d.GetDescription()}}}), nil
}

// decideDying: save a dying character with an Inspiration or urgent care, or finish it off
// (LOS-023).
func decideDying(st *encounterv1.EncounterState, id string, d *lossv1.Dying, env engine.Env) ([]*encounterv1.Event, error) {
	if err := engine.MayCommand(st, env.Actor, id); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	t, err := fighterOf(st, d.GetTargetId())
	if err != nil {
		return nil, err
	}
	if !t.cs.GetDying() {
		return nil, engine.Refused("LOS-023", "%s is not dying", t.name())
	}
	ev := &lossv1.DyingResolved{CombatantId: id, TargetId: t.id(), Choice: d.GetChoice()}
	switch d.GetChoice() {
	case lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION:
		if id != t.id() {
			return nil, engine.Refused("LOS-023", "only %s can sacrifice its own Inspiration", t.name())
		}
		if !slices.Contains(Vertus, d.GetVertu()) || t.cs.GetInspiration()[d.GetVertu()] < 1 {
			return nil, engine.Refused("LOS-023", "%s holds no Inspiration of %q to sacrifice", t.name(), d.GetVertu())
		}
		ev.Vertu = d.GetVertu()
	case lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE:
		if f.cs.GetOut() && id != t.id() {
			return nil, engine.Refused("LOS-023", "%s is out of the fight and cannot give care", f.name())
		}
	case lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF:
		if id != t.cs.GetFelledBy() && !engine.IsGameMaster(st, env.Actor) {
			return nil, engine.Refused("LOS-023", "only the one who felled %s may finish it off", t.name())
		}
		ev.Dead = true
	default:
		return nil, engine.Invalid("LOS-023", "choose: sacrifice an Inspiration, urgent care, or finish off")
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: ev}}), nil
}

// decideGrant: the GM grants free raises (Augmentations Gratuites) (LOS-004).
func decideGrant(st *encounterv1.EncounterState, id string, g *lossv1.GrantFreeRaises, gm bool) ([]*encounterv1.Event, error) {
	if !gm {
		return nil, engine.Forbidden("only the GM grants free raises")
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if g.GetCount() == 0 || f.cs.GetFreeRaises()+g.GetCount() < 0 || f.cs.GetFreeRaises()+g.GetCount() > maxResource {
		return nil, engine.Invalid("LOS-004", "%s holds %d free raises; it may hold from 0 to %d", f.name(), f.cs.GetFreeRaises(), maxResource)
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{
		CombatantId: id, Count: g.GetCount(), Reason: g.GetReason(),
	}}}), nil
}

func decideDeclareAllowed(st *encounterv1.EncounterState, f fighter) bool {
	for _, o := range fighters(st) {
		if o.id() != f.id() && !o.cs.GetOut() && !o.cs.GetJoining() && !o.cs.GetDeclared() && o.cs.GetInitiativeTotal() < f.cs.GetInitiativeTotal() {
			return false
		}
	}
	return true
}
