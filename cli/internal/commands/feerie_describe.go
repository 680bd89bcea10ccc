package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The wording of the Contes de Fées events: the Action and its countdown, declarations,
// Initiative, activities with every term of their rolls, special strikes and their conditions.

func (n *Names) feerieText(e *feeriev1.Event) string {
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_ActionStarted:
		return fmt.Sprintf("Action %d, step 1: declarations", k.ActionStarted.GetAction())
	case *feeriev1.Event_Declared:
		return fmt.Sprintf("%s declares: %s", n.of(k.Declared.GetCombatantId()), n.intentText(k.Declared.GetIntent(), n.withheld(k.Declared.GetCombatantId())))
	case *feeriev1.Event_CountdownStarted:
		return n.countdownText(k.CountdownStarted)
	case *feeriev1.Event_ActivityQueued:
		return n.queuedText(k.ActivityQueued.GetQueued())
	case *feeriev1.Event_ActivityResolved:
		return n.activityText(k.ActivityResolved)
	case *feeriev1.Event_RankAdvanced:
		r := k.RankAdvanced
		s := fmt.Sprintf("countdown %d → %d", r.GetFromRank(), r.GetToRank())
		if r.GetToRank() == 0 {
			s += ": the impersonal events, then the next Action (FEE-046)"
		}
		return s
	case *feeriev1.Event_Impersonal:
		i := k.Impersonal
		s := "rank 0: an impersonal event"
		if i.GetDescription() != "" {
			s = fmt.Sprintf("rank 0: %q", i.GetDescription())
		}
		if n.withheld(i.GetTargetId()) {
			return s + fmt.Sprintf(": %s loses Essence (how much is withheld, FEE-046)", n.of(i.GetTargetId()))
		}
		return s + fmt.Sprintf(": %s loses %s (FEE-046)", n.of(i.GetTargetId()), essenceText(i.GetEssenceLost()))
	case *feeriev1.Event_Renounced:
		return fmt.Sprintf("%s renounces its activity (FEE-075)", n.of(k.Renounced.GetCombatantId()))
	case *feeriev1.Event_Surprised:
		return n.surprisedText(k.Surprised)
	case *feeriev1.Event_IntentionChanged:
		c := k.IntentionChanged
		if n.withheld(c.GetCombatantId()) { // its new rank comes from its Initiative: withheld
			return fmt.Sprintf("rank %d: %s changes intention: %s (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
				c.GetRank(), n.of(c.GetCombatantId()), n.intentText(c.GetIntent(), true), num(-feerie.ChangeMalus), num(-feerie.ChangeMalus))
		}
		return fmt.Sprintf("rank %d: %s changes intention: %s; it acts from rank %d (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
			c.GetRank(), n.of(c.GetCombatantId()), n.intentText(c.GetIntent(), false), c.GetActingRank(), num(-feerie.ChangeMalus), num(-feerie.ChangeMalus))
	case *feeriev1.Event_Gestured:
		g := k.Gestured
		s := fmt.Sprintf("%s, freely: %q (FEE-047)", n.of(g.GetCombatantId()), g.GetDescription())
		if g.GetRank() > 0 {
			s = fmt.Sprintf("rank %d: %s", g.GetRank(), s)
		}
		return s
	case *feeriev1.Event_UnseenRolled:
		return n.unseenText(k.UnseenRolled)
	case *feeriev1.Event_HelplessRuled:
		h := k.HelplessRuled
		if !h.GetHelpless() {
			return fmt.Sprintf("the GM rules: %s is no longer helpless; it defends and acts again (FEE-022)", n.of(h.GetCombatantId()))
		}
		s := fmt.Sprintf("the GM rules: %s is helpless", n.of(h.GetCombatantId()))
		if h.GetReason() != "" {
			s += fmt.Sprintf(" (%s)", h.GetReason())
		}
		return s + ": Defense 0 against every attack, and no activity (FEE-022, FEE-024)"
	case *feeriev1.Event_BecameObject:
		b := k.BecameObject
		if b.GetEnd() {
			return fmt.Sprintf("%s is no longer an inanimate object (FEE-026)", n.of(b.GetCombatantId()))
		}
		s := fmt.Sprintf("%s becomes an inanimate object", n.of(b.GetCombatantId()))
		if b.GetPower() != "" {
			s += " through " + b.GetPower()
		}
		return s + ": it takes damage as an object and renounces every activity (FEE-026)"
	case *feeriev1.Event_TacticRuled:
		return n.rulingText(k.TacticRuled)
	case nil:
		return "(empty Contes de Fées event)"
	default:
		return fmt.Sprintf("(Contes de Fées event %T)", k)
	}
}

