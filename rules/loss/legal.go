package loss

import (
	"fmt"
	"slices"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// outOfRangeMetres is the first distance of the last row of the ranged Difficulty table
// (LOS-080): out of range, Difficulty 35; a choice of distance offers up to it.
const outOfRangeMetres = 61

// legal collects legal actions, each with its command, for one combatant.
type legal struct {
	sys System
	st  *encounterv1.EncounterState
	f   fighter
	out []engine.LegalCommand
}

// add appends a legal action keyed as Describe names it, with the command taking it.
func (l *legal) add(key string, a *rulesetv1.LegalAction, kind proto.Message, choices ...*rulesetv1.Choice) {
	a.Key = key
	a.Choices = choices
	act := &lossv1.Action{CombatantId: l.f.id()}
	engine.SetKind(act, kind)
	if k, ok := kind.(*lossv1.React); ok {
		a.Reaction = true
		a.Difficulty = lossState(l.st).GetPending().GetDifficulty()
		if k.GetReaction() == lossv1.Reaction_REACTION_NONE {
			a.Difficulty = 0
		}
	}
	l.out = append(l.out, engine.LegalCommand{Action: a, Command: &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: act}}})
}

// simple adds the action of LOS-035 without a Test of kind k.
func (l *legal) simple(k lossv1.SimpleKind, desc string, cost int32, rule string) {
	key := map[lossv1.SimpleKind]string{
		lossv1.SimpleKind_SIMPLE_KIND_SPEAK: "speak", lossv1.SimpleKind_SIMPLE_KIND_SOCIAL: "social Talent",
		lossv1.SimpleKind_SIMPLE_KIND_PICK_UP: "pick up an object", lossv1.SimpleKind_SIMPLE_KIND_MOVE: "move",
		lossv1.SimpleKind_SIMPLE_KIND_STAND_UP: "stand up", lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON: "recover weapon",
	}[k]
	name := key
	if k == lossv1.SimpleKind_SIMPLE_KIND_MOVE || k == lossv1.SimpleKind_SIMPLE_KIND_PICK_UP || k == lossv1.SimpleKind_SIMPLE_KIND_SOCIAL {
		name = simpleName(k)
	}
	l.add(key, &rulesetv1.LegalAction{Name: name, Description: desc, Cost: cost, Rule: rule}, &lossv1.Simple{Kind: k})
}

// targetChoice: the target of an action, one of ids (required).
func (l *legal) targetChoice(field string, ids []string) *rulesetv1.Choice {
	c := &rulesetv1.Choice{Field: field, Description: "the target", Min: 1, Max: 1, Required: true}
	for _, id := range ids {
		c.Options = append(c.Options, &rulesetv1.ChoiceOption{Value: id, Label: engine.FindCombatant(l.st, id).GetName()})
	}
	return c
}

// effectsChoice: the Exploit effects that may be declared on a Test of use u (LOS-060).
func (sys System) effectsChoice(field string, u use, skip ...E) *rulesetv1.Choice {
	c := &rulesetv1.Choice{Field: field, Description: "Exploits declared: each effect costs its Exploits, at most 5 in all (LOS-010)", Max: sys.MaxExploits, Budget: sys.MaxExploits}
	for e := E(1); int(e) < len(lossv1.ExploitEffect_name); e++ {
		if i := effects[e]; i.use&u != 0 && !slices.Contains(skip, e) {
			c.Options = append(c.Options, &rulesetv1.ChoiceOption{Value: e.String(), Label: i.name, Cost: i.cost})
		}
	}
	return c
}

// spendChoices: what the Test may spend, each +5 (LOS-004, LOS-005): the Fursa held (the GM's
// reserve for a non-player combatant, none for a Sbire), free raises, Inspiration.
func (l *legal) spendChoices(prefix string) []*rulesetv1.Choice {
	var out []*rulesetv1.Choice
	fursa := l.f.cs.GetFursa()
	if !l.f.isPC() {
		fursa = lossState(l.st).GetGmFursa()
	}
	if fursa > 0 && !l.f.isSbire() {
		out = append(out, &rulesetv1.Choice{Field: prefix + ".spend.fursa", Description: "Fursa spent, +5 each (LOS-004)", Max: fursa})
	}
	if n := l.f.cs.GetFreeRaises(); n > 0 {
		out = append(out, &rulesetv1.Choice{Field: prefix + ".spend.free_raises", Description: "Augmentations Gratuites spent, +5 each (LOS-004)", Max: n})
	}
	var vertus []string
	for v, n := range l.f.cs.GetInspiration() {
		if n > 0 {
			vertus = append(vertus, v)
		}
	}
	slices.Sort(vertus)
	if len(vertus) > 0 {
		c := &rulesetv1.Choice{Field: prefix + ".spend.inspiration", Description: "Inspiration spent by Vertu, +5 each (LOS-004): one entry per Vertu", Max: int32(len(vertus))}
		for _, v := range vertus {
			for k := int32(1); k <= l.f.cs.GetInspiration()[v]; k++ {
				c.Options = append(c.Options, &rulesetv1.ChoiceOption{Value: v + "=" + strconv.Itoa(int(k)), Label: fmt.Sprintf("%d Inspiration of %s", k, v)})
			}
		}
		out = append(out, c)
	}
	return out
}

