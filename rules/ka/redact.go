package ka

import (
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Hidden information in Ka. What the table sees of a combatant the Maître de Ka hides: its
// name, who it attacks and with what kind of attack (a stun, a burst: the defender's choices
// depend on it, KA-030, KA-033), whether it defends, how many cards it draws (face down),
// whether it succeeds, its place in the order of the pass (KA-014) and the conditions one
// sees (unconscious, dying, Abysse, a weapon on the ground). Never its spheres, skills,
// powers, weapons, Ka dice, points de réalité, actions left, the Maître de Ka's modifiers to
// its draws, its cards or its totals.
//
// The deck needs no redaction (KA-003): no order of the cards not yet drawn exists, in the
// state or in an event; each draw takes its cards at random from the cards left and records
// the rolls that took them. A hidden combatant's cards lie face down, and its rolls go with
// them (a roll names the card it took among the cards left). So do the rolls of any draw made
// while cards a hidden combatant drew were out of the deck: a face counts the cards left, so
// it would tell of those cards (Draw.discard_by names who drew the cards out).
//
// How many cards a hidden combatant draws is seen, face down from the one deck (KA-003), and
// with it the deck's count, the discard's length and each card's place in the deck: a face
// card drawing again (KA-002) shows as at the table. Where the dice stream stands is not seen
// (engine.View gives no reader but the GMs a dice position): a card takes one word of it, and
// now and then one more that the draw throws away, which the count of cards does not tell.

var _ engine.Redactor = System{}

// Appearance is what the table sees of a combatant's tracks (KA-025, KA-027, KA-029,
// KA-031): out of the fight when dying, unconscious or without Ka dice; badly wounded with
// half or more of its Ka dice or of its points de réalité lost; wounded with any lost. The
// rules give no such scale: the halves are this engine's choice.
func (sys System) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	c := engine.FindCombatant(st, id)
	cs := st.GetKa().GetCombatants()[id]
	if c == nil || cs == nil {
		return encounterv1.Appearance_APPEARANCE_FIGHTING
	}
	if sys.Out(st, id) {
		return encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	}
	sh := c.GetKa()
	return max(engine.Worn(cs.GetKaDice(), sh.GetKaDice()), engine.Worn(cs.GetRealityPoints(), sh.GetRealityPoints()))
}

// RedactState removes the numbers and cards of the combatants hidden from the reader.
func (System) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	s := st.GetKa()
	if s == nil {
		return
	}
	for _, c := range s.GetDiscard() { // a hidden combatant's cards lie face down
		if c.GetDrawnBy() != "" && secret(c.GetDrawnBy()) {
			c.Suit, c.Rank = kav1.Suit_SUIT_UNSPECIFIED, 0
		}
	}
	for id, cs := range s.GetCombatants() {
		if !secret(id) {
			continue
		}
		// Kept: actions taken (one sees it act), passed, acted this pass, still acts,
		// unconscious, dying, Abysse, and how many weapons lie on the ground (not their names).
		cs.KaDice, cs.RealityPoints, cs.ActionsLeft = 0, 0, 0
		for i := range cs.GetWeaponsLost() {
			cs.WeaponsLost[i] = ""
		}
		for i := range cs.GetWeaponsLostAtOnce() {
			cs.WeaponsLostAtOnce[i] = ""
		}
	}
	// up_next is the order of the pass: public (KA-014).
	if p := s.GetPending(); p != nil {
		if secret(p.GetAttackerId()) {
			redactAttack(p.GetAttack())
			p.ActionsTaken = 0 // its KA-011 malus
		}
		for _, a := range p.GetAnswers() {
			if secret(a.GetDefenderId()) {
				redactReact(a.GetReact())
			}
		}
	}
}

// RedactEvent removes from a Ka event, and from the command recorded with it, the numbers and
// cards of the combatants hidden from the reader. Each
// side keeps its own numbers: a player whose combatant a hidden one hits sees its own soak,
// the Ka dice and points it lost and has left, and the outcome; the attacker hidden, it does
// not see the margin, the success level, the damage or the weapon.
func (System) RedactEvent(ev *encounterv1.Event, secret func(string) bool) {
	if e := ev.GetKa(); e != nil {
		redactEvent(e, secret)
	}
	if a := ev.GetCommand().GetKa(); a != nil {
		who := a.GetCombatantId()
		if who == "" { // an answer names no one: it is the awaited defender's (KA-020)
			who = ev.GetKa().GetDefenceAnnounced().GetDefenderId()
		}
		redactAction(a, who, secret)
	}
}

func redactEvent(e *kav1.Event, secret func(string) bool) {
	redactKind(e, secret)
	for _, d := range draws(e) { // a face counts the cards left: it tells of the hidden cards out
		if slices.ContainsFunc(d.GetDiscardBy(), secret) {
			d.Rolls = nil
		}
	}
}

// draws is the draws of a Ka event.
func draws(e *kav1.Event) []*kav1.Draw {
	var out []*kav1.Draw
	for _, r := range []*kav1.DrawResult{e.GetAttackDrawn().GetDraw(), e.GetDefenceDrawn().GetDraw(), e.GetAttackResolved().GetDeathDraw(),
		e.GetDisarmDrawn().GetDraw(), e.GetDisarmDrawn().GetResistance(), e.GetTerrorDrawn().GetDraw()} {
		if r.GetDraw() != nil {
			out = append(out, r.GetDraw())
		}
	}
	return out
}

