package feerie

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

func has(list []feeriev1.SpecialStrike, s feeriev1.SpecialStrike) bool {
	return slices.Contains(list, s)
}

// activityMalus: what a character's conditions weigh on its activity rolls (FEE-151…FEE-153,
// FEE-178), and Keep at bay / Enter the guard on its attacks against their striker (FEE-180),
// or on all its attacks when the option says so.
func (sys System) activityMalus(o *feeriev1.Options, f fighter, target string, attack bool, m *Mods) {
	sys.conditionMalus(f, m)
	for _, c := range f.cs.GetConditions() {
		against := attack && (c.GetBy() == target || o.GetGuardMalusAllAttacks())
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
			if against {
				m.add("kept at bay", "FEE-154", -sys.n.GuardMalus)
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			if against {
				m.add("inside its guard", "FEE-159", -sys.n.GuardMalus)
			}
		}
	}
}

// conditionMalus: "a malus to all its activities" of Trip, Entangle and Stun (FEE-151…FEE-153);
// on activity rolls, and on Defense and Initiative when the options of FEE-178 say so.
func (sys System) conditionMalus(f fighter, m *Mods) {
	if f.cs.GetProne() {
		m.add("down", "FEE-151", -sys.n.TripMalus)
	}
	for _, c := range f.cs.GetConditions() {
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			m.add("entangled", "FEE-152", -c.GetMalus())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			m.add("stunned", "FEE-153", -c.GetMalus())
		}
	}
}

// defense is a character's Defense at a rank against an attack (FEE-013, FEE-020, FEE-022,
// FEE-050, FEE-061, FEE-070, FEE-080, FEE-091, FEE-130, FEE-131, FEE-156).
func (sys System) defense(st *encounterv1.EncounterState, t fighter, att fighter, in *feeriev1.Intent, circ *feeriev1.Circumstances, rank int32) Mods {
	var m Mods
	o := house(st)
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if circ.GetUndefended() || t.helpless() { // FEE-022, FEE-174
		m.add("helpless or not defending", "FEE-022", 0)
		if ranged {
			m.add("range", "FEE-131", RangeMod(circ.GetDistance()))
			m.add("lighting", "FEE-120", 0)
			if o.GetHelplessImmobileAtRange() { // the option of FEE-174
				m.add("helpless: an immobile target", "FEE-174", RangedDifficultyMod(feeriev1.RangedDifficulty_RANGED_DIFFICULTY_TRIVIAL))
			}
		}
		return m
	}
	declared := t.cs.GetDeclared()
	if declared == nil {
		declared = &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
	}
	d := protoClone(declared)
	d.Physical = in.GetPhysical()
	v, err := sys.ComputeValues(t.sh, d)
	if err != nil {
		v = &Values{}
		v.Defense.add("Habileté", "FEE-013", t.sh.GetHabilete())
	}
	m = append(m, v.Defense...)
	// A rider that does not attack may defend with its mount's Habileté (FEE-141).
	riderDefense(st, t, &m)
	if has(in.GetStrikes(), feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM) { // FEE-150, FEE-183
		m.add("Disarm: Puissance instead of Habileté", "FEE-150", t.sh.GetPuissance()-t.sh.GetHabilete())
	}
	m.add("tactic", "FEE-031", t.cs.GetTactic().GetDefense())
	m.add("anticipations, further activities, changes of intention", "FEE-050", -defensePenalties(t.cs, rank)+sys.pendingDefense(st, t.id(), rank))
	m.add("penalties of the last Action", "FEE-062", -t.cs.GetThisAction())
	if t.cs.GetSurprisedActions() > 0 {
		m.add("surprised", "FEE-080", -sys.n.SurpriseDefense)
	}
	if t.cs.GetRelentless() {
		m.add("relentless", "FEE-156", -sys.n.RelentlessDefense)
	}
	if o.GetActivityMalusOnDefense() { // the option of FEE-178
		sys.conditionMalus(t, &m)
	}
	if o.GetLightingOnDefense() { // the option of FEE-173
		m.add("lighting on Defense", "FEE-173", LightingMalus(circ.GetLighting(), ranged))
	}
	if ranged {
		m.add("ranged difficulty", "FEE-130", RangedDifficultyMod(circ.GetRangedDifficulty()))
		m.add("range", "FEE-131", RangeMod(circ.GetDistance()))
	} else {
		m.add("attack angles occupied", "FEE-091", sys.AngleDefenseMalus(sys.occupiedAngles(st, t, att, in, circ))) // FEE-090, FEE-096, FEE-175
	}
	return m
}

