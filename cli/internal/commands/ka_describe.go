package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
)

// The wording of the Ka events: the deck made whole, rounds and passes, draws with each card
// and its place in the deck, attacks with their success level, damage, soak and Ka dice,
// stuns, disarms, terror and death draws.

func (n *Names) kaText(e *kav1.Event) string {
	switch k := e.GetKind().(type) {
	case *kav1.Event_DeckShuffled:
		return "The deck is whole: " + shuffleText(k.DeckShuffled) + ", each card drawn at random from those left (KA-003)"
	case *kav1.Event_RoundStarted:
		return n.kaRoundText(k.RoundStarted)
	case *kav1.Event_PassStarted:
		return fmt.Sprintf("Pass %d round the table, from the highest Animalité: one action each (KA-014, KA-015)", k.PassStarted.GetPassNumber())
	case *kav1.Event_AttackDeclared:
		return n.kaDeclaredText(k.AttackDeclared)
	case *kav1.Event_DefenceAnnounced:
		return n.kaAnnouncedText(k.DefenceAnnounced)
	case *kav1.Event_AttackDrawn:
		return n.kaAttackText(k.AttackDrawn)
	case *kav1.Event_WeaponPickedUp:
		what := k.WeaponPickedUp.GetWeapon()
		if what == "" { // a hidden combatant's weapon is withheld
			what = "its weapon"
		}
		return fmt.Sprintf("%s picks up %s, lost to a disarm (one action, KA-032)", n.of(k.WeaponPickedUp.GetCombatantId()), what)
	case *kav1.Event_DefenceDrawn:
		return n.kaDefenceText(k.DefenceDrawn)
	case *kav1.Event_AttackResolved:
		return n.kaResolvedText(k.AttackResolved)
	case *kav1.Event_DisarmDrawn:
		return n.kaDisarmText(k.DisarmDrawn)
	case *kav1.Event_TerrorDrawn:
		return n.kaTerrorText(k.TerrorDrawn)
	case *kav1.Event_Passed:
		return fmt.Sprintf("%s passes: no more actions this round (KA-015)", n.of(k.Passed.GetCombatantId()))
	case nil:
		return "(empty Ka event)"
	default:
		return fmt.Sprintf("(Ka event %T)", k)
	}
}

// shuffleText: "56 cards": the deck has no order (KA-003), only its cards.
func shuffleText(sh *kav1.DeckShuffled) string {
	return plural(int(sh.GetCards()), "card")
}

// faceDown reports whether a card is face down: drawn by a combatant hidden from the reader.
func faceDown(c *kav1.Card) bool {
	return c.GetSuit() == kav1.Suit_SUIT_UNSPECIFIED && c.GetRank() == 0
}

// drawWithheld reports whether a draw was withheld from the reader: its cards face down, no
// sphere, skill or total.
func drawWithheld(r *kav1.DrawResult) bool {
	cards := r.GetDraw().GetCards()
	return r != nil && r.GetTotal() == 0 && r.GetSphere() == "" && r.GetSkill() == "" && len(cards) > 0 && slices.ContainsFunc(cards, faceDown)
}

func suitText(s kav1.Suit) string {
	switch s {
	case kav1.Suit_SUIT_BATON:
		return "bâton"
	case kav1.Suit_SUIT_COUPE:
		return "coupe"
	case kav1.Suit_SUIT_DENIER:
		return "denier"
	case kav1.Suit_SUIT_EPEE:
		return "épée"
	}
	return "suit unknown"
}

// cardText: "6 d'épée", "valet de bâton", "as de coupe" (KA-001).
func cardText(c *kav1.Card) string {
	var rank string
	switch r := c.GetRank(); {
	case r == 1:
		rank = "as"
	case r >= 2 && r <= 10:
		rank = fmt.Sprint(r)
	case r == 11:
		rank = "valet"
	case r == 12:
		rank = "cavalier"
	case r == 13:
		rank = "dame"
	case r == 14:
		rank = "roi"
	default:
		rank = fmt.Sprintf("rank %d", r)
	}
	suit := suitText(c.GetSuit())
	if strings.HasPrefix(suit, "é") {
		return rank + " d'" + suit
	}
	return rank + " de " + suit
}

