package feerie

import (
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Hidden information in Contes de Fées. What the table sees of a combatant the GM hides: its
// name, what kind of activity it performs and on whom (a melee attacker is one of its
// target's potential aggressors, FEE-175, and the special strikes and the pace are seen in
// the blow), the ranks at which it acts (the countdown is called out loud, FEE-041, FEE-044:
// who acts at a rank is seen, not the Initiative rolled behind it), whether it succeeds, and
// the conditions one sees (prone, disarmed, helpless, surprised, an object). Never its
// Aspects, Attributes (their names are often telling), Essence, tactic, rolls, totals,
// penalties or the GM's modifiers to its rolls.

var _ engine.Redactor = System{}

// Appearance is what the table sees of a combatant's Essence (FEE-021, FEE-022, FEE-024): out
// of the fight at 0 Essence or helpless by the GM's ruling (it cannot act); badly wounded at
// half its Essence or less; wounded with any Essence gone (spent on rolls, FEE-005, or lost).
// The rules give no such scale: the half is this engine's choice.
func (sys System) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	c := engine.FindCombatant(st, id)
	cs := st.GetFeerie().GetCombatants()[id]
	if c == nil || cs == nil {
		return encounterv1.Appearance_APPEARANCE_FIGHTING
	}
	if sys.Out(st, id) {
		return encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	}
	return engine.Worn(cs.GetEssence(), c.GetFeerie().GetEssence())
}

// RedactState removes the numbers of the combatants hidden from the reader, in their own
// state and in the queue of the rank, and the Essence a visible combatant's last blow took
// from a hidden one.
func (System) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	s := st.GetFeerie()
	if s == nil {
		return
	}
	for id, cs := range s.GetCombatants() {
		if secret(id) {
			redactCombatant(cs)
		} else if secret(cs.GetLastTarget()) {
			cs.LastLoss = 0 // the hidden target's loss; the Relentless bonus built on it is the striker's own
		}
	}
	for _, q := range s.GetQueue() {
		if secret(q.GetCombatantId()) {
			redactQueued(q)
		}
	}
}

// redactCombatant keeps what the table sees of a hidden combatant: whether it can act this
// Action, has declared, has renounced, how many activities it performed and the rank of the
// last, surprise, prone, disarmed, Relentless (its weapon in the wound), helpless, an object,
// whom it is engaged with and its potential aggressors (FEE-175), its unseen victims, the
// last target of its blows, its conditions by kind and striker (not their numbers).
func redactCombatant(cs *feeriev1.CombatantState) {
	cs.Essence, cs.Initiative, cs.ActingRank = 0, 0, 0
	redactIntent(cs.GetDeclared())
	cs.Penalties, cs.NextAction, cs.ThisAction = nil, 0, 0
	for _, c := range cs.GetConditions() {
		redactCondition(c)
	}
	cs.RelentlessBonus, cs.IntimidationBonuses = 0, nil
	cs.InitiativeDie, cs.InitiativeApplied, cs.InitiativeTactic, cs.LastTacticInitiative = 0, 0, 0, 0
	cs.Tactic, cs.Aim, cs.ChangeMalus, cs.UnseenBonus = nil, 0, 0, 0
	cs.InanimatePower, cs.LastLoss = "", 0
}

// redactCondition keeps the strike, who made it and how far a knockback threw (seen); its
// malus, ranks and what freeing oneself must beat go.
func redactCondition(c *feeriev1.Condition) {
	c.Malus, c.Ranks, c.FreeAgainst = 0, 0, 0
}

// redactIntent keeps the kind of activity, its targets, the special strikes, physical, pace,
// charge, projectile, intimidation and the Aspect rolled; the Attributes applied, the tactic,
// the description (in the GM's words, often naming them) and a difficulty go.
func redactIntent(in *feeriev1.Intent) {
	if in != nil {
		in.Applied, in.Tactic, in.Description, in.Difficulty = nil, nil, "", 0
	}
}

// redactQueued keeps the rank, which activity of the Action it is, and whether it is a change
// of intention; the penalties on its roll and the anticipation and delay (measured from its
// Initiative) go.
func redactQueued(q *feeriev1.Queued) {
	q.RollPenalty, q.Delay, q.Anticipation = 0, 0, 0
	redactAct(q.GetAct())
}

// redactAct: the intent as redactIntent, the Essence spent on the roll and the GM's modifier
// go; the other circumstances (light, range, cover, angles…) are the scene's.
func redactAct(a *feeriev1.Act) {
	if a == nil {
		return
	}
	redactIntent(a.GetIntent())
	a.Essence = 0
	if c := a.GetCircumstances(); c != nil {
		c.Modifier = 0
	}
}

// RedactEvent removes from a Contes de Fées event, and from the command recorded with it, the
// numbers of the combatants hidden from the reader. Each side keeps its own: a player whose
// combatant a hidden one strikes sees its own Defense and Soak with their terms, the Essence
// it lost and has left, the conditions put on it and the outcome; not the roll, the margin or
// the Damage of the blow.
func (System) RedactEvent(ev *encounterv1.Event, secret func(string) bool) {
	if e := ev.GetFeerie(); e != nil {
		redactEvent(e, secret)
	}
	if a := ev.GetCommand().GetFeerie(); a != nil {
		redactAction(a, secret)
	}
}

