package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

const (
	effExtra     = lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	effAssaut    = lossv1.ExploitEffect_EXPLOIT_EFFECT_ASSAUT
	effCounter   = lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK
	effTotal     = lossv1.ExploitEffect_EXPLOIT_EFFECT_TOTAL_DODGE
	effFeint     = lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT
	effWall      = lossv1.ExploitEffect_EXPLOIT_EFFECT_DEFENSIVE_WALL
	effAdvantage = lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE
	effProtect   = lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT
	effLimb      = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_LIMB
	effTwo       = lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS
	effOverthrow = lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW
	effZone      = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE
	effDisarm    = lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM
	effPoint     = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_POINT
	effNeutral   = lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE
	effKill      = lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT
	effRicochet  = lossv1.ExploitEffect_EXPLOIT_EFFECT_RICOCHET
)

func isRanged(w *lossv1.Weapon) bool { return w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_RANGED }

func isBare(w *lossv1.Weapon) bool {
	return w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_NATURAL || w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_UNARMED
}

// attackCost is an attack's PA cost before any wait (LOS-035, LOS-090 Quick reload).
func (sys System) attackCost(f fighter, w *lossv1.Weapon) int32 {
	if isBare(w) {
		return sys.BareCost
	}
	if isRanged(w) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_QUICK_RELOAD, w) {
		return sys.QuickReload(w.GetVitesse())
	}
	return w.GetVitesse()
}

// QuickReload is the cost of a shot with the Quick reload specialisation: −2 PA, at least 2,
// and never more than the weapon's Vitesse (LOS-090).
func (n Numbers) QuickReload(vitesse int32) int32 {
	return min(vitesse, max(n.QuickReloadMin, vitesse-n.QuickReloadCut))
}

func weaponOf(f fighter, name string) (*lossv1.Weapon, error) {
	return engine.ByName(f.sh.GetWeapons(), name, f.name(), "weapon")
}

// RangedDifficulty is the base Difficulty of a shot at a distance in metres (LOS-080).
func RangedDifficulty(metres int32) int32 {
	switch {
	case metres <= 10:
		return 15
	case metres <= 20:
		return 20
	case metres <= 40:
		return 25
	case metres <= 60:
		return 30
	default:
		return 35
	}
}

// meleeAttackers are the combatants who count toward the cap of melee attackers on t
// (LOS-051): every one that attacked it in melee this Tour, or, where the version says « à la
// fois » means now, only those still in the fight: one felled or removed frees its place.
func (sys System) meleeAttackers(st *encounterv1.EncounterState, t fighter) []string {
	n := t.cs.GetMeleeAttackers()
	if !sys.MeleeAttackersAtOnce {
		return n
	}
	s := lossState(st)
	return slices.DeleteFunc(slices.Clone(n), func(id string) bool {
		cs := s.GetCombatants()[id]
		return cs == nil || cs.GetOut()
	})
}

func inPursuit(st *encounterv1.EncounterState, id string) bool {
	p := lossState(st).GetPursuit()
	return p != nil && (slices.Contains(p.GetPursuerIds(), id) || slices.Contains(p.GetPursuedIds(), id))
}

// pursuitUnits is the pursuit distance between two opponents of a pursuit, 0 if they are not
// (LOS-100).
func pursuitUnits(st *encounterv1.EncounterState, a, b string) int32 {
	p := lossState(st).GetPursuit()
	ar, ad := slices.Contains(p.GetPursuerIds(), a), slices.Contains(p.GetPursuedIds(), a)
	br, bd := slices.Contains(p.GetPursuerIds(), b), slices.Contains(p.GetPursuedIds(), b)
	if (ar && bd) || (ad && br) {
		return p.GetDistance()
	}
	return 0
}

