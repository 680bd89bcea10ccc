package loss

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
)

// AttackOdds is what the odds of a Loss attack are computed from: the numbers the real Decide
// reads, found by deciding the attack and each defence with a probe's dice.
type AttackOdds struct {
	// Attack is the attacker's Test: its total less the die, and the die.
	Attack Test
	// Difficulty of the attack as declared, with Exploits Exploits (LOS-010).
	Difficulty int32
	Exploits   int32
	// Effects declared, in order (LOS-014 cancels from the last).
	Effects []lossv1.ExploitEffect
	// NoDefence: why the target cannot parry or dodge; empty when it can.
	NoDefence string
	// Defences: the parry and the dodge, each with its Test or why it cannot be made.
	Defences [2]Defence
	// Hidden: the target's numbers are hidden from the caller.
	Hidden bool
	// Blow is what a hit does.
	Blow Blow
	// Rules is Les Chants de Loss at the encounter's version: the odds read its numbers and
	// call its formulas, the ones Decide calls (LOS-010, LOS-014).
	Rules System
	// outcomes of the blow by how it lands, shared by the defences.
	outcomes map[landed]outcome
}

// Test is a Test's total less its die (Trait + Talent + bonuses), its Difficulty and the die.
type Test struct {
	Bonus, Difficulty int32
	Die               dice.Expr
}

// Total is the distribution of the Test's total.
func (t Test) Total() odds.Dist { return odds.Expr(t.Die).Shift(int(t.Bonus)) }

// Defence is one reaction: its Test, or why it cannot be made.
type Defence struct {
	Reaction lossv1.Reaction
	Test     Test
	Refused  string
}

// Blow is what an attack that lands does to the target (LOS-015, LOS-020…LOS-025,
// LOS-061…LOS-078, LOS-081, LOS-086).
type Blow struct {
	// Manoeuvre: a grab or trip, no automatic effect (LOS-035).
	Manoeuvre bool
	// WithDamage: special effects deal damage too (LOS-069, LOS-072, LOS-073).
	WithDamage bool
	// Damage and AssautDamage of the weapon; Second: the second weapon's damage, when Two
	// weapons strikes one target with both (LOS-070); HasSecond says whether it does.
	Damage, AssautDamage, Second int32
	HasSecond                    bool
	// DamageDie: one damage d10, exploding or not (LOS-002).
	DamageDie dice.Expr
	// Halvings of the damage before armour (LOS-081 beyond Portée); a successful defence
	// against an explosive halves once more (LOS-086).
	Halvings  int32
	Explosive bool
	// Armour and Shield protection of the target (LOS-021).
	Armour, Shield int32
	// The target: a Sbire (10 NS, no bands) and its Health, or its boxes.
	Sbire               bool
	Health              int32
	Light, Grave, Fatal int32
	// AttackerSbire: a Sbire's Exploits do not fell a Sbire (LOS-025).
	AttackerSbire bool
	// Options of the encounter.
	CancelledStillHit, SbirePlainHit bool
}

// WithOdds: an attack, a grab or trip, an Assaut: each an attack command (LOS-010, LOS-035,
// LOS-061); and the answers to an attack awaiting its defender: parry, dodge, take the blow
// (LOS-009, LOS-013, LOS-014).
func (System) WithOdds() []string {
	return []string{"attack", "grab or trip", "Exploit: " + effects[effAssaut].name, "parry", "dodge", "take the blow"}
}

// Odds is the odds of an attack (LOS-010…LOS-025), or of a defender's answer to the attack
// awaiting it, read from the real Decide with a probe's dice; nil for any other command
// (engine.System; rules/odds.Of asks it).
func (rules System) Odds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	switch {
	case cmd.GetLoss().GetAttack() != nil:
		return odds.Read(rules.ReadAttackOdds(reg, st, cmd, actor))
	case cmd.GetLoss().GetReact() != nil:
		r, err := rules.ReadReactOdds(reg, st, cmd, actor)
		if err != nil || r == nil {
			return nil, err
		}
		return r.Odds(), nil
	}
	return nil, nil
}

