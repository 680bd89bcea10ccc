package loss

import (
	"fmt"
	"maps"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// ID is the rule system's id.
const ID = "loss"

// Version is the current version of these rules. Bump it whenever a decision changes; keep
// Evolve able to fold every older version's events.
const Version = 1

// Numbers of the rules.
const (
	BaseDifficulty    = 15 // LOS-010
	ExploitStep       = 5  // LOS-010, LOS-112
	MaxExploits       = 5  // LOS-010, LOS-012
	SpendBonus        = 5  // LOS-004: each Fursa or Inspiration
	PartialDefenceMin = 20 // LOS-014
	DefenceCost       = 1  // LOS-035, LOS-036
	BareCost          = 2  // LOS-035: natural and unarmed attacks
	DefenceBonus      = 5  // LOS-016 [default]
	ToursPerSequence  = 10 // LOS-034
	GravePenalty      = 5  // LOS-022
	FatalPenalty      = 10 // LOS-022
)

// System is Les Chants de Loss, version 1.
type System struct{}

// New returns the Loss rule system.
func New() System { return System{} }

func (System) ID() string      { return ID }
func (System) Name() string    { return "Les Chants de Loss" }
func (System) Version() uint32 { return Version }

func lossState(st *encounterv1.EncounterState) *lossv1.State {
	if s := st.GetLoss(); s != nil {
		return s
	}
	s := &lossv1.State{Combatants: map[string]*lossv1.CombatantState{}}
	st.System = &encounterv1.EncounterState_Loss{Loss: s}
	return s
}

func options(st *encounterv1.EncounterState) *lossv1.Options { return st.GetOptions().GetLoss() }

func lossEvent(e *lossv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: e}}
}

// fighter is a combatant with its sheet and its state.
type fighter struct {
	c  *encounterv1.Combatant
	sh *lossv1.Sheet
	cs *lossv1.CombatantState
}

func (f fighter) name() string { return f.c.GetName() }

func (f fighter) isPC() bool {
	return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER
}

func (f fighter) isSbire() bool { return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE }

// active: may still take actions this Tour (LOS-032, LOS-033).
func (f fighter) active() bool {
	return !f.cs.GetOut() && !f.cs.GetPassed() && f.cs.GetActionPoints() > 0
}

// healthPenalty is the Difficulty added to the fighter's own Tests by its wounds (LOS-022): a
// fighter is in the grave band once it has lost a grave box, in the fatal band once it has
// lost a fatal box.
func (f fighter) healthPenalty(st *encounterv1.EncounterState) int32 {
	bands := options(st).GetHealthBands()
	switch {
	case f.isSbire() || len(bands) != 3:
		return 0
	case f.cs.GetFatal() < bands[2]:
		return FatalPenalty
	case f.cs.GetGrave() < bands[1]:
		return GravePenalty
	default:
		return 0
	}
}

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		return fighter{}, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	return fighter{c: c, sh: c.GetLoss(), cs: lossState(st).GetCombatants()[id]}, nil
}

// phase is the highest phase among the combatants still acting, 0 if none (LOS-031).
func phase(st *encounterv1.EncounterState) (int32, []fighter) {
	var top int32
	var at []fighter
	for _, c := range st.GetCombatants() {
		f := fighter{c: c, sh: c.GetLoss(), cs: lossState(st).GetCombatants()[c.GetId()]}
		if !f.active() {
			continue
		}
		switch ap := f.cs.GetActionPoints(); {
		case ap > top:
			top, at = ap, []fighter{f}
		case ap == top:
			at = append(at, f)
		}
	}
	return top, at
}

// Start rolls the first Tour's Initiative.
func (System) Start(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{startTour(st, env.Dice)}, nil
}