func redactKind(e *kav1.Event, secret func(string) bool) {
	switch k := e.GetKind().(type) {
	case *kav1.Event_RoundStarted:
		// Who may act this round is seen, not how many actions (its lowest sphere, KA-010).
		for id := range k.RoundStarted.GetActions() {
			if secret(id) {
				k.RoundStarted.Actions[id] = 0
			}
		}
	case *kav1.Event_AttackDeclared:
		if secret(k.AttackDeclared.GetAttackerId()) {
			redactAttack(k.AttackDeclared.GetAttack())
		}
	case *kav1.Event_DefenceAnnounced:
		if secret(k.DefenceAnnounced.GetDefenderId()) {
			redactReact(k.DefenceAnnounced.GetReact())
		}
	case *kav1.Event_AttackDrawn:
		a := k.AttackDrawn
		if secret(a.GetAttackerId()) {
			redactAttack(a.GetAttack())
			a.Draw = faceDown(a.GetDraw())
		}
	case *kav1.Event_DefenceDrawn:
		d := k.DefenceDrawn
		if secret(d.GetDefenderId()) {
			d.Draw = faceDown(d.GetDraw())
		}
	case *kav1.Event_AttackResolved:
		redactResolved(k.AttackResolved, secret)
	case *kav1.Event_DisarmDrawn:
		d := k.DisarmDrawn
		if secret(d.GetCombatantId()) {
			d.Draw = faceDown(d.GetDraw())
		}
		if secret(d.GetTargetId()) { // whether it loses a weapon is seen, not which
			d.Resistance = faceDown(d.GetResistance())
			d.Weapon = ""
		}
	case *kav1.Event_WeaponPickedUp:
		if secret(k.WeaponPickedUp.GetCombatantId()) {
			k.WeaponPickedUp.Weapon = ""
		}
	case *kav1.Event_TerrorDrawn:
		t := k.TerrorDrawn
		if secret(t.GetCombatantId()) { // whether it falls into Abysse is seen
			t.Draw = faceDown(t.GetDraw())
		}
	}
}

// redactResolved: the attacker hidden, its margin, success level, damage bonus, weapon damage
// and damage go; the target hidden, the margin (it holds the target's defence), its soak, the
// Ka dice and points it lost and has left, its death draw's cards and the numbers of the
// notes go. Success, unconscious, dying and still acts are the outcome: seen.
func redactResolved(r *kav1.AttackResolved, secret func(string) bool) {
	if secret(r.GetAttackerId()) {
		r.Margin, r.Level, r.Bonus, r.WeaponDamage, r.Damage = 0, 0, 0, 0, 0
	}
	if secret(r.GetTargetId()) {
		r.Margin, r.Soak, r.KaLost, r.RealityLost, r.KaLeft, r.RealityLeft = 0, 0, 0, 0, 0, 0
		if r.GetDeathDraw() != nil {
			r.DeathDraw = faceDown(r.GetDeathDraw())
		}
		r.Note = hiddenNote(r.GetNote())
	}
}

// hiddenNote rewrites the notes of resolve that give a hidden target's numbers (its seuil, its
// points de réalité) as what the table sees; the others hold none.
func hiddenNote(note string) string {
	if note == "" {
		return ""
	}
	parts := strings.Split(note, "; ")
	for i, p := range parts {
		switch {
		case strings.Contains(p, "reach the seuil"):
			parts[i] = "the blow reaches its seuil at once: knocked out (KA-027, KA-031)"
		case strings.HasPrefix(p, "no points de réalité left"):
			parts[i] = "knocked out (KA-031)"
		}
	}
	return strings.Join(parts, "; ")
}

// redactAction removes from a recorded command what belongs to a hidden combatant: the
// weapon, skill and modifier of its attack, disarm or defence, the GM's modifier of its
// terror draw, the weapon it picks up, and a hidden target's weapon named by a disarm.
func redactAction(a *kav1.Action, who string, secret func(string) bool) {
	switch k := a.GetKind().(type) {
	case *kav1.Action_Attack:
		if secret(who) {
			redactAttack(k.Attack)
		}
	case *kav1.Action_React:
		if secret(who) {
			redactReact(k.React)
		}
	case *kav1.Action_Disarm:
		if secret(who) {
			k.Disarm.Skill, k.Disarm.Modifier = "", 0
		}
		if secret(k.Disarm.GetTargetId()) {
			k.Disarm.Weapon = ""
		}
	case *kav1.Action_Terror:
		if secret(who) {
			k.Terror.Modifier = 0
		}
	case *kav1.Action_PickUp:
		if secret(who) {
			k.PickUp.Weapon = ""
		}
	}
}

// redactAttack keeps the targets and the kind of attack (stun, burst), which the defenders
// answer to (KA-020, KA-030, KA-033); the weapon and the Maître de Ka's modifier go.
func redactAttack(a *kav1.Attack) {
	if a != nil {
		a.Weapon, a.Modifier = "", 0
	}
}

// redactReact keeps the answer (defend, take it, attack back); the skill and weapon go.
func redactReact(r *kav1.React) {
	if r != nil {
		r.Weapon, r.Skill = "", ""
	}
}

// faceDown is a hidden combatant's draw as the table sees it: as many cards as it drew, face
// down, at their places in the deck, and whether the discard returned to the deck; no
// sphere, skill, modifier, value, total, nor the rolls that took the cards (each names its
// card among the cards left, KA-003).
func faceDown(r *kav1.DrawResult) *kav1.DrawResult {
	if r == nil {
		return nil
	}
	d := r.GetDraw()
	if d == nil {
		return &kav1.DrawResult{}
	}
	out := &kav1.Draw{Position: d.GetPosition(), Positions: d.GetPositions(), Reshuffle: d.GetReshuffle(), ReshuffleAfter: d.GetReshuffleAfter()}
	for range d.GetCards() {
		out.Cards = append(out.Cards, &kav1.Card{})
	}
	return &kav1.DrawResult{Draw: out}
}