// LegalCommands lists what a combatant may do now, each action with its command: its answer
// to an attack awaiting it (LOS-009), its declaration (LOS-038), or, on its turn (LOS-031), its
// recovery when hindered (LOS-072, LOS-074), its attacks, aims, grab or trip, pursuit actions,
// simple actions, wait, word and pass (LOS-033, LOS-035, LOS-040).
func (sys System) LegalCommands(st *encounterv1.EncounterState, id string) []engine.LegalCommand {
	f, err := fighterOf(st, id)
	if err != nil {
		return nil
	}
	l := &legal{sys: sys, st: st, f: f}
	s := lossState(st)
	if p := s.GetPending(); p != nil {
		if p.GetDefenderId() != id {
			return nil
		}
		l.reactions(p)
		return l.out
	}
	if s.GetDeclaring() {
		if !f.cs.GetDeclared() && decideDeclareAllowed(st, f) {
			l.add("declare", &rulesetv1.LegalAction{Name: "declare", Description: "your first action this Tour", Rule: "LOS-038"}, &lossv1.Declare{},
				&rulesetv1.Choice{Field: "loss.declare.intention", Description: "the intention, in words", Max: engine.MaxNameLength})
		}
		return l.out
	}
	if mayAct(st, f) != nil {
		return l.out
	}
	if sys.hindered(st, f, false, false, false) != nil {
		l.getUp()
		return l.last() // a wait or a word is no action to hinder (LOS-040, LOS-035)
	}
	var targets []string
	for _, o := range fighters(st) {
		if o.id() != id && !o.cs.GetOut() {
			targets = append(targets, o.id())
		}
	}
	canAttack := sys.hindered(st, f, false, false, true) == nil && len(targets) > 0
	if canAttack {
		for _, w := range f.sh.GetWeapons() {
			l.weaponAttacks(w, targets)
		}
	}
	l.aims()
	if canAttack && f.sh.GetAthletics() != nil && sys.cost(f, sys.ManoeuvreCost) <= f.cs.GetActionPoints() {
		l.add("grab or trip", &rulesetv1.LegalAction{Name: "grab or trip", Cost: sys.cost(f, sys.ManoeuvreCost), Rule: "LOS-035", Targets: targets}, &lossv1.Attack{},
			l.targetChoice("loss.attack.target_id", targets),
			&rulesetv1.Choice{Field: "loss.attack.manoeuvre", Description: "grab or trip", Min: 1, Max: 1, Required: true, Options: []*rulesetv1.ChoiceOption{
				{Value: lossv1.Manoeuvre_MANOEUVRE_GRAB.String(), Label: "grab"}, {Value: lossv1.Manoeuvre_MANOEUVRE_TRIP.String(), Label: "trip"}}})
	}
	if inPursuit(st, id) {
		l.pursuit()
	}
	if f.cs.GetDisarmed() { // disarmed this Tour: it may recover now, and still not attack (LOS-074)
		l.recover()
	}
	for _, k := range []lossv1.SimpleKind{lossv1.SimpleKind_SIMPLE_KIND_MOVE, lossv1.SimpleKind_SIMPLE_KIND_PICK_UP, lossv1.SimpleKind_SIMPLE_KIND_SOCIAL} {
		if c := sys.cost(f, sys.simpleCost(f, k)); c <= f.cs.GetActionPoints() {
			l.simple(k, "", c, "LOS-035")
		}
	}
	return l.last()
}