// startTour rolls d10 + Initiative, never exploding, once per combatant or group (LOS-030,
// LOS-003, LOS-037), in the order the combatants joined.
func startTour(st *encounterv1.EncounterState, roller dice.Roller) *encounterv1.Event {
	s := lossState(st)
	tour := s.GetTour() + 1
	ts := &lossv1.TourStarted{Tour: tour, Sequence: (tour-1)/ToursPerSequence + 1}
	groups := map[string]*lossv1.InitiativeRoll{}
	for _, c := range st.GetCombatants() {
		if s.GetCombatants()[c.GetId()].GetOut() {
			continue
		}
		key := "combatant:" + c.GetId()
		if g := c.GetLoss().GetInitiativeGroup(); g != "" {
			key = "group:" + g
		}
		if r, ok := groups[key]; ok {
			r.CombatantIds = append(r.CombatantIds, c.GetId())
			continue
		}
		roll := roller.Roll(dice.D10(false))
		r := &lossv1.InitiativeRoll{
			CombatantIds: []string{c.GetId()},
			Initiative:   c.GetLoss().GetInitiative(),
			Roll:         roll,
			ActionPoints: roll.GetTotal() + c.GetLoss().GetInitiative(),
		}
		groups[key] = r
		ts.Initiative = append(ts.Initiative, r)
	}
	return lossEvent(&lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: ts}})
}

// Decide validates a Loss action and returns its events.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetLoss()
	if a == nil {
		return nil, engine.Unimplemented("Les Chants de Loss does not know this command")
	}
	var (
		events []*encounterv1.Event
		err    error
	)
	if r := a.GetReact(); r != nil {
		events, err = decideReact(st, a.GetCombatantId(), r, env)
	} else {
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		if p := lossState(st).GetPending(); p != nil {
			d, _ := fighterOf(st, p.GetDefenderId())
			return nil, engine.Refused("LOS-009", "%s must first answer the attack (parry, dodge or take the blow)", d.name())
		}
		var f fighter
		if f, err = fighterOf(st, a.GetCombatantId()); err != nil {
			return nil, err
		}
		if err = mayAct(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *lossv1.Action_Attack:
			events, err = decideAttack(st, f, k.Attack, env)
		case *lossv1.Action_Pass:
			events = []*encounterv1.Event{lossEvent(&lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{
				CombatantId: f.c.GetId(), ActionPointsLeft: f.cs.GetActionPoints(),
			}}})}
		case nil:
			return nil, engine.Invalid("", "the action of %s is empty: attack, react or pass", f.name())
		default:
			return nil, engine.Unimplemented("this action is not part of Les Chants de Loss version %d", Version)
		}
	}
	if err != nil {
		return nil, err
	}
	return append(events, closeTour(sys, st, events, env)...), nil
}

// FollowUp starts the next Tour when the GM's removal of a combatant (the last one still
// acting, or one side of the attack awaiting a reaction) leaves no one able to act (LOS-033).
func (sys System) FollowUp(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	return closeTour(sys, st, nil, env), nil
}

// closeTour starts the next Tour when the events leave no one able to act (LOS-033).
func closeTour(sys System, st *encounterv1.EncounterState, events []*encounterv1.Event, env engine.Env) []*encounterv1.Event {
	next := proto.CloneOf(st)
	for _, ev := range events {
		_ = sys.Evolve(next, ev) // events just decided always fold
	}
	if lossState(next).GetPending() != nil {
		return nil
	}
	if top, _ := phase(next); top > 0 {
		return nil
	}
	return []*encounterv1.Event{startTour(next, env.Dice)}
}

// mayAct checks that it is f's turn: it has PA and its phase is the highest (LOS-031, LOS-032,
// LOS-110).
func mayAct(st *encounterv1.EncounterState, f fighter) error {
	switch {
	case f.cs.GetOut():
		return engine.Refused("LOS-022", "%s is out of the fight", f.name())
	case f.cs.GetPassed():
		return engine.Refused("LOS-033", "%s has passed for the rest of this Tour", f.name())
	case f.cs.GetActionPoints() <= 0:
		return engine.Refused("LOS-032", "%s has no PA left this Tour and cannot act", f.name())
	}
	top, at := phase(st)
	if f.cs.GetActionPoints() < top {
		return engine.Refused("LOS-031", "it is not %s's turn: %s is at phase %d, %s acts first at phase %d",
			f.name(), f.name(), f.cs.GetActionPoints(), at[0].name(), top)
	}
	return nil
}