func redactEvent(e *feeriev1.Event, secret func(string) bool) {
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_Declared:
		if secret(k.Declared.GetCombatantId()) {
			redactIntent(k.Declared.GetIntent())
		}
	case *feeriev1.Event_CountdownStarted:
		// The top rank is called out loud (FEE-041); who cannot act is seen (FEE-043).
		for _, ir := range k.CountdownStarted.GetInitiative() {
			if secret(ir.GetCombatantId()) {
				ir.Result = nil
			}
		}
	case *feeriev1.Event_ActivityQueued:
		if q := k.ActivityQueued.GetQueued(); secret(q.GetCombatantId()) {
			redactQueued(q)
		}
	case *feeriev1.Event_ActivityResolved:
		redactResolved(k.ActivityResolved, secret)
	case *feeriev1.Event_Impersonal:
		if secret(k.Impersonal.GetTargetId()) {
			k.Impersonal.EssenceLost = 0
		}
	case *feeriev1.Event_IntentionChanged:
		if c := k.IntentionChanged; secret(c.GetCombatantId()) {
			redactIntent(c.GetIntent())
			c.ActingRank = 0 // moved from its Initiative (FEE-071)
		}
	case *feeriev1.Event_BecameObject:
		if secret(k.BecameObject.GetCombatantId()) {
			k.BecameObject.Power = ""
		}
	case *feeriev1.Event_TacticRuled:
		if r := k.TacticRuled; secret(r.GetCombatantId()) { // that the GM ruled is seen
			r.Tactic, r.Malus, r.Reason, r.ActingRank = nil, 0, "", 0
		}
	case *feeriev1.Event_UnseenRolled:
		u := k.UnseenRolled
		if secret(u.GetCombatantId()) {
			u.Roll, u.Margin, u.InitiativeBonus = nil, 0, 0
		}
		if secret(u.GetVictimId()) {
			u.Vigilance, u.VigilanceRoll, u.Margin = 0, nil, 0
		}
	}
}

// redactResolved: the actor hidden, its roll, the margin, its Damage, the Essence it spent, a
// fumble's self-harm and, for a roll against a difficulty, that difficulty go; the target
// hidden, its Defense, the margin, its Soak, the Essence it lost and has left go. Success and
// fumble are the outcome; each condition keeps the bearer's numbers for the bearer.
func redactResolved(r *feeriev1.ActivityResolved, secret func(string) bool) {
	actor, target := r.GetCombatantId(), r.GetIntent().GetTargetId()
	if secret(actor) {
		redactIntent(r.GetIntent())
		r.Attack, r.Margin, r.Damage, r.DamageModifiers, r.SelfHarm, r.EssenceSpent = nil, 0, 0, nil, 0, 0
		switch r.GetIntent().GetKind() {
		case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
			r.Defense, r.DefenseModifiers = 0, nil // its difficulty, or what freeing itself must beat
		}
		switch note := r.GetNote(); {
		case strings.HasPrefix(note, "an object: Damage roll"):
			r.Note = "an object: a Damage roll (FEE-023)"
		case strings.HasPrefix(note, "the activity no longer holds"):
			r.Note = "the activity no longer holds"
		}
		for _, s := range r.GetAlso() {
			s.Margin = 0
		}
	}
	if secret(target) {
		r.Defense, r.DefenseModifiers, r.Margin = 0, nil, 0
		r.Soak, r.SoakModifiers, r.EssenceLost, r.TargetEssence = 0, nil, 0, 0
	}
	for _, s := range r.GetAlso() {
		if secret(s.GetTargetId()) {
			s.Defense, s.DefenseModifiers, s.Margin = 0, nil, 0
			s.Soak, s.SoakModifiers, s.EssenceLost, s.TargetEssence = 0, nil, 0, 0
		}
	}
	for _, c := range r.GetConditions() {
		bearer := target
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW, feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
			bearer = actor // the striker's bonus, the striker's Defense (FEE-177, FEE-181)
		}
		if secret(bearer) {
			redactCondition(c)
		}
	}
}

// redactAction removes from a recorded command what belongs to a hidden combatant: its
// intent's Attributes, tactic and words, the Essence it spends, the GM's modifier to its roll,
// its dissimulation's Attributes, the Power that makes it an object, the GM's ruling on its
// tactic; and the Essence an impersonal event takes from a hidden target.
func redactAction(a *feeriev1.Action, secret func(string) bool) {
	if i := a.GetImpersonal(); i != nil && secret(i.GetTargetId()) {
		i.EssenceLoss = 0
	}
	if !secret(a.GetCombatantId()) {
		return
	}
	switch k := a.GetKind().(type) {
	case *feeriev1.Action_Declare:
		redactIntent(k.Declare.GetIntent())
	case *feeriev1.Action_Act:
		redactAct(k.Act)
	case *feeriev1.Action_Change:
		redactIntent(k.Change.GetIntent())
	case *feeriev1.Action_Unseen:
		k.Unseen.Applied = nil
	case *feeriev1.Action_BecomeObject:
		k.BecomeObject.Power = ""
	case *feeriev1.Action_Ruling:
		k.Ruling.Tactic, k.Ruling.Malus, k.Ruling.Reason = nil, 0, ""
	}
}
