package feerie

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Contes de Fées part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := feerieState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &feeriev1.CombatantState{Essence: c.GetFeerie().GetEssence()}
	case *encounterv1.Event_CombatantRemoved:
		id := p.CombatantRemoved.GetCombatantId()
		delete(s.Combatants, id)
		s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool { return q.GetCombatantId() == id })
	case *encounterv1.Event_Feerie:
		return sys.evolve(st, s, p.Feerie)
	}
	return nil
}

func (sys System) evolve(st *encounterv1.EncounterState, s *feeriev1.State, e *feeriev1.Event) error {
	get := func(id string) (*feeriev1.CombatantState, error) {
		cs := s.GetCombatants()[id]
		if cs == nil {
			return nil, fmt.Errorf("no combatant %s", id)
		}
		return cs, nil
	}
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_ActionStarted:
		s.Action, s.Step, s.Rank, s.TopRank, s.Queue = k.ActionStarted.GetAction(), feeriev1.Step_STEP_DECLARING, 0, 0, nil
		for _, cs := range s.GetCombatants() {
			if s.Action > 1 && cs.GetSurprisedActions() > 0 {
				cs.SurprisedActions--
				if cs.SurprisedActions == 0 {
					cs.SurpriseNoActivity = false
				}
			}
			cs.ThisAction, cs.NextAction = cs.GetNextAction(), 0 // FEE-062, FEE-073
			cs.HasDeclared, cs.Declared, cs.Activities, cs.LastRank, cs.Penalties = false, nil, 0, 0, nil
			cs.Renounced, cs.ChangeMalus, cs.Aim = false, 0, 0
			if !house(st).GetAnglesWholeFight() { // engaged for the Action (FEE-175), or the fight
				cs.EngagedBy = nil
			}
			if house(st).GetRelentlessEndsWithAction() { // the option of FEE-177
				cs.Relentless = false
			}
			cs.Initiative, cs.ActingRank, cs.CanAct = 0, 0, false
			cs.UnseenBonus, cs.UnseenVictims = 0, nil       // FEE-081: for the one Action
			cs.Aggressors, cs.LastTacticInitiative = nil, 0 // FEE-175, FEE-074
		}
	case *feeriev1.Event_Declared:
		cs, err := get(k.Declared.GetCombatantId())
		if err != nil {
			return err
		}
		cs.HasDeclared, cs.Declared = true, proto.CloneOf(k.Declared.GetIntent())
		cs.Tactic = proto.CloneOf(cs.Declared.GetTactic())
		watch(s, k.Declared.GetCombatantId(), cs.GetDeclared()) // FEE-175
	case *feeriev1.Event_Surprised:
		cs, err := get(k.Surprised.GetCombatantId())
		if err != nil {
			return err
		}
		cs.SurprisedActions, cs.SurpriseNoActivity = k.Surprised.GetActions(), k.Surprised.GetNoActivity()
	case *feeriev1.Event_CountdownStarted:
		c := k.CountdownStarted
		s.Step, s.TopRank, s.Rank = feeriev1.Step_STEP_COUNTDOWN, c.GetTopRank(), c.GetTopRank()
		for _, ir := range c.GetInitiative() {
			cs, err := get(ir.GetCombatantId())
			if err != nil {
				return err
			}
			r := ir.GetResult()
			cs.Initiative, cs.ActingRank, cs.CanAct = r.GetTotal(), r.GetTotal(), ir.GetCanAct()
			cs.InitiativeDie = r.GetTotal() - r.GetScore()
			cs.InitiativeTactic = cs.GetTactic().GetInitiative() // FEE-071
			var applied int32
			for _, m := range r.GetModifiers() {
				if m.GetRule() == "FEE-010" && m.GetReason() != "Vigilance" {
					applied += m.GetValue()
				}
			}
			cs.InitiativeApplied = applied
		}
	case *feeriev1.Event_IntentionChanged:
		c := k.IntentionChanged
		cs, err := get(c.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Declared, cs.Tactic = proto.CloneOf(c.GetIntent()), proto.CloneOf(c.GetIntent().GetTactic()) // FEE-072
		watch(s, c.GetCombatantId(), c.GetIntent())                                                     // FEE-175
		cs.ActingRank = c.GetActingRank()
		p := &feeriev1.Penalty{FromRank: c.GetRank(), Defense: sys.n.ChangeMalus, Reason: "change of intention"}
		if cs.GetActivities() > 0 && cs.GetChangeMalus() == 0 { // a further activity declared: −8 from now (FEE-074)
			p.Defense += sys.n.SupplementaryMalus
		}
		cs.ChangeMalus += sys.n.ChangeMalus
		cs.Penalties = append(cs.Penalties, p)
		cs.NextAction += sys.n.ChangeMalus
	case *feeriev1.Event_ActivityQueued:
		q := k.ActivityQueued.GetQueued()
		cs, err := get(q.GetCombatantId())
		if err != nil {
			return err
		}
		s.Queue = append(s.Queue, q)
		n := cs.GetActivities()
		cs.Activities++
		cs.LastRank = q.GetRank()
		cs.ChangeMalus = 0
		p := &feeriev1.Penalty{FromRank: q.GetRank(), Rolls: q.GetAnticipation(), Defense: q.GetAnticipation(), Reason: "activity"}
		if n > 0 { // FEE-061, FEE-062
			if !q.GetDeclaredChange() { // else taken from the declaration (FEE-074)
				p.Defense += sys.n.SupplementaryMalus
			}
			cs.NextAction += sys.n.SupplementaryMalus
		}
		if q.GetChangeOfIntention() { // FEE-070, FEE-073
			p.Defense += sys.n.ChangeMalus
			cs.NextAction += sys.n.ChangeMalus
			cs.Declared, cs.Tactic = proto.CloneOf(q.GetAct().GetIntent()), proto.CloneOf(q.GetAct().GetIntent().GetTactic())
		}
		if p.GetRolls() != 0 || p.GetDefense() != 0 {
			cs.Penalties = append(cs.Penalties, p)
		}
		cs.LastTacticInitiative = cs.GetTactic().GetInitiative() // FEE-074
		watch(s, q.GetCombatantId(), q.GetAct().GetIntent())     // FEE-175
		cs.Essence -= q.GetAct().GetEssence()                    // FEE-005
	case *feeriev1.Event_ActivityResolved:
		return sys.resolved(st, s, k.ActivityResolved)
	case *feeriev1.Event_RankAdvanced:
		r := k.RankAdvanced
		s.Queue = nil
		passed := r.GetFromRank() - r.GetToRank() // the ranks left behind; rank 0 is never left so (FEE-179)
		s.Rank = r.GetToRank()
		for _, cs := range s.GetCombatants() {
			decay(cs, passed)
		}
	case *feeriev1.Event_Impersonal:
		cs, err := get(k.Impersonal.GetTargetId())
		if err != nil {
			return err
		}
		cs.Essence -= k.Impersonal.GetEssenceLost()
	case *feeriev1.Event_TacticRuled:
		cs, err := get(k.TacticRuled.GetCombatantId())
		if err != nil {
			return err
		}
		evolveRuling(s, cs, k.TacticRuled)
	case *feeriev1.Event_BecameObject:
		b := k.BecameObject
		cs, err := get(b.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Inanimate, cs.InanimatePower = !b.GetEnd(), b.GetPower() // FEE-026
		if b.GetEnd() {
			cs.InanimatePower = ""
		} else {
			cs.Renounced = true
			s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool { return q.GetCombatantId() == b.GetCombatantId() })
		}
	case *feeriev1.Event_Gestured: // free: no state (FEE-047)
	case *feeriev1.Event_UnseenRolled:
		cs, err := get(k.UnseenRolled.GetCombatantId())
		if err != nil {
			return err
		}
		cs.UnseenBonus = k.UnseenRolled.GetInitiativeBonus()
		cs.UnseenVictims = append(cs.UnseenVictims, k.UnseenRolled.GetVictimId()) // one roll per victim (FEE-081)
	case *feeriev1.Event_HelplessRuled:
		h := k.HelplessRuled
		cs, err := get(h.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Helpless, cs.HelplessReason = h.GetHelpless(), h.GetReason() // FEE-022
		if !h.GetHelpless() {
			cs.HelplessReason = ""
		} else { // it cannot act (FEE-024): its activity at this rank is gone
			s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool { return q.GetCombatantId() == h.GetCombatantId() })
		}
	case *feeriev1.Event_Renounced:
		cs, err := get(k.Renounced.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Renounced = true
		s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool { return q.GetCombatantId() == k.Renounced.GetCombatantId() })
	default:
		return fmt.Errorf("unknown Contes de Fées event %T", k)
	}
	return nil
}