// num writes a number with a minus sign as in prose: "6", "−3".
func num(v int32) string {
	if v < 0 {
		return fmt.Sprintf("−%d", -v)
	}
	return fmt.Sprint(v)
}

func essenceText(n int32) string { return fmt.Sprintf("%d Essence", n) }

// kindWords: the name of an activity kind in prose.
func kindWords(k feeriev1.ActivityKind) string {
	switch k {
	case feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK:
		return "melee attack"
	case feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		return "ranged attack"
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		return "another activity"
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		return "a passive activity"
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		return "getting up"
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		return "freeing itself"
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		return "picking its weapon up"
	case feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED:
		return "no activity given"
	}
	return enumWords(k.String(), "ACTIVITY_KIND_")
}

// enumWords: "SPECIAL_STRIKE_KEEP_AT_BAY" → "keep at bay".
func enumWords(name, prefix string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, prefix)), "_", " ")
}

func strikeWords(s feeriev1.SpecialStrike) string {
	return enumWords(s.String(), "SPECIAL_STRIKE_")
}

func paceWords(p feeriev1.Pace) string {
	switch p {
	case feeriev1.Pace_PACE_WALK:
		return "walking"
	case feeriev1.Pace_PACE_TROT:
		return "trotting"
	case feeriev1.Pace_PACE_RUN:
		return "running"
	case feeriev1.Pace_PACE_SPRINT:
		return "sprinting"
	}
	return enumWords(p.String(), "PACE_")
}

func isAttack(k feeriev1.ActivityKind) bool {
	return k == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || k == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
}

var enumInReason = regexp.MustCompile(`SPECIAL_STRIKE_[A-Z_]+`)

// aspectAbbrev shortens the Aspects and Taille in the terms of a value ("H 20 + T 2"), and
// writes the enum names a reason may hold in words ("special strike trip").
func aspectAbbrev(reason string) string {
	reason = enumInReason.ReplaceAllStringFunc(reason, func(s string) string { return enumWords(s, "SPECIAL_STRIKE_") })
	switch foldName(reason) {
	case "vigilance":
		return "V"
	case "habilete":
		return "H"
	case "puissance":
		return "P"
	case "resistance":
		return "R"
	case "taille":
		return "T"
	case "charme":
		return "Charme"
	}
	return reason
}

// tacticText: "+0/+2/−2", "Attaque brutale −2/+4/−2".
func tacticText(t *feeriev1.Tactic) string {
	s := fmt.Sprintf("%s/%s/%s", signed(t.GetInitiative()), signed(t.GetAttack()), signed(t.GetDefense()))
	if t.GetPreset() != "" {
		s = t.GetPreset() + " " + s
	}
	return s
}

// appliedText: "bâton on Attack and Defense, force surnaturelle on Damage".
func appliedText(a *feeriev1.Applied) string {
	var order []string
	on := map[string][]string{}
	for _, x := range []struct {
		value string
		names []string
	}{{"Initiative", a.GetInitiative()}, {"Attack", a.GetAttack()}, {"Defense", a.GetDefense()}, {"Damage", a.GetDamage()}, {"Soak", a.GetSoak()}} {
		for _, name := range x.names {
			if _, ok := on[name]; !ok {
				order = append(order, name)
			}
			on[name] = append(on[name], x.value)
		}
	}
	// Attributes applied to the same values go together: "couardise and esquive on Defense".
	var keys []string
	names := map[string][]string{}
	for _, name := range order {
		key := andList(on[name])
		if _, ok := names[key]; !ok {
			keys = append(keys, key)
		}
		names[key] = append(names[key], name)
	}
	parts := make([]string, len(keys))
	for i, key := range keys {
		parts[i] = andList(names[key]) + " on " + key
	}
	return strings.Join(parts, ", ")
}