// attackCost is an attack's PA cost (LOS-035).
func attackCost(w *lossv1.Weapon) int32 {
	switch w.GetKind() {
	case lossv1.WeaponKind_WEAPON_KIND_NATURAL, lossv1.WeaponKind_WEAPON_KIND_UNARMED:
		return BareCost
	default:
		return w.GetVitesse()
	}
}

func weaponOf(f fighter, name string) (*lossv1.Weapon, error) {
	ws := f.sh.GetWeapons()
	if name == "" && len(ws) == 1 {
		return ws[0], nil
	}
	for _, w := range ws {
		if w.GetName() == name {
			return w, nil
		}
	}
	names := make([]string, 0, len(ws))
	for _, w := range ws {
		names = append(names, w.GetName())
	}
	if name == "" {
		return nil, engine.Invalid("", "%s has several weapons %v: name the one to attack with", f.name(), names)
	}
	return nil, engine.NotFound("%s has no weapon %q (weapons: %v)", f.name(), name, names)
}

// checkSpend checks that f holds what it spends and returns the bonus (LOS-004, LOS-005).
func checkSpend(st *encounterv1.EncounterState, f fighter, sp *lossv1.Spend) (int32, error) {
	if sp.GetFursa() < 0 {
		return 0, engine.Invalid("LOS-004", "Fursa spent cannot be negative")
	}
	n := sp.GetFursa()
	if n > 0 {
		switch {
		case f.isSbire():
			return 0, engine.Refused("LOS-005", "%s is a Sbire and has no Fursa", f.name())
		case f.isPC() && n > f.cs.GetFursa():
			return 0, engine.Refused("LOS-005", "%s holds %d Fursa and cannot spend %d", f.name(), f.cs.GetFursa(), n)
		case !f.isPC() && n > lossState(st).GetGmFursa():
			return 0, engine.Refused("LOS-005", "the GM's Fursa reserve holds %d and %s cannot spend %d", lossState(st).GetGmFursa(), f.name(), n)
		}
	}
	for v, k := range sp.GetInspiration() {
		switch held := f.cs.GetInspiration()[v]; {
		case k < 0:
			return 0, engine.Invalid("LOS-004", "Inspiration spent cannot be negative")
		case k > held:
			return 0, engine.Refused("LOS-005", "%s holds %d Inspiration of %s and cannot spend %d", f.name(), held, v, k)
		}
		n += k
	}
	return n * SpendBonus, nil
}

// test rolls a Test: Trait + Talent + 1d10 + bonus against difficulty (LOS-001, LOS-002).
func test(st *encounterv1.EncounterState, f fighter, s *lossv1.Score, bonus int32, sp *lossv1.Spend, difficulty int32, roller dice.Roller) *lossv1.TestResult {
	roll := roller.Roll(dice.D10(options(st).GetExplodeActionD10()))
	t := &lossv1.TestResult{
		Roll:       roll,
		Trait:      f.sh.GetTraits()[s.GetTrait()],
		Talent:     f.sh.GetTalents()[s.GetTalent()],
		Bonus:      bonus,
		Spend:      sp,
		Difficulty: difficulty,
	}
	t.Total = t.Trait + t.Talent + roll.GetTotal() + bonus
	t.Success = t.Total >= difficulty
	return t
}

