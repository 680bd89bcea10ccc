package commands

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
)

// Names knows the names Describe shows for combatant ids (an id it lacks is shown as it is),
// and what a description needs from the events before it: the pursuit distance. A nil *Names
// describes with ids only.
type Names struct {
	byID map[string]string
	// distance is the pursuit distance as of the events learnt, 0 when unknown or no pursuit
	// is on: PursuitActed gives only the distance after the action.
	distance int32
	// kaAttack is the last Ka attack drawn learnt: whether the attack resolved later is a stun.
	kaAttack *kav1.AttackDrawn
	// hidden holds the combatants the GM hides, as learnt; redacted is set while describing an
	// event from which the server withheld something (Event.redacted): a hidden combatant's
	// numbers in it are then withheld, not zeros.
	hidden   map[string]bool
	redacted bool
}

// withheld reports whether the numbers of combatant id were withheld from the event being
// described: the server redacted it and id is hidden.
func (n *Names) withheld(id string) bool {
	return n != nil && n.redacted && n.hidden[id]
}

// hides records whether combatant id is hidden (CombatantHidden, a hidden newcomer, a state).
func (n *Names) hides(id string, hidden bool) {
	if n == nil || id == "" {
		return
	}
	if n.hidden == nil {
		n.hidden = map[string]bool{}
	}
	n.hidden[id] = hidden
}

// NewNames returns Names for ids → names.
func NewNames(byID map[string]string) *Names {
	n := &Names{byID: map[string]string{}}
	for id, name := range byID {
		if id != "" && name != "" {
			n.byID[id] = name
		}
	}
	return n
}

// NamesOf returns the names of a state's combatants.
func NamesOf(st *encounterv1.EncounterState) *Names {
	n := NewNames(nil)
	for _, c := range st.GetCombatants() {
		n.add(c)
		n.hides(c.GetId(), c.GetHidden())
	}
	if p := st.GetKa().GetPending(); p != nil { // the attack a Ka defender answers: a stun or not
		n.kaAttack = &kav1.AttackDrawn{AttackerId: p.GetAttackerId(), TargetId: p.GetAttack().GetTargetId(), Attack: p.GetAttack()}
	}
	return n
}

func (n *Names) add(c *encounterv1.Combatant) {
	if n != nil && c.GetId() != "" && c.GetName() != "" {
		if n.byID == nil {
			n.byID = map[string]string{}
		}
		n.byID[c.GetId()] = c.GetName()
	}
}

// Learn records what an event tells the descriptions of later ones: the names it introduces
// (CombatantAdded) and the pursuit distance. Call it after describing the event.
func (n *Names) Learn(ev *encounterv1.Event) {
	if n == nil {
		return
	}
	n.add(ev.GetCombatantAdded().GetCombatant())
	if c := ev.GetCombatantAdded().GetCombatant(); c != nil {
		n.hides(c.GetId(), c.GetHidden())
	}
	if h := ev.GetCombatantHidden(); h != nil {
		n.hides(h.GetCombatantId(), h.GetHidden())
	}
	if r := ev.GetEncounterRewound(); r != nil {
		for _, c := range r.GetState().GetCombatants() {
			n.add(c)
			n.hides(c.GetId(), c.GetHidden())
		}
		n.distance = r.GetState().GetLoss().GetPursuit().GetDistance()
		n.kaAttack = nil
	}
	if a := ev.GetKa().GetAttackDrawn(); a != nil {
		n.kaAttack = a
	}
	switch k := ev.GetLoss().GetKind().(type) {
	case *lossv1.Event_PursuitStarted:
		n.distance = k.PursuitStarted.GetPursuit().GetDistance()
	case *lossv1.Event_PursuitActed:
		a := k.PursuitActed
		switch {
		case a.GetEnded():
			n.distance = 0
		case a.GetDodgePossible():
		case a.GetSuccess() || a.GetResolves():
			n.distance = a.GetDistance()
		}
	}
}

func (n *Names) of(id string) string {
	if n != nil {
		if name := n.byID[id]; name != "" {
			return name
		}
	}
	if id == "" {
		return "?"
	}
	return id
}