// watch: an opponent that declares a melee activity against a defender (at step 1, by a change
// of intention, or by performing it) is one of its potential aggressors for the rest of the
// Action: it occupies an angle from then on, before its own attack (FEE-091, FEE-175).
func watch(s *feeriev1.State, attacker string, in *feeriev1.Intent) {
	if in.GetKind() != feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK {
		return
	}
	for _, id := range append([]string{in.GetTargetId()}, in.GetAlsoTargetIds()...) {
		if cs := s.GetCombatants()[id]; cs != nil && id != attacker && !slices.Contains(cs.GetAggressors(), attacker) {
			cs.Aggressors = append(cs.Aggressors, attacker)
		}
	}
}

// frighten: a frightening blow gives its striker a bonus on its next intimidation against each
// witness: every other combatant present, not at 0 Essence nor helpless
// (FEE-157, FEE-181).
func frighten(st *encounterv1.EncounterState, s *feeriev1.State, striker string, bonus int32) {
	f := s.GetCombatants()[striker]
	if f == nil || bonus <= 0 {
		return
	}
	for _, c := range st.GetCombatants() {
		w := s.GetCombatants()[c.GetId()]
		if c.GetId() == striker || w == nil || w.GetEssence() <= 0 || w.GetHelpless() {
			continue
		}
		if f.IntimidationBonuses == nil {
			f.IntimidationBonuses = map[string]int32{}
		}
		f.IntimidationBonuses[c.GetId()] += bonus
	}
}