// decideAttack decides an attack, a grab or trip, or (counter) a counter-attack made on a
// successful defence.
func (sys System) decideAttack(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, env engine.Env, counter bool) ([]*encounterv1.Event, error) {
	sit := a.GetSituation()
	manoeuvre := a.GetManoeuvre() != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED
	list := a.GetExploits()
	var w, second *lossv1.Weapon
	var err error
	score := f.sh.GetAthletics()
	if manoeuvre {
		if score == nil {
			return nil, engine.Refused("LOS-035", "%s's sheet has no Athletics to grab or trip with", f.name())
		}
		if len(list) > 0 {
			return nil, engine.Invalid("LOS-035", "a grab or a trip takes no Exploits")
		}
		w = &lossv1.Weapon{Name: "bare hands", Kind: lossv1.WeaponKind_WEAPON_KIND_UNARMED}
	} else {
		if w, err = weaponOf(f, a.GetWeapon()); err != nil {
			return nil, err
		}
		score = w.GetAttack()
	}
	if err := sys.hindered(st, f, false, false, true); err != nil && !counter {
		return nil, err
	}
	if f.sh.GetMounted() && w.GetHeavy() {
		return nil, engine.Refused("LOS-090", "%s cannot use the heavy %s mounted", f.name(), w.GetName())
	}
	ranged := isRanged(w)
	u, what := onMelee, "a melee attack"
	if ranged {
		u, what = onRanged, "a ranged attack"
	}
	if err := sys.checkEffects(f.name(), list, u, what); err != nil {
		return nil, err
	}
	// Costs (LOS-035, LOS-060, LOS-061, LOS-070).
	cost := sys.attackCost(f, w)
	switch {
	case manoeuvre:
		cost = sys.ManoeuvreCost
	case has(list, effAssaut):
		if w.GetAssautDamage() <= 0 {
			return nil, engine.Refused("LOS-061", "%s is not a weapon to charge with (no Assaut value)", w.GetName())
		}
		if f.cs.GetAssautUsed() {
			return nil, engine.Refused("LOS-061", "%s has already made an Assaut this Tour", f.name())
		}
		cost = sys.AssautCost
	case has(list, effTwo):
		if second, err = weaponOf(f, a.GetSecondWeapon()); err != nil || second.GetName() == w.GetName() {
			return nil, engine.Invalid("LOS-070", "Two weapons needs a second weapon of %s's, other than %s", f.name(), w.GetName())
		}
		cost = max(cost, sys.attackCost(f, second))
	}
	if !counter {
		cost = sys.cost(f, cost)
		if err := needPA(f, cost, "an attack with ", w.GetName()); err != nil {
			return nil, err
		}
	}
	// Targets (LOS-026, LOS-051, LOS-070, LOS-071, LOS-077, LOS-085).
	ids := append([]string{a.GetTargetId()}, a.GetMoreTargetIds()...)
	mt, mi, multi := multiTarget(list)
	switch {
	case !multi && len(ids) > 1:
		return nil, engine.Refused("LOS-026", "one attack reaches one target unless it uses a multi-target Exploit")
	case multi && len(ids) > mi.targets:
		return nil, engine.Refused(mi.rule, "%s reaches at most %d targets", mi.name, mi.targets)
	case mt == lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET && !w.GetLong():
		return nil, engine.Refused("LOS-071", "a Moulinet needs a long weapon; %s is not one", w.GetName())
	case mt == lossv1.ExploitEffect_EXPLOIT_EFFECT_SHOOT_THROUGH && !w.GetBow():
		return nil, engine.Refused("LOS-085", "only bows, crossbows and impulsers Shoot through")
	}
	var targets []fighter
	for _, id := range ids {
		if id == f.id() {
			return nil, engine.Invalid("", "%s cannot attack itself", f.name())
		}
		t, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if t.cs.GetOut() {
			return nil, engine.Refused("", "%s is already out of the fight", t.name())
		}
		if slices.ContainsFunc(targets, func(x fighter) bool { return x.id() == id }) {
			return nil, engine.Invalid("LOS-026", "%s is named twice as a target", t.name())
		}
		if n := sys.meleeAttackers(st, t); !isRanged(w) && !counter && int32(len(n)) >= sys.MaxMeleeAttackers && !slices.Contains(n, f.id()) {
			return nil, engine.Refused("LOS-051", "%s is already attacked in melee by %d combatants this Tour; at most %d can attack one at once", t.name(), len(n), sys.MaxMeleeAttackers)
		}
		if has(list, effKill) && t.sh.GetLarge() {
			return nil, engine.Refused("LOS-078", "Kill outright works on human-sized targets; %s is larger", t.name())
		}
		targets = append(targets, t)
	}
	t := targets[0]
	exploits := countExploits(list)
	m := &mods{}
	if err := sys.spendBonus(st, f, a.GetSpend(), m); err != nil {
		return nil, err
	}
	// The base Difficulty passed on to defenders (LOS-010, LOS-012, LOS-080).
	base := sys.BaseDifficulty
	if ranged {
		if lim := w.GetLimit(); lim > 0 && sit.GetDistance() > lim {
			return nil, engine.Refused("LOS-081", "%s is %d m away, beyond the Limite of %s (%d m): it cannot hit", t.name(), sit.GetDistance(), w.GetName(), lim)
		}
		base = RangedDifficulty(sit.GetDistance())
		if u := pursuitUnits(st, f.id(), t.id()); u > 0 {
			base = DistanceDifficulty(u) // LOS-100: in a pursuit the distance is in units
		}
	}
	sys.ownModifiers(st, f, sit, m, false)
	defenceExploitBonus(f, m)
	if sit.GetOffHand() && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TWO_WEAPONS, w) {
		m.difficulty("Two weapons specialisation", "LOS-091", -5)
	}
	if sit.GetBehindObstacle() && !ranged {
		m.difficulty("opponent behind an obstacle", "LOS-050", 10)
	}
	if ranged {
		cover := int32(0)
		switch sit.GetCover() {
		case lossv1.Cover_COVER_PARTIAL:
			cover = 10
		case lossv1.Cover_COVER_FULL:
			cover = 15
		}
		if has(list, effRicochet) {
			cover = 0
		} else if sit.GetCover() == lossv1.Cover_COVER_UNSPECIFIED && a.GetUnseen() && t.sh.GetShield().GetSize() == lossv1.ShieldSize_SHIELD_SIZE_LARGE {
			cover = 10 // a large shield is cover against fire from an unknown direction (LOS-019)
		}
		m.difficulty("cover", "LOS-083", cover)
		if inPursuit(st, f.id()) {
			m.difficulty("shooting in a pursuit", "LOS-101", 10)
		}
	}
	wall := int32(0)
	armourMod := int32(0)
	for _, x := range targets {
		wall = max(wall, x.cs.GetWall())
		if hasAimed(list) || has(list, effKill) {
			armourMod = max(armourMod, x.sh.GetArmourExploitModifier())
		}
	}
	m.difficulty("the defender's wall", "LOS-066", wall)
	m.difficulty("armour against aimed blows", "LOS-079", armourMod)
	// Test bonuses (LOS-052, LOS-054, LOS-084, specialisations). Striking a prone target, in
	// melee or at range (LOS-083: all melee modifiers apply), down or on the ground as the GM
	// says (LOS-035), +10 once, not stacked with standing over it.
	if t.cs.GetProne() || sit.GetTargetProne() {
		m.test("striking a prone target", "LOS-052", 10)
		if sit.GetHigher() {
			m.test("not stacked with the prone target", "LOS-052", -5)
		}
	}
	switch { // one +5 for "from behind or surprised" (LOS-052); an unseen shooter surprises (LOS-082, LOS-083)
	case sit.GetFromBehind() || (sit.GetSurprised() && !ranged):
		m.test("from behind or surprised target", "LOS-052", 5)
	case sit.GetSurprised() || (a.GetUnseen() && ranged):
		m.test("surprised target", "LOS-083", 5)
	}
	if w.GetImprovised() {
		if f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_IMPROVISED_WEAPONS, w) {
			m.test("improvised weapon, specialised", "LOS-091", 2)
		} else {
			m.test("improvised weapon", "LOS-054", -2)
		}
	}
	if ranged {
		if d := sit.GetDistance(); d > 0 && d < 2 { // no distance given: close, not point-blank
			m.test("point-blank", "LOS-084", sys.PointBlankBonus)
		}
		m.test("aim", "LOS-084", sys.aimBonus(st, f, w, sit))
		if sit.GetMoving() && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_MOUNTED_SHOOTING, w) {
			m.test("Mounted shooting specialisation", "LOS-090", sys.SpecBonus)
		}
	}
	if f.cs.GetFeints()[t.id()] >= lossState(st).GetTour() && len(f.cs.GetFeints()) > 0 {
		m.test("feint", "LOS-064", sys.FeintBonus)
	}
	bare := isBare(w)
	switch {
	case has(list, effAssaut) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_CHARGE, w):
		m.test("Charge specialisation", "LOS-091", 5)
	}
	if has(list, effDisarm) {
		if bare && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DISARM, nil) {
			m.test("Unarmed: Disarm specialisation", "LOS-092", 5)
		} else if !bare && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_DISARM, w) {
			m.test("Disarm specialisation", "LOS-091", 5)
		}
	}
	if bare && hasAimed(list) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_ATTACK, nil) {
		m.test("Unarmed: Attack specialisation", "LOS-092", 5)
	}
	if bare && has(list, effNeutral) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEADLY_BLOW, nil) {
		m.test("Unarmed: Deadly blow specialisation", "LOS-092", 5)
	}
	if bare && has(list, effFeint) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEFENCE, nil) {
		m.test("Unarmed: Defence specialisation", "LOS-092", 5)
	}
	if exploits > 0 && t.sh.GetStructure() && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_FORTIFICATION_DESTRUCTION, w) {
		m.test("Fortification destruction specialisation", "LOS-090", 5)
	}
	res := sys.roll(st, f, score, base, exploits, m, a.GetSpend(), env.Dice)
	defenceDifficulty := base + sys.ExploitsDifficulty(exploits)
	if options(st).GetPassAttackerModifiers() {
		defenceDifficulty = res.GetDifficulty()
	}
	ar := &lossv1.AttackRolled{
		AttackerId:        f.id(),
		TargetId:          t.id(),
		Weapon:            w.GetName(),
		ActionPointsSpent: cost,
		Exploits:          list,
		Test:              res,
		Counter:           counter,
		Manoeuvre:         a.GetManoeuvre(),
		Situation:         sit,
		SecondWeapon:      second.GetName(),
		WithDamage:        a.GetWithDamage(),
		DefenceDifficulty: defenceDifficulty,
	}
	if manoeuvre {
		ar.Weapon = ""
	}
	reactions := make([]*lossv1.TargetReaction, len(targets))
	for i, x := range targets {
		r := &lossv1.TargetReaction{TargetId: x.id()}
		switch {
		case !res.GetSuccess():
		case a.GetUnseen():
			r.NoDefenceReason = x.name() + " does not see the attack (LOS-017)"
		case sit.GetSurprised():
			r.NoDefenceReason = x.name() + " is surprised (LOS-052)"
		case x.cs.GetWall() > 0 && options(st).GetWallIsOnlyDefence():
			r.NoDefenceReason = x.name() + "'s wall is its defence this Tour (LOS-066)"
		case x.cs.GetActionPoints() < sys.DefenceCost && x.cs.GetWall() == 0: // the wall spent its PA (LOS-066 option)
			r.NoDefenceReason = x.name() + " has no PA left to parry or dodge (LOS-032)"
		case w.GetExplosive() && sit.GetCover() == lossv1.Cover_COVER_FULL:
			r.NoDefenceReason = x.name() + " is under full cover (LOS-086)"
		default:
			r.DefencePossible = true
		}
		reactions[i] = r
	}
	ar.DefencePossible, ar.NoDefenceReason = reactions[0].GetDefencePossible(), reactions[0].GetNoDefenceReason()
	ar.MoreTargets = reactions[1:]
	events := make([]*encounterv1.Event, 1, 1+len(targets))
	events[0] = attackRolled(ar)
	for i, x := range targets {
		b := blowOf(f, x, ar, i, w, second)
		b.phase = sys.blowPhase(counter, b.phase)
		if len(targets) == 1 && second != nil {
			b.second = second
		}
		switch {
		case !res.GetSuccess():
			events = append(events, miss(b, "the attack fails"))
		case w.GetExplosive() && sit.GetCover() == lossv1.Cover_COVER_FULL:
			events = append(events, miss(b, "full cover: the blast does not reach"))
		case !reactions[i].GetDefencePossible():
			events = append(events, sys.hit(st, b, 0, false, env.Dice))
		}
	}
	return events, nil
}