// positionsText: "deck position 0", "deck positions 2–3", "deck positions 55, 0".
func positionsText(d *kav1.Draw) string {
	ps := d.GetPositions()
	switch {
	case len(ps) == 0:
		return fmt.Sprintf("from deck position %d", d.GetPosition())
	case len(ps) == 1:
		return fmt.Sprintf("deck position %d", ps[0])
	}
	contiguous := true
	for i := 1; i < len(ps); i++ {
		contiguous = contiguous && ps[i] == ps[i-1]+1
	}
	if contiguous {
		return fmt.Sprintf("deck positions %d–%d", ps[0], ps[len(ps)-1])
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprint(p)
	}
	return "deck positions " + strings.Join(parts, ", ")
}

// cardsText: "valet de bâton + 9 de coupe, deck positions 2–3", with the reshuffle of the
// discard when the deck ran out during the draw (KA-003).
func cardsText(d *kav1.Draw) string {
	if len(d.GetCards()) == 0 {
		return "no card"
	}
	names := make([]string, len(d.GetCards()))
	for i, c := range d.GetCards() {
		names[i] = cardText(c)
	}
	s := strings.Join(names, " + ") + ", " + positionsText(d)
	if !slices.ContainsFunc(d.GetCards(), func(c *kav1.Card) bool { return !faceDown(c) }) {
		s = plural(len(d.GetCards()), "card") + " face down, " + positionsText(d)
	}
	if sh := d.GetReshuffle(); sh != nil {
		switch after := d.GetReshuffleAfter(); {
		case after <= 0:
			s += "; the discard back in the deck first: " + shuffleText(sh) + " (KA-003)"
		default:
			s += fmt.Sprintf("; the deck ran out after %s and the discard went back in: %s (KA-003)", plural(int(after), "card"), shuffleText(sh))
		}
	}
	return s
}

// modifierTerms splits the reasons of a draw's modifiers ("-2 situation") into terms of a
// sum (" − 2 situation"); what the reasons do not account for is a term of its own.
func modifierTerms(r *kav1.DrawResult) string {
	var b strings.Builder
	var sum int32
	term := func(v int32, what string) {
		if v < 0 {
			fmt.Fprintf(&b, " − %d", -v)
		} else {
			fmt.Fprintf(&b, " + %d", v)
		}
		if what != "" {
			b.WriteString(" " + what)
		}
	}
	for _, reason := range r.GetModifierReasons() {
		num, what, _ := strings.Cut(strings.TrimSpace(reason), " ")
		v, err := strconv.ParseInt(strings.ReplaceAll(num, "−", "-"), 10, 32)
		if err != nil {
			b.WriteString(" + (" + reason + ")")
			continue
		}
		term(int32(v), what)
		sum += int32(v)
	}
	if rest := r.GetModifiers() - sum; rest != 0 && len(r.GetModifierReasons()) == 0 {
		term(rest, "modifiers")
	} else if rest != 0 {
		term(rest, "other modifiers")
	}
	return b.String()
}

// kaDrawText: "Humanité 3 + Arme à feu 4 − 2 situation + cards 6 (6 d'épée, deck position 0)
// = 11" (KA-004).
func kaDrawText(r *kav1.DrawResult) string {
	if r == nil {
		return "no draw"
	}
	if drawWithheld(r) { // a hidden combatant's draw: how many cards, not what they make
		return "a draw behind the screen (" + cardsText(r.GetDraw()) + "), its total withheld"
	}
	var s string
	if r.GetSphere() != "" {
		s = fmt.Sprintf("%s %d", r.GetSphere(), r.GetSphereValue())
	}
	if r.GetSkill() != "" {
		s += fmt.Sprintf(" + %s %d", r.GetSkill(), r.GetSkillValue())
		if r.GetSkillMissing() {
			s += " (lacks the skill, KA-013)"
		}
	}
	s += modifierTerms(r)
	cards := fmt.Sprintf("cards %d (%s)", r.GetDraw().GetValue(), cardsText(r.GetDraw()))
	if s == "" {
		s = cards
	} else {
		s += " + " + cards
	}
	return fmt.Sprintf("%s = %d", strings.TrimPrefix(s, " + "), r.GetTotal())
}

