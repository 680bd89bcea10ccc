package commands

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
)

// Names maps combatant ids to the names Describe shows; an id it lacks is shown as it is.
type Names map[string]string

// NamesOf returns the names of a state's combatants.
func NamesOf(st *encounterv1.EncounterState) Names {
	n := Names{}
	for _, c := range st.GetCombatants() {
		n.add(c)
	}
	return n
}

func (n Names) add(c *encounterv1.Combatant) {
	if n != nil && c.GetId() != "" && c.GetName() != "" {
		n[c.GetId()] = c.GetName()
	}
}

// Learn records the names an event introduces (CombatantAdded).
func (n Names) Learn(ev *encounterv1.Event) {
	n.add(ev.GetCombatantAdded().GetCombatant())
}

func (n Names) of(id string) string {
	if name := n[id]; name != "" {
		return name
	}
	if id == "" {
		return "?"
	}
	return id
}

// Describe renders an event as one line of plain language, with combatants by id.
func Describe(ev *encounterv1.Event) string { return Names(nil).Describe(ev) }

// Describe renders an event as one line of plain language: "#7 Diego attacks ruffian with
// épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; ruffian may parry or dodge".
func (n Names) Describe(ev *encounterv1.Event) string {
	return fmt.Sprintf("#%d %s", ev.GetSequence(), n.payload(ev))
}