// resolve performs one queued activity (FEE-020…FEE-023, FEE-149…FEE-159), then its sweep
// (FEE-094, FEE-095).
func (sys System) resolve(st *encounterv1.EncounterState, q *feeriev1.Queued, roller dice.Roller) *encounterv1.Event {
	f, _ := fighterOf(st, q.GetCombatantId())
	res := &feeriev1.ActivityResolved{CombatantId: f.id(), Rank: q.GetRank(), Intent: q.GetAct().GetIntent(), EssenceSpent: q.GetAct().GetEssence()}
	sys.perform(st, f, q, res, roller)
	sys.sweep(st, f, q, res) // FEE-094, FEE-095
	return event(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: res}})
}

// perform writes into res what f's activity does: nothing to roll for a passive one, getting
// up or picking a weapon up; a roll against a difficulty for another activity (FEE-002) or
// to break free (FEE-152); an attack otherwise (resolveAttack).
func (sys System) perform(st *encounterv1.EncounterState, f fighter, q *feeriev1.Queued, res *feeriev1.ActivityResolved, roller dice.Roller) {
	in := q.GetAct().GetIntent()
	v, err := sys.ComputeValues(f.sh, in)
	if err != nil {
		res.Note = "the activity no longer holds: " + err.Error()
		return
	}
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		res.Note = "no roll"
		return
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		res.Success, res.Note = true, f.name()+" gets up"
		return
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		res.Success, res.Note = true, f.name()+" picks its weapon up"
		return
	}
	o := house(st)
	m := sys.activityMods(st, f, q, v)
	r, net := rollDice(st, roller)
	r.Score, r.Modifiers, r.Total = m.sum(), m, m.sum()+net
	res.Attack = r
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		res.Defense, res.Margin = in.GetDifficulty(), r.GetTotal()-in.GetDifficulty()
		res.Success = succeeds(o, res.GetMargin()) // FEE-002
		fumble(st, f, v, res)
		return
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		against := int32(0)
		for _, c := range f.cs.GetConditions() {
			if c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE {
				against = max(against, c.GetFreeAgainst())
			}
		}
		res.Defense, res.Margin = against, r.GetTotal()-against
		res.Success = succeeds(o, res.GetMargin()) // FEE-002
		return
	}
	sys.resolveAttack(st, f, q, v, res, net)
}

// activityMods are the modifiers of an activity's roll: the Aspect or Attack with the
// Affinities applied (FEE-011, FEE-012), Puissance to break free (FEE-152), a frightening blow's
// bonus (FEE-181), the tactic (FEE-031), anticipation and the rest (FEE-050, FEE-062), the
// conditions (FEE-151…FEE-159), lighting, pace, mount, special strikes, range, aim, cover,
// exposure, the GM's modifier and the Essence spent (FEE-005).
func (sys System) activityMods(st *encounterv1.EncounterState, f fighter, q *feeriev1.Queued, v *Values) Mods {
	in, circ, o := q.GetAct().GetIntent(), q.GetAct().GetCircumstances(), house(st)
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	var m Mods
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_FREE {
			m.add("Puissance", "FEE-152", f.sh.GetPuissance())
		} else {
			m.add(in.GetAspect(), "FEE-001", aspect(f.sh, in.GetAspect()))
			_ = applied(f.sh, in.GetApplied().GetAttack(), "FEE-011", &m)
			if in.GetIntimidation() {
				m.add("frightening blow", "FEE-181", IntimidationBonus(f.cs, in.GetTargetId()))
			}
		}
	default:
		m = append(m, v.Attack...)
	}
	m.add("tactic", "FEE-031", f.cs.GetTactic().GetAttack())
	m.add("anticipation, further activity, change of intention", "FEE-050", -q.GetRollPenalty())
	m.add("penalties of the last Action", "FEE-062", -f.cs.GetThisAction())
	sys.activityMalus(o, f, in.GetTargetId(), in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || ranged, &m)
	m.add("lighting", "FEE-120", LightingMalus(circ.GetLighting(), ranged))
	m.add("pace", "FEE-100", ownPace(st, f, in)) // FEE-184
	mountedAttack(st, f, in, &m)                 // FEE-140, FEE-144
	for _, s := range in.GetStrikes() {
		t, _ := fighterOf(st, in.GetTargetId())
		m.add("special strike "+s.String(), "FEE-149", StrikeMalus(s, ranged, f.sh.GetTaille(), t.sh.GetTaille()))
	}
	if ranged {
		m.add("target's pace", "FEE-133", TargetPaceMalus(circ.GetTargetPace()))
		m.add("terrain", "FEE-133", TerrainMod(circ.GetTerrain()))
		m.add("aim", "FEE-132", sys.aimBonus(q.GetDelay(), circ))
	}
	m.add("cover", "FEE-111", CoverAttackMalus(circ.GetCover()))
	m.add("exposed part", "FEE-110", -abs(circ.GetExposedMalus()))
	m.add("exposed proportion", "FEE-110", -exposedMod(circ.GetExposedPermille(), o.GetExposedRounding())) // FEE-185
	m.add("GM", "FEE-036", circ.GetModifier())
	m.add("Essence spent", "FEE-005", q.GetAct().GetEssence())
	return m
}

