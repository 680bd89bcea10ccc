package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
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
// successful defence: the weapon and what it may do, the cost, the targets, the Test with its
// Difficulty and bonuses (LOS-010, LOS-050…LOS-054, LOS-080…LOS-092), then each target's blow,
// struck at once when it cannot be defended (LOS-009).
func (sys System) decideAttack(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, env engine.Env, counter bool) ([]*encounterv1.Event, error) {
	w, score, err := attackWeapon(f, a)
	if err != nil {
		return nil, err
	}
	if err := sys.mayAttackWith(st, f, w, a.GetExploits(), counter); err != nil {
		return nil, err
	}
	cost, second, err := sys.attackPrice(f, a, w, counter)
	if err != nil {
		return nil, err
	}
	targets, err := sys.attackTargets(st, f, a, w, counter)
	if err != nil {
		return nil, err
	}
	t := targets[0]
	exploits := countExploits(a.GetExploits())
	m := &mods{}
	if err := sys.spendBonus(st, f, a.GetSpend(), m); err != nil {
		return nil, err
	}
	base, err := sys.attackBase(st, f, t, w, a.GetSituation())
	if err != nil {
		return nil, err
	}
	sys.attackDifficulty(st, f, a, w, targets, m)
	sys.attackBonuses(st, f, a, w, t, m)
	specialisationBonuses(f, a.GetExploits(), w, t, m)
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
		Exploits:          a.GetExploits(),
		Test:              res,
		Counter:           counter,
		Manoeuvre:         a.GetManoeuvre(),
		Situation:         a.GetSituation(),
		SecondWeapon:      second.GetName(),
		WithDamage:        a.GetWithDamage(),
		DefenceDifficulty: defenceDifficulty,
	}
	if a.GetManoeuvre() != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
		ar.Weapon = ""
	}
	reactions := sys.targetReactions(st, a, w, res, targets)
	ar.DefencePossible, ar.NoDefenceReason = reactions[0].GetDefencePossible(), reactions[0].GetNoDefenceReason()
	ar.MoreTargets = reactions[1:]
	return sys.blowsStruck(st, f, ar, w, second, targets, reactions, env.Dice), nil
}

// attackWeapon is what an attack strikes with and the score its Test uses: the weapon named,
// or bare hands and Athletics for a grab or a trip, which take no Exploits (LOS-035).
func attackWeapon(f fighter, a *lossv1.Attack) (*lossv1.Weapon, *lossv1.Score, error) {
	if a.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
		w, err := weaponOf(f, a.GetWeapon())
		if err != nil {
			return nil, nil, err
		}
		return w, w.GetAttack(), nil
	}
	if f.sh.GetAthletics() == nil {
		return nil, nil, engine.Refused("LOS-035", "%s's sheet has no Athletics to grab or trip with", f.name())
	}
	if len(a.GetExploits()) > 0 {
		return nil, nil, engine.Invalid("LOS-035", "a grab or a trip takes no Exploits")
	}
	return &lossv1.Weapon{Name: "bare hands", Kind: lossv1.WeaponKind_WEAPON_KIND_UNARMED}, f.sh.GetAthletics(), nil
}

// mayAttackWith refuses an attack f may not make with w: down or disarmed (LOS-072, LOS-074;
// not a counter-attack, which hindered checked when it was declared), a heavy weapon mounted
// (LOS-090), Exploits not of a melee or ranged attack (LOS-060, LOS-085).
func (sys System) mayAttackWith(st *encounterv1.EncounterState, f fighter, w *lossv1.Weapon, list []E, counter bool) error {
	if err := sys.hindered(st, f, false, false, true); err != nil && !counter {
		return err
	}
	if f.sh.GetMounted() && w.GetHeavy() {
		return engine.Refused("LOS-090", "%s cannot use the heavy %s mounted", f.name(), w.GetName())
	}
	u, what := onMelee, "a melee attack"
	if isRanged(w) {
		u, what = onRanged, "a ranged attack"
	}
	return sys.checkEffects(f.name(), list, u, what)
}

