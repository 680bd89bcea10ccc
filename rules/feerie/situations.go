package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Situations of combat: attack angles, sweeps, cover, aiming and mounted combat
// (FEE-090…FEE-144, FEE-172, FEE-175, FEE-184, FEE-185).

func isAttack(in *feeriev1.Intent) bool {
	return in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
}

// mountOf is the mount f rides, when it is in the encounter (FEE-143).
func mountOf(st *encounterv1.EncounterState, f fighter) (fighter, bool) {
	if f.sh.GetMountId() == "" {
		return fighter{}, false
	}
	m, err := fighterOf(st, f.sh.GetMountId())
	return m, err == nil
}

// ridden: someone in the encounter rides f.
func ridden(st *encounterv1.EncounterState, f fighter) bool {
	return slices.ContainsFunc(st.GetCombatants(), func(c *encounterv1.Combatant) bool {
		return c.GetFeerie().GetMountId() == f.id()
	})
}

// Speed is the distance a combatant moves at a pace (FEE-100), divisions rounded as the
// encounter's option says (FEE-171); a rider moves at its mount's (FEE-143).
func Speed(st *encounterv1.EncounterState, id string, p feeriev1.Pace) int32 {
	f, err := fighterOf(st, id)
	if err != nil {
		return 0
	}
	rounding := house(st).GetDivisionRounding()
	if m, ok := mountOf(st, f); ok {
		return paceSpeed(m.sh, p, rounding)
	}
	return paceSpeed(f.sh, p, rounding)
}

// anglesOffered: the angles a defender offers its melee opponents (FEE-090, FEE-143): the
// circumstance's count when given, else the four ground angles, above when an opponent flies
// (not on a ridden mount: its rider is there), below when one burrows (not under a rider: its
// mount is there).
func (sys System) anglesOffered(st *encounterv1.EncounterState, t fighter, opponents []fighter, circ *feeriev1.Circumstances) int32 {
	if n := circ.GetAnglesOffered(); n > 0 {
		return n
	}
	n := sys.n.GroundAngles
	if slices.ContainsFunc(opponents, func(o fighter) bool { return o.sh.GetFlier() }) && !ridden(st, t) {
		n++
	}
	if _, riding := mountOf(st, t); slices.ContainsFunc(opponents, func(o fighter) bool { return o.sh.GetBurrower() }) && !riding {
		n++
	}
	return n
}

// opponents: who is engaged with t in melee when att strikes it (FEE-175). For the angles it
// occupies (room false): the opponents it fought in melee this Action, its potential
// aggressors — every opponent that has declared a melee activity against it, from the start
// of the Action, so that the first attack already meets the full malus — and att. For the
// room left to attack it (room true, FEE-092, FEE-093): those it fought, the melee attacks on
// it queued at this rank, and att. An opponent at 0 Essence or helpless occupies no angle.
func opponents(st *encounterv1.EncounterState, t, att fighter, room bool) []fighter {
	ids := slices.Clone(t.cs.GetEngagedBy())
	if !room {
		ids = append(ids, t.cs.GetAggressors()...)
	} else {
		for _, q := range feerieState(st).GetQueue() {
			in := q.GetAct().GetIntent()
			if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK &&
				(in.GetTargetId() == t.id() || slices.Contains(in.GetAlsoTargetIds(), t.id())) {
				ids = append(ids, q.GetCombatantId())
			}
		}
	}
	ids = append(ids, att.id())
	var out []fighter
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] || id == t.id() {
			continue
		}
		seen[id] = true
		if o, err := fighterOf(st, id); err == nil && (!o.helpless() || id == att.id()) {
			out = append(out, o)
		}
	}
	return out
}

// occupiedAngles: the angles of t occupied when att strikes it in melee (in), each opponent
// filling ceil(its surface / t's angle surface) of them, at most those offered (FEE-091,
// FEE-096). From version 2, an opponent that sweeps t with others fills only its share: the
// surface t takes up of its Attack (FEE-094).
func (sys System) occupiedAngles(st *encounterv1.EncounterState, t, att fighter, in *feeriev1.Intent, circ *feeriev1.Circumstances) int32 {
	opp := opponents(st, t, att, false)
	offered := sys.anglesOffered(st, t, opp, circ)
	var n int32
	for _, o := range opp {
		surface := Surface(o.sh.GetTaille())
		if sys.n.SweepShare && sweeps(o, t, att, in) {
			surface = min(surface, Surface(t.sh.GetTaille()))
		}
		n += anglesFilled(surface, t.sh.GetTaille(), offered)
	}
	return min(n, offered)
}

