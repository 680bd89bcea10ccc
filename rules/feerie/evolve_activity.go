package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"google.golang.org/protobuf/proto"
)

// applyActivityResolved: the activity leaves the queue; its loss is what a Relentless strike
// builds on (FEE-156, FEE-171), an intimidation spends its frightening blows' bonus (FEE-181);
// getting up, picking up, breaking free take effect (FEE-151, FEE-152, FEE-150); an attack
// engages (FEE-175), strikes (FEE-094) and, when it hits, lands (applyHit).
func (sys System) applyActivityResolved(st *encounterv1.EncounterState, s *feeriev1.State, r *feeriev1.ActivityResolved) error {
	s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool {
		return q.GetCombatantId() == r.GetCombatantId() && q.GetRank() == r.GetRank()
	})
	f, err := combatantState(s, r.GetCombatantId())
	if err != nil {
		return err
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
	t, err := combatantState(s, in.GetTargetId())
	if err != nil {
		return err
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
	applyHit(st, s, f, t, r)
	return nil
}

// applyHit: what a hit's special strikes leave (FEE-149…FEE-159): the target down (FEE-151) or
// disarmed (FEE-150), the striker's frightening-blow bonus (FEE-157, FEE-181) or relentless
// strike (FEE-177), Keep at bay and Enter the guard cancelling each other (FEE-154, FEE-159), a
// stun adding to what remains (FEE-179); Knockback leaves nothing (FEE-158).
func applyHit(st *encounterv1.EncounterState, s *feeriev1.State, f, t *feeriev1.CombatantState, r *feeriev1.ActivityResolved) {
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
				return x.GetStrike() == other && x.GetBy() == r.GetIntent().GetTargetId()
			})
			if c.GetMalus() > 0 { // 0: it only cancels the other (FEE-154, FEE-159)
				t.Conditions = append(t.Conditions, proto.CloneOf(c))
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			stun(st, t, c)
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		default:
			t.Conditions = append(t.Conditions, proto.CloneOf(c))
		}
	}
}

// stun: a new stun adds to what remains, or the larger stands, as the option says (FEE-179).
func stun(st *encounterv1.EncounterState, t *feeriev1.CombatantState, c *feeriev1.Condition) {
	merged := false
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