// resolveAttack: the attacker's Damage and the target's Soak (FEE-014, FEE-015), then a Damage
// roll against an object (FEE-023, FEE-026), or the Attack roll against its Defense or a small
// object's difficulty (FEE-020, FEE-025); a hit takes Essence (FEE-021) or its special strikes
// take effect (FEE-149…FEE-159). net is the roll's dice, already rolled.
func (sys System) resolveAttack(st *encounterv1.EncounterState, f fighter, q *feeriev1.Queued, v *Values, res *feeriev1.ActivityResolved, net int32) {
	in, circ, o := q.GetAct().GetIntent(), q.GetAct().GetCircumstances(), house(st)
	t, _ := fighterOf(st, in.GetTargetId())
	sys.damageAndSoak(st, f, t, q, v, res)
	small := circ.GetSmallObjectDifficulty()
	if t.inanimate() && small == 0 { // FEE-023, FEE-026: no Attack roll against an object, a Damage roll
		sys.damageRoll(st, f, t, q, res, net)
		return
	}
	dm := sys.defense(st, t, f, in, circ, q.GetRank())
	if t.inanimate() { // a small object: an Attack roll against a difficulty (FEE-025)
		dm = Mods{{Reason: "difficulty of hitting a small object", Value: small, Rule: "FEE-025"}}
	}
	res.Defense, res.DefenseModifiers = dm.sum(), dm
	res.Margin = res.GetAttack().GetTotal() - res.GetDefense()
	res.Success = succeeds(o, res.GetMargin()) // FEE-002, FEE-020
	res.TargetEssence = t.cs.GetEssence()
	if !res.GetSuccess() {
		fumble(st, f, v, res)
		if f.cs.GetRelentless() {
			res.Note = "the weapon is dislodged: the relentless strike ends (FEE-156)"
		}
		return
	}
	res.EssenceLost = sys.HitLoss(o, res.GetMargin(), res.GetDamage(), res.GetSoak(), t.cs.GetEssence(), in.GetStrikes()) // FEE-021, FEE-149
	sys.strikeConditions(o, f, t, in, res)
	res.TargetEssence = t.cs.GetEssence() - res.GetEssenceLost()
}

// damageAndSoak: the attacker's Damage, with a charge (FEE-101), a mounted charge (FEE-142,
// FEE-184) and a relentless strike's quarter of the previous loss (FEE-156, FEE-171); the
// target's Soak, with its cover (FEE-111, FEE-112, FEE-171).
func (sys System) damageAndSoak(st *encounterv1.EncounterState, f, t fighter, q *feeriev1.Queued, v *Values, res *feeriev1.ActivityResolved) {
	in, o := q.GetAct().GetIntent(), house(st)
	res.Damage = v.Damage.sum()
	res.DamageModifiers = v.Damage
	if in.GetCharge() {
		res.Damage += ChargeDamage(in.GetPace())
		res.DamageModifiers = append(res.DamageModifiers, &feeriev1.Modifier{Reason: "charge", Value: ChargeDamage(in.GetPace()), Rule: "FEE-101"})
	}
	mountedCharge(st, f, in, res) // FEE-142, FEE-184
	if b := div(o, f.cs.GetLastLoss(), 4); b > 0 && has(in.GetStrikes(), feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS) {
		res.Damage += b // a quarter of the previous loss, rounded down (FEE-156, FEE-171)
		res.DamageModifiers = append(res.DamageModifiers, &feeriev1.Modifier{Reason: "relentless", Value: b, Rule: "FEE-156"})
	}
	tv, err := sys.ComputeValues(t.sh, physicalCopy(t.cs.GetDeclared(), in.GetPhysical()))
	if err != nil {
		tv = &Values{}
		tv.Soak.add("Résistance", "FEE-015", t.sh.GetResistance())
	}
	soak := tv.Soak
	coverSoak(o, q.GetAct().GetCircumstances().GetCover(), &soak) // FEE-111, FEE-112, FEE-171
	res.Soak, res.SoakModifiers = soak.sum(), soak
}