// kaRoundText: "Round 1: Joshua 2 actions, le chien 1 action (its lowest sphere, KA-010)".
func (n *Names) kaRoundText(r *kav1.RoundStarted) string {
	head := fmt.Sprintf("Round %d", r.GetRound())
	if len(r.GetActions()) == 0 {
		return head + ": no one can act"
	}
	ids := make([]string, 0, len(r.GetActions()))
	for id := range r.GetActions() {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if d := r.GetActions()[b] - r.GetActions()[a]; d != 0 {
			return int(d)
		}
		return strings.Compare(n.of(a), n.of(b))
	})
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s %s", n.of(id), plural(int(r.GetActions()[id]), "action"))
		if n.withheld(id) { // who may act is seen, not how many actions
			parts[i] = n.of(id) + " (its actions withheld)"
		}
	}
	return head + ": " + strings.Join(parts, ", ") + " (each its lowest sphere, KA-010)"
}

// kaAttackHead: "Joshua attacks le chien with pistolet", "Gunner fires a burst at Alpha and
// Bravo with pistolet-mitrailleur (KA-033)"; verbs are those of attacks (attacks, fires, tries
// to stun) or of declarations (declares an attack on, a burst at, a stun on).
func (n *Names) kaAttackHead(attacker, firstTarget string, at *kav1.Attack, declared bool) (string, []string) {
	who := n.of(attacker)
	if firstTarget == "" {
		firstTarget = at.GetTargetId()
	}
	targets := []string{n.of(firstTarget)}
	for _, id := range append([]string{at.GetTargetId()}, at.GetMoreTargetIds()...) {
		if id != firstTarget && id != "" {
			targets = append(targets, n.of(id))
		}
	}
	burst := at.GetBurst() || len(at.GetMoreTargetIds()) > 0
	var s string
	switch {
	case burst && declared:
		s = fmt.Sprintf("%s declares a burst at %s", who, andList(targets))
	case at.GetStun() && declared:
		s = fmt.Sprintf("%s declares a stun on %s", who, targets[0])
	case declared:
		s = fmt.Sprintf("%s declares an attack on %s", who, targets[0])
	case burst:
		s = fmt.Sprintf("%s fires a burst at %s", who, andList(targets))
	case at.GetStun():
		s = fmt.Sprintf("%s tries to stun %s", who, targets[0])
	default:
		s = fmt.Sprintf("%s attacks %s", who, targets[0])
	}
	if at.GetWeapon() != "" {
		s += " with " + at.GetWeapon()
	}
	switch {
	case burst && at.GetStun():
		s += " (a stun, KA-030, KA-033)"
	case burst && len(targets) > 1:
		s += " (KA-033)"
	case burst:
		s += " (the whole burst on one target, KA-033)"
	case at.GetStun():
		s += " (KA-030)"
	}
	return s, targets
}

// kaDeclaredText: "Joshua declares an attack on le chien with pistolet, − 2 situation; le chien
// announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)".
func (n *Names) kaDeclaredText(a *kav1.AttackDeclared) string {
	at := a.GetAttack()
	s, _ := n.kaAttackHead(a.GetAttackerId(), "", at, true)
	if m := at.GetModifier(); m != 0 {
		s += fmt.Sprintf(", %s situation", signed(m))
	}
	var may []string
	for _, id := range a.GetPendingIds() {
		may = append(may, n.of(id))
	}
	defence := "dodges (one action)"
	if at.GetStun() {
		defence = "dodges (one action; a stun is not parried, KA-030)"
	}
	switch {
	case len(may) > 1:
		s += fmt.Sprintf("; %s each announce in turn whether they dodge (one action) or take it, before any card is drawn (KA-020, KA-033)", andList(may))
	case len(may) == 1:
		s += fmt.Sprintf("; %s announces whether it %s or takes it, before any card is drawn (KA-020)", may[0], defence)
	}
	return s
}

