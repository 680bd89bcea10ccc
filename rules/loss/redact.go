package loss

import (
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Hidden information (engine.Redactor). A combatant the GM hides shows the table what the
// table would see at a Loss table: its name and side, how hurt it looks, that it acts now,
// passes, parries or dodges, falls, is disarmed, out of the fight or dying, whom it attacks
// with which declared Exploits, and what its blows cost the others. Its numbers stay behind
// the GM's screen: its PA and Initiative, its NS, its dice and Test totals, its Traits,
// Talents, weapons and their damage, its Fursa, Inspiration and free raises, its bonuses and
// aims, and the armour that soaks the blows it takes.
//
// Where the rules are silent the choices are these:
//   - The phase being played is called aloud (LOS-031): a hidden combatant that acts now keeps
//     its PA in a view, which is the phase the table hears; at any other time its PA are hidden.
//   - A defender facing a hidden attacker learns that the attack succeeded and the Difficulty
//     it must beat (LOS-009, LOS-012), never the attacker's total.
//   - Declared Exploits (their effects, hence their count) are declared aloud before the roll
//     (LOS-010) and stay; so does the declared intention (LOS-038).
//   - A player whose combatant is hit by a hidden attacker sees the NS its combatant lost and
//     its own armour and shield, never the attacker's damage roll, weapon damage or total.
//   - A player whose combatant hits a hidden target sees its own damage roll, never the NS the
//     target lost nor the target's armour: the table sees the target's appearance instead.
//   - A visible combatant's own Test is shown whole, even where its Difficulty includes what a
//     hidden target brings (its wall, the GM's armour modifier): the GM tells a player what its
//     roll must beat.

var _ engine.Redactor = System{}

// Appearance is what the table sees of a Loss combatant. Out of the fight: out, dying, dead
// or neutralised (LOS-022, LOS-023, LOS-025, LOS-076). An Adversaire or a player character
// looks badly wounded in the grave or fatal band, where its wounds hinder it (LOS-022: +5 or
// +10 Difficulty), wounded once it has lost a light box. The seed is silent about Sbires
// (LOS-024: 10 NS, no bands): one looks wounded once it has lost any NS, badly wounded once it
// has lost half of them.
func (sys System) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	cs := st.GetLoss().GetCombatants()[id]
	c := engine.FindCombatant(st, id)
	if cs == nil || c == nil {
		return encounterv1.Appearance_APPEARANCE_FIGHTING
	}
	f := fighter{c: c, sh: c.GetLoss(), cs: cs}
	switch {
	case sys.Out(st, id):
		return encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	case f.isSbire():
		return engine.Worn(cs.GetHealth(), SbireHealth)
	case f.healthPenalty(sys, st) > 0:
		return encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED
	default:
		if bands := options(st).GetHealthBands(); len(bands) > 0 && cs.GetLight() < bands[0] {
			return encounterv1.Appearance_APPEARANCE_WOUNDED
		}
	}
	return encounterv1.Appearance_APPEARANCE_FIGHTING
}

// RedactState removes the numbers of every secret combatant from the Loss state (st is the
// caller's copy), keeping what the table sees so that the tracker still works.
func (System) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	s := st.GetLoss()
	if s == nil {
		return
	}
	top, _ := phase(st) // computed on the whole numbers, before any is removed
	for id, cs := range s.GetCombatants() {
		if !secret(id) {
			continue
		}
		acting := !s.GetDeclaring() && top > 0 && (cs.GetOwedPhase() > 0 ||
			(cs.GetActionPoints() == top && !cs.GetOut() && !cs.GetPassed() && !cs.GetJoining()))
		s.Combatants[id] = publicState(cs, acting)
	}
	for _, p := range append([]*lossv1.PendingAttack{s.GetPending()}, s.GetQueued()...) {
		if p != nil && secret(p.GetAttackerId()) {
			redactPending(p)
		}
	}
	for _, pr := range st.GetPending() {
		if p := s.GetPending(); p != nil && pr.GetCombatantId() == p.GetDefenderId() && secret(p.GetAttackerId()) {
			a, d := engine.FindCombatant(st, p.GetAttackerId()), engine.FindCombatant(st, p.GetDefenderId())
			pr.Prompt = reactionPrompt(a.GetName(), d.GetName(), p, false)
		}
	}
}