// ReactOdds is what the odds of a defender's answer to the attack awaiting it are computed
// from: the attack as it stands (it reached its Difficulty, LOS-013), the defence's Test as
// Decide rolls it, and the blow that lands.
type ReactOdds struct {
	AttackOdds
	Reaction lossv1.Reaction
	// Defence is the parry's or dodge's Test (none for taking the blow).
	Defence Defence
	// Attacker is the attacker's name, for the summary.
	Attacker string
}

// ReadReactOdds reads the numbers of the answer cmd gives on st to the attack awaiting it:
// the defence's Test from the real Decide with a probe's dice, the blow from the attack as it
// waits. nil, and no error, for an answer to a pursuit action (no odds yet).
func (rules System) ReadReactOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*ReactOdds, error) {
	r := cmd.GetLoss().GetReact()
	pr := &odds.Probe{} // whatever it rolls: the Test's numbers are read, not its outcome
	evs, _, err := odds.Decide(reg, st, cmd, actor, pr)
	if err != nil {
		return nil, err
	}
	p := st.GetLoss().GetPending()
	if p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		return nil, nil
	}
	attacker := engine.FindCombatant(st, p.GetAttackerId())
	target := engine.FindCombatant(st, p.GetDefenderId())
	ar := &lossv1.AttackRolled{AttackerId: p.GetAttackerId(), TargetId: p.GetDefenderId(), Weapon: p.GetBlowWeapon(),
		Manoeuvre: p.GetManoeuvre(), WithDamage: p.GetWithDamage(), Situation: p.GetSituation(), SecondWeapon: p.GetSecondWeapon(),
		Exploits: p.GetExploits()}
	out := &ReactOdds{
		AttackOdds: AttackOdds{
			Difficulty: p.GetDifficulty(),
			Exploits:   CountExploits(p.GetExploits()),
			Effects:    p.GetExploits(),
			Hidden:     attacker.GetLoss() == nil, // the defender's own numbers are its own: the attacker's may be hidden
			Blow:       oddsBlowOf(st, attacker, target, ar),
			Rules:      rules,
		},
		Reaction: r.GetReaction(),
		Attacker: attacker.GetName(),
	}
	if r.GetReaction() != lossv1.Reaction_REACTION_NONE {
		var dt *lossv1.TestResult
		for _, ev := range evs {
			if d := ev.GetLoss().GetDefenceRolled(); d != nil {
				dt = d.GetTest()
				break
			}
		}
		out.Defence = Defence{Reaction: r.GetReaction(), Test: Test{Bonus: dt.GetTrait() + dt.GetTalent() + dt.GetBonus(), Difficulty: dt.GetDifficulty(), Die: pr.Exprs[0]}}
	}
	return out, nil
}

// Odds is the odds of the answer: for a parry or a dodge the chance it makes the attack miss
// (LOS-013), then for the answer the Exploits standing, the NS lost and the chance the
// defender is out of the fight (LOS-014, LOS-022).
func (a *ReactOdds) Odds() *oddsv1.Odds {
	verb := map[lossv1.Reaction]string{lossv1.Reaction_REACTION_PARRY: "a parry", lossv1.Reaction_REACTION_DODGE: "a dodge"}[a.Reaction]
	o := &oddsv1.Odds{Assumptions: []string{"the effects of the defence's own Exploits (a counter-attack…) are not counted in the NS lost"}}
	if verb == "" {
		o.Summary = fmt.Sprintf("taking the blow of %s's attack with %s", a.Attacker, odds.Plural(a.Exploits, "Exploit", "Exploits"))
		o.Sections = append(o.Sections, a.hiddenBlow(a.defended("none", "the blow taken (LOS-009)", 1, []landed{{p: 1}}, 0)))
		return o
	}
	d := a.Defence
	o.Summary = fmt.Sprintf("%s at Difficulty %d of %s's attack with %s", verb, d.Test.Difficulty, a.Attacker, odds.Plural(a.Exploits, "Exploit", "Exploits"))
	key, title := "parry", "parried (LOS-013, LOS-014)"
	if a.Reaction == lossv1.Reaction_REACTION_DODGE {
		key, title = "dodge", "dodged (LOS-013, LOS-014)"
	}
	s, missed, left := a.defenceSection(d, key, title, 1)
	o.LeftOut = left
	s.Chances = append([]*oddsv1.Chance{odds.Chance("miss", "the defence succeeds: the attack misses", "LOS-013", missed)}, s.Chances...)
	o.Sections = append(o.Sections, a.hiddenBlow(s))
	return o
}