// kaAnnouncedText: "le chien will dodge (one action, KA-013): the cards follow".
func (n *Names) kaAnnouncedText(d *kav1.DefenceAnnounced) string {
	who := n.of(d.GetDefenderId())
	r := d.GetReact()
	switch {
	case r.GetAttackBack():
		s := who + " will attack back"
		if r.GetWeapon() != "" {
			s += " with " + r.GetWeapon()
		}
		return s + " (one action; only the winner succeeds, KA-008, KA-020)"
	case r.GetDefend() && r.GetSkill() != "" && r.GetSkill() != ka.Dodge:
		return fmt.Sprintf("%s will parry with %s (one action, KA-013, KA-020)", who, r.GetSkill())
	case r.GetDefend() && n.withheld(d.GetDefenderId()): // dodge or parry: its skill is withheld
		return who + " will defend (one action, KA-013, KA-020)"
	case r.GetDefend():
		return who + " will dodge (one action, KA-013, KA-020)"
	}
	return who + " takes it: no defence, the attacker's draw will stand alone (KA-020)"
}

// kaAttackText: "Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2
// situation + cards 6 (6 d'épée, deck position 0) = 11", with why there is no defence when
// there is none.
func (n *Names) kaAttackText(a *kav1.AttackDrawn) string {
	at := a.GetAttack()
	s, targets := n.kaAttackHead(a.GetAttackerId(), a.GetTargetId(), at, false)
	burst := at.GetBurst() || len(at.GetMoreTargetIds()) > 0
	s += ": " + kaDrawText(a.GetDraw())
	if !a.GetDefencePossible() {
		no := "no defence"
		if burst && len(targets) > 1 {
			no += " for " + targets[0]
		}
		if a.GetNoDefenceReason() != "" {
			no += ": " + a.GetNoDefenceReason()
		}
		s += "; " + no
	}
	return s
}

// kaDefenceText: "le chien dodges (one action, KA-009, KA-013): Humanité 1 + Esquive 4 + cards
// 10 (10 d'épée, deck position 1) = 15".
func (n *Names) kaDefenceText(d *kav1.DefenceDrawn) string {
	who := n.of(d.GetDefenderId())
	switch {
	case d.GetAttackedBack():
		return fmt.Sprintf("%s attacks back (one action; only the winner succeeds, KA-008): %s", who, kaDrawText(d.GetDraw()))
	case d.GetDefended() && d.GetDraw().GetSkill() != "" && d.GetDraw().GetSkill() != ka.Dodge:
		return fmt.Sprintf("%s parries (one action, KA-009, KA-013): %s", who, kaDrawText(d.GetDraw()))
	case d.GetDefended() && drawWithheld(d.GetDraw()):
		return fmt.Sprintf("%s defends (one action, KA-009, KA-013): %s", who, kaDrawText(d.GetDraw()))
	case d.GetDefended():
		return fmt.Sprintf("%s dodges (one action, KA-009, KA-013): %s", who, kaDrawText(d.GetDraw()))
	}
	return who + " takes it: no defence, the attacker's draw stands alone (KA-020)"
}

func kaLevelText(level int32) string {
	switch level {
	case 1:
		return "a normal success"
	case 2:
		return "a great success"
	case 3:
		return "an exceptional success"
	}
	return fmt.Sprintf("success level %d", level)
}

func kaDiceText(n int32) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d Ka die", n)
	}
	return fmt.Sprintf("%d Ka dice", n)
}

func realityText(n int32) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d point de réalité", n)
	}
	return fmt.Sprintf("%d points de réalité", n)
}

// deathDrawNote is the rules' note of a death draw, which the description of the draw replaces.
// The rules join their notes with "; ".
var deathDrawNote = regexp.MustCompile(`(^|; )[^;]*? has lost its last Ka die and makes its death draw; the Maître de Ka rules on it \(KA-025\)`)

// kaStun reports whether the attack that attacker resolves on target is a stun: its result
// takes points de réalité, or the last attack drawn learnt says so.
func (n *Names) kaStun(r *kav1.AttackResolved) bool {
	if r.GetRealityLost() > 0 {
		return true
	}
	if n == nil || n.kaAttack == nil || n.kaAttack.GetAttackerId() != r.GetAttackerId() {
		return false
	}
	at := n.kaAttack.GetAttack()
	return at.GetStun() && (n.kaAttack.GetTargetId() == r.GetTargetId() || slices.Contains(at.GetMoreTargetIds(), r.GetTargetId()))
}