// IntimidationBonus is the bonus of cs's frightening blows on an intimidation against target;
// an intimidation with no target, against all the witnesses at once, takes the largest
// (FEE-181).
func IntimidationBonus(cs *feeriev1.CombatantState, target string) int32 {
	if target != "" {
		return cs.GetIntimidationBonuses()[target]
	}
	var most int32
	for _, b := range cs.GetIntimidationBonuses() {
		most = max(most, b)
	}
	return most
}

// spendIntimidation: the intimidation took the bonus against its target, or against every
// witness when it named none (FEE-181).
func spendIntimidation(cs *feeriev1.CombatantState, target string) {
	if target == "" {
		cs.IntimidationBonuses = nil
		return
	}
	delete(cs.IntimidationBonuses, target)
	if len(cs.IntimidationBonuses) == 0 {
		cs.IntimidationBonuses = nil
	}
}

// decay: a stun wanes by 1 per rank, a crippled organ comes back after its ranks (FEE-153,
// FEE-155, FEE-179).
func decay(cs *feeriev1.CombatantState, ranks int32) {
	if ranks <= 0 {
		return
	}
	cs.Conditions = slices.DeleteFunc(cs.Conditions, func(c *feeriev1.Condition) bool {
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			c.Malus -= ranks
			return c.GetMalus() <= 0
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			c.Ranks -= ranks
			return c.GetRanks() <= 0
		}
		return false
	})
}

func (sys System) resolved(st *encounterv1.EncounterState, s *feeriev1.State, r *feeriev1.ActivityResolved) error {
	s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool {
		return q.GetCombatantId() == r.GetCombatantId() && q.GetRank() == r.GetRank()
	})
	f := s.GetCombatants()[r.GetCombatantId()]
	if f == nil {
		return fmt.Errorf("no combatant %s", r.GetCombatantId())
	}
	in := r.GetIntent()
	// What a Relentless strike builds on: the loss of the previous activity (FEE-156, FEE-171).
	f.LastLoss, f.LastTarget = r.GetEssenceLost(), in.GetTargetId()
	f.RelentlessBonus = div(house(st), f.GetLastLoss(), 4)
	if in.GetIntimidation() { // the frightening blow's bonus serves the next intimidation (FEE-181)
		target := in.GetTargetId()
		if sys.n.IntimidationSpendsAll { // v2: « sa prochaine activité d'intimidation », whoever it targets
			target = ""
		}
		spendIntimidation(f, target)
	}
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		f.Prone = false
		return nil
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		f.Disarmed = false
		return nil
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		if r.GetSuccess() {
			f.Conditions = slices.DeleteFunc(f.Conditions, func(c *feeriev1.Condition) bool {
				return c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE
			})
		}
		return nil
	case feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		f.Aim = 0
	}
	attack := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if !attack {
		return nil
	}
	t := s.GetCombatants()[in.GetTargetId()]
	if t == nil {
		return fmt.Errorf("no combatant %s", in.GetTargetId())
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK {
		engage(s, r.GetCombatantId(), in.GetTargetId()) // FEE-175
	}
	struck(s, r.GetCombatantId(), r) // FEE-094
	if !r.GetSuccess() {
		f.Relentless = false // FEE-177: dislodged at the first failed Attack
		return nil
	}
	t.Essence = r.GetTargetEssence()
	for _, c := range r.GetConditions() {
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP:
			t.Prone = true
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM:
			t.Disarmed = true
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
			frighten(st, s, r.GetCombatantId(), c.GetMalus())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
			f.Relentless = true // −8 Defense until the weapon is dislodged (FEE-177)
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			// Each cancels only the other, made on the striker by its target (FEE-154, FEE-159).
			other := feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD
			if c.GetStrike() == other {
				other = feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY
			}
			f.Conditions = slices.DeleteFunc(f.Conditions, func(x *feeriev1.Condition) bool {
				return x.GetStrike() == other && x.GetBy() == in.GetTargetId()
			})
			if c.GetMalus() > 0 { // 0: it only cancels the other (FEE-154, FEE-159)
				t.Conditions = append(t.Conditions, proto.CloneOf(c))
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			merged := false // a new stun adds to what remains, or the larger stands (FEE-179)
			for _, x := range t.Conditions {
				if x.GetStrike() == c.GetStrike() {
					if house(st).GetStunStacking() == StunMax {
						x.Malus = max(x.GetMalus(), c.GetMalus())
					} else {
						x.Malus += c.GetMalus()
					}
					merged = true
				}
			}
			if !merged && c.GetMalus() > 0 {
				t.Conditions = append(t.Conditions, proto.CloneOf(c))
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		default:
			t.Conditions = append(t.Conditions, proto.CloneOf(c))
		}
	}
	return nil
}