// hiddenBlow leaves of s only the chances the attacker's numbers do not decide, when they are
// hidden from the defender.
func (a *ReactOdds) hiddenBlow(s *oddsv1.OddsSection) *oddsv1.OddsSection {
	if !a.Hidden {
		return s
	}
	var kept []*oddsv1.Chance
	for _, c := range s.Chances {
		if c.GetKey() == "miss" || c.GetKey() == "hit" {
			kept = append(kept, c)
		}
	}
	s.Chances, s.Distributions = kept, nil
	s.Unavailable = "the attacker's numbers are hidden from you: only the chance the attack misses or hits is shown"
	return s
}

// ReadAttackOdds reads the numbers of the attack cmd gives on st.
func (rules System) ReadAttackOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*AttackOdds, error) {
	pr := &odds.Probe{First: odds.Far}
	evs, next, err := odds.Decide(reg, st, cmd, actor, pr)
	if err != nil {
		return nil, err
	}
	ar := evs[0].GetLoss().GetAttackRolled()
	t := ar.GetTest()
	out := &AttackOdds{
		Attack:     Test{Bonus: t.GetTrait() + t.GetTalent() + t.GetBonus(), Difficulty: t.GetDifficulty(), Die: pr.Exprs[0]},
		Difficulty: t.GetDifficulty(),
		Exploits:   CountExploits(ar.GetExploits()),
		Effects:    ar.GetExploits(),
		NoDefence:  ar.GetNoDefenceReason(),
		Rules:      rules,
	}
	target := engine.FindCombatant(st, ar.GetTargetId())
	attacker := engine.FindCombatant(st, ar.GetAttackerId())
	out.Hidden = target.GetLoss() == nil
	out.Blow = oddsBlowOf(st, attacker, target, ar)
	gm := st.GetGameMaster()
	for i, r := range []lossv1.Reaction{lossv1.Reaction_REACTION_PARRY, lossv1.Reaction_REACTION_DODGE} {
		d := Defence{Reaction: r}
		if out.NoDefence == "" && !out.Hidden {
			react := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{
				CombatantId: target.GetId(), Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: r}}}}}
			dp := &odds.Probe{} // whatever it rolls: the Test's numbers are read, not its outcome
			evs, err := reg.Decide(next, react, engine.Env{Actor: gm, Dice: dp})
			if err != nil {
				d.Refused = err.Error()
			} else {
				dt := evs[0].GetLoss().GetDefenceRolled().GetTest()
				d.Test = Test{Bonus: dt.GetTrait() + dt.GetTalent() + dt.GetBonus(), Difficulty: dt.GetDifficulty(), Die: dp.Exprs[0]}
			}
		}
		out.Defences[i] = d
	}
	return out, nil
}