func decideAttack(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, env engine.Env) ([]*encounterv1.Event, error) {
	w, err := weaponOf(f, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	cost := attackCost(w)
	if f.cs.GetActionPoints() < cost {
		return nil, engine.Refused("LOS-035", "%s has %d PA left; an attack with %s costs %d", f.name(), f.cs.GetActionPoints(), w.GetName(), cost)
	}
	if a.GetTargetId() == f.c.GetId() {
		return nil, engine.Invalid("", "%s cannot attack itself", f.name())
	}
	t, err := fighterOf(st, a.GetTargetId())
	if err != nil {
		return nil, err
	}
	if t.cs.GetOut() {
		return nil, engine.Refused("", "%s is already out of the fight", t.name())
	}
	if len(a.GetExploits()) > MaxExploits {
		return nil, engine.Invalid("LOS-010", "%s declares %d Exploits; at most %d may be declared", f.name(), len(a.GetExploits()), MaxExploits)
	}
	for _, e := range a.GetExploits() {
		if e != lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE {
			return nil, engine.Invalid("LOS-065", "Exploit effect %v is not one this version resolves; declare extra damage", e)
		}
	}
	spent, err := checkSpend(st, f, a.GetSpend())
	if err != nil {
		return nil, err
	}
	exploits := int32(len(a.GetExploits()))
	difficulty := BaseDifficulty + ExploitStep*exploits + f.healthPenalty(st) // LOS-010, LOS-022
	res := test(st, f, w.GetAttack(), spent+f.cs.GetNextActionBonus(), a.GetSpend(), difficulty, env.Dice)
	ar := &lossv1.AttackRolled{
		AttackerId:        f.c.GetId(),
		TargetId:          t.c.GetId(),
		Weapon:            w.GetName(),
		ActionPointsSpent: cost,
		Exploits:          a.GetExploits(),
		Test:              res,
	}
	switch {
	case !res.GetSuccess():
	case a.GetUnseen():
		ar.NoDefenceReason = t.name() + " does not see the attack (LOS-017)"
	case t.cs.GetActionPoints() < DefenceCost:
		ar.NoDefenceReason = t.name() + " has no PA left to parry or dodge (LOS-032)"
	default:
		ar.DefencePossible = true
	}
	events := []*encounterv1.Event{lossEvent(&lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: ar}})}
	switch {
	case !res.GetSuccess():
		events = append(events, lossEvent(&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{
			AttackerId: f.c.GetId(), TargetId: t.c.GetId(), Hit: false,
			Light: t.cs.GetLight(), Grave: t.cs.GetGrave(), Fatal: t.cs.GetFatal(), Health: t.cs.GetHealth(), TargetOut: t.cs.GetOut(),
		}}}))
	case !ar.DefencePossible:
		events = append(events, hit(st, f, t, w, a.GetExploits(), exploits, env.Dice))
	}
	return events, nil
}

// hit rolls damage and applies it (LOS-020, LOS-021, LOS-022, LOS-024).
func hit(st *encounterv1.EncounterState, att, t fighter, w *lossv1.Weapon, effects []lossv1.ExploitEffect, standing int32, roller dice.Roller) *encounterv1.Event {
	extra := 0
	for i, e := range effects {
		if int32(i) < standing && e == lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE {
			extra++
		}
	}
	roll := roller.Roll(dice.Expr{Count: 1 + extra, Sides: 10, Explode: options(st).GetExplodeDamageD10()})
	d := &lossv1.Damage{
		Roll:         roll,
		WeaponDamage: w.GetDamage(),
		Total:        roll.GetTotal() + w.GetDamage(),
		Armour:       t.sh.GetArmour(),
		Shield:       t.sh.GetShieldProtection(),
	}
	d.LevelsLost = max(0, d.Total-d.Armour-d.Shield)
	r := &lossv1.AttackResolved{
		AttackerId: att.c.GetId(), TargetId: t.c.GetId(), Hit: true, ExploitsStanding: standing, Damage: d,
		Light: t.cs.GetLight(), Grave: t.cs.GetGrave(), Fatal: t.cs.GetFatal(), Health: t.cs.GetHealth(),
	}
	if t.isSbire() {
		r.Health = max(0, r.Health-d.LevelsLost)
		r.TargetOut = r.Health == 0
	} else {
		lost := d.LevelsLost
		for _, box := range []*int32{&r.Light, &r.Grave, &r.Fatal} {
			take := min(lost, *box)
			*box -= take
			lost -= take
		}
		r.TargetOut = r.Fatal == 0
	}
	return lossEvent(&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: r}})
}