// blow is one attack against one target.
type blow struct {
	att, t     fighter
	w          *lossv1.Weapon
	effects    []E
	withDamage bool
	manoeuvre  lossv1.Manoeuvre
	sit        *lossv1.Situation
	phase      int32
	explosive  bool
	// second: Two weapons on a single target, whose second weapon strikes too (LOS-070).
	second *lossv1.Weapon
}

// blowPhase is the phase a blow is struck at, as far as LOS-110 goes: the striker's phase,
// which owes a target felled or hindered at that same phase its action there; none (0) for a
// counter blow where the version says so: its target has just acted and is owed nothing.
func (sys System) blowPhase(counter bool, phase int32) int32 {
	if counter && sys.CounterBlowOwesNothing {
		return 0
	}
	return phase
}

func blowOf(att, t fighter, ar *lossv1.AttackRolled, i int, w, second *lossv1.Weapon) blow {
	if i > 0 && second != nil && has(ar.GetExploits(), effTwo) {
		w = second
	}
	return blow{
		att: att, t: t, w: w, effects: ar.GetExploits(), withDamage: ar.GetWithDamage(), manoeuvre: ar.GetManoeuvre(),
		sit: ar.GetSituation(), phase: att.cs.GetActionPoints(), explosive: w.GetExplosive(),
	}
}