// damageRoll: against an inanimate object, no Attack roll but a Damage roll (FEE-023, FEE-026);
// a negative total is an incident. The roll carries every malus on the activity: anticipation
// and the rest, the last Action's penalties, trip, stun and entanglement, lighting, pace, the
// GM's modifier.
func (sys System) damageRoll(st *encounterv1.EncounterState, f, t fighter, q *feeriev1.Queued, res *feeriev1.ActivityResolved, net int32) {
	in, circ, o := q.GetAct().GetIntent(), q.GetAct().GetCircumstances(), house(st)
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	dm := append(Mods{}, res.GetDamageModifiers()...)
	dm.add("anticipation, further activity, change of intention", "FEE-050", -q.GetRollPenalty())
	dm.add("penalties of the last Action", "FEE-062", -f.cs.GetThisAction())
	sys.activityMalus(o, f, in.GetTargetId(), true, &dm) // FEE-151…FEE-154, FEE-159, FEE-178
	dm.add("lighting", "FEE-120", LightingMalus(circ.GetLighting(), ranged))
	dm.add("pace", "FEE-100", ownPace(st, f, in))
	dm.add("GM", "FEE-036", circ.GetModifier())
	dm.add("Essence spent", "FEE-005", q.GetAct().GetEssence())
	r := res.GetAttack()
	r.Score, r.Modifiers, r.Total = dm.sum(), dm, dm.sum()+net
	total := r.GetTotal()
	res.Margin = total
	res.Success = total >= 0
	res.Fumble = total < 0
	res.EssenceLost = min(max(0, total-res.GetSoak()), t.cs.GetEssence())
	res.TargetEssence = t.cs.GetEssence() - res.GetEssenceLost()
	res.Note = fmt.Sprintf("an object: Damage roll %d", total)
}