func decideReact(st *encounterv1.EncounterState, id string, r *lossv1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p := lossState(st).GetPending()
	if p == nil {
		return nil, engine.Refused("LOS-009", "no attack is waiting for a parry or a dodge")
	}
	if id == "" {
		id = p.GetDefenderId()
	}
	if id != p.GetDefenderId() {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, engine.Refused("LOS-009", "the attack waiting for a reaction is against %s", d.name())
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
	w, err := weaponOf(att, p.GetWeapon())
	if err != nil {
		return nil, err
	}
	exploits := int32(len(p.GetExploits()))
	dr := &lossv1.DefenceRolled{DefenderId: id, Reaction: r.GetReaction()}
	var score *lossv1.Score
	switch r.GetReaction() {
	case lossv1.Reaction_REACTION_NONE:
		ev := lossEvent(&lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: dr}})
		return []*encounterv1.Event{ev, hit(st, att, d, w, p.GetExploits(), exploits, env.Dice)}, nil
	case lossv1.Reaction_REACTION_PARRY:
		score = d.sh.GetParry()
	case lossv1.Reaction_REACTION_DODGE:
		score = d.sh.GetDodge()
	default:
		return nil, engine.Invalid("LOS-009", "%s must choose a reaction: parry, dodge or none", d.name())
	}
	if score == nil {
		return nil, engine.Refused("LOS-009", "%s's sheet has no score to %s with", d.name(), reactionVerb(r.GetReaction()))
	}
	if d.cs.GetActionPoints() < DefenceCost {
		return nil, engine.Refused("LOS-032", "%s has no PA left; a %s costs %d", d.name(), reactionVerb(r.GetReaction()), DefenceCost)
	}
	if r.GetExploits() < 0 || r.GetExploits() > MaxExploits {
		return nil, engine.Invalid("LOS-012", "%s declares %d Exploits; from 0 to %d may be declared", d.name(), r.GetExploits(), MaxExploits)
	}
	spent, err := checkSpend(st, d, r.GetSpend())
	if err != nil {
		return nil, err
	}
	// LOS-012: the attacker's Difficulty + the defender's own modifiers + its Exploits.
	difficulty := p.GetDifficulty() + d.healthPenalty(st) + ExploitStep*r.GetExploits()
	res := test(st, d, score, spent+d.cs.GetNextActionBonus(), r.GetSpend(), difficulty, env.Dice)
	dr.ActionPointsSpent = DefenceCost // LOS-036: paid even on a failure
	dr.Exploits = r.GetExploits()
	dr.Test = res
	events := []*encounterv1.Event{lossEvent(&lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: dr}})}
	if res.GetSuccess() { // LOS-013: both succeed, the attack misses
		return append(events, lossEvent(&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{
			AttackerId: att.c.GetId(), TargetId: id, Hit: false, ExploitsStanding: exploits,
			Light: d.cs.GetLight(), Grave: d.cs.GetGrave(), Fatal: d.cs.GetFatal(), Health: d.cs.GetHealth(),
		}}})), nil
	}
	if res.GetTotal() >= PartialDefenceMin { // LOS-014 partial defence; LOS-015 still a hit
		dr.ExploitsCancelled = min(exploits, (res.GetTotal()-PartialDefenceMin)/ExploitStep+1)
	}
	return append(events, hit(st, att, d, w, p.GetExploits(), exploits-dr.ExploitsCancelled, env.Dice)), nil
}

func reactionVerb(r lossv1.Reaction) string {
	if r == lossv1.Reaction_REACTION_DODGE {
		return "dodge"
	}
	return "parry"
}

// spend takes what a Test spent from its holder (LOS-005).
func spend(s *lossv1.State, f fighter, sp *lossv1.Spend) {
	if f.isPC() {
		f.cs.Fursa -= sp.GetFursa()
	} else {
		s.GmFursa -= sp.GetFursa()
	}
	for v, k := range sp.GetInspiration() {
		if f.cs.Inspiration == nil { // a cloned or decoded state has no empty maps
			f.cs.Inspiration = map[string]int32{}
		}
		f.cs.Inspiration[v] -= k
	}
}

// Evolve folds the Loss part of an event.
func (System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := lossState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		s.GmFursa = p.EncounterCreated.GetOptions().GetLoss().GetGmFursa()
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		sh := c.GetLoss()
		cs := &lossv1.CombatantState{Fursa: sh.GetFursa(), Inspiration: maps.Clone(sh.GetInspiration())}
		if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE {
			cs.Health = SbireHealth
		} else {
			b := options(st).GetHealthBands()
			cs.Light, cs.Grave, cs.Fatal = b[0], b[1], b[2]
		}
		if s.Combatants == nil { // a cloned or decoded state has no empty maps
			s.Combatants = map[string]*lossv1.CombatantState{}
		}
		s.Combatants[c.GetId()] = cs
	case *encounterv1.Event_CombatantRemoved:
		id := p.CombatantRemoved.GetCombatantId()
		delete(s.Combatants, id)
		if pa := s.GetPending(); pa != nil && (pa.GetAttackerId() == id || pa.GetDefenderId() == id) {
			s.Pending, st.Pending = nil, nil
		}
	case *encounterv1.Event_Loss:
		return evolveLoss(st, s, p.Loss)
	}
	return nil
}