func oddsBlowOf(st *encounterv1.EncounterState, attacker, target *encounterv1.Combatant, ar *lossv1.AttackRolled) Blow {
	o := st.GetOptions().GetLoss()
	cs := st.GetLoss().GetCombatants()[target.GetId()]
	b := Blow{
		Manoeuvre:         ar.GetManoeuvre() != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED,
		WithDamage:        ar.GetWithDamage(),
		DamageDie:         dice.D10(o.GetExplodeDamageD10()),
		Sbire:             target.GetLoss().GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE,
		AttackerSbire:     attacker.GetLoss().GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE,
		Health:            cs.GetHealth(),
		Light:             cs.GetLight(),
		Grave:             cs.GetGrave(),
		Fatal:             cs.GetFatal(),
		CancelledStillHit: o.GetCancelledExploitsStillHit(),
		SbirePlainHit:     o.GetSbireCancelledExploitPlainHit(),
	}
	b.Armour, b.Shield = Protection(st, target.GetId())
	for _, w := range attacker.GetLoss().GetWeapons() {
		switch w.GetName() {
		case ar.GetWeapon():
			b.Damage, b.AssautDamage, b.Explosive = w.GetDamage(), w.GetAssautDamage(), w.GetExplosive()
			if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_RANGED && w.GetEffectiveRange() > 0 && ar.GetSituation().GetDistance() > w.GetEffectiveRange() {
				b.Halvings = 1
			}
		case ar.GetSecondWeapon():
			b.Second = w.GetDamage()
		}
	}
	b.HasSecond = ar.GetSecondWeapon() != "" && len(ar.GetMoreTargets()) == 0
	return b
}

// landed is a way an attack lands: the Exploits cancelled, whether a successful defence
// halves the blast, its probability.
type landed struct {
	cancelled int32
	halve     bool
	p         float64
}

// Outcome of a landed blow: the attack misses after all (LOS-015 option), or it hits with
// standing Exploits, NS lost and the target out of the fight or not.
type outcome struct {
	miss     bool
	standing int32
	lost     odds.Dist // NS lost, given the blow
	out      float64
}

// Odds is the odds of the attack: the chance to reach the Difficulty for 0 to 5 Exploits,
// then, for each defence (none, parry, dodge), the Exploits standing, the NS lost and the
// chance the target is out of the fight.
func (a *AttackOdds) Odds() *oddsv1.Odds {
	o := &oddsv1.Odds{
		Summary: fmt.Sprintf("an attack at Difficulty %d with %s", a.Difficulty, odds.Plural(a.Exploits, "Exploit", "Exploits")),
		Assumptions: []string{
			"the defender declares no Exploit and spends no Fursa or Inspiration on its defence (LOS-012)",
			"a parry is made with the shield when the defender has one, else with its first melee weapon (LOS-019)",
		},
	}
	total := a.Attack.Total()
	o.LeftOut = total.Left
	attack := &oddsv1.OddsSection{Key: "attack", Title: "the attack reaches its Difficulty (LOS-010, LOS-011)"}
	base := a.Difficulty - a.Rules.ExploitsDifficulty(a.Exploits)
	for n := int32(0); n <= a.Rules.MaxExploits; n++ {
		d := base + a.Rules.ExploitsDifficulty(n)
		attack.Chances = append(attack.Chances, odds.Chance(fmt.Sprintf("reach.%d", n),
			fmt.Sprintf("%s: Difficulty %d", odds.Plural(n, "Exploit", "Exploits"), d), "LOS-010", total.AtLeast(int(d))))
	}
	o.Sections = append(o.Sections, attack)
	hit := total.AtLeast(int(a.Difficulty))
	o.Sections = append(o.Sections, a.defended("none", "no parry or dodge", hit, []landed{{p: 1}}, 0))
	for _, d := range a.Defences {
		key, title := "parry", "parried (LOS-013, LOS-014)"
		if d.Reaction == lossv1.Reaction_REACTION_DODGE {
			key, title = "dodge", "dodged (LOS-013, LOS-014)"
		}
		switch {
		case a.Hidden:
			o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: key, Title: title, Unavailable: odds.HiddenTarget})
			continue
		case a.NoDefence != "":
			o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: key, Title: title, Unavailable: a.NoDefence})
			continue
		case d.Refused != "":
			o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: key, Title: title, Unavailable: d.Refused})
			continue
		}
		s, _, left := a.defenceSection(d, key, title, hit)
		o.LeftOut = max(o.LeftOut, left)
		o.Sections = append(o.Sections, s)
	}
	if a.Hidden {
		o.Sections[1].Distributions, o.Sections[1].Chances = nil, o.Sections[1].Chances[:1]
		o.Sections[1].Unavailable = odds.HiddenTarget + ": only the odds.Chance to land is shown"
	}
	return o
}