// intentText: "melee attack on Serpent with trip, charging at a run, bâton on Attack and
// Defense, tactic +0/+2/−2"; withheld, the intent of a combatant hidden from the reader, whose
// Attributes, tactic, words and difficulty the server withheld: "melee attack on Aude, its
// Attributes and tactic withheld".
func (n *Names) intentText(in *feeriev1.Intent, withheld bool) string {
	if in == nil {
		return "no intention"
	}
	k := in.GetKind()
	s := kindWords(k)
	switch {
	case isAttack(k):
		s += " on " + n.of(in.GetTargetId())
	case k == feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		what := aspectAbbrev(in.GetAspect())
		if len(what) == 1 {
			what = in.GetAspect()
		}
		against := fmt.Sprint(in.GetDifficulty())
		if withheld {
			against = "a difficulty withheld"
		}
		s = fmt.Sprintf("a %s roll against %s", what, against)
		if in.GetIntimidation() {
			s = fmt.Sprintf("an intimidation (%s) against %s", what, against)
		}
		if in.GetTargetId() != "" {
			s += ", at " + n.of(in.GetTargetId())
		}
	case in.GetTargetId() != "":
		s += ", at " + n.of(in.GetTargetId())
	}
	if len(in.GetStrikes()) > 0 {
		var ss []string
		for _, x := range in.GetStrikes() {
			ss = append(ss, strikeWords(x))
		}
		s += " with " + andList(ss)
	}
	parts := []string{s}
	switch {
	case in.GetCharge() && in.GetPace() != feeriev1.Pace_PACE_UNSPECIFIED:
		parts = append(parts, "charging, "+paceWords(in.GetPace()))
	case in.GetCharge():
		parts = append(parts, "charging")
	case in.GetPace() != feeriev1.Pace_PACE_UNSPECIFIED:
		parts = append(parts, paceWords(in.GetPace()))
	}
	switch {
	case isAttack(k) && !in.GetPhysical():
		parts = append(parts, "not physical")
	case !isAttack(k) && in.GetPhysical():
		parts = append(parts, "physical")
	}
	if withheld {
		return strings.Join(append(parts, "its Attributes and tactic withheld"), ", ")
	}
	if a := appliedText(in.GetApplied()); a != "" {
		parts = append(parts, a)
	}
	parts = append(parts, "tactic "+tacticText(in.GetTactic()))
	out := strings.Join(parts, ", ")
	if in.GetDescription() != "" {
		out += fmt.Sprintf(": %q", in.GetDescription())
	}
	return out
}

// termsText writes the terms of a value as a sum: "H 20 + bâton 4 − tactic 2".
func termsText(ms []*feeriev1.Modifier) string {
	var b strings.Builder
	for i, m := range ms {
		name, v := aspectAbbrev(m.GetReason()), m.GetValue()
		switch {
		case i == 0:
			fmt.Fprintf(&b, "%s %s", name, num(v))
		case v < 0:
			fmt.Fprintf(&b, " − %s %d", name, -v)
		default:
			fmt.Fprintf(&b, " + %s %d", name, v)
		}
	}
	return b.String()
}

// diceText: "d20[12]−d20[5]", "2d10[3,9]-11".
func diceText(r *feeriev1.RollResult) string {
	s := rollText(r.GetRoll())
	if r.GetMinus() != nil {
		s += "−" + rollText(r.GetMinus())
	}
	return s
}

// rollSumText: "24 (H 20 + bâton 4 + d20[12]−d20[12])".
func rollSumText(r *feeriev1.RollResult) string {
	terms := termsText(r.GetModifiers())
	if terms == "" {
		terms = num(r.GetScore())
	}
	return fmt.Sprintf("%s (%s + %s)", num(r.GetTotal()), terms, diceText(r))
}

// valueText: "Defense 18 (H 15 + morsure 4 − tactic 2)"; the terms only when there are
// several.
func valueText(name string, v int32, ms []*feeriev1.Modifier) string {
	s := fmt.Sprintf("%s %s", name, num(v))
	if len(ms) > 1 || (len(ms) == 1 && ms[0].GetValue() != v) {
		s += " (" + termsText(ms) + ")"
	}
	return s
}

// countdownText: "Initiative: Rübezahl 20+d20[12]−d20[17] = 15; Serpent …; the countdown
// starts at 17".
func (n *Names) countdownText(c *feeriev1.CountdownStarted) string {
	var rolls []string
	for _, ir := range c.GetInitiative() {
		r := ir.GetResult()
		if r == nil { // a hidden combatant's roll: withheld; whether it may act is seen
			s := n.of(ir.GetCombatantId()) + " rolls, withheld"
			if !ir.GetCanAct() {
				s += ", cannot act"
			}
			rolls = append(rolls, s)
			continue
		}
		s := fmt.Sprintf("%s %s+%s = %s", n.of(ir.GetCombatantId()), num(r.GetScore()), diceText(r), num(r.GetTotal()))
		if ms := r.GetModifiers(); len(ms) > 1 || (len(ms) == 1 && ms[0].GetValue() != r.GetScore()) {
			s += " (" + termsText(ms) + ")"
		}
		switch {
		case ir.GetCanAct():
		case r.GetTotal() <= 0:
			s += ", cannot act (FEE-043)"
		default:
			s += ", cannot act (FEE-082)"
		}
		rolls = append(rolls, s)
	}
	if len(rolls) == 0 {
		return "Initiative: no one rolls"
	}
	end := fmt.Sprintf("the countdown starts at %d", c.GetTopRank())
	if c.GetTopRank() <= 0 {
		end = "no one can act in this Action"
	}
	return "Initiative: " + strings.Join(rolls, "; ") + "; " + end
}