// publicState keeps of a hidden combatant's state what the table sees: its conditions (out,
// dying, dead, neutralised, down, disarmed, passed, joining), what it did this Tour (acted,
// parried, charged, counter-attacked whom, who attacks it in melee), its declared intention,
// who felled it; and its PA only while it acts now (the phase called aloud, LOS-031).
func publicState(cs *lossv1.CombatantState, acting bool) *lossv1.CombatantState {
	out := &lossv1.CombatantState{
		Passed: cs.GetPassed(), Out: cs.GetOut(), Prone: cs.GetProne(), Disarmed: cs.GetDisarmed(),
		DisarmedTour: cs.GetDisarmedTour(), Countered: cs.GetCountered(), AssautUsed: cs.GetAssautUsed(),
		Declared: cs.GetDeclared(), Intention: cs.GetIntention(), Joining: cs.GetJoining(), Dying: cs.GetDying(),
		Dead: cs.GetDead(), Neutralised: cs.GetNeutralised(), OwedPhase: cs.GetOwedPhase(), FelledBy: cs.GetFelledBy(),
		Watched: cs.GetWatched(), MeleeAttackers: cs.GetMeleeAttackers(), Acted: cs.GetActed(), Parried: cs.GetParried(),
	}
	if acting {
		out.ActionPoints = cs.GetActionPoints()
	}
	return out
}

// redactPending removes a hidden attacker's numbers from an attack awaiting its defender:
// the defender keeps the Difficulty it must beat (LOS-012) and the declared Exploits
// (LOS-010); the attacker's total, weapons, situation and phase go.
func redactPending(p *lossv1.PendingAttack) {
	p.AttackTotal, p.Weapon, p.BlowWeapon, p.SecondWeapon, p.Situation, p.Phase = 0, "", "", "", nil, 0
}

// reactionPrompt is the prompt of a defender awaiting its reaction; total says whether the
// attacker's total is shown (not when the attacker is hidden from the reader).
func reactionPrompt(attacker, defender string, p *lossv1.PendingAttack, total bool) string {
	return string(appendPrompt(nil, attacker, defender, p, total))
}

// appendPrompt appends reactionPrompt to b. It is written out, not formatted: the state
// records it at every fold while an attack awaits its reaction (syncPending), and a number
// reads as %d would write it.
func appendPrompt(b []byte, attacker, defender string, p *lossv1.PendingAttack, total bool) []byte {
	if p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		b = append(append(append(append(append(b, "pursuit: "...), attacker...), " makes "...), pursuitName(p.GetPursuit())...), " on "...)
		b = strconv.AppendInt(append(append(b, defender...), " (dodge at "...), int64(p.GetDifficulty()), 10)
		return append(b, ", or take it)"...)
	}
	b = append(append(append(b, attacker...), " attacks "...), defender...)
	if total {
		b = strconv.AppendInt(append(b, " (total "...), int64(p.GetAttackTotal()), 10)
		b = append(b, "; Difficulty "...)
	} else {
		b = append(b, " (the attack succeeds; Difficulty "...)
	}
	b = strconv.AppendInt(b, int64(p.GetDifficulty()), 10)
	return append(b, " to defend): parry, dodge or take the blow"...)
}

// hiddenTest is what the table sees of a hidden combatant's Test: whether it succeeded
// (LOS-009: the defender decides knowing the attacker's result). A Test without a roll is a
// withheld one.
func hiddenTest(t *lossv1.TestResult) *lossv1.TestResult {
	if t == nil {
		return nil
	}
	return &lossv1.TestResult{Success: t.GetSuccess()}
}

// RedactEvent removes the numbers of every secret combatant from a Loss event and from the
// Loss action recorded with it (ev is the caller's copy). Field by field, see each case.
func (System) RedactEvent(ev *encounterv1.Event, secret func(string) bool) {
	if a := ev.GetCommand().GetLoss(); a != nil {
		redactAction(a, secret)
	}
	e := ev.GetLoss()
	if e == nil {
		return
	}
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		redactInitiative(k.TourStarted, secret)
	case *lossv1.Event_AttackRolled:
		a := k.AttackRolled
		if secret(a.GetAttackerId()) {
			// Kept: whom it attacks, its declared Exploits (LOS-010), the Difficulty passed on
			// to the defenders (LOS-012), whether it succeeded and whether each can defend.
			a.Weapon, a.SecondWeapon, a.ActionPointsSpent, a.Situation = "", "", 0, nil
			a.Test = hiddenTest(a.GetTest())
		}
	case *lossv1.Event_DefenceRolled:
		d := k.DefenceRolled
		if secret(d.GetDefenderId()) {
			// Kept: parry or dodge, its declared Exploits and their effects, whether it
			// succeeded, the attacker's Exploits it cancelled (the attacker's outcome, LOS-014).
			d.ActionPointsSpent = 0
			d.Test = hiddenTest(d.GetTest())
		}
	case *lossv1.Event_AttackResolved:
		redactBlow(k.AttackResolved, secret)
	case *lossv1.Event_Passed:
		if secret(k.Passed.GetCombatantId()) {
			k.Passed.ActionPointsLeft = 0
		}
	case *lossv1.Event_Waited:
		if w := k.Waited; secret(w.GetCombatantId()) {
			// That it waits is seen; the phase it waits for is heard when it acts.
			w.FromPhase, w.UntilPhase, w.Discount = 0, 0, 0
		}
	case *lossv1.Event_Aimed:
		if a := k.Aimed; secret(a.GetCombatantId()) {
			a.Weapon, a.ActionPointsSpent, a.Bonus = "", 0, 0
		}
	case *lossv1.Event_SimpleActed:
		if a := k.SimpleActed; secret(a.GetCombatantId()) {
			a.ActionPointsSpent = 0 // what it does is seen; what it costs it is not
		}
	case *lossv1.Event_DyingResolved:
		if d := k.DyingResolved; secret(d.GetTargetId()) {
			d.Vertu = "" // saved or dead is seen; the Inspiration it held is not
		}
	case *lossv1.Event_PursuitActed:
		redactPursuitAction(k.PursuitActed, secret)
	case *lossv1.Event_FreeRaisesGranted:
		if g := k.FreeRaisesGranted; secret(g.GetCombatantId()) {
			g.Count, g.Reason = 0, "" // a bonus behind the GM's screen
		}
	case *lossv1.Event_Declared, *lossv1.Event_DisasterDeclared, *lossv1.Event_PursuitStarted:
		// Spoken aloud (LOS-038), the GM's narration (LOS-006), the pursuit's distance
		// (LOS-100): nothing of a hidden combatant's numbers.
	}
}