// sweeps reports whether opponent o strikes t together with other defenders in one Attack
// (FEE-094): by att's attack in when o is att, else by the melee activity o has declared.
func sweeps(o, t, att fighter, in *feeriev1.Intent) bool {
	x := o.cs.GetDeclared()
	if o.id() == att.id() {
		x = in
	}
	return x.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK && len(x.GetAlsoTargetIds()) > 0 &&
		(x.GetTargetId() == t.id() || slices.Contains(x.GetAlsoTargetIds(), t.id()))
}

// checkSweep validates the further defenders of one Attack roll (FEE-094, FEE-095).
func checkSweep(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent) error {
	also := in.GetAlsoTargetIds()
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if in.GetProjectile() != feeriev1.Projectile_PROJECTILE_UNSPECIFIED && !ranged {
		return engine.Invalid("FEE-095", "%s's projectile goes with a ranged attack", f.name())
	}
	if len(also) == 0 {
		return nil
	}
	if !isAttack(in) {
		return engine.Invalid("FEE-094", "%s strikes further defenders only with an attack", f.name())
	}
	if t, err := fighterOf(st, in.GetTargetId()); err == nil && t.inanimate() {
		return engine.Invalid("FEE-094", "%s's sweep strikes creatures: its first target %s is an object, struck on its own with a Damage roll (FEE-023)", f.name(), t.name())
	}
	if ranged && in.GetProjectile() != feeriev1.Projectile_PROJECTILE_BLUNT {
		return engine.Invalid("FEE-095", "%s's piercing projectile hits one target; only a blunt one strikes several", f.name())
	}
	if len(in.GetStrikes()) > 0 {
		return engine.Invalid("FEE-094", "%s strikes several defenders for Damage, without special strikes", f.name())
	}
	tailles := []int32{}
	seen := map[string]bool{in.GetTargetId(): true}
	if t, err := fighterOf(st, in.GetTargetId()); err == nil {
		tailles = append(tailles, t.sh.GetTaille())
	}
	for _, id := range also {
		t, err := fighterOf(st, id)
		if err != nil {
			return err
		}
		if id == f.id() {
			return engine.Invalid("", "%s cannot attack itself", f.name())
		}
		if seen[id] {
			return engine.Invalid("FEE-094", "%s strikes %s once per roll", f.name(), t.name())
		}
		seen[id] = true
		if t.inanimate() {
			return engine.Invalid("FEE-094", "%s strikes the object %s on its own, with a Damage roll (FEE-023)", f.name(), t.name())
		}
		tailles = append(tailles, t.sh.GetTaille())
	}
	if !SweepFits(f.sh.GetTaille(), tailles) {
		var sum int32
		for _, x := range tailles {
			sum += Surface(x)
		}
		rule := "FEE-094"
		if ranged {
			rule = "FEE-095"
		}
		return engine.Refused(rule, "%s (surface %d) cannot strike defenders of surface %d in all with one roll", f.name(), Surface(f.sh.GetTaille()), sum)
	}
	return nil
}