// reactions adds the defender's answers to the attack p awaiting it: a parry, with something
// to parry with (LOS-019, LOS-074), or a dodge, each with its Exploits (LOS-012, LOS-060; none
// of a pursuit's dodge, only a dodge's against a projectile, LOS-085) and PA for it (LOS-036);
// and taking the blow (LOS-009).
func (l *legal) reactions(p *lossv1.PendingAttack) {
	f, sys := l.f, l.sys
	pursuit := p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED
	ranged := false
	if att, err := fighterOf(l.st, p.GetAttackerId()); err == nil && !pursuit {
		w, _ := weaponOf(att, p.GetBlowWeapon())
		ranged = isRanged(w)
	}
	defence := func(r lossv1.Reaction, key string, u use) {
		choices := []*rulesetv1.Choice{{Field: "loss.react.exploits", Description: "Exploits declared on the defence (LOS-012)", Max: sys.MaxExploits}}
		if !pursuit && u != 0 {
			choices = append(choices, sys.effectsChoice("loss.react.effects", u))
		}
		choices = append(choices, l.spendChoices("loss.react")...)
		l.add(key, &rulesetv1.LegalAction{Name: key, Cost: sys.DefenceCost, Rule: "LOS-036"}, &lossv1.React{Reaction: r}, choices...)
	}
	if f.cs.GetActionPoints() >= sys.DefenceCost {
		if !pursuit && canParry(f, ranged || p.GetExplosive()) {
			u := onParry
			if ranged {
				u = 0
			}
			defence(lossv1.Reaction_REACTION_PARRY, "parry", u)
		}
		if f.sh.GetDodge() != nil {
			u := onDodge
			if ranged {
				u = onRangedDodge
			}
			defence(lossv1.Reaction_REACTION_DODGE, "dodge", u)
		}
	}
	l.add("take the blow", &rulesetv1.LegalAction{Name: "take the blow", Rule: "LOS-009"}, &lossv1.React{Reaction: lossv1.Reaction_REACTION_NONE})
}

// getUp adds what a hindered fighter may do first: stand up when down (LOS-072), else recover
// from a Disarm (LOS-074).
func (l *legal) getUp() {
	if !l.f.cs.GetProne() {
		l.recover()
		return
	}
	if c := l.sys.cost(l.f, l.sys.StandUpCost); c <= l.f.cs.GetActionPoints() {
		l.simple(lossv1.SimpleKind_SIMPLE_KIND_STAND_UP, "", c, "LOS-072")
	}
}

// recover adds the recoveries from a Disarm (LOS-074): pick up one's weapon (2 PA), or regain
// one's balance (4 PA).
func (l *legal) recover() {
	if c := l.sys.cost(l.f, l.sys.PickUpCost); c <= l.f.cs.GetActionPoints() {
		l.simple(lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON, "pick up one's weapon", c, "LOS-074")
	}
	if c := l.sys.cost(l.f, l.sys.StandUpCost); c <= l.f.cs.GetActionPoints() {
		l.simple(lossv1.SimpleKind_SIMPLE_KIND_STAND_UP, "regain one's balance", c, "LOS-074")
	}
}

// last adds what ends every list of a fighter on its turn and returns the list: a wait to a
// lower phase (LOS-040), a word (LOS-035), passing (LOS-033).
func (l *legal) last() []engine.LegalCommand {
	if ap := l.f.cs.GetActionPoints(); ap > 1 {
		l.add("wait", &rulesetv1.LegalAction{Name: "wait", Description: fmt.Sprintf("act later, at a phase from 1 to %d", ap-1), Rule: "LOS-040"}, &lossv1.Wait{},
			&rulesetv1.Choice{Field: "loss.wait.until_phase", Description: "the phase to act at", Min: 1, Max: ap - 1, Required: true})
	}
	l.simple(lossv1.SimpleKind_SIMPLE_KIND_SPEAK, "", 0, "LOS-035")
	l.add("pass", &rulesetv1.LegalAction{Name: "pass", Rule: "LOS-033"}, &lossv1.Pass{})
	return l.out
}