func (b blow) resolved() *lossv1.AttackResolved {
	return &lossv1.AttackResolved{
		AttackerId: b.att.id(), TargetId: b.t.id(), AttackerPhase: b.phase,
		Light: b.t.cs.GetLight(), Grave: b.t.cs.GetGrave(), Fatal: b.t.cs.GetFatal(), Health: b.t.cs.GetHealth(),
		TargetOut: b.t.cs.GetOut(), TargetDying: b.t.cs.GetDying(),
	}
}

func miss(b blow, note string) *encounterv1.Event {
	r := b.resolved()
	r.ExploitsStanding = countExploits(b.effects)
	r.Note = note
	return attackResolved(r)
}

// hit resolves a blow that landed: the effects that stand after `cancelled` Exploits, then
// damage (LOS-020…LOS-025, LOS-061…LOS-078, LOS-081, LOS-086).
func (sys System) hit(st *encounterv1.EncounterState, b blow, cancelled int32, halve bool, roller dice.Roller) *encounterv1.Event {
	r := b.resolved()
	total := countExploits(b.effects)
	stand := standing(b.effects, cancelled)
	r.ExploitsStanding = total - cancelled
	out := func(note string) *encounterv1.Event {
		r.Note = note
		return attackResolved(r)
	}
	if total > 0 && cancelled >= total && !options(st).GetCancelledExploitsStillHit() {
		return out("partial defence cancelled every Exploit: the attack misses (LOS-015 option)")
	}
	r.Hit = true
	r.Effects = stand
	r.Manoeuvre = b.manoeuvre
	if b.manoeuvre == lossv1.Manoeuvre_MANOEUVRE_TRIP && sys.TripFells { // LOS-035: Evolve throws it down
		return out(b.t.name() + " falls and must stand up at its next action (LOS-035)")
	}
	if b.manoeuvre != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED { // LOS-035: no automatic effect
		return out("no automatic effect: the GM applies what follows as situations (LOS-035)")
	}
	// LOS-025: a Sbire hit with a standing Exploit by a non-Sbire is out, no damage roll.
	if b.t.isSbire() && !b.att.isSbire() && total > 0 &&
		(len(stand) > 0 || !options(st).GetSbireCancelledExploitPlainHit()) {
		r.Health, r.TargetOut = 0, true
		return out(b.t.name() + " is a Sbire felled by a successful Exploit (LOS-025)")
	}
	if has(stand, effKill) {
		r.Light, r.Grave, r.Fatal, r.TargetOut, r.TargetDying = 0, 0, 0, true, true
		return out(b.t.name() + " is killed outright: 0 fatal boxes, dying (LOS-078)")
	}
	if has(stand, effNeutral) {
		r.TargetOut = true
	}
	special := false
	for _, e := range stand {
		special = special || effects[e].special
	}
	if special && !b.withDamage {
		return out("")
	}
	extra := countOf(stand, effExtra)
	dmg := b.w.GetDamage()
	if has(stand, effAssaut) {
		dmg = b.w.GetAssautDamage()
	}
	rr := roller.Roll(dice.Expr{Count: 1 + int(extra), Sides: 10, Explode: options(st).GetExplodeDamageD10()})
	d := &lossv1.Damage{Roll: rr, WeaponDamage: dmg, Total: rr.GetTotal() + dmg, Armour: b.t.sh.GetArmour(), Shield: b.t.sh.GetShieldProtection()}
	if b.t.sh.GetShield() != nil && b.t.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
		d.Shield++ // LOS-091
	}
	beyond := isRanged(b.w) && b.w.GetEffectiveRange() > 0 && b.sit.GetDistance() > b.w.GetEffectiveRange()
	if beyond { // LOS-081
		r.Halvings++
	}
	if halve { // LOS-086
		r.Halvings++
	}
	r.Halved = r.Halvings > 0
	d.Total = Halve(d.Total, r.Halvings)
	d.LevelsLost = max(0, d.Total-d.Armour-d.Shield)
	r.Damage = d
	applyLevels(st, b, r, stand, d.LevelsLost)
	if b.second != nil && !r.GetTargetOut() { // LOS-070: the second weapon on the same target
		rr := roller.Roll(dice.Expr{Count: 1, Sides: 10, Explode: options(st).GetExplodeDamageD10()})
		d2 := &lossv1.Damage{Roll: rr, WeaponDamage: b.second.GetDamage(), Total: rr.GetTotal() + b.second.GetDamage(), Armour: d.Armour, Shield: d.Shield}
		d2.Total = Halve(d2.Total, r.Halvings)
		d2.LevelsLost = max(0, d2.Total-d2.Armour-d2.Shield)
		r.SecondDamage = d2
		applyLevels(st, b, r, stand, d2.LevelsLost)
	}
	return out("")
}