// circumstancesText: "moonlight, range far, Serpent running, undefended".
func (n *Names) circumstancesText(c *feeriev1.Circumstances) []string {
	var parts []string
	if l := c.GetLighting(); l != feeriev1.Lighting_LIGHTING_UNSPECIFIED {
		parts = append(parts, enumWords(l.String(), "LIGHTING_"))
	}
	if d := c.GetRangedDifficulty(); d != feeriev1.RangedDifficulty_RANGED_DIFFICULTY_UNSPECIFIED {
		parts = append(parts, enumWords(d.String(), "RANGED_DIFFICULTY_")+" shot")
	}
	if r := c.GetDistance(); r != feeriev1.Range_RANGE_UNSPECIFIED {
		parts = append(parts, "range "+enumWords(r.String(), "RANGE_"))
	}
	if p := c.GetTargetPace(); p != feeriev1.Pace_PACE_UNSPECIFIED {
		parts = append(parts, "target "+paceWords(p))
	}
	if t := c.GetTerrain(); t != feeriev1.Terrain_TERRAIN_UNSPECIFIED {
		parts = append(parts, enumWords(t.String(), "TERRAIN_"))
	}
	if cv := c.GetCover(); cv != nil {
		var what []string
		if cv.GetSolidity() != "" {
			what = append(what, cv.GetSolidity())
		}
		if cv.GetThick() {
			what = append(what, "thick")
		}
		if cv.GetOpaque() {
			what = append(what, "opaque")
		}
		if cv.GetSemiTransparent() {
			what = append(what, "semi-transparent")
		}
		if cv.GetDomainSoak() != 0 {
			what = append(what, fmt.Sprintf("Domain Soak %d", cv.GetDomainSoak()))
		}
		s := "through cover"
		if len(what) > 0 {
			s += " (" + strings.Join(what, ", ") + ")"
		}
		parts = append(parts, s)
	}
	if a := c.GetAnglesOffered(); a != 0 {
		parts = append(parts, fmt.Sprintf("%d attack angles offered", a))
	}
	if c.GetUndefended() {
		parts = append(parts, "the target does not defend")
	}
	if e := c.GetExposedMalus(); e != 0 {
		parts = append(parts, fmt.Sprintf("exposed part −%d", max(e, -e)))
	}
	if d := c.GetSmallObjectDifficulty(); d != 0 {
		parts = append(parts, fmt.Sprintf("a small object, difficulty %d", d))
	}
	if m := c.GetModifier(); m != 0 {
		parts = append(parts, "GM "+signed(m))
	}
	return parts
}

// queuedText: "Rübezahl acts at rank 17 (anticipating 2: −2)".
func (n *Names) queuedText(q *feeriev1.Queued) string {
	who := n.of(q.GetCombatantId())
	in := q.GetAct().GetIntent()
	s := fmt.Sprintf("%s acts at rank %d", who, q.GetRank())
	if q.GetNth() > 1 {
		s = fmt.Sprintf("%s acts again at rank %d", who, q.GetRank())
	}
	if q.GetChangeOfIntention() {
		s += ", changing intention to " + n.intentText(in, n.withheld(q.GetCombatantId()))
	}
	var penalties []string
	known := int32(0)
	if a := q.GetAnticipation(); a > 0 {
		penalties = append(penalties, fmt.Sprintf("anticipating %d", a))
		known += a
	}
	if q.GetNth() > 1 {
		penalties = append(penalties, fmt.Sprintf("activity %d", q.GetNth()))
		known += feerie.SupplementaryMalus * (q.GetNth() - 1)
	}
	if q.GetChangeOfIntention() {
		penalties = append(penalties, "change of intention")
		known += feerie.ChangeMalus
	}
	if rest := q.GetRollPenalty() - known; rest > 0 {
		penalties = append(penalties, "earlier penalties")
	}
	var parts []string
	switch {
	case n.withheld(q.GetCombatantId()) && len(penalties) > 0: // its penalties come from its Initiative
		parts = append(parts, strings.Join(penalties, ", ")+": its penalties withheld")
	case n.withheld(q.GetCombatantId()):
	case len(penalties) > 0 || q.GetRollPenalty() != 0:
		parts = append(parts, strings.Join(penalties, ", ")+": "+num(-q.GetRollPenalty()))
	}
	if d := q.GetDelay(); d > 0 {
		if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK {
			parts = append(parts, fmt.Sprintf("aiming %d ranks: +%d", d, min(d, feerie.MaxAim)))
		} else {
			parts = append(parts, fmt.Sprintf("after waiting %d ranks", d))
		}
	}
	if e := q.GetAct().GetEssence(); e > 0 {
		parts = append(parts, fmt.Sprintf("spending %s: +%d", essenceText(e), e))
	}
	if c := n.circumstancesText(q.GetAct().GetCircumstances()); len(c) > 0 {
		parts = append(parts, strings.Join(c, ", "))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, "; ") + ")"
	}
	return s
}