// kaResolvedText: "Joshua hits le chien: margin 13, a great success: damage 5 + weapon 8 = 13
// − soak 4 = 9 → 2 Ka dice lost (KA-022…KA-024); le chien has 0 Ka dice and 10 points de
// réalité left: dying; death draw: …".
func (n *Names) kaResolvedText(r *kav1.AttackResolved) string {
	att, target := n.of(r.GetAttackerId()), n.of(r.GetTargetId())
	note := r.GetNote()
	if !r.GetSuccess() {
		s := fmt.Sprintf("%s's attack on %s", att, target)
		if note != "" {
			return s + ": " + note
		}
		if n.withheld(r.GetAttackerId()) || n.withheld(r.GetTargetId()) {
			return s + " fails: no effect (KA-005, KA-006)"
		}
		return s + fmt.Sprintf(" fails: margin %s, no effect (KA-005, KA-006)", num(r.GetMargin()))
	}
	if n.withheld(r.GetAttackerId()) || n.withheld(r.GetTargetId()) {
		return n.kaHiddenResolvedText(r)
	}
	stun := n.kaStun(r)
	verb := "hits"
	if stun {
		verb = "stuns"
	}
	s := fmt.Sprintf("%s %s %s: margin %d, %s (damage bonus %s, KA-006)", att, verb, target, r.GetMargin(), kaLevelText(r.GetLevel()), signed(r.GetBonus()))
	dmg := fmt.Sprintf("%d + weapon %d = %d", r.GetBonus(), r.GetWeaponDamage(), r.GetDamage())
	if stun {
		s += fmt.Sprintf(": %s points de réalité, no soak (KA-030)", dmg)
		if r.GetRealityLost() != r.GetDamage() {
			s += fmt.Sprintf(", only %d left to lose", r.GetRealityLost())
		}
		if r.GetKaLost() > 0 {
			s += fmt.Sprintf(", and %s (KA-031)", kaDiceText(r.GetKaLost()))
		}
	} else {
		s += ": damage " + dmg
		switch after := r.GetDamage() - r.GetSoak(); {
		case after <= 0:
			s += fmt.Sprintf(" − soak %d: no Ka die lost (KA-022, KA-023)", r.GetSoak())
		default:
			s += fmt.Sprintf(" − soak %d = %d → %s lost (KA-022…KA-024)", r.GetSoak(), after, kaDiceText(r.GetKaLost()))
		}
	}
	s += fmt.Sprintf("; %s has %s and %s left", target, kaDiceText(r.GetKaLeft()), realityText(r.GetRealityLeft()))
	var states []string
	if r.GetUnconscious() {
		states = append(states, "unconscious")
	}
	if r.GetDying() {
		states = append(states, "dying")
	}
	if len(states) > 0 {
		s += ": " + strings.Join(states, " and ")
	}
	if dd := r.GetDeathDraw(); dd != nil {
		s += fmt.Sprintf("; death draw: cards %d (%s) = %d, the Maître de Ka rules on it (KA-025)", dd.GetDraw().GetValue(), cardsText(dd.GetDraw()), dd.GetTotal())
		note = strings.TrimPrefix(strings.TrimSpace(deathDrawNote.ReplaceAllString(note, "")), "; ")
	}
	if r.GetStillActs() && !strings.Contains(note, "KA-014") {
		s += fmt.Sprintf("; %s acts at the same time and still takes its action this pass (KA-014)", target)
	}
	return withNote(s, note)
}