// checkSituation validates an activity's circumstances and, for a melee attack, that the
// attacker finds room among its targets' angles (FEE-090…FEE-093, FEE-110…FEE-112, FEE-172).
func (sys System) checkSituation(st *encounterv1.EncounterState, f fighter, act *feeriev1.Act) error {
	c, in := act.GetCircumstances(), act.GetIntent()
	if n := c.GetAnglesOffered(); n < 0 || n > sys.n.MaxAngles {
		return engine.Invalid("FEE-090", "a defender offers 1 to %d attack angles to %s, not %d", sys.n.MaxAngles, f.name(), n)
	}
	if p := c.GetExposedPermille(); p < 0 || p > 1000 {
		return engine.Invalid("FEE-110", "the exposed proportion %s aims at runs from 1 to 1000 thousandths, not %d", f.name(), p)
	}
	if c.GetExposedPermille() != 0 && c.GetExposedMalus() != 0 {
		return engine.Invalid("FEE-110", "give %s's exposed part either as a proportion or as a malus, not both", f.name())
	}
	if cv := c.GetCover(); cv != nil {
		if c.GetExposedPermille() != 0 || c.GetExposedMalus() != 0 {
			return engine.Invalid("FEE-110", "%s either aims at the exposed part or strikes through the cover, not both", f.name())
		}
		if cv.GetInfluence() != 0 && (cv.GetDomainSoak() != 0 || cv.GetSolidity() != "") {
			return engine.Invalid("FEE-112", "cover created by Influence gives %s's target a Soak tied to its intensity, not a share of the Domain's", f.name())
		}
		if cv.GetInfluence() < 0 {
			return engine.Invalid("FEE-112", "the intensity of an Influence cover is not negative")
		}
		if cv.GetInfluence() == 0 && !slices.Contains([]string{"fragile", "normal", "solid"}, cv.GetSolidity()) {
			return engine.Invalid("FEE-111", "the cover %s strikes through is fragile, normal or solid, not %q", f.name(), cv.GetSolidity())
		}
		if cv.GetOpaque() && cv.GetSemiTransparent() {
			return engine.Invalid("FEE-111", "the cover %s strikes through is opaque or semi-transparent, not both", f.name())
		}
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK && c.GetRangedDifficulty() != feeriev1.RangedDifficulty_RANGED_DIFFICULTY_UNSPECIFIED &&
		!house(st).GetCombineRangedDifficulty() && // the option lets them add up (FEE-172)
		(c.GetDistance() != feeriev1.Range_RANGE_UNSPECIFIED || c.GetLighting() != feeriev1.Lighting_LIGHTING_UNSPECIFIED ||
			c.GetTargetPace() != feeriev1.Pace_PACE_UNSPECIFIED || c.GetTerrain() != feeriev1.Terrain_TERRAIN_UNSPECIFIED || ownPace(st, f, in) != 0) {
		return engine.Invalid("FEE-172", "give %s's shot one global difficulty or itemise it (range, light, paces, terrain), never both", f.name())
	}
	if in.GetKind() != feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK {
		return nil // the angle limits do not apply to ranged attacks (FEE-095)
	}
	for _, id := range append([]string{in.GetTargetId()}, in.GetAlsoTargetIds()...) {
		t, err := fighterOf(st, id)
		if err != nil || t.inanimate() {
			continue
		}
		opp := opponents(st, t, f, true)
		offered := sys.anglesOffered(st, t, opp, c)
		var tailles []int32
		for _, o := range opp {
			tailles = append(tailles, o.sh.GetTaille())
		}
		if MaxAttackers(t.sh.GetTaille(), offered, tailles) {
			continue
		}
		room := Surface(t.sh.GetTaille()) * offered
		for _, o := range opp {
			if Surface(o.sh.GetTaille()) > room {
				return engine.Refused("FEE-093", "%s fills all %d angles %s offers: no one else can attack it (%s)", o.name(), offered, t.name(), f.name())
			}
		}
		return engine.Refused("FEE-092", "%s finds no room to attack %s: its %d angles of surface %d are full", f.name(), t.name(), offered, Surface(t.sh.GetTaille()))
	}
	return nil
}

// ExposedMod is the range table's Defense modifier for the apparent size of the exposed
// proportion of a defender, in thousandths (FEE-110): whole 0, a quarter +4, a tenth +12, a
// hundredth +20, a thousandth +28. Between two rows the nearest one counts, measured as a
// ratio as the table's sizes are, ties to the harder (FEE-185); 0 means no proportion given.
func ExposedMod(permille int32) int32 { return exposedMod(permille, RoundNearest) }

// exposedMod takes, between two rows, the nearest, the harder or the easier one, as the
// option of FEE-185 says.
func exposedMod(permille int32, rounding string) int32 {
	if permille <= 0 {
		return 0
	}
	rows := []struct{ size, mod int32 }{{1000, 0}, {250, 4}, {100, 12}, {10, 20}, {1, 28}}
	for i := 0; i+1 < len(rows); i++ {
		hi, lo := rows[i], rows[i+1]
		if permille >= hi.size {
			return hi.mod
		}
		if permille > lo.size {
			switch rounding {
			case ExposedHarder:
				return lo.mod
			case ExposedEasier:
				return hi.mod
			}
			if int64(permille)*int64(permille) > int64(hi.size)*int64(lo.size) {
				return hi.mod
			}
			return lo.mod
		}
	}
	return rows[len(rows)-1].mod
}

// coverSoak adds a cover's Soak: a share of the Domain's, rounded as FEE-171's option says
// (FEE-111), or the intensity of the Influence that made it (FEE-112).
func coverSoak(o *feeriev1.Options, c *feeriev1.Cover, m *Mods) {
	if c.GetInfluence() > 0 {
		m.add("cover made by Influence", "FEE-112", c.GetInfluence())
		return
	}
	m.add("cover", "FEE-111", coverShare(c, o.GetDivisionRounding()))
}

// aimBonus: +1 per rank of delay, at most +8, lost when the target left sight (FEE-132).
func (sys System) aimBonus(delay int32, circ *feeriev1.Circumstances) int32 {
	if circ.GetSightLost() {
		return 0
	}
	return min(delay, sys.n.MaxAim)
}

// ownPace: the pace malus of an activity; a rider takes none from its mount's pace, unless
// the option says it does (FEE-184).
func ownPace(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent) int32 {
	if _, ok := mountOf(st, f); ok && !house(st).GetRiderPaceMalus() {
		return 0
	}
	return PaceMalus(in.GetPace())
}

// mountedAttack: the mounted terms of an attack's roll: a rider's Affinities are capped by its
// mount Affinities (FEE-144); a foot attacker striking a rider in melee has a malus (FEE-140).
func mountedAttack(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent, m *Mods) {
	if !isAttack(in) {
		return
	}
	if _, ok := mountOf(st, f); ok {
		m.add("mounted: Affinities capped by the mount Affinities", "FEE-144", MountedAffinities(f.sh, in.GetApplied().GetAttack()))
		return
	}
	if in.GetKind() != feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK {
		return
	}
	if t, err := fighterOf(st, in.GetTargetId()); err == nil {
		if mt, ok := mountOf(st, t); ok {
			m.add("striking a rider from the ground", "FEE-140", MountedMalus(mt.sh.GetTaille(), f.sh.GetTaille()))
		}
	}
}

// MountedAffinities is the correction that caps a rider's Attack Attributes (FEE-144): the
// level that counts is the lower of the mount Affinities and the combat Affinities applied,
// whatever their kinds (a general combat +3 with a specific mount +5: 3). Only where several
// add up, with a combat and a mount Affinity of each kind applied (general and specific), do
// the mount Affinities replace the combat ones kind for kind: the lower of each pair counts.
// Other Attributes count in full.
func MountedAffinities(sh *feeriev1.Sheet, names []string) int32 {
	var raw, combatSum, mountSum int32
	combat, mount := map[bool]int32{}, map[bool]int32{}
	hasCombat, hasMount := map[bool]bool{}, map[bool]bool{}
	for _, n := range names {
		a := attribute(sh, n)
		switch {
		case a == nil:
			continue
		case a.GetMount():
			mount[a.GetSpecific()] += a.GetValue()
			hasMount[a.GetSpecific()] = true
			mountSum += a.GetValue()
		case a.GetCombat():
			combat[a.GetSpecific()] += a.GetValue()
			hasCombat[a.GetSpecific()] = true
			combatSum += a.GetValue()
		default:
			continue
		}
		raw += a.GetValue()
	}
	level := min(combatSum, mountSum)
	if hasCombat[false] && hasCombat[true] && hasMount[false] && hasMount[true] { // kind for kind
		level = min(combat[false], mount[false]) + min(combat[true], mount[true])
	}
	return level - raw
}

// mountedCharge: on a mounted charge, the rider's Taille term becomes its own plus its
// mount's when the mount's is positive, else the larger of the two (FEE-142, FEE-184); the
// pace's bonus is the mount's (the rider's intent carries the mount's pace, FEE-143).
func mountedCharge(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent, res *feeriev1.ActivityResolved) {
	mt, ok := mountOf(st, f)
	if !ok || !in.GetCharge() || !in.GetPhysical() {
		return
	}
	d := MountedChargeTaille(f.sh.GetTaille(), mt.sh.GetTaille()) - f.sh.GetTaille()
	if d != 0 {
		res.Damage += d
		res.DamageModifiers = append(res.DamageModifiers, &feeriev1.Modifier{Reason: "mounted charge: Taille of " + mt.name(), Value: d, Rule: "FEE-142"})
	}
}

// riderDefense: a rider that does not attack may defend with its mount's Habileté instead of
// its own (minus its own Taille, as ever); it does when that is better (FEE-141).
func riderDefense(st *encounterv1.EncounterState, t fighter, m *Mods) {
	mt, ok := mountOf(st, t)
	if !ok || isAttack(t.cs.GetDeclared()) {
		return
	}
	if d := mt.sh.GetHabilete() - t.sh.GetHabilete(); d > 0 {
		m.add("Habileté of its mount "+mt.name()+" instead of its own", "FEE-141", d)
	}
}

// sweep resolves the further defenders of one Attack roll, each against its own Defense,
// each one hit taking the Damage (FEE-094, FEE-095).
func (sys System) sweep(st *encounterv1.EncounterState, f fighter, q *feeriev1.Queued, res *feeriev1.ActivityResolved) {
	in, circ := q.GetAct().GetIntent(), q.GetAct().GetCircumstances()
	if res.GetAttack() == nil || !isAttack(in) {
		return
	}
	for _, id := range in.GetAlsoTargetIds() {
		t, err := fighterOf(st, id)
		if err != nil {
			continue
		}
		s := &feeriev1.Struck{TargetId: id, TargetEssence: t.cs.GetEssence()}
		dm := sys.defense(st, t, f, in, circ, q.GetRank())
		s.Defense, s.DefenseModifiers = dm.sum(), dm
		tv, err := sys.ComputeValues(t.sh, physicalCopy(t.cs.GetDeclared(), in.GetPhysical()))
		if err != nil {
			tv = &Values{}
			tv.Soak.add("Résistance", "FEE-015", t.sh.GetResistance())
		}
		soak := tv.Soak
		o := house(st)
		coverSoak(o, circ.GetCover(), &soak)
		s.Soak, s.SoakModifiers = soak.sum(), soak
		s.Margin = res.GetAttack().GetTotal() - s.GetDefense()
		s.Success = succeeds(o, s.GetMargin()) // FEE-002
		if s.GetSuccess() {
			s.EssenceLost = sys.HitLoss(o, s.GetMargin(), res.GetDamage(), s.GetSoak(), t.cs.GetEssence(), nil) // FEE-003, FEE-021
			s.TargetEssence -= s.GetEssenceLost()
		}
		res.Also = append(res.Also, s)
	}
}

// struck folds the further defenders of a sweep: their Essence, and the melee engagement
// (FEE-094, FEE-175).
func struck(s *feeriev1.State, attacker string, r *feeriev1.ActivityResolved) {
	melee := r.GetIntent().GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK
	for _, x := range r.GetAlso() {
		t := s.GetCombatants()[x.GetTargetId()]
		if t == nil {
			continue
		}
		if melee {
			engage(s, attacker, x.GetTargetId())
		}
		if x.GetSuccess() {
			t.Essence = x.GetTargetEssence()
		}
	}
}

// engage: a melee attack engages attacker and defender with each other (FEE-175).
func engage(s *feeriev1.State, a, b string) {
	for _, p := range [][2]string{{a, b}, {b, a}} {
		if cs := s.GetCombatants()[p[1]]; cs != nil && !slices.Contains(cs.GetEngagedBy(), p[0]) {
			cs.EngagedBy = append(cs.EngagedBy, p[0])
		}
	}
}