// redactInitiative removes each hidden combatant's Initiative, d10, PA and bonus from a new
// Tour's rolls. A group roll shared with visible combatants is theirs too: the hidden members
// leave it (LOS-037).
func redactInitiative(t *lossv1.TourStarted, secret func(string) bool) {
	for _, r := range t.GetInitiative() {
		var shown []string
		for _, id := range r.GetCombatantIds() {
			if secret(id) {
				delete(r.Bonus, id)
			} else {
				shown = append(shown, id)
			}
		}
		switch {
		case len(shown) == 0:
			r.Initiative, r.Roll, r.ActionPoints, r.Bonus = 0, nil, 0, nil
		case len(shown) < len(r.GetCombatantIds()):
			r.CombatantIds = shown
		}
	}
}

// redactBlow removes a hidden side's numbers from a blow's outcome.
func redactBlow(r *lossv1.AttackResolved, secret func(string) bool) {
	if secret(r.GetAttackerId()) {
		// The victim sees what it lost and its own armour, not the blow's makings.
		r.AttackerPhase = 0
		for _, d := range []*lossv1.Damage{r.GetDamage(), r.GetSecondDamage()} {
			if d != nil {
				d.Roll, d.WeaponDamage, d.Total = nil, 0, 0
			}
		}
	}
	if secret(r.GetTargetId()) {
		// The attacker sees its own damage roll and the outcome (hit, effects, out,
		// dying), not the hidden target's armour, the NS it lost or has left.
		r.Light, r.Grave, r.Fatal, r.Health = 0, 0, 0, 0
		for _, d := range []*lossv1.Damage{r.GetDamage(), r.GetSecondDamage()} {
			if d != nil {
				d.Armour, d.Shield, d.LevelsLost = 0, 0, 0
			}
		}
	}
}

// redactPursuitAction removes a hidden actor's numbers from a pursuit action, and a hidden
// target's from its dodge. Kept: the pursuit action, its target, its declared Exploits, the
// outcome (success, distance, fall, end, the Zigzags the pursuers now suffer).
func redactPursuitAction(a *lossv1.PursuitActed, secret func(string) bool) {
	if secret(a.GetCombatantId()) {
		a.ActionPointsSpent, a.Weapon = 0, ""
		a.Test, a.Shot = hiddenTest(a.GetTest()), hiddenTest(a.GetShot())
	}
	if secret(a.GetTargetId()) {
		a.Dodge = hiddenTest(a.GetDodge())
	}
}

// redactAction removes a hidden combatant's numbers from the action it commanded (or, for a
// grant, received): weapons, what it spends, its situation, aims and waits. Its targets, its
// declared Exploits and reactions stay, as in the events.
func redactAction(a *lossv1.Action, secret func(string) bool) {
	if !secret(a.GetCombatantId()) {
		if d := a.GetDying(); d != nil && secret(d.GetTargetId()) {
			d.Vertu = ""
		}
		return
	}
	switch k := a.GetKind().(type) {
	case *lossv1.Action_Attack:
		k.Attack.Weapon, k.Attack.SecondWeapon, k.Attack.Spend, k.Attack.Situation = "", "", nil, nil
	case *lossv1.Action_React:
		k.React.Spend, k.React.Situation, k.React.CounterWeapon = nil, nil, ""
	case *lossv1.Action_Wait:
		k.Wait.UntilPhase = 0
	case *lossv1.Action_Aim:
		k.Aim.Weapon, k.Aim.Points = "", 0
	case *lossv1.Action_Pursuit:
		k.Pursuit.Weapon, k.Pursuit.Spend = "", nil
	case *lossv1.Action_GrantFreeRaises:
		k.GrantFreeRaises.Count, k.GrantFreeRaises.Reason = 0, ""
	case *lossv1.Action_Dying:
		if secret(k.Dying.GetTargetId()) {
			k.Dying.Vertu = ""
		}
	}
}