// attackPrice is an attack's PA cost and, with Two weapons, its second weapon: the weapon's
// (LOS-035), a grab's or trip's, an Assaut's once a Tour with a weapon that has an Assaut value
// (LOS-061), the slower weapon with Two weapons (LOS-070); lowered by a wait (LOS-040) and
// within the PA left, but for a counter-attack, whose PA the defence checked (LOS-062).
func (sys System) attackPrice(f fighter, a *lossv1.Attack, w *lossv1.Weapon, counter bool) (int32, *lossv1.Weapon, error) {
	list := a.GetExploits()
	var second *lossv1.Weapon
	var err error
	cost := sys.attackCost(f, w)
	switch {
	case a.GetManoeuvre() != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED:
		cost = sys.ManoeuvreCost
	case has(list, effAssaut):
		if w.GetAssautDamage() <= 0 {
			return 0, nil, engine.Refused("LOS-061", "%s is not a weapon to charge with (no Assaut value)", w.GetName())
		}
		if f.cs.GetAssautUsed() {
			return 0, nil, engine.Refused("LOS-061", "%s has already made an Assaut this Tour", f.name())
		}
		cost = sys.AssautCost
	case has(list, effTwo):
		if second, err = weaponOf(f, a.GetSecondWeapon()); err != nil || second.GetName() == w.GetName() {
			return 0, nil, engine.Invalid("LOS-070", "Two weapons needs a second weapon of %s's, other than %s", f.name(), w.GetName())
		}
		cost = max(cost, sys.attackCost(f, second))
	}
	if !counter {
		cost = sys.cost(f, cost)
		if err := needPA(f, cost, "an attack with ", w.GetName()); err != nil {
			return 0, nil, err
		}
	}
	return cost, second, nil
}

// attackTargets are the fighters an attack reaches: one, or as many as its multi-target
// Exploit allows (LOS-026, LOS-070, LOS-071, LOS-077, LOS-085), each in the fight, named once,
// not past the cap of melee attackers (LOS-051), human-sized for Kill outright (LOS-078).
func (sys System) attackTargets(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, w *lossv1.Weapon, counter bool) ([]fighter, error) {
	list := a.GetExploits()
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
	return targets, nil
}

// attackBase is the base Difficulty an attack passes on to its defenders (LOS-010, LOS-012):
// the Seuil in melee; by distance at range (LOS-080), in units in a pursuit (LOS-100), and no
// hit at all beyond the weapon's Limite (LOS-081).
func (sys System) attackBase(st *encounterv1.EncounterState, f, t fighter, w *lossv1.Weapon, sit *lossv1.Situation) (int32, error) {
	if !isRanged(w) {
		return sys.BaseDifficulty, nil
	}
	if lim := w.GetLimit(); lim > 0 && sit.GetDistance() > lim {
		return 0, engine.Refused("LOS-081", "%s is %d m away, beyond the Limite of %s (%d m): it cannot hit", t.name(), sit.GetDistance(), w.GetName(), lim)
	}
	if u := pursuitUnits(st, f.id(), t.id()); u > 0 {
		return DistanceDifficulty(u), nil // LOS-100: in a pursuit the distance is in units
	}
	return RangedDifficulty(sit.GetDistance()), nil
}

// attackDifficulty adds to an attack's Difficulty: the attacker's own state and situation
// (LOS-022, LOS-050, LOS-069), the Two weapons specialisation off-hand (LOS-091), an obstacle in
// melee (LOS-050), cover and a pursuit at range (LOS-083, LOS-101), the highest wall among the
// targets (LOS-066) and their armour against aimed blows and Kill outright (LOS-079).
func (sys System) attackDifficulty(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, w *lossv1.Weapon, targets []fighter, m *mods) {
	sit, list := a.GetSituation(), a.GetExploits()
	sys.ownModifiers(st, f, sit, m, false)
	defenceExploitBonus(f, m)
	if sit.GetOffHand() && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TWO_WEAPONS, w) {
		m.difficulty("Two weapons specialisation", "LOS-091", -5)
	}
	if sit.GetBehindObstacle() && !isRanged(w) {
		m.difficulty("opponent behind an obstacle", "LOS-050", 10)
	}
	if isRanged(w) {
		m.difficulty("cover", "LOS-083", coverDifficulty(a, targets[0]))
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
}