// defenceSection is the section of the defence d made against an attack that reaches its
// Difficulty with probability hit; with the chance the defence makes it miss (LOS-013; an
// explosive's blast is only halved, LOS-086) and the mass the exploding die left out.
func (a *AttackOdds) defenceSection(d Defence, key, title string, hit float64) (*oddsv1.OddsSection, float64, float64) {
	y := d.Test.Total()
	ways := []landed{}
	parried := y.AtLeast(int(d.Test.Difficulty)) // LOS-013: both succeed, a miss
	missed := parried
	if a.Blow.Explosive {
		ways, parried, missed = append(ways, landed{halve: true, p: parried}), 0, 0 // LOS-086: only halves
	}
	for i, p := range y.P { // a failed defence: partial from 20 (LOS-014)
		v := int32(y.Min + i)
		if v >= d.Test.Difficulty || p == 0 {
			continue
		}
		ways = append(ways, landed{cancelled: a.Rules.PartialDefence(v, a.Exploits), p: p})
	}
	return a.defended(key, title, hit, ways, parried), missed, y.Left
}

// defended is the section of one defence: hit is the chance the attack reaches its
// Difficulty, ways how it lands then, parried the chance the defence makes it miss.
func (a *AttackOdds) defended(key, title string, hit float64, ways []landed, parried float64) *oddsv1.OddsSection {
	s := &oddsv1.OddsSection{Key: key, Title: title}
	standing := make([]float64, a.Exploits+1)
	var lost odds.Builder
	var land, out float64
	if a.outcomes == nil {
		a.outcomes = map[landed]outcome{}
	}
	for _, w := range ways {
		k := landed{cancelled: w.cancelled, halve: w.halve}
		r, ok := a.outcomes[k]
		if !ok {
			r = a.Blow.resolve(a.Effects, w.cancelled, w.halve)
			a.outcomes[k] = r
		}
		p := hit * w.p
		if r.miss {
			lost.Add(0, p)
			continue
		}
		land += p
		standing[r.standing] += p
		out += p * r.out
		for i, q := range r.lost.P {
			lost.Add(r.lost.Min+i, p*q)
		}
	}
	lost.Add(0, 1-hit+hit*parried)
	s.Chances = append(s.Chances, odds.Chance("hit", "the attack hits", "LOS-013", land))
	for k, p := range standing {
		s.Chances = append(s.Chances, odds.Chance(fmt.Sprintf("standing.%d", k),
			fmt.Sprintf("hits with %s standing", odds.Plural(int32(k), "Exploit", "Exploits")), "LOS-014", p))
	}
	s.Chances = append(s.Chances, odds.Chance("out", "the target is out of the fight", "LOS-022", out))
	s.Distributions = append(s.Distributions, odds.Distribution("levels", "NS lost", lost.Dist()))
	return s
}