// activityText: "rank 17: Rübezahl attacks Serpent: 24 (H 18 + bâton 4 + d20[12]−d20[10])
// vs Defense 18 (H 15 + morsure 4 − tactic 1) — margin 6: 3 + Damage 17 − Soak 12 = 8
// Essence lost (Serpent 32 left)".
func (n *Names) activityText(r *feeriev1.ActivityResolved) string {
	who := n.of(r.GetCombatantId())
	in := r.GetIntent()
	head := fmt.Sprintf("rank %d: %s", r.GetRank(), who)
	note := r.GetNote()
	var s string
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		s = head + ": a passive activity, no roll"
		if in.GetDescription() != "" {
			s += fmt.Sprintf(": %q", in.GetDescription())
		}
		if note == "no roll" {
			note = ""
		}
		return withNote(s, note)
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		return withNote(head+" gets up (FEE-151)", strings.TrimSuffix(note, who+" gets up"))
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		return withNote(head+" picks its weapon up (FEE-183)", strings.TrimSuffix(note, who+" picks its weapon up"))
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		s = head + " tries to free itself"
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		s = fmt.Sprintf("%s rolls %s", head, in.GetAspect())
		if in.GetIntimidation() {
			s = fmt.Sprintf("%s intimidates with %s", head, in.GetAspect())
		}
		if in.GetTargetId() != "" {
			s += " at " + n.of(in.GetTargetId())
		}
		if in.GetDescription() != "" {
			s += fmt.Sprintf(" (%q)", in.GetDescription())
		}
	case feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		return n.attackActivityText(head, r)
	default:
		s = head + ": " + kindWords(in.GetKind())
	}
	if r.GetAttack() == nil && n.withheld(r.GetCombatantId()) { // its roll is withheld, not the outcome
		return withNote(s+": its roll withheld — "+yesNo(r.GetSuccess(), "success", "failure"), note)
	}
	if r.GetAttack() == nil {
		return withNote(s, note)
	}
	s += fmt.Sprintf(": %s vs %d — margin %s", rollSumText(r.GetAttack()), r.GetDefense(), num(r.GetMargin()))
	switch {
	case r.GetFumble():
		s += fumbleText(r)
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_FREE && r.GetSuccess():
		s += ": free (FEE-152)"
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		s += ": still entangled"
	default:
		s += ": " + yesNo(r.GetSuccess(), "success", "failure")
	}
	return withNote(s, note)
}

func withNote(s, note string) string {
	if note == "" {
		return s
	}
	return s + "; " + note
}

func fumbleText(r *feeriev1.ActivityResolved) string {
	return fmt.Sprintf(": a fumble (FEE-004); hurting itself would cost %s", essenceText(r.GetSelfHarm()))
}

// replacing reports whether an attack's strikes replace its Essence damage: all but
// Relentless do (FEE-149).
func replacing(strikes []feeriev1.SpecialStrike) bool {
	return slices.ContainsFunc(strikes, func(s feeriev1.SpecialStrike) bool {
		return s != feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS
	})
}