// Halve halves damage n times, each halving rounding down what the previous left, before
// armour (LOS-081, LOS-086): a range halving then a dodge leaves a quarter.
func Halve(damage, n int32) int32 {
	for range n {
		damage /= 2
	}
	return damage
}

// applyLevels takes NS levels off the target's track in r (LOS-021, LOS-022, LOS-024, LOS-073).
func applyLevels(st *encounterv1.EncounterState, b blow, r *lossv1.AttackResolved, stand []E, lost int32) {
	if b.t.isSbire() {
		r.Health = max(0, r.Health-lost)
		r.TargetOut = r.TargetOut || r.Health == 0
		return
	}
	if has(stand, effZone) { // LOS-073: no mortal wound
		lost = min(lost, r.Light+r.Grave+r.Fatal-1)
	}
	for _, box := range []*int32{&r.Light, &r.Grave, &r.Fatal} {
		take := min(lost, *box)
		*box -= take
		lost -= take
	}
	if r.Fatal == 0 {
		r.TargetOut = true
		r.TargetDying = options(st).GetDyingAtZeroFatal() // LOS-023
	}
}

// defenceScore is what a reaction Tests with, and why it cannot be made.
func (sys System) defenceScore(st *encounterv1.EncounterState, d fighter, r *lossv1.React, p *lossv1.PendingAttack, attW *lossv1.Weapon, m *mods) (*lossv1.Score, error) {
	ranged := isRanged(attW)
	switch r.GetReaction() {
	case lossv1.Reaction_REACTION_DODGE:
		if d.sh.GetDodge() == nil {
			return nil, engine.Refused("LOS-018", "%s's sheet has no score to dodge with", d.name())
		}
		if sh := d.sh.GetShield(); sh != nil {
			m.test("shield", "LOS-053", -sh.GetDodgePenalty())
		}
		if ranged && r.GetSituation().GetCoverAtHand() && d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TAKE_COVER, nil) {
			m.test("Take cover specialisation", "LOS-093", 5)
		}
		if has(r.GetEffects(), effTotal) && d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TOTAL_DODGE, nil) {
			m.test("Total dodge specialisation", "LOS-093", 5)
		}
		return d.sh.GetDodge(), nil
	case lossv1.Reaction_REACTION_PARRY:
		if d.sh.GetParry() == nil {
			return nil, engine.Refused("LOS-019", "%s's sheet has no score to parry with", d.name())
		}
		sh := d.sh.GetShield()
		useShield := sh != nil && !r.GetWithWeapon()
		if ranged || p.GetExplosive() {
			if !useShield || sh.GetSize() == lossv1.ShieldSize_SHIELD_SIZE_UNSPECIFIED {
				return nil, engine.Refused("LOS-019", "%s can parry a projectile only with a shield", d.name())
			}
		}
		if useShield {
			m.test("shield", "LOS-053", sh.GetParryBonus())
			if d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
				m.test("Weapon and shield specialisation", "LOS-091", sys.SpecBonus)
			}
			return d.sh.GetParry(), nil
		}
		if has(r.GetEffects(), effWall) {
			return nil, engine.Refused("LOS-066", "a Defensive wall needs a shield")
		}
		var weapon *lossv1.Weapon
		for _, w := range d.sh.GetWeapons() {
			if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE {
				weapon = w
				break
			}
		}
		switch {
		case weapon != nil && !d.cs.GetDisarmed():
			if d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_PARRY, weapon) {
				m.test("Parry specialisation", "LOS-091", sys.SpecBonus)
			}
		case d.sh.GetArmouredForearm():
		case d.cs.GetDisarmed():
			return nil, engine.Refused("LOS-074", "%s has no weapon, shield or armoured forearm to parry with", d.name())
		default:
			return nil, engine.Refused("LOS-019", "%s has no weapon, shield or armoured forearm to parry with", d.name())
		}
		return d.sh.GetParry(), nil
	}
	return nil, engine.Invalid("LOS-009", "%s must choose a reaction: parry, dodge or none", d.name())
}