func evolveLoss(st *encounterv1.EncounterState, s *lossv1.State, e *lossv1.Event) error {
	get := func(id string) (fighter, error) {
		f, err := fighterOf(st, id)
		if err == nil && f.cs == nil {
			err = fmt.Errorf("combatant %s has no Loss state", id)
		}
		return f, err
	}
	gmGains := func(f fighter, exploits int32, t *lossv1.TestResult) {
		if f.isPC() && exploits > 0 && t != nil && !t.GetSuccess() && options(st).GetGmFursaOnFailedExploit() {
			s.GmFursa++ // LOS-005
		}
	}
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		t := k.TourStarted
		s.Tour, s.Sequence = t.GetTour(), t.GetSequence()
		for _, cs := range s.GetCombatants() {
			cs.ActionPoints, cs.InitiativeTotal, cs.Passed, cs.NextActionBonus = 0, 0, false, 0
		}
		for _, r := range t.GetInitiative() {
			for _, id := range r.GetCombatantIds() {
				if cs := s.GetCombatants()[id]; cs != nil {
					cs.ActionPoints, cs.InitiativeTotal = r.GetActionPoints(), r.GetActionPoints()
				}
			}
		}
	case *lossv1.Event_AttackRolled:
		a := k.AttackRolled
		f, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= a.GetActionPointsSpent()
		f.cs.NextActionBonus = 0
		spend(s, f, a.GetTest().GetSpend())
		gmGains(f, int32(len(a.GetExploits())), a.GetTest())
		if a.GetDefencePossible() {
			s.Pending = &lossv1.PendingAttack{
				AttackerId:  a.GetAttackerId(),
				DefenderId:  a.GetTargetId(),
				Weapon:      a.GetWeapon(),
				Exploits:    a.GetExploits(),
				Difficulty:  BaseDifficulty + ExploitStep*int32(len(a.GetExploits())),
				AttackTotal: a.GetTest().GetTotal(),
			}
			d, err := get(a.GetTargetId())
			if err != nil {
				return err
			}
			st.Pending = []*encounterv1.PendingReaction{{
				CombatantId: d.c.GetId(),
				Controller:  d.c.GetController(),
				Prompt: fmt.Sprintf("%s attacks %s with %s (total %d against %d): parry, dodge or take the blow",
					f.name(), d.name(), a.GetWeapon(), a.GetTest().GetTotal(), a.GetTest().GetDifficulty()),
			}}
		}
	case *lossv1.Event_DefenceRolled:
		d := k.DefenceRolled
		f, err := get(d.GetDefenderId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= d.GetActionPointsSpent()
		if d.GetTest() != nil {
			f.cs.NextActionBonus = 0
			spend(s, f, d.GetTest().GetSpend())
			gmGains(f, d.GetExploits(), d.GetTest())
			if d.GetTest().GetSuccess() && d.GetExploits() > 0 {
				f.cs.NextActionBonus = DefenceBonus // LOS-016
			}
		}
	case *lossv1.Event_AttackResolved:
		r := k.AttackResolved
		s.Pending, st.Pending = nil, nil
		t, err := get(r.GetTargetId())
		if err != nil {
			return err
		}
		t.cs.Light, t.cs.Grave, t.cs.Fatal, t.cs.Health, t.cs.Out = r.GetLight(), r.GetGrave(), r.GetFatal(), r.GetHealth(), r.GetTargetOut()
	case *lossv1.Event_Passed:
		f, err := get(k.Passed.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.Passed = true
	default:
		return fmt.Errorf("unknown Loss event %T", k)
	}
	return nil
}