func (n *Names) attackActivityText(head string, r *feeriev1.ActivityResolved) string {
	in := r.GetIntent()
	target := n.of(in.GetTargetId())
	verb := "attacks"
	switch {
	case in.GetCharge():
		verb = "charges"
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		verb = "shoots at"
	}
	s := fmt.Sprintf("%s %s %s", head, verb, target)
	if len(in.GetStrikes()) > 0 {
		var ss []string
		for _, x := range in.GetStrikes() {
			ss = append(ss, strikeWords(x))
		}
		s += " with " + andList(ss)
	}
	note := r.GetNote()
	if n.withheld(r.GetCombatantId()) || n.withheld(in.GetTargetId()) {
		return n.hiddenAttackText(s, r)
	}
	if strings.HasPrefix(note, "an object") && len(r.GetDefenseModifiers()) == 0 {
		// FEE-023: no Attack roll against an object, but a Damage roll.
		net := r.GetAttack().GetTotal() - r.GetAttack().GetScore()
		s += fmt.Sprintf(", an object (FEE-023): %s + %s = %s", valueText("Damage", r.GetDamage(), r.GetDamageModifiers()), diceText(r.GetAttack()), num(r.GetDamage()+net))
		note = ""
		if r.GetFumble() {
			return s + ": an incident (FEE-023)"
		}
		s += fmt.Sprintf(" − %s", valueText("Soak", r.GetSoak(), r.GetSoakModifiers()))
		return withNote(s+n.essenceLossText(r), note)
	}
	if r.GetAttack() == nil {
		return withNote(s, note)
	}
	s += fmt.Sprintf(": %s vs %s — margin %s", rollSumText(r.GetAttack()), valueText("Defense", r.GetDefense(), r.GetDefenseModifiers()), num(r.GetMargin()))
	switch {
	case r.GetFumble():
		return withNote(s+fumbleText(r), note)
	case !r.GetSuccess():
		return withNote(s+": a miss", note)
	}
	half := r.GetMargin() / 2 // FEE-003
	if replacing(in.GetStrikes()) {
		s += ": the special strikes replace the Essence damage"
	} else {
		s += fmt.Sprintf(": %d + %s − %s", half, valueText("Damage", r.GetDamage(), r.GetDamageModifiers()), valueText("Soak", r.GetSoak(), r.GetSoakModifiers()))
		s += n.essenceLossText(r)
	}
	for _, c := range r.GetConditions() {
		if t := n.conditionText(c, in.GetTargetId(), r); t != "" {
			s += "; " + t
		}
	}
	return withNote(s, note)
}

// hiddenAttackText: an attack where the attacker's numbers (its roll, margin, Damage) or the
// target's (its Defense, Soak and Essence) were withheld: what is known, and which part is
// hidden. "rank 34: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 8 (H 10 −
// angles 2) — a hit: Soak 13, 25 Essence lost (Aude 35 left)"; "rank 10: Aude attacks Le
// Croque-Mitaine: 30 (H 10 + épée 4 + d20[20]−d20[4]) vs its Defense (withheld) — a hit:
// Damage 15, the Essence it lost withheld".
func (n *Names) hiddenAttackText(head string, r *feeriev1.ActivityResolved) string {
	in := r.GetIntent()
	target := n.of(in.GetTargetId())
	attHidden, targetHidden := n.withheld(r.GetCombatantId()), n.withheld(in.GetTargetId())
	s := head + ": "
	if attHidden {
		s += "its roll withheld"
	} else if r.GetAttack() != nil {
		s += rollSumText(r.GetAttack())
	}
	object := strings.HasPrefix(r.GetNote(), "an object")
	switch {
	case object:
		s += ", against an object (FEE-023)"
	case targetHidden:
		s += " vs its Defense (withheld)"
	default:
		s += " vs " + valueText("Defense", r.GetDefense(), r.GetDefenseModifiers())
	}
	switch {
	case r.GetFumble() && attHidden:
		return withNote(s+" — a fumble (FEE-004)", "")
	case r.GetFumble():
		return withNote(s+" — "+strings.TrimPrefix(fumbleText(r), ": "), "")
	case !r.GetSuccess():
		return withNote(s+" — a miss", r.GetNote())
	}
	s += " — a hit"
	switch {
	case replacing(in.GetStrikes()):
		s += ": the special strikes replace the Essence damage"
	case targetHidden:
		s += fmt.Sprintf(": %s, the Essence %s lost withheld", valueText("Damage", r.GetDamage(), r.GetDamageModifiers()), target)
	default:
		s += fmt.Sprintf(": %s, %s lost (%s %d left)", valueText("Soak", r.GetSoak(), r.GetSoakModifiers()), essenceText(r.GetEssenceLost()), target, r.GetTargetEssence())
		if r.GetTargetEssence() <= 0 {
			s += "; " + target + " is down and cannot act (FEE-024)"
		}
	}
	for _, c := range r.GetConditions() {
		if t := n.conditionText(c, in.GetTargetId(), r); t != "" {
			s += "; " + t
		}
	}
	note := r.GetNote()
	if object {
		note = ""
	}
	return withNote(s, note)
}

// essenceLossText: " = 7 Essence lost (Serpent 33 left)", with what the target had left.
func (n *Names) essenceLossText(r *feeriev1.ActivityResolved) string {
	target := n.of(r.GetIntent().GetTargetId())
	would := r.GetMargin()/2 + r.GetDamage() - r.GetSoak()
	if strings.HasPrefix(r.GetNote(), "an object") && len(r.GetDefenseModifiers()) == 0 {
		would = r.GetMargin() - r.GetSoak()
	}
	lost := r.GetEssenceLost()
	var s string
	switch {
	case lost == 0 && would <= 0:
		return fmt.Sprintf(" = %s: no Essence lost", num(would))
	case lost < would:
		s = fmt.Sprintf(" = %d, %s lost", would, essenceText(lost))
	default:
		s = fmt.Sprintf(" = %s lost", essenceText(lost))
	}
	s += fmt.Sprintf(" (%s %d left)", target, r.GetTargetEssence())
	if r.GetTargetEssence() <= 0 {
		s += "; " + target + " is down and cannot act (FEE-024)"
	}
	return s
}