// coverDifficulty is what cover adds to a shot (LOS-083): +10 partial, +15 full, none for a
// Ricochet (LOS-085); a large shield is cover against fire from an unknown direction (LOS-019).
func coverDifficulty(a *lossv1.Attack, t fighter) int32 {
	sit := a.GetSituation()
	cover := int32(0)
	switch sit.GetCover() {
	case lossv1.Cover_COVER_PARTIAL:
		cover = 10
	case lossv1.Cover_COVER_FULL:
		cover = 15
	}
	if has(a.GetExploits(), effRicochet) {
		cover = 0
	} else if sit.GetCover() == lossv1.Cover_COVER_UNSPECIFIED && a.GetUnseen() && t.sh.GetShield().GetSize() == lossv1.ShieldSize_SHIELD_SIZE_LARGE {
		cover = 10 // a large shield is cover against fire from an unknown direction (LOS-019)
	}
	return cover
}

// attackBonuses adds to an attack's Test what the situation gives (LOS-052, LOS-054, LOS-083,
// LOS-084, LOS-090, LOS-091, LOS-064). Striking a prone target, in melee or at range (LOS-083:
// all melee modifiers apply), down or on the ground as the GM says (LOS-035), +10 once, not
// stacked with standing over it.
func (sys System) attackBonuses(st *encounterv1.EncounterState, f fighter, a *lossv1.Attack, w *lossv1.Weapon, t fighter, m *mods) {
	sit, ranged := a.GetSituation(), isRanged(w)
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
}

// specialisationBonuses adds the +5 of the specialisations of the Exploits declared: Charge
// and Disarm with a weapon (LOS-091), Unarmed Disarm, Attack, Deadly blow and Defence
// (LOS-092), Fortification destruction against a structure (LOS-090).
func specialisationBonuses(f fighter, list []E, w *lossv1.Weapon, t fighter, m *mods) {
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
	if countExploits(list) > 0 && t.sh.GetStructure() && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_FORTIFICATION_DESTRUCTION, w) {
		m.test("Fortification destruction specialisation", "LOS-090", 5)
	}
}

// targetReactions says, for each target of a successful attack, whether it may parry or dodge,
// and why not: it does not see the attack (LOS-017), it is surprised (LOS-052), its wall is its
// defence (LOS-066), it has no PA left (LOS-032), it is under full cover from a blast (LOS-086).
func (sys System) targetReactions(st *encounterv1.EncounterState, a *lossv1.Attack, w *lossv1.Weapon, res *lossv1.TestResult, targets []fighter) []*lossv1.TargetReaction {
	sit := a.GetSituation()
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
	return reactions
}

// blowsStruck are the attack's events: its Test, then each blow that needs no reaction: a miss
// when the attack fails or a blast meets full cover (LOS-086), a hit on a target that cannot
// defend (LOS-009). The others await their reactions.
func (sys System) blowsStruck(st *encounterv1.EncounterState, f fighter, ar *lossv1.AttackRolled, w, second *lossv1.Weapon, targets []fighter, reactions []*lossv1.TargetReaction, roller dice.Roller) []*encounterv1.Event {
	res, sit := ar.GetTest(), ar.GetSituation()
	events := make([]*encounterv1.Event, 1, 1+len(targets))
	events[0] = attackRolled(ar)
	for i, x := range targets {
		b := blowOf(f, x, ar, i, w, second)
		b.phase = sys.blowPhase(ar.GetCounter(), b.phase)
		if len(targets) == 1 && second != nil {
			b.second = second
		}
		switch {
		case !res.GetSuccess():
			events = append(events, miss(b, "the attack fails"))
		case w.GetExplosive() && sit.GetCover() == lossv1.Cover_COVER_FULL:
			events = append(events, miss(b, "full cover: the blast does not reach"))
		case !reactions[i].GetDefencePossible():
			events = append(events, sys.hit(st, b, 0, false, roller))
		}
	}
	return events
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
