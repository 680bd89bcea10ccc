package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

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