// Describe renders an event as one line of plain language, with combatants by id.
func Describe(ev *encounterv1.Event) string { return (*Names)(nil).Describe(ev) }

// Describe renders an event as one line of plain language: "#7 Diego attacks ruffian with
// épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; ruffian may parry or dodge".
func (n *Names) Describe(ev *encounterv1.Event) string {
	if n != nil {
		n.redacted = ev.GetRedacted()
		defer func() { n.redacted = false }()
	}
	return fmt.Sprintf("#%d %s", ev.GetSequence(), n.payload(ev))
}

func (n *Names) payload(ev *encounterv1.Event) string {
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		e := p.EncounterCreated
		s := fmt.Sprintf("Encounter %q created by %s", e.GetName(), orUnknown(e.GetGameMaster()))
		if ev.GetRuleSystem() != "" {
			s += fmt.Sprintf(", %s v%d", ev.GetRuleSystem(), ev.GetRulesVersion())
		}
		if o := optionsText(e.GetOptions()); o != "" {
			s += "; rules: " + o
		}
		if len(e.GetSeedSha256()) > 0 {
			s += "; dice seed sha256 " + hex.EncodeToString(e.GetSeedSha256())
		}
		return s
	case *encounterv1.Event_CombatantAdded:
		return "joins: " + n.combatantText(p.CombatantAdded.GetCombatant()) + joiningText(p.CombatantAdded)
	case *encounterv1.Event_CombatantRemoved:
		return n.of(p.CombatantRemoved.GetCombatantId()) + " is removed from the encounter"
	case *encounterv1.Event_EncounterStarted:
		return "The fight starts"
	case *encounterv1.Event_EncounterEnded:
		s := "Encounter ended"
		if r := p.EncounterEnded.GetReason(); r != "" {
			s += " (" + r + ")"
		}
		if seed := p.EncounterEnded.GetSeed(); len(seed) > 0 {
			s += "; dice seed revealed: " + hex.EncodeToString(seed)
		}
		return s
	case *encounterv1.Event_EncounterRewound:
		r := p.EncounterRewound
		s := fmt.Sprintf("Rewound to #%d: the events after it are undone", r.GetToSequence())
		if r.GetReason() != "" {
			s += " (" + r.GetReason() + ")"
		}
		if r.GetDiceOffset() > 0 {
			s += fmt.Sprintf("; the dice go on from position %d, none rolled again", r.GetDiceOffset())
		}
		return s
	case *encounterv1.Event_CombatantHidden:
		if p.CombatantHidden.GetHidden() {
			return "The GM hides " + n.of(p.CombatantHidden.GetCombatantId()) + ": only the GM and its controller see its numbers"
		}
		return "The GM shows " + n.of(p.CombatantHidden.GetCombatantId()) + " again: its numbers are seen from now on"
	case *encounterv1.Event_RoleGranted, *encounterv1.Event_RoleRevoked, *encounterv1.Event_JoiningSet:
		return n.roleEventText(ev)
	case *encounterv1.Event_Loss:
		return n.lossText(p.Loss)
	case *encounterv1.Event_Feerie:
		return n.feerieText(p.Feerie)
	case *encounterv1.Event_Ka:
		return n.kaText(p.Ka)
	case *encounterv1.Event_D20Seg:
		return n.d20Text(p.D20Seg)
	case nil:
		return "(event without payload)"
	default:
		return fmt.Sprintf("(event %T)", p)
	}
}