// kaHiddenResolvedText: a successful attack where the attacker's numbers (margin, level,
// damage) or the target's (soak, Ka dice and points lost and left, death draw) were withheld:
// what is known, and which part is hidden. "La gargouille hits Joshua (its margin and damage
// withheld): soak 7 → 10 Ka dice lost (KA-022…KA-024); Joshua has 4 Ka dice and 15 points de
// réalité left"; "Joshua hits La gargouille: margin withheld, an exceptional success (damage
// bonus +10, KA-006): damage 10 + weapon 8 = 18, against its soak (withheld): dying".
func (n *Names) kaHiddenResolvedText(r *kav1.AttackResolved) string {
	att, target := n.of(r.GetAttackerId()), n.of(r.GetTargetId())
	attHidden, targetHidden := n.withheld(r.GetAttackerId()), n.withheld(r.GetTargetId())
	stun := n.kaStun(r)
	verb := "hits"
	if stun {
		verb = "stuns"
	}
	s := fmt.Sprintf("%s %s %s", att, verb, target)
	if attHidden {
		s += " (its margin and damage withheld)"
	} else {
		s += fmt.Sprintf(": %s (damage bonus %s, KA-006): damage %d + weapon %d = %d", kaLevelText(r.GetLevel()), signed(r.GetBonus()), r.GetBonus(), r.GetWeaponDamage(), r.GetDamage())
	}
	switch {
	case targetHidden && stun:
		s += ", in points de réalité (withheld, KA-030)"
	case targetHidden:
		s += ", against its soak (withheld)"
	case stun:
		s += fmt.Sprintf(": %s lost, no soak (KA-030)", realityText(r.GetRealityLost()))
		if r.GetKaLost() > 0 {
			s += fmt.Sprintf(", and %s (KA-031)", kaDiceText(r.GetKaLost()))
		}
	default:
		s += fmt.Sprintf(": soak %d → %s lost (KA-022…KA-024)", r.GetSoak(), kaDiceText(r.GetKaLost()))
	}
	if !targetHidden {
		s += fmt.Sprintf("; %s has %s and %s left", target, kaDiceText(r.GetKaLeft()), realityText(r.GetRealityLeft()))
	}
	var states []string
	if r.GetUnconscious() {
		states = append(states, "unconscious")
	}
	if r.GetDying() {
		states = append(states, "dying")
	}
	if len(states) > 0 {
		s += ": " + strings.Join(states, " and ")
	}
	note := r.GetNote()
	if dd := r.GetDeathDraw(); dd != nil {
		if drawWithheld(dd) {
			s += fmt.Sprintf("; death draw: %s, the Maître de Ka rules on it (KA-025)", cardsText(dd.GetDraw()))
		} else {
			s += fmt.Sprintf("; death draw: cards %d (%s) = %d, the Maître de Ka rules on it (KA-025)", dd.GetDraw().GetValue(), cardsText(dd.GetDraw()), dd.GetTotal())
		}
		note = strings.TrimPrefix(strings.TrimSpace(deathDrawNote.ReplaceAllString(note, "")), "; ")
	}
	if r.GetStillActs() && !strings.Contains(note, "KA-014") {
		s += fmt.Sprintf("; %s acts at the same time and still takes its action this pass (KA-014)", target)
	}
	return withNote(s, note)
}

// kaDisarmText: "Joshua tries to disarm le chien of crocs: Humanité 3 + Bagarre 2 + cards 7
// (…) = 12 against Humanité 1 + Bagarre 3 + cards 4 (…) = 8 — disarmed (KA-032)".
func (n *Names) kaDisarmText(d *kav1.DisarmDrawn) string {
	who, target := n.of(d.GetCombatantId()), n.of(d.GetTargetId())
	s := fmt.Sprintf("%s tries to disarm %s", who, target)
	if d.GetWeapon() != "" {
		s += " of " + d.GetWeapon()
	}
	s += fmt.Sprintf(": %s against %s's %s", kaDrawText(d.GetDraw()), target, kaDrawText(d.GetResistance()))
	switch total := d.GetDraw().GetTotal(); {
	case !d.GetSuccess() && drawWithheld(d.GetDraw()):
		s += " — fails (KA-032)"
	case d.GetSuccess():
		what := d.GetWeapon()
		if what == "" { // the weapon of a hidden target is withheld
			what = "its weapon"
		}
		s += fmt.Sprintf(" — %s is disarmed: it loses %s until it picks it up (one action), and may fight bare-handed (KA-032)", target, what)
	case total < ka.SimpleThreshold:
		s += fmt.Sprintf(" — fails: below %d (KA-032)", ka.SimpleThreshold)
	default:
		s += " — fails: not strictly higher (KA-032)"
	}
	if d.GetStillActs() {
		s += fmt.Sprintf("; %s acts at the same time and still takes its action this pass (KA-014)", target)
	}
	return s
}