func (sys System) decideReact(st *encounterv1.EncounterState, id string, r *lossv1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p := lossState(st).GetPending()
	if p == nil {
		return nil, engine.Because(engine.Refused("LOS-009", "no attack is waiting for a parry or a dodge"), engine.ReasonNoPendingReaction, nil)
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
	if p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		return sys.decidePursuitReact(st, p, att, d, r, env)
	}
	w := &lossv1.Weapon{Name: "bare hands", Kind: lossv1.WeaponKind_WEAPON_KIND_UNARMED}
	if p.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
		if w, err = weaponOf(att, p.GetBlowWeapon()); err != nil {
			return nil, err
		}
	}
	b := blow{att: att, t: d, w: w, effects: p.GetExploits(), withDamage: p.GetWithDamage(), manoeuvre: p.GetManoeuvre(),
		sit: p.GetSituation(), phase: sys.blowPhase(p.GetCounter(), p.GetPhase()), explosive: p.GetExplosive()}
	if p.GetSecondWeapon() != "" {
		if b.second, err = weaponOf(att, p.GetSecondWeapon()); err != nil {
			return nil, err
		}
	}
	dr := &lossv1.DefenceRolled{DefenderId: id, Reaction: r.GetReaction(), AttackerId: att.id()}
	if r.GetReaction() == lossv1.Reaction_REACTION_NONE {
		return []*encounterv1.Event{defenceRolled(dr), sys.hit(st, b, 0, false, env.Dice)}, nil
	}
	if d.cs.GetActionPoints() < sys.DefenceCost && d.cs.GetWall() == 0 {
		return nil, engine.Refused("LOS-032", "%s has no PA left; a %s costs %d", d.name(), reactionVerb(r.GetReaction()), sys.DefenceCost)
	}
	m := &mods{}
	score, err := sys.defenceScore(st, d, r, p, w, m)
	if err != nil {
		return nil, err
	}
	u, what := onParry, "a parry"
	if r.GetReaction() == lossv1.Reaction_REACTION_DODGE {
		u, what = onDodge, "a dodge"
	}
	if isRanged(w) { // LOS-085: only the ranged list
		if r.GetReaction() == lossv1.Reaction_REACTION_DODGE {
			u, what = onRangedDodge, "a dodge of a projectile"
		} else {
			u, what = 0, "a parry of a projectile"
		}
	}
	list := r.GetEffects()
	if err := sys.checkEffects(d.name(), list, u, what); err != nil {
		return nil, err
	}
	exploits := max(r.GetExploits(), countExploits(list))
	if r.GetExploits() < 0 || exploits > sys.MaxExploits {
		return nil, engine.Invalid("LOS-012", "%s declares %d Exploits; from 0 to %d may be declared", d.name(), exploits, sys.MaxExploits)
	}
	var counterW *lossv1.Weapon
	if has(list, effCounter) {
		if p.GetCounter() && !sys.CounterOfCounter {
			return nil, engine.Refused("LOS-062", "a counter-attack cannot itself be countered")
		}
		if slices.Contains(d.cs.GetCountered(), att.id()) {
			return nil, engine.Refused("LOS-062", "%s has already counter-attacked %s this Tour", d.name(), att.name())
		}
		if has(list, effTotal) || has(list, effWall) { // they spend all PA: none remain for the attack
			return nil, engine.Refused("LOS-062", "%s's Total dodge or Defensive wall spends all its PA: no counter-attack", d.name())
		}
		if err := sys.hindered(st, d, false, false, true); err != nil { // down or disarmed (LOS-072, LOS-074)
			return nil, err
		}
		if counterW, err = weaponOf(d, r.GetCounterWeapon()); err != nil {
			return nil, err
		}
		if need := sys.DefenceCost + sys.attackCost(d, counterW); d.cs.GetActionPoints() < need {
			return nil, engine.Refused("LOS-062", "%s has %d PA left; the parry or dodge and the counter-attack with %s cost %d", d.name(), d.cs.GetActionPoints(), counterW.GetName(), need)
		}
	}
	if has(list, effWall) && d.cs.GetParried() {
		return nil, engine.Refused("LOS-066", "%s has already parried this Tour; a Defensive wall is raised only on the first parry of the Tour", d.name())
	}
	if has(list, effProtect) {
		ally, err := fighterOf(st, r.GetAllyId())
		if err != nil || ally.id() == d.id() {
			return nil, engine.Invalid("LOS-068", "Protect needs a nearby ally to protect")
		}
	}
	// LOS-092 Unarmed, Defence: +5 once on a Counter-attack with bare hands, a Protect or a Feint.
	if (isBare(counterW) || ((has(list, effProtect) || has(list, effFeint)) && !hasMelee(d))) &&
		d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEFENCE, nil) {
		m.test("Unarmed: Defence specialisation", "LOS-092", 5)
	}
	if err := sys.spendBonus(st, d, r.GetSpend(), m); err != nil {
		return nil, err
	}
	sys.ownModifiers(st, d, r.GetSituation(), m, true)
	defenceExploitBonus(d, m)
	if d.cs.GetProtectBonus() > 0 {
		m.test("protected by an ally", "LOS-068", d.cs.GetProtectBonus())
	}
	if d.cs.GetFeints()[att.id()] >= lossState(st).GetTour() && len(d.cs.GetFeints()) > 0 {
		m.test("feint", "LOS-064", sys.FeintBonus)
	}
	res := sys.roll(st, d, score, p.GetDifficulty(), exploits, m, r.GetSpend(), env.Dice)
	dr.ActionPointsSpent = min(sys.DefenceCost, d.cs.GetActionPoints()) // LOS-036: paid even on a failure; none left behind a wall
	if has(list, effTotal) || has(list, effWall) {
		dr.ActionPointsSpent = d.cs.GetActionPoints() // LOS-063, LOS-066: using it spends all PA, even on a failure
	}
	dr.Exploits = exploits
	dr.Test = res
	dr.Effects = list
	dr.AllyId = r.GetAllyId()
	events := make([]*encounterv1.Event, 1, 2)
	events[0] = defenceRolled(dr)
	total := countExploits(p.GetExploits())
	if res.GetSuccess() { // LOS-013: both succeed, the attack misses
		if p.GetExplosive() { // LOS-086: a successful defence only halves the damage
			return append(events, sys.hit(st, b, 0, true, env.Dice)), nil
		}
		events = append(events, miss(b, ""))
		if counterW != nil { // LOS-062: an immediate attack, whatever the phase
			next := proto.CloneOf(st)
			for _, ev := range events {
				_ = sys.Evolve(next, ev)
			}
			d2, _ := fighterOf(next, d.id())
			more, err := sys.decideAttack(next, d2, &lossv1.Attack{TargetId: att.id(), Weapon: counterW.GetName()}, env, true)
			if err != nil {
				return nil, err
			}
			events = append(events, more...)
		}
		return events, nil
	}
	dr.ExploitsCancelled = sys.PartialDefence(res.GetTotal(), total) // LOS-014 partial defence
	return append(events, sys.hit(st, b, dr.ExploitsCancelled, false, env.Dice)), nil
}

func hasMelee(f fighter) bool {
	for _, w := range f.sh.GetWeapons() {
		if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE && !f.cs.GetDisarmed() {
			return true
		}
	}
	return false
}

func reactionVerb(r lossv1.Reaction) string {
	if r == lossv1.Reaction_REACTION_DODGE {
		return "dodge"
	}
	return "parry"
}

// aimBonus: aim with PA (LOS-035), for a Tour (LOS-084, +15 with Visée), each with the weapon
// aimed only; for a Séquence; they do not stack unless the option says so.
func (sys System) aimBonus(st *encounterv1.EncounterState, f fighter, w *lossv1.Weapon, sit *lossv1.Situation) int32 {
	var pa, tour int32
	if f.cs.GetAimWeapon() == w.GetName() {
		pa = f.cs.GetAimBonus()
	}
	if f.cs.GetAimTourWeapon() == w.GetName() {
		tour = f.cs.GetAimTourBonus()
	}
	long := int32(0)
	if sit.GetAimedLong() {
		long = sys.AimLongBonus
	}
	if options(st).GetAimsStack() { // PA and time stack; a Tour and a Séquence give 15 at most
		return pa + max(tour, long)
	}
	return max(pa, tour, long)
}