// conditionText: what a special strike did (FEE-150…FEE-159).
func (n *Names) conditionText(c *feeriev1.Condition, targetID string, r *feeriev1.ActivityResolved) string {
	target, by := n.of(targetID), n.of(c.GetBy())
	bearer := targetID
	switch c.GetStrike() {
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS, feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
		bearer = c.GetBy()
	}
	if n.withheld(bearer) { // its numbers withheld: what the strike does, not by how much
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM, feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP, feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
			return fmt.Sprintf("relentless: %s's weapon stays in the wound, its Defense −%d until it is dislodged (FEE-156)", by, feerie.RelentlessDefense)
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
			return fmt.Sprintf("a frightening blow: %s gains a bonus (withheld) on its next intimidation (FEE-181)", by)
		default:
			return fmt.Sprintf("%s: %s (its malus withheld)", strikeWords(c.GetStrike()), target)
		}
	}
	switch c.GetStrike() {
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM:
		return target + " is disarmed: its weapon flies a few steps away (FEE-150)"
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP:
		return fmt.Sprintf("%s falls: −%d to its activities until it gets up (FEE-151)", target, feerie.TripMalus)
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
		return fmt.Sprintf("%s is entangled: −%d to its activities until it frees itself, Puissance against %d (FEE-152)", target, c.GetMalus(), c.GetFreeAgainst())
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
		if c.GetMalus() <= 0 {
			return target + " shakes off the stun (FEE-153)"
		}
		return fmt.Sprintf("%s is stunned: −%d to its activities, 1 less each rank (FEE-153)", target, c.GetMalus())
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
		return fmt.Sprintf("%s is kept at bay: −%d Attack against %s until it enters the guard (FEE-154)", target, c.GetMalus(), by)
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
		return fmt.Sprintf("an organ of %s is crippled for %d ranks (FEE-155)", target, c.GetRanks())
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
		return fmt.Sprintf("relentless: %s's next Damage +%d, its Defense −%d until its weapon is dislodged (FEE-156)", by, c.GetMalus(), feerie.RelentlessDefense)
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
		return fmt.Sprintf("a frightening blow: %s gains +%d on its next intimidation (FEE-181)", by, c.GetMalus())
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		if d := c.GetDistance(); d > 0 && !strings.Contains(r.GetNote(), "thrown") {
			return fmt.Sprintf("%s is thrown %d distance units (FEE-158)", target, d)
		}
		return ""
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
		return fmt.Sprintf("%s is inside %s's guard: %s has −%d Attack against %s until it keeps it at bay (FEE-159)", by, target, target, c.GetMalus(), by)
	}
	return fmt.Sprintf("%s: %s", strikeWords(c.GetStrike()), target)
}

// surprisedText: "Serpent is surprised for the next Action: −8 Initiative, −4 Defense, no
// tactic (FEE-080)".
func (n *Names) surprisedText(s *feeriev1.Surprised) string {
	span := "the next Action"
	if s.GetActions() > 1 {
		span = fmt.Sprintf("the next %d Actions", s.GetActions())
	}
	out := fmt.Sprintf("%s is surprised for %s: −%d Initiative, −%d Defense, no tactic (FEE-080)",
		n.of(s.GetCombatantId()), span, feerie.SurpriseInitiative, feerie.SurpriseDefense)
	if s.GetNoActivity() {
		out += "; it can do nothing while it lasts (FEE-082)"
	}
	return out
}