// kaTerrorText: "Terror: Joshua draws Animalité 4 + 3 encaissement − 3 situation + cards 5 (…)
// = 9: below 10 and below Animalité × 3 = 12: Joshua enters Abysse (KA-034)".
func (n *Names) kaTerrorText(t *kav1.TerrorDrawn) string {
	who := n.of(t.GetCombatantId())
	d := t.GetDraw()
	threshold := d.GetSphereValue() * ka.TerrorFactor
	s := fmt.Sprintf("Terror: %s draws %s", who, kaDrawText(d))
	if drawWithheld(d) {
		if t.GetAbysse() {
			return s + fmt.Sprintf(": %s enters Abysse (KA-034)", who)
		}
		return s + fmt.Sprintf(": %s does not enter Abysse (KA-034)", who)
	}
	switch total := d.GetTotal(); {
	case t.GetAbysse():
		s += fmt.Sprintf(": below %d and below %s × %d = %d: %s enters Abysse (KA-034)", ka.SimpleThreshold, orUnknown(d.GetSphere()), ka.TerrorFactor, threshold, who)
	case total >= ka.SimpleThreshold:
		s += fmt.Sprintf(": %d or more, %s holds (KA-034)", ka.SimpleThreshold, who)
	default:
		s += fmt.Sprintf(": a failure, but not below %s × %d = %d: no Abysse (KA-034)", orUnknown(d.GetSphere()), ka.TerrorFactor, threshold)
	}
	return s
}

// kaOptionsText lists the house rules of a Ka encounter.
func kaOptionsText(o *kav1.Options) string {
	var parts []string
	if o.GetDeck() != "" {
		parts = append(parts, "deck "+o.GetDeck())
	}
	if o.GetReshuffle() != "" {
		parts = append(parts, "reshuffle "+o.GetReshuffle())
	}
	join := func(vs []int32, sign bool) string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = fmt.Sprint(v)
			if sign {
				out[i] = signed(v)
			}
		}
		return strings.Join(out, "/")
	}
	if len(o.GetSuccessLevels()) > 0 {
		parts = append(parts, "success levels from margins "+join(o.GetSuccessLevels(), false))
	}
	if len(o.GetSuccessBonus()) > 0 {
		parts = append(parts, "damage bonus "+join(o.GetSuccessBonus(), true))
	}
	if len(o.GetKaTable()) > 0 {
		parts = append(parts, "Ka dice by damage up to "+join(o.GetKaTable(), false))
	}
	if o.GetParry() {
		parts = append(parts, "parries allowed")
	}
	return strings.Join(parts, ", ")
}

// spheresText: "Animalité 4, Humanité 3, Spiritualité 2", Animalité and Humanité first.
func spheresText(m map[string]int32) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case ka.Animalite:
			return 0
		case ka.Humanite:
			return 1
		}
		return 2
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// kaSheetText: "Animalité 4, Humanité 3, Spiritualité 2, encaissement 3, 5 Ka dice, 15 points
// de réalité, player character".
func kaSheetText(sh *kav1.Sheet) string {
	s := spheresText(sh.GetSpheres())
	s += fmt.Sprintf(", encaissement %d", sh.GetEncaissement())
	if sh.GetProtection() != 0 {
		s += fmt.Sprintf(", protection %d", sh.GetProtection())
	}
	s += ", " + kaDiceText(sh.GetKaDice()) + ", " + realityText(sh.GetRealityPoints())
	if sh.GetPlayerCharacter() {
		s += ", player character"
	}
	return strings.TrimPrefix(s, ", ")
}

// isKa reports whether an encounter is one of Ka.
func isKa(st *encounterv1.EncounterState) bool {
	return st.GetKa() != nil || st.GetRuleSystem() == ka.ID
}