// resolve is what a blow that lands with cancelled Exploits cancelled does, as the rules'
// hit does it.
func (b Blow) resolve(list []lossv1.ExploitEffect, cancelled int32, halve bool) outcome {
	total := CountExploits(list)
	stand := Standing(list, cancelled)
	r := outcome{standing: total - cancelled, lost: odds.Point(0)}
	if total > 0 && cancelled >= total && !b.CancelledStillHit {
		return outcome{miss: true}
	}
	if b.Manoeuvre {
		return r
	}
	remaining := b.Light + b.Grave + b.Fatal
	if b.Sbire {
		remaining = b.Health
	}
	if b.Sbire && !b.AttackerSbire && total > 0 && (len(stand) > 0 || !b.SbirePlainHit) {
		r.lost, r.out = odds.Point(int(b.Health)), 1
		return r
	}
	if has(stand, lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT) {
		r.out = 1
		if !b.Sbire { // the boxes go to 0; a Sbire's NS are not boxes (LOS-078)
			r.lost = odds.Point(int(remaining))
		}
		return r
	}
	neutralised := has(stand, lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE)
	special := false
	extra := 0
	for _, e := range stand {
		special = special || Special(e)
		if e == lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE {
			extra++
		}
	}
	if neutralised {
		r.out = 1
	}
	if special && !b.WithDamage {
		return r
	}
	r.lost, r.out = b.levelsLost(stand, extra, halve, remaining, neutralised)
	return r
}

// levelsLost is the distribution of the NS a blow that deals damage takes off a track with
// remaining NS left, and the chance it empties it (or neutralised, LOS-076): the damage dice,
// one more per extra damage (LOS-065), plus the weapon's or its Assaut damage (LOS-061),
// halved (LOS-081, LOS-086), less armour and shield (LOS-021), never a mortal wound with Aim
// at a precise zone (LOS-073); then Two weapons' second blow, unless the first felled
// (LOS-070). As the rules' damage does it.
func (b Blow) levelsLost(stand []lossv1.ExploitEffect, extra int, halve bool, remaining int32, neutralised bool) (odds.Dist, float64) {
	dmg := b.Damage
	if has(stand, lossv1.ExploitEffect_EXPLOIT_EFFECT_ASSAUT) {
		dmg = b.AssautDamage
	}
	halvings := b.Halvings
	if halve {
		halvings++
	}
	die := b.DamageDie
	die.Count = 1 + extra
	levels := func(d dice.Expr, weapon int32) odds.Dist {
		return odds.Expr(d).Map(func(v int) int {
			return int(max(0, Halve(int32(v)+weapon, halvings)-b.Armour-b.Shield))
		})
	}
	zone := has(stand, lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE) && !b.Sbire
	// take: NS lost from a track with left NS left, and whether it is emptied (out).
	take := func(left, l int32) (int32, bool) {
		if zone { // LOS-073: no mortal wound
			l = min(l, left-1)
		}
		l = min(l, left)
		return l, l == left
	}
	first := levels(die, dmg)
	var second odds.Dist
	if b.HasSecond {
		second = levels(b.DamageDie, b.Second)
	}
	var lost odds.Builder
	var out float64
	for i, p := range first.P {
		l1, o1 := take(remaining, int32(first.Min+i))
		if !b.HasSecond || o1 || neutralised {
			lost.Add(int(l1), p)
			if o1 || neutralised {
				out += p
			}
			continue
		}
		for j, q := range second.P {
			l2, o2 := take(remaining-l1, int32(second.Min+j))
			lost.Add(int(l1+l2), p*q)
			if o2 {
				out += p * q
			}
		}
	}
	return lost.Dist(), out
}

// What the odds above read of an attack the way Decide reads it. Nothing here is used by Decide.

// CountExploits is the number of Exploits a list of effects declares (LOS-010).
func CountExploits(list []E) int32 { return countExploits(list) }

// Standing is the effects that still stand when cancelled Exploits are cancelled (LOS-014).
func Standing(list []E, cancelled int32) []E { return standing(list, cancelled) }

// Special reports whether an effect replaces damage unless the attacker chooses damage too.
func Special(e E) bool { return effects[e].special }

// Protection is what a hit's damage loses to the target's armour and shield (LOS-021,
// LOS-053, LOS-091 Weapon and shield), as hit reads it.
func Protection(st *encounterv1.EncounterState, targetID string) (armour, shield int32) {
	t, err := fighterOf(st, targetID)
	if err != nil {
		return 0, 0
	}
	shield = t.sh.GetShieldProtection()
	if t.sh.GetShield() != nil && t.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
		shield++
	}
	return t.sh.GetArmour(), shield
}