// unseenText: "Redcap attacks Rübezahl unseen: dissimulation 25 (H 15 + … + d20[..]−d20[..])
// vs Vigilance 20 — margin 5: +2 Initiative this Action (FEE-081)".
func (n *Names) unseenText(u *feeriev1.UnseenRolled) string {
	s := fmt.Sprintf("%s attacks %s unseen", n.of(u.GetCombatantId()), n.of(u.GetVictimId()))
	switch {
	case n.withheld(u.GetCombatantId()):
		return s + ": its dissimulation roll and the Initiative it gains withheld (FEE-081)"
	case n.withheld(u.GetVictimId()):
		return s + fmt.Sprintf(": dissimulation %s vs its Vigilance (withheld): %s Initiative this Action (FEE-081, FEE-186)", rollSumText(u.GetRoll()), signed(u.GetInitiativeBonus()))
	}
	if u.GetRoll() == nil {
		return s + fmt.Sprintf(": +%d Initiative this Action (FEE-081)", u.GetInitiativeBonus())
	}
	s += fmt.Sprintf(": dissimulation %s vs Vigilance %d — margin %s", rollSumText(u.GetRoll()), u.GetVigilance(), num(u.GetMargin()))
	if u.GetInitiativeBonus() > 0 {
		return s + fmt.Sprintf(": +%d Initiative this Action (FEE-081, FEE-186)", u.GetInitiativeBonus())
	}
	return s + ": no Initiative gained (FEE-081, FEE-186)"
}

// rulingText: "the GM rules on Redcap's tactic: now −2/+2/0; −2 to its activity rolls to the
// end of the Action (FEE-036): "not so brutal in the thicket"".
func (n *Names) rulingText(t *feeriev1.TacticRuled) string {
	who := n.of(t.GetCombatantId())
	if n.withheld(t.GetCombatantId()) {
		s := "the GM rules on " + who + "'s tactic (the ruling withheld)"
		if t.GetCancelTactic() {
			s = "the GM rules: " + who + "'s tactic is cancelled"
		}
		if t.GetRank() > 0 {
			s = fmt.Sprintf("rank %d: %s", t.GetRank(), s)
		}
		return s + " (FEE-036)"
	}
	var parts []string
	switch {
	case t.GetCancelTactic():
		parts = append(parts, who+"'s tactic is cancelled")
	case t.GetTactic() != nil:
		parts = append(parts, who+"'s tactic is now "+tacticText(t.GetTactic()))
	}
	if m := t.GetMalus(); m != 0 {
		parts = append(parts, fmt.Sprintf("−%d to %s's activity rolls to the end of the Action", max(m, -m), who))
	}
	if len(parts) == 0 {
		parts = append(parts, who+"'s tactic stands")
	}
	s := "the GM rules: " + strings.Join(parts, "; ")
	if t.GetRank() > 0 {
		s = fmt.Sprintf("rank %d: %s", t.GetRank(), s)
		if t.GetActingRank() > 0 {
			s += fmt.Sprintf("; %s acts from rank %d", who, t.GetActingRank())
		}
	}
	s += " (FEE-036)"
	if t.GetReason() != "" {
		s += fmt.Sprintf(": %q", t.GetReason())
	}
	return s
}

// feerieOptionsText lists the house rules of a Contes de Fées encounter.
func feerieOptionsText(o *feeriev1.Options) string {
	var parts []string
	if o.GetRoll() != "" {
		parts = append(parts, "roll "+o.GetRoll())
	}
	if o.FumbleMargin != nil {
		parts = append(parts, fmt.Sprintf("a fumble at a margin of −%d or worse", o.GetFumbleMargin()))
	}
	if o.EssenceSpendCap != nil {
		if c := o.GetEssenceSpendCap(); c > 0 {
			parts = append(parts, fmt.Sprintf("at most %s spent on a roll", essenceText(c)))
		} else {
			parts = append(parts, "Essence spent on a roll unlimited")
		}
	}
	// The other house rules, when they depart from the catalogue's choice (FEE-002…FEE-186).
	m := o.ProtoReflect()
	for _, d := range feerie.New().Describe().GetOptions() {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(d.GetName()))
		if fd == nil || !m.Has(fd) || slices.Contains([]string{"roll", "fumble_margin", "essence_spend_cap"}, d.GetName()) {
			continue // unset, or written above
		}
		if v := m.Get(fd).String(); v != d.GetDefaultValue() {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", d.GetName(), v, d.GetRule()))
		}
	}
	return strings.Join(parts, ", ")
}

// feerieSheetText: "V 20, H 18, P 16, R 16, Taille +1, Essence 40".
func feerieSheetText(sh *feeriev1.Sheet) string {
	s := fmt.Sprintf("V %d, H %d, P %d, R %d, Taille %s, Essence %d", sh.GetVigilance(), sh.GetHabilete(), sh.GetPuissance(),
		sh.GetResistance(), signed(sh.GetTaille()), sh.GetEssence())
	if sh.GetInanimate() {
		s += ", an object"
	}
	if sh.GetFlier() {
		s += ", flies"
	}
	if sh.GetBurrower() {
		s += ", burrows"
	}
	return s
}

// isFeerie reports whether an encounter is one of Contes de Fées.
func isFeerie(st *encounterv1.EncounterState) bool {
	return st.GetFeerie() != nil || st.GetRuleSystem() == feerie.ID
}