// strikeConditions: what each special strike of a hit leaves on its target (FEE-149…FEE-159,
// FEE-181): Entangle's malus and what breaks it (FEE-152), Stun's malus (FEE-153), Keep at
// bay / Enter the guard, which only cancel the other's effect on their striker (FEE-154,
// FEE-159), Cripple (FEE-155), a frightening blow's bonus (FEE-157, FEE-181), Knockback's distance
// (FEE-158), Relentless's Defense malus (FEE-177).
func (sys System) strikeConditions(o *feeriev1.Options, f, t fighter, in *feeriev1.Intent, res *feeriev1.ActivityResolved) {
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	half := halfMargin(o, res.GetMargin()) // FEE-003
	would := wouldLose(o, res.GetMargin(), res.GetDamage(), res.GetSoak())
	before := beforeSoak(o, res.GetMargin(), res.GetDamage())
	for _, s := range in.GetStrikes() {
		c := &feeriev1.Condition{Strike: s, By: f.id()}
		switch s {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			c.Malus = res.GetMargin()
			c.FreeAgainst = f.sh.GetPuissance()
			if ranged {
				c.FreeAgainst = res.GetDamage() + half
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			c.Malus = max(0, stunMalus(o, would, half, res.GetDamage())) // FEE-153
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			c.Malus = sys.n.GuardMalus
			other := feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD + feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY - s
			if slices.ContainsFunc(f.cs.GetConditions(), func(x *feeriev1.Condition) bool { return x.GetStrike() == other && x.GetBy() == t.id() }) {
				c.Malus = 0 // it only cancels the other's effect (FEE-154, FEE-159)
				res.Note = fmt.Sprintf("%s cancels %s's %s", f.name(), t.name(), other)
			}
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			if !sys.cripples(o, res.GetMargin(), res.GetDamage(), res.GetSoak()) {
				continue
			}
			c.Ranks = before
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
			c.Malus = max(0, div(o, before, 4)) // FEE-181: the striker's bonus, none for no Damage; FEE-171
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
			c.Distance = max(0, div(o, before, 4)) // FEE-158: no distance for no Damage; FEE-171
			res.Note = fmt.Sprintf("%s is thrown %d distance units (FEE-158)", t.name(), c.GetDistance())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
			c.Malus = sys.n.RelentlessDefense // on the striker's Defense until its weapon is dislodged (FEE-177)
		}
		res.Conditions = append(res.Conditions, c)
	}
}

// wouldLose is what a hit of margin would take from its target: floor(margin/2) + Damage −
// Soak (FEE-003, FEE-021), before the bounds of its Essence.
func wouldLose(o *feeriev1.Options, margin, damage, soak int32) int32 {
	return halfMargin(o, margin) + damage - soak
}

// beforeSoak is the "Damage inflicted (before Soak)" of Cripple, Frightening blow and
// Knockback: floor(margin/2) + Damage, or the Damage alone as the option says (FEE-176).
func beforeSoak(o *feeriev1.Options, margin, damage int32) int32 {
	if o.GetDamageBeforeSoak() == BeforeSoakDamage {
		return damage
	}
	return halfMargin(o, margin) + damage
}

// HitLoss is the Essence a successful attack of margin takes from a target left with essence:
// the would-be loss within 0…essence (FEE-021), none when a special strike other than
// Relentless replaces the Damage (FEE-149). Decide and the odds both count with it.
func (sys System) HitLoss(o *feeriev1.Options, margin, damage, soak, essence int32, strikes []feeriev1.SpecialStrike) int32 {
	if replacing(strikes) {
		return 0
	}
	return min(max(0, wouldLose(o, margin, damage, soak)), essence)
}

// StrikesTakeEffect reports whether the special strikes of a successful attack of margin take
// effect (FEE-149): all do but a Cripple that does not cripple (FEE-155).
func (sys System) StrikesTakeEffect(o *feeriev1.Options, margin, damage, soak int32, strikes []feeriev1.SpecialStrike) bool {
	return !has(strikes, feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE) || sys.cripples(o, margin, damage, soak)
}

// cripples: a Cripple takes effect if at least 1 Essence would be lost (FEE-155); from version
// 2, only for a duration — the Damage before Soak — of at least 1 rank (« pendant un nombre de
// rangs »: below 1 there is nothing to record, not an organ "crippled for −2 ranks").
func (sys System) cripples(o *feeriev1.Options, margin, damage, soak int32) bool {
	if wouldLose(o, margin, damage, soak) < 1 {
		return false
	}
	return !sys.n.CrippleNeedsARank || beforeSoak(o, margin, damage) >= 1
}

// fumble: a failure by the fumble margin or more (FEE-004); hurting oneself would cost
// floor(|margin|/2) + own Damage − own Soak.
func fumble(st *encounterv1.EncounterState, f fighter, v *Values, res *feeriev1.ActivityResolved) {
	if o := house(st); res.GetMargin() <= -o.GetFumbleMargin() {
		res.Fumble = true
		res.SelfHarm = max(0, halfMargin(o, abs(res.GetMargin()))+v.Damage.sum()-v.Soak.sum()) // FEE-003
	}
}

// stunMalus is the malus of a stun (FEE-153): the would-be Essence loss, or as the option
// says, the Damage before Soak or the attacker's Damage alone.
func stunMalus(o *feeriev1.Options, would, half, damage int32) int32 {
	switch o.GetStunMalus() {
	case StunBeforeSoak:
		return half + damage
	case StunDamage:
		return damage
	}
	return would
}

func physicalCopy(in *feeriev1.Intent, physical bool) *feeriev1.Intent {
	if in == nil {
		in = &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
	}
	c := protoClone(in)
	c.Physical = physical
	return c
}

// pendingDefense is the Defense penalty of a combatant's activities performed at this rank but
// not resolved yet: anticipation and further activities weigh on its Defense only against the
// attacks resolved after them (FEE-050, FEE-061).
func (sys System) pendingDefense(st *encounterv1.EncounterState, id string, rank int32) int32 {
	var n int32
	for _, q := range feerieState(st).GetQueue() {
		if q.GetCombatantId() != id || q.GetRank() != rank {
			continue
		}
		n += q.GetAnticipation()
		if q.GetNth() > 1 && !q.GetDeclaredChange() {
			n += sys.n.SupplementaryMalus
		}
	}
	return n
}

func protoClone(in *feeriev1.Intent) *feeriev1.Intent { return proto.CloneOf(in) }