// weaponAttacks adds the attacks with w that f can pay for, against the targets it may reach:
// not a heavy weapon mounted (LOS-090), not past the cap of melee attackers (LOS-051); its
// Exploits, its distance at range (LOS-080, LOS-081), further targets of a multi-target
// Exploit (LOS-026); and its Assaut (LOS-061).
func (l *legal) weaponAttacks(w *lossv1.Weapon, targets []string) {
	f, sys, st := l.f, l.sys, l.st
	if f.sh.GetMounted() && w.GetHeavy() { // LOS-090: that weapon only
		return
	}
	reach := targets
	if !isRanged(w) { // LOS-051: at most five melee attackers on one combatant in a Tour
		reach = slices.DeleteFunc(slices.Clone(targets), func(id string) bool {
			t, _ := fighterOf(st, id)
			n := sys.meleeAttackers(st, t)
			return int32(len(n)) >= sys.MaxMeleeAttackers && !slices.Contains(n, f.id())
		})
	}
	if len(reach) == 0 {
		return
	}
	u := onMelee
	if isRanged(w) {
		u = onRanged
	}
	if c := sys.cost(f, sys.attackCost(f, w)); c <= f.cs.GetActionPoints() {
		choices := []*rulesetv1.Choice{l.targetChoice("loss.attack.target_id", reach), sys.effectsChoice("loss.attack.exploits", u, effAssaut)}
		if isRanged(w) { // LOS-080, LOS-081: the Difficulty by distance, nothing beyond the Limite
			most := w.GetLimit()
			if most <= 0 {
				most = outOfRangeMetres
			}
			choices = append(choices, &rulesetv1.Choice{Field: "loss.attack.situation.distance",
				Description: "the distance to the target in metres (LOS-080; none given: close)", Max: most})
		}
		if len(reach) > 1 {
			more := l.targetChoice("loss.attack.more_target_ids", reach)
			more.Description, more.Min, more.Max, more.Required = "further targets of a multi-target Exploit (LOS-026)", 0, int32(len(reach)-1), false
			choices = append(choices, more)
		}
		l.add("attack", &rulesetv1.LegalAction{Name: "attack", Description: "attack with " + w.GetName(), Cost: c, Rule: "LOS-035", Targets: reach, Weapon: w.GetName()},
			&lossv1.Attack{Weapon: w.GetName()}, append(choices, l.spendChoices("loss.attack")...)...)
	}
	if w.GetAssautDamage() > 0 && !f.cs.GetAssautUsed() && !isRanged(w) {
		l.assaut(w, reach, u)
	}
}

// assaut adds a charge with w, its one Exploit declared and room for more (LOS-010, LOS-061).
func (l *legal) assaut(w *lossv1.Weapon, reach []string, u use) {
	f, sys := l.f, l.sys
	c := sys.cost(f, sys.AssautCost)
	if c > f.cs.GetActionPoints() {
		return
	}
	choices := []*rulesetv1.Choice{l.targetChoice("loss.attack.target_id", reach), sys.effectsChoice("loss.attack.exploits", u, effAssaut)}
	choices[1].Description, choices[1].Budget, choices[1].Max = "further Exploits declared with the Assaut's one (LOS-010)", sys.MaxExploits-effects[effAssaut].cost, sys.MaxExploits-effects[effAssaut].cost
	l.add("Exploit: "+effects[effAssaut].name, &rulesetv1.LegalAction{Name: "assaut", Description: "charge with " + w.GetName() + " (1 Exploit)", Cost: c, Rule: "LOS-061", Targets: reach, Weapon: w.GetName()},
		&lossv1.Attack{Weapon: w.GetName(), Exploits: []E{effAssaut}}, append(choices, l.spendChoices("loss.attack")...)...)
}

// aims adds aiming with each ranged weapon: +1 per PA up to MaxAim (LOS-035), or a whole Tour
// as the first action of the Tour (LOS-084, Visée LOS-090). Aiming is no attack: in version 1
// one disarmed this Tour may still aim (LOS-074, LOS-035, LOS-084); not once the version says
// it cannot until it has its weapon back.
func (l *legal) aims() {
	f, sys := l.f, l.sys
	ap := f.cs.GetActionPoints()
	for _, w := range f.sh.GetWeapons() {
		if !isRanged(w) || (f.sh.GetMounted() && w.GetHeavy()) {
			continue
		}
		if sys.AimNeedsUsableWeapon && f.cs.GetDisarmed() && !f.owed() {
			break
		}
		held := int32(0)
		if f.cs.GetAimWeapon() == w.GetName() {
			held = f.cs.GetAimBonus()
		}
		if held < sys.MaxAim {
			l.add("aim", &rulesetv1.LegalAction{Name: "aim", Description: fmt.Sprintf("aim with %s: +1 per PA, up to +%d more", w.GetName(), sys.MaxAim-held), Cost: 1, Rule: "LOS-035", Weapon: w.GetName()},
				&lossv1.Aim{Weapon: w.GetName()}, &rulesetv1.Choice{Field: "loss.aim.points", Description: "+1 per PA", Min: 1, Max: min(sys.MaxAim-held, ap), Required: true})
		}
		if !f.cs.GetActed() { // the first action of the Tour (LOS-084)
			bonus := sys.AimTourBonus
			if f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, w) {
				bonus = sys.AimTourVisee
			}
			l.add("aim", &rulesetv1.LegalAction{Name: "aim a whole Tour", Description: fmt.Sprintf("the whole Tour, all PA: %+d on the next shot with %s", bonus, w.GetName()), Cost: ap, Rule: "LOS-084", Weapon: w.GetName()},
				&lossv1.Aim{Weapon: w.GetName(), WholeTour: true})
		}
	}
}