// joiningText: "; joins the fight in progress after watching the last Tour: +2 Initiative
// (LOS-039)", or nothing for a combatant added before the fight.
func joiningText(a *encounterv1.CombatantAdded) string {
	switch {
	case a.GetInProgress() && a.GetWatched():
		return "; joins the fight in progress after watching the last Tour: acts from the next Tour, +2 Initiative (LOS-039)"
	case a.GetInProgress():
		return "; joins the fight in progress: acts from the next Tour (LOS-039)"
	case a.GetWatched():
		return "; watched the fight (LOS-039)"
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// combatantText: "Diego (diego): player character, side pcs, controller david".
func (n *Names) combatantText(c *encounterv1.Combatant) string {
	s := c.GetId()
	if c.GetName() != "" && c.GetName() != c.GetId() {
		s = fmt.Sprintf("%s (%s)", c.GetName(), c.GetId())
	}
	var parts []string
	switch {
	case c.GetHidden() && c.GetSheet() == nil:
		parts = append(parts, "hidden by the GM: its sheet is withheld")
	case c.GetHidden():
		parts = append(parts, "hidden by the GM")
	}
	if sh := c.GetLoss(); sh != nil {
		parts = append(parts, kindText(sh.GetKind()))
	}
	if sh := c.GetFeerie(); sh != nil {
		parts = append(parts, feerieSheetText(sh))
	}
	if sh := c.GetKa(); sh != nil {
		parts = append(parts, kaSheetText(sh))
	}
	if sh := c.GetD20Seg(); sh != nil {
		parts = append(parts, d20SheetText(sh))
	}
	if c.GetSide() != "" {
		parts = append(parts, "side "+c.GetSide())
	}
	if c.GetController() != "" {
		parts = append(parts, "controller "+c.GetController())
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

func kindText(k lossv1.CombatantKind) string {
	switch k {
	case lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER:
		return "player character"
	case lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE:
		return "adversaire"
	case lossv1.CombatantKind_COMBATANT_KIND_SBIRE:
		return "sbire"
	default:
		return "kind unspecified"
	}
}

// optionsText lists the house rules an encounter was created with, the [default] rules of
// the catalogue included.
func optionsText(o *encounterv1.RuleOptions) string {
	if f := o.GetFeerie(); f != nil {
		return feerieOptionsText(f)
	}
	if k := o.GetKa(); k != nil {
		return kaOptionsText(k)
	}
	if d := o.GetD20Seg(); d != nil {
		return d20OptionsText(d)
	}
	l := o.GetLoss()
	if l == nil {
		return ""
	}
	var parts []string
	flag := func(set bool, v bool, yes, no string) {
		if set {
			parts = append(parts, yesNo(v, yes, no))
		}
	}
	flag(l.ExplodeActionD10 != nil, l.GetExplodeActionD10(), "action d10s explode", "action d10s do not explode")
	flag(l.ExplodeDamageD10 != nil, l.GetExplodeDamageD10(), "damage d10s explode", "damage d10s do not explode")
	if len(l.GetHealthBands()) > 0 {
		var b []string
		for _, v := range l.GetHealthBands() {
			b = append(b, fmt.Sprint(v))
		}
		parts = append(parts, "health bands "+strings.Join(b, "/"))
	}
	if l.GmFursa != nil {
		parts = append(parts, fmt.Sprintf("GM Fursa %d", l.GetGmFursa()))
	}
	flag(l.GmFursaOnFailedExploit != nil, l.GetGmFursaOnFailedExploit(), "the GM gains a Fursa when a player character fails an Exploit", "no GM Fursa for failed Exploits")
	if l.PcStartingFursa != nil {
		parts = append(parts, fmt.Sprintf("player characters without Fursa start with %d", l.GetPcStartingFursa()))
	}
	if l.DefenceExploitBonus != nil {
		parts = append(parts, fmt.Sprintf("a successful defensive Exploit gives %s on the next action", signed(l.GetDefenceExploitBonus())))
	}
	flag(l.CancelledExploitsStillHit != nil, l.GetCancelledExploitsStillHit(), "an attack whose Exploits are all cancelled still hits", "an attack whose Exploits are all cancelled misses")
	flag(l.PassAttackerModifiers != nil, l.GetPassAttackerModifiers(), "the attacker's own modifiers pass on to the defender", "the attacker's own modifiers do not pass on to the defender")
	flag(l.SbireCancelledExploitPlainHit != nil, l.GetSbireCancelledExploitPlainHit(), "a Sbire that cancels the only Exploit takes a plain hit", "a Sbire that cancels the only Exploit is felled all the same")
	flag(l.DyingAtZeroFatal != nil, l.GetDyingAtZeroFatal(), "0 fatal boxes means dying", "only Kill outright leaves a target dying")
	flag(l.WallIsOnlyDefence != nil, l.GetWallIsOnlyDefence(), "a wall or Total dodge is the only defence of the Tour", "a wall or Total dodge still allows parries and dodges")
	flag(l.AimsStack != nil, l.GetAimsStack(), "aims stack", "aims do not stack")
	flag(l.ZigzagUntilNextAction != nil, l.GetZigzagUntilNextAction(), "Zigzags last until the pursued's next action", "Zigzags last to the end of the Tour")
	flag(l.DeclareLowToHigh != nil, l.GetDeclareLowToHigh(), "everyone declares, lowest Initiative first", "no declaration round")
	flag(l.SamePhaseSimultaneous != nil, l.GetSamePhaseSimultaneous(), "actions at the same phase are simultaneous", "actions at the same phase are not simultaneous")
	return strings.Join(parts, ", ")
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// signed writes a modifier with its sign: "+5", "−2" (a minus sign, as in prose).
func signed(v int32) string {
	if v < 0 {
		return fmt.Sprintf("−%d", -v)
	}
	return fmt.Sprintf("+%d", v)
}

func (n *Names) lossText(e *lossv1.Event) string {
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		return n.tourText(k.TourStarted)
	case *lossv1.Event_AttackRolled:
		return n.attackText(k.AttackRolled)
	case *lossv1.Event_DefenceRolled:
		return n.defenceText(k.DefenceRolled)
	case *lossv1.Event_AttackResolved:
		return n.resolvedText(k.AttackResolved)
	case *lossv1.Event_Passed:
		p := k.Passed
		if n.withheld(p.GetCombatantId()) {
			return n.of(p.GetCombatantId()) + " passes, keeping its PA (hidden) to parry or dodge"
		}
		return fmt.Sprintf("%s passes, keeping %d PA to parry or dodge", n.of(p.GetCombatantId()), p.GetActionPointsLeft())
	case *lossv1.Event_Declared:
		return n.declaredText(k.Declared)
	case *lossv1.Event_Waited:
		return n.waitedText(k.Waited)
	case *lossv1.Event_Aimed:
		return n.aimedText(k.Aimed)
	case *lossv1.Event_SimpleActed:
		return n.simpleText(k.SimpleActed)
	case *lossv1.Event_DisasterDeclared:
		return n.disasterText(k.DisasterDeclared)
	case *lossv1.Event_DyingResolved:
		return n.dyingText(k.DyingResolved)
	case *lossv1.Event_PursuitStarted:
		return n.pursuitStartedText(k.PursuitStarted)
	case *lossv1.Event_PursuitActed:
		return n.pursuitText(k.PursuitActed)
	case *lossv1.Event_FreeRaisesGranted:
		return n.grantText(k.FreeRaisesGranted)
	case nil:
		return "(empty Loss event)"
	default:
		return fmt.Sprintf("(Loss event %T)", k)
	}
}

// tourText: "Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; griffon-1, griffon-2 and griffon-3
// 5+d10[8] = 13 PA (griffon-1 +2 bonus: 15 PA)".
func (n *Names) tourText(t *lossv1.TourStarted) string {
	var rolls []string
	for _, r := range t.GetInitiative() {
		if r.GetRoll() == nil && len(r.GetCombatantIds()) > 0 { // withheld from this reader
			var who []string
			for _, id := range r.GetCombatantIds() {
				who = append(who, n.of(id))
			}
			rolls = append(rolls, andList(who)+" rolls, hidden")
			continue
		}
		var who, bonuses []string
		for _, id := range r.GetCombatantIds() {
			who = append(who, n.of(id))
			if b := r.GetBonus()[id]; b != 0 {
				// LOS-039 (joining after watching) or LOS-067 (Take the advantage).
				if len(r.GetCombatantIds()) == 1 {
					bonuses = append(bonuses, fmt.Sprintf("%s bonus: %d PA", signed(b), r.GetActionPoints()+b))
				} else {
					bonuses = append(bonuses, fmt.Sprintf("%s %s bonus: %d PA", n.of(id), signed(b), r.GetActionPoints()+b))
				}
			}
		}
		s := fmt.Sprintf("%s %d+%s = %d PA", andList(who), r.GetInitiative(), rollText(r.GetRoll()), r.GetActionPoints())
		if len(bonuses) > 0 {
			s += " (" + strings.Join(bonuses, ", ") + ")"
		}
		rolls = append(rolls, s)
	}
	s := fmt.Sprintf("Tour %d (Séquence %d)", t.GetTour(), t.GetSequence())
	if len(rolls) == 0 {
		return s + ": no one rolls Initiative"
	}
	return s + ": " + strings.Join(rolls, "; ")
}

func andList(xs []string) string {
	switch len(xs) {
	case 0:
		return "?"
	case 1:
		return xs[0]
	default:
		return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
	}
}

// attackText: "Diego attacks ruffian with épée (4 PA, 1 Exploit: extra damage): 6+6+d10[8] =
// 20 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010)); ruffian may parry or dodge".
func (n *Names) attackText(a *lossv1.AttackRolled) string {
	ids := []string{a.GetTargetId()}
	for _, m := range a.GetMoreTargets() {
		ids = append(ids, m.GetTargetId())
	}
	var targets []string
	for _, id := range ids {
		targets = append(targets, n.of(id))
	}
	who := n.of(a.GetAttackerId())
	var s string
	switch a.GetManoeuvre() {
	case lossv1.Manoeuvre_MANOEUVRE_GRAB:
		s = fmt.Sprintf("%s tries to grab %s", who, andList(targets))
	case lossv1.Manoeuvre_MANOEUVRE_TRIP:
		s = fmt.Sprintf("%s tries to trip %s", who, andList(targets))
	default:
		verb := "attacks"
		if a.GetCounter() {
			verb = "counter-attacks" // LOS-062
		}
		s = fmt.Sprintf("%s %s %s", who, verb, andList(targets))
	}
	if a.GetWeapon() != "" {
		s += " with " + a.GetWeapon()
		if a.GetSecondWeapon() != "" {
			s += " and " + a.GetSecondWeapon()
		}
	}
	var details []string
	if !n.withheld(a.GetAttackerId()) {
		details = append(details, fmt.Sprintf("%d PA", a.GetActionPointsSpent()))
	}
	if x := exploitsText(exploitCount(a.GetExploits()), a.GetExploits()); x != "" {
		details = append(details, x)
	}
	if a.GetWithDamage() {
		details = append(details, "with damage")
	}
	if d := a.GetSituation().GetDistance(); d > 0 {
		details = append(details, fmt.Sprintf("at %d m", d))
	}
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	s += ": " + testText(a.GetTest())
	if !a.GetTest().GetSuccess() {
		return s
	}
	at := ""
	if dd := a.GetDefenceDifficulty(); dd != 0 && dd != a.GetTest().GetDifficulty() {
		at = fmt.Sprintf(" at Difficulty %d", dd) // LOS-012: the attacker's own modifiers stay with it
	}
	if len(ids) == 1 {
		switch {
		case a.GetDefencePossible():
			s += "; " + targets[0] + " may parry or dodge" + at
		case a.GetNoDefenceReason() != "":
			s += "; no defence: " + a.GetNoDefenceReason()
		default:
			s += "; no defence"
		}
		return s
	}
	reactions := append([]*lossv1.TargetReaction{{TargetId: a.GetTargetId(), DefencePossible: a.GetDefencePossible(), NoDefenceReason: a.GetNoDefenceReason()}}, a.GetMoreTargets()...)
	var may []string
	for _, r := range reactions {
		if r.GetDefencePossible() {
			may = append(may, n.of(r.GetTargetId()))
		}
	}
	if len(may) > 0 {
		s += "; " + andList(may) + " may parry or dodge" + at
	}
	for _, r := range reactions {
		switch {
		case r.GetDefencePossible():
		case r.GetNoDefenceReason() != "":
			s += "; no defence for " + n.of(r.GetTargetId()) + ": " + r.GetNoDefenceReason()
		default:
			s += "; no defence for " + n.of(r.GetTargetId())
		}
	}
	return s
}

// exploitsText: "2 Exploits: extra damage", "4 Exploits: extra damage ×2, overthrow".
func exploitsText(count int32, xs []lossv1.ExploitEffect) string {
	if count == 0 {
		return ""
	}
	s := plural(int(count), "Exploit")
	if e := effectsText(xs); e != "" {
		s += ": " + e
	}
	return s
}

// effectsText: "extra damage" (however many), "extra damage ×2, overthrow".
func effectsText(xs []lossv1.ExploitEffect) string {
	var order []lossv1.ExploitEffect
	counts := map[lossv1.ExploitEffect]int{}
	for _, x := range xs {
		if counts[x] == 0 {
			order = append(order, x)
		}
		counts[x]++
	}
	var parts []string
	for _, x := range order {
		e := effectText(x)
		if counts[x] > 1 && len(order) > 1 {
			e += fmt.Sprintf(" ×%d", counts[x])
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, ", ")
}

func effectText(x lossv1.ExploitEffect) string {
	if i, ok := effectInfo(x); ok {
		return i.text
	}
	if x == lossv1.ExploitEffect_EXPLOIT_EFFECT_UNSPECIFIED {
		return "effect unspecified"
	}
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(x.String(), "EXPLOIT_EFFECT_"), "_", " "))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// defenceText: "ruffian dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success".
func (n *Names) defenceText(d *lossv1.DefenceRolled) string {
	who := n.of(d.GetDefenderId())
	var verb string
	switch d.GetReaction() {
	case lossv1.Reaction_REACTION_NONE:
		return who + " takes the blow"
	case lossv1.Reaction_REACTION_PARRY:
		verb = "parries"
	case lossv1.Reaction_REACTION_DODGE:
		verb = "dodges"
	default:
		verb = "reacts (" + d.GetReaction().String() + ")"
	}
	var details []string
	if !n.withheld(d.GetDefenderId()) {
		details = append(details, fmt.Sprintf("%d PA", d.GetActionPointsSpent()))
	}
	x := exploitsText(d.GetExploits(), d.GetEffects())
	if ally := d.GetAllyId(); ally != "" { // LOS-068: "1 Exploit: protect Diego"
		if protect := effectText(lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT); strings.Contains(x, protect) {
			x = strings.Replace(x, protect, protect+" "+n.of(ally), 1)
		} else {
			x = strings.TrimPrefix(x+", protecting "+n.of(ally), ", ")
		}
	}
	if x != "" {
		details = append(details, x)
	}
	s := who + " " + verb
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	if d.GetTest() != nil {
		s += ": " + testText(d.GetTest())
	}
	if c := d.GetExploitsCancelled(); c > 0 {
		s += fmt.Sprintf("; the partial defence cancels %s of the attacker", plural(int(c), "Exploit"))
	}
	return s
}

// resolvedText: "Diego hits ruffian: damage d10[6]+3 = 9, armour 1 → 8 NS lost; ruffian has
// NS light 0, grave 4, fatal 5".
func (n *Names) resolvedText(r *lossv1.AttackResolved) string {
	att, target := n.of(r.GetAttackerId()), n.of(r.GetTargetId())
	if !r.GetHit() {
		s := fmt.Sprintf("%s's attack on %s misses", att, target)
		if r.GetNote() != "" {
			s += ": " + r.GetNote()
		}
		return s
	}
	var s string
	switch r.GetManoeuvre() {
	case lossv1.Manoeuvre_MANOEUVRE_GRAB:
		s = fmt.Sprintf("%s grabs %s", att, target)
	case lossv1.Manoeuvre_MANOEUVRE_TRIP:
		s = fmt.Sprintf("%s trips %s", att, target)
	default:
		s = fmt.Sprintf("%s hits %s", att, target)
	}
	if x := r.GetExploitsStanding(); x > 0 {
		s += fmt.Sprintf(" with %s standing", plural(int(x), "Exploit"))
		if e := effectsText(r.GetEffects()); e != "" {
			s += " (" + e + ")"
		}
	}
	if d := r.GetDamage(); d != nil && (d.GetRoll() == nil || n.withheld(r.GetTargetId())) {
		s += n.hiddenDamageText(r, target)
	} else if d != nil {
		if r.GetHalved() { // LOS-081, LOS-086: halved, rounded down, before armour; halvings compound
			s += fmt.Sprintf(": damage %s%+d = %d, %s to %d", rollText(d.GetRoll()), d.GetWeaponDamage(), d.GetRoll().GetTotal()+d.GetWeaponDamage(), halvedText(r.GetHalvings()), d.GetTotal())
		} else {
			s += fmt.Sprintf(": damage %s%+d = %d", rollText(d.GetRoll()), d.GetWeaponDamage(), d.GetTotal())
		}
		if d.GetArmour() != 0 {
			s += fmt.Sprintf(", armour %d", d.GetArmour())
		}
		if d.GetShield() != 0 {
			s += fmt.Sprintf(", shield %d", d.GetShield())
		}
		s += fmt.Sprintf(" → %d NS lost", d.GetLevelsLost())
		if d2 := r.GetSecondDamage(); d2 != nil { // LOS-070: the second weapon on the same target
			s += fmt.Sprintf(", and the second weapon %s%+d = %d → %d NS lost", rollText(d2.GetRoll()), d2.GetWeaponDamage(), d2.GetTotal(), d2.GetLevelsLost())
		}
		switch {
		case r.GetLight()+r.GetGrave()+r.GetFatal() > 0:
			s += fmt.Sprintf("; %s has NS light %d, grave %d, fatal %d", target, r.GetLight(), r.GetGrave(), r.GetFatal())
		case r.GetHealth() > 0:
			s += fmt.Sprintf("; %s has %d NS", target, r.GetHealth())
		}
	} else if r.GetHalved() {
		s += ", " + halvedText(r.GetHalvings())
	}
	if r.GetNote() != "" {
		s += "; " + r.GetNote()
	}
	switch {
	case r.GetTargetDying():
		s += " — " + target + " is down and dying (LOS-023)"
	case r.GetTargetOut():
		s += " — " + target + " is out of the fight"
	}
	return s
}

// hiddenDamageText is the damage of a blow where the attacker's numbers (its damage roll,
// weapon damage and total) or the target's (its armour and shield, the NS it lost and has
// left) were withheld: what is known, and which part is hidden.
// ": damage hidden, armour 2 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5";
// ": damage d10[5]+19 = 24; the NS L'ogre lost are hidden".
func (n *Names) hiddenDamageText(r *lossv1.AttackResolved, target string) string {
	var s string
	for i, d := range []*lossv1.Damage{r.GetDamage(), r.GetSecondDamage()} {
		if d == nil {
			continue
		}
		part := ": damage "
		if i > 0 {
			part = ", and the second weapon "
		}
		if d.GetRoll() == nil {
			part += "hidden"
		} else {
			part += fmt.Sprintf("%s%+d = %d", rollText(d.GetRoll()), d.GetWeaponDamage(), d.GetTotal())
		}
		if r.GetHalved() && i == 0 {
			part += ", " + halvedText(r.GetHalvings())
		}
		if !n.withheld(r.GetTargetId()) {
			if d.GetArmour() != 0 {
				part += fmt.Sprintf(", armour %d", d.GetArmour())
			}
			if d.GetShield() != 0 {
				part += fmt.Sprintf(", shield %d", d.GetShield())
			}
			part += fmt.Sprintf(" → %d NS lost", d.GetLevelsLost())
		}
		s += part
	}
	switch {
	case n.withheld(r.GetTargetId()):
		s += fmt.Sprintf("; the NS %s lost are hidden", target)
	case r.GetLight()+r.GetGrave()+r.GetFatal() > 0:
		s += fmt.Sprintf("; %s has NS light %d, grave %d, fatal %d", target, r.GetLight(), r.GetGrave(), r.GetFatal())
	case r.GetHealth() > 0:
		s += fmt.Sprintf("; %s has %d NS", target, r.GetHealth())
	}
	return s
}

// testText: "6+6+d10[8]+5 = 25 vs 20 — success (+5 higher than the opponent (LOS-052);
// Difficulty 15, +5 1 Exploit (LOS-010))": the Test, then how its bonus and its Difficulty came
// about.
func testText(t *lossv1.TestResult) string {
	if t == nil {
		return "no roll"
	}
	if t.GetRoll() == nil { // withheld from this reader: a hidden combatant's Test
		return "roll hidden — " + yesNo(t.GetSuccess(), "success", "failure")
	}
	s := fmt.Sprintf("%d+%d+%s", t.GetTrait(), t.GetTalent(), rollText(t.GetRoll()))
	if t.GetBonus() != 0 {
		s += fmt.Sprintf("%+d", t.GetBonus())
	}
	s += fmt.Sprintf(" = %d vs %d — %s", t.GetTotal(), t.GetDifficulty(), yesNo(t.GetSuccess(), "success", "failure"))
	if len(t.GetTestModifiers()) == 0 && len(t.GetDifficultyModifiers()) == 0 {
		return s + legacySpendText(t)
	}
	var parts []string
	if ms := t.GetTestModifiers(); len(ms) > 0 {
		parts = append(parts, modifiersText(ms))
	}
	if ms := t.GetDifficultyModifiers(); len(ms) > 0 {
		base := t.GetDifficulty()
		for _, m := range ms {
			base -= m.GetValue()
		}
		parts = append(parts, fmt.Sprintf("Difficulty %d, %s", base, modifiersText(ms)))
	}
	return s + " (" + strings.Join(parts, "; ") + ")"
}

// modifiersText: "+5 higher than the opponent (LOS-052), −2 improvised weapon (LOS-054)".
func modifiersText(ms []*lossv1.Modifier) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = signed(m.GetValue()) + " " + m.GetReason()
		if m.GetRule() != "" {
			parts[i] += " (" + m.GetRule() + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// legacySpendText explains the bonus of a Test recorded without its modifiers, as the first
// engine recorded them: what was spent, the rest from a defensive Exploit (LOS-016).
func legacySpendText(t *lossv1.TestResult) string {
	var notes []string
	spent := int32(0)
	if f := t.GetSpend().GetFursa(); f > 0 {
		notes = append(notes, fmt.Sprintf("%d Fursa", f))
		spent += f
	}
	if f := t.GetSpend().GetFreeRaises(); f > 0 {
		notes = append(notes, plural(int(f), "free raise"))
		spent += f
	}
	insp := t.GetSpend().GetInspiration()
	for _, v := range slices.Sorted(maps.Keys(insp)) {
		if insp[v] > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", insp[v], v))
			spent += insp[v]
		}
	}
	var extra string
	if rest := t.GetBonus() - loss.SpendBonus*spent; rest != 0 { // LOS-016
		extra = fmt.Sprintf("%+d from a defensive Exploit", rest)
	}
	switch {
	case len(notes) > 0 && extra != "":
		return " (spent " + strings.Join(notes, ", ") + "; " + extra + ")"
	case len(notes) > 0:
		return " (spent " + strings.Join(notes, ", ") + ")"
	case extra != "":
		return " (" + extra + ")"
	}
	return ""
}

// rollText renders a roll with its faces: "d10[8]", "d10[10,4]", "3d10[3,7,9]+4".
func rollText(r *dicev1.Roll) string {
	if r == nil {
		return "?"
	}
	base := r.GetExpression()
	if i := strings.IndexAny(base, "+-"); i > 0 {
		base = base[:i]
	}
	base = strings.TrimSuffix(base, "!")
	base = strings.TrimPrefix(base, "1d")
	if !strings.Contains(base, "d") {
		base = "d" + base
	}
	if base == "d" {
		base = "dice"
	}
	faces := make([]string, len(r.GetFaces()))
	for i, f := range r.GetFaces() {
		faces[i] = fmt.Sprint(f)
	}
	s := base + "[" + strings.Join(faces, ",") + "]"
	if m := r.GetModifier(); m != 0 {
		s += fmt.Sprintf("%+d", m)
	}
	return s
}

// halvedText: "halved", or "halved twice" when halvings compound (LOS-086).
func halvedText(n int32) string {
	switch {
	case n == 2:
		return "halved twice"
	case n > 2:
		return fmt.Sprintf("halved %d times", n)
	}
	return "halved"
}