func (n Names) payload(ev *encounterv1.Event) string {
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
		return "joins: " + n.combatantText(p.CombatantAdded.GetCombatant())
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
	case *encounterv1.Event_Loss:
		return n.lossText(p.Loss)
	case nil:
		return "(event without payload)"
	default:
		return fmt.Sprintf("(event %T)", p)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// combatantText: "Diego (diego): player character, side pcs, controller david".
func (n Names) combatantText(c *encounterv1.Combatant) string {
	s := c.GetId()
	if c.GetName() != "" && c.GetName() != c.GetId() {
		s = fmt.Sprintf("%s (%s)", c.GetName(), c.GetId())
	}
	var parts []string
	if sh := c.GetLoss(); sh != nil {
		parts = append(parts, kindText(sh.GetKind()))
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

func optionsText(o *encounterv1.RuleOptions) string {
	l := o.GetLoss()
	if l == nil {
		return ""
	}
	var parts []string
	if l.ExplodeActionD10 != nil {
		parts = append(parts, yesNo(l.GetExplodeActionD10(), "action d10s explode", "action d10s do not explode"))
	}
	if l.ExplodeDamageD10 != nil {
		parts = append(parts, yesNo(l.GetExplodeDamageD10(), "damage d10s explode", "damage d10s do not explode"))
	}
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
	if l.GmFursaOnFailedExploit != nil {
		parts = append(parts, yesNo(l.GetGmFursaOnFailedExploit(), "the GM gains a Fursa when a player character fails an Exploit", "no GM Fursa for failed Exploits"))
	}
	return strings.Join(parts, ", ")
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func (n Names) lossText(e *lossv1.Event) string {
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
		return fmt.Sprintf("%s passes, keeping %d PA to parry or dodge", n.of(p.GetCombatantId()), p.GetActionPointsLeft())
	case nil:
		return "(empty Loss event)"
	default:
		return fmt.Sprintf("(Loss event %T)", k)
	}
}

// tourText: "Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; griffon-1, griffon-2 and griffon-3 5+d10[8] = 13 PA".
func (n Names) tourText(t *lossv1.TourStarted) string {
	var rolls []string
	for _, r := range t.GetInitiative() {
		var who []string
		for _, id := range r.GetCombatantIds() {
			who = append(who, n.of(id))
		}
		rolls = append(rolls, fmt.Sprintf("%s %d+%s = %d PA", andList(who), r.GetInitiative(), rollText(r.GetRoll()), r.GetActionPoints()))
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

// attackText: "Diego attacks ruffian with épée (4 PA, 1 Exploit: extra damage): 6+6+d10[8] = 20 vs 20 — success; ruffian may parry or dodge".
func (n Names) attackText(a *lossv1.AttackRolled) string {
	target := n.of(a.GetTargetId())
	s := fmt.Sprintf("%s attacks %s", n.of(a.GetAttackerId()), target)
	if a.GetWeapon() != "" {
		s += " with " + a.GetWeapon()
	}
	details := []string{fmt.Sprintf("%d PA", a.GetActionPointsSpent())}
	if x := exploitsText(a.GetExploits()); x != "" {
		details = append(details, x)
	}
	s += " (" + strings.Join(details, ", ") + "): " + testText(a.GetTest())
	switch {
	case !a.GetTest().GetSuccess():
	case a.GetDefencePossible():
		s += "; " + target + " may parry or dodge"
	case a.GetNoDefenceReason() != "":
		s += "; no defence: " + a.GetNoDefenceReason()
	default:
		s += "; no defence"
	}
	return s
}

// exploitsText: "2 Exploits: extra damage".
func exploitsText(xs []lossv1.ExploitEffect) string {
	if len(xs) == 0 {
		return ""
	}
	var effects []string
	for _, x := range xs {
		if e := effectText(x); !slices.Contains(effects, e) {
			effects = append(effects, e)
		}
	}
	return plural(len(xs), "Exploit") + ": " + strings.Join(effects, ", ")
}

func effectText(x lossv1.ExploitEffect) string {
	switch x {
	case lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE:
		return "extra damage"
	case lossv1.ExploitEffect_EXPLOIT_EFFECT_UNSPECIFIED:
		return "effect unspecified"
	default:
		return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(x.String(), "EXPLOIT_EFFECT_"), "_", " "))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// defenceText: "ruffian dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success".
func (n Names) defenceText(d *lossv1.DefenceRolled) string {
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
	details := []string{fmt.Sprintf("%d PA", d.GetActionPointsSpent())}
	if d.GetExploits() > 0 {
		details = append(details, plural(int(d.GetExploits()), "Exploit"))
	}
	s := fmt.Sprintf("%s %s (%s)", who, verb, strings.Join(details, ", "))
	if d.GetTest() != nil {
		s += ": " + testText(d.GetTest())
	}
	if c := d.GetExploitsCancelled(); c > 0 {
		s += fmt.Sprintf("; the partial defence cancels %s of the attacker", plural(int(c), "Exploit"))
	}
	return s
}

// resolvedText: "Diego hits ruffian: damage d10[6]+3 = 9, armour 1 → 8 NS lost; ruffian has light 0/…".
func (n Names) resolvedText(r *lossv1.AttackResolved) string {
	att, target := n.of(r.GetAttackerId()), n.of(r.GetTargetId())
	if !r.GetHit() {
		return fmt.Sprintf("%s's attack on %s misses", att, target)
	}
	s := fmt.Sprintf("%s hits %s", att, target)
	if x := r.GetExploitsStanding(); x > 0 {
		s += fmt.Sprintf(" with %s standing", plural(int(x), "Exploit"))
	}
	if d := r.GetDamage(); d != nil {
		s += fmt.Sprintf(": damage %s%+d = %d", rollText(d.GetRoll()), d.GetWeaponDamage(), d.GetTotal())
		if d.GetArmour() != 0 {
			s += fmt.Sprintf(", armour %d", d.GetArmour())
		}
		if d.GetShield() != 0 {
			s += fmt.Sprintf(", shield %d", d.GetShield())
		}
		s += fmt.Sprintf(" → %d NS lost", d.GetLevelsLost())
	}
	switch {
	case r.GetLight()+r.GetGrave()+r.GetFatal() > 0:
		s += fmt.Sprintf("; %s has NS light %d, grave %d, fatal %d", target, r.GetLight(), r.GetGrave(), r.GetFatal())
	case r.GetHealth() > 0:
		s += fmt.Sprintf("; %s has %d NS", target, r.GetHealth())
	}
	if r.GetTargetOut() {
		s += " — " + target + " is out of the fight"
	}
	return s
}

// testText: "6+6+d10[8]+5 = 25 vs 20 — success (spent 1 Courage)".
func testText(t *lossv1.TestResult) string {
	if t == nil {
		return "no roll"
	}
	s := fmt.Sprintf("%d+%d+%s", t.GetTrait(), t.GetTalent(), rollText(t.GetRoll()))
	if t.GetBonus() != 0 {
		s += fmt.Sprintf("%+d", t.GetBonus())
	}
	s += fmt.Sprintf(" = %d vs %d — %s", t.GetTotal(), t.GetDifficulty(), yesNo(t.GetSuccess(), "success", "failure"))
	var notes []string
	spent := int32(0)
	if f := t.GetSpend().GetFursa(); f > 0 {
		notes = append(notes, fmt.Sprintf("%d Fursa", f))
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
		s += " (spent " + strings.Join(notes, ", ") + "; " + extra + ")"
	case len(notes) > 0:
		s += " (spent " + strings.Join(notes, ", ") + ")"
	case extra != "":
		s += " (" + extra + ")"
	}
	return s
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