// pursuit adds the pursuit actions f may take (LOS-102…LOS-107).
func (l *legal) pursuit() {
	f, sys := l.f, l.sys
	p := lossState(l.st).GetPursuit()
	pursuer := slices.Contains(p.GetPursuerIds(), f.id())
	others := p.GetPursuedIds()
	if !pursuer {
		others = p.GetPursuerIds()
	}
	ap := f.cs.GetActionPoints()
	add := func(key, name string, cost int32, rule string, targets []string, k lossv1.PursuitKind, weapon string, choices ...*rulesetv1.Choice) {
		if sys.cost(f, cost) > ap {
			return
		}
		if targets != nil {
			choices = append([]*rulesetv1.Choice{l.targetChoice("loss.pursuit.target_id", targets)}, choices...)
		}
		if k != lossv1.PursuitKind_PURSUIT_KIND_CHARGE || !sys.ChargeTakesNoExploits { // LOS-102
			choices = append(choices, &rulesetv1.Choice{Field: "loss.pursuit.exploits", Description: "Exploits declared (LOS-010)", Max: sys.MaxExploits})
		}
		l.add(key, &rulesetv1.LegalAction{Name: name, Cost: sys.cost(f, cost), Rule: rule, Targets: targets},
			&lossv1.PursuitAction{Kind: k, Weapon: weapon}, append(choices, l.spendChoices("loss.pursuit")...)...)
	}
	d := p.GetDistance()
	if f.sh.GetPursuit() != nil {
		add("change distance (pursuit)", fmt.Sprintf("change distance (Difficulty %d)", DistanceDifficulty(d)), sys.PursuitActionCost, "LOS-104", nil, lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, "",
			&rulesetv1.Choice{Field: "loss.pursuit.closer", Description: "close in (true) or pull away (false)", Max: 1, Options: []*rulesetv1.ChoiceOption{
				{Value: "true", Label: "close in"}, {Value: "false", Label: "pull away"}}})
		if pursuer && d == 2 {
			add("charge (pursuit)", "charge", sys.ChargeCost, "LOS-102", others, lossv1.PursuitKind_PURSUIT_KIND_CHARGE, "")
		}
		if !pursuer {
			add("zigzags (pursuit)", "zigzags", sys.PursuitActionCost, "LOS-107", nil, lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS, "")
		}
		if d <= sys.LegsShotMaxRange {
			for _, w := range f.sh.GetWeapons() {
				if isRanged(w) {
					add("shoot the legs (pursuit)", "shoot the legs with "+w.GetName(), sys.PursuitActionCost+sys.attackCost(f, w), "LOS-106", others, lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, w.GetName())
				}
			}
		}
	}
	if f.sh.GetAthletics() != nil {
		if !pursuer && d == 2 {
			add("clothesline (pursuit)", "clothesline", sys.PursuitActionCost, "LOS-103", others, lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE, "")
		}
		if pursuer && d == 1 {
			add("tackle (pursuit)", "tackle", sys.PursuitActionCost, "LOS-105", others, lossv1.PursuitKind_PURSUIT_KIND_TACKLE, "")
		}
	}
}

// canParry: d has something to parry an attack with, a projectile or an explosive only with
// a shield (LOS-019, LOS-074), as the parry's Test will find.
func canParry(d fighter, projectile bool) bool {
	sh := d.sh.GetShield()
	if d.sh.GetParry() == nil {
		return false
	}
	if projectile {
		return sh != nil && sh.GetSize() != lossv1.ShieldSize_SHIELD_SIZE_UNSPECIFIED
	}
	if sh != nil || d.sh.GetArmouredForearm() {
		return true
	}
	return !d.cs.GetDisarmed() && slices.ContainsFunc(d.sh.GetWeapons(), func(w *lossv1.Weapon) bool { return w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE })
}
