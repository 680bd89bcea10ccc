package feerie

import (
	"cmp"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

type fighter struct {
	c  *encounterv1.Combatant
	sh *feeriev1.Sheet
	cs *feeriev1.CombatantState
}

func (f fighter) id() string   { return f.c.GetId() }
func (f fighter) name() string { return f.c.GetName() }

// able: may take part in the Action (FEE-022, FEE-024, FEE-026).
func (f fighter) able() bool { return f.cs.GetEssence() > 0 && !f.inanimate() && !f.cs.GetHelpless() }

// helpless: unconscious, asleep, paralysed by the GM's ruling, or at 0 Essence: Defense 0
// against every attack (FEE-022).
func (f fighter) helpless() bool { return f.cs.GetHelpless() || f.cs.GetEssence() <= 0 }

// inanimate: an object, or a character a Power makes one (FEE-023, FEE-026).
func (f fighter) inanimate() bool { return f.sh.GetInanimate() || f.cs.GetInanimate() }

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		return fighter{}, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	cs := feerieState(st).GetCombatants()[id]
	if cs == nil {
		cs = &feeriev1.CombatantState{}
	}
	return fighter{c: c, sh: disarmedSheet(house(st), c.GetFeerie(), cs), cs: cs}, nil
}

// disarmedSheet: a disarmed character's weapon Accessoires give no bonus until it picks the
// weapon up again, unless the option makes the disarm narrative only (FEE-183).
func disarmedSheet(o *feeriev1.Options, sh *feeriev1.Sheet, cs *feeriev1.CombatantState) *feeriev1.Sheet {
	if !cs.GetDisarmed() || o.GetDisarmKeepsWeaponBonus() || !slices.ContainsFunc(sh.GetAttributes(), (*feeriev1.Attribute).GetWeapon) {
		return sh
	}
	sh = proto.CloneOf(sh)
	for _, a := range sh.GetAttributes() {
		if a.GetWeapon() {
			a.Value = 0
		}
	}
	return sh
}

func fighters(st *encounterv1.EncounterState) []fighter {
	var out []fighter
	for _, c := range st.GetCombatants() {
		f, _ := fighterOf(st, c.GetId())
		out = append(out, f)
	}
	return out
}

// Start opens the first Action at step 1 (FEE-040).
func (System) Start(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{event(&feeriev1.Event{Kind: &feeriev1.Event_ActionStarted{ActionStarted: &feeriev1.ActionStarted{Action: 1}}})}, nil
}

// Decide validates a Contes de Fées action and returns its events; the engine then asks Close
// whether they close the declarations.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetFeerie()
	if a == nil {
		return nil, engine.Invalid("", "Contes de Fées does not know this command")
	}
	s := feerieState(st)
	gm := engine.IsGameMaster(st, env.Actor)
	var evs []*encounterv1.Event
	var err error
	switch k := a.GetKind().(type) {
	case *feeriev1.Action_Advance:
		if !gm {
			return nil, engine.Forbidden("only the GM runs the countdown")
		}
		return decideAdvance(sys, st, k.Advance, env)
	case *feeriev1.Action_Impersonal:
		if !gm {
			return nil, engine.Forbidden("only the GM makes impersonal events happen")
		}
		evs, err = decideImpersonal(st, k.Impersonal)
	case *feeriev1.Action_Ruling:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on a tactic or gives a malus (FEE-036)")
		}
		evs, err = sys.decideRuling(st, a.GetCombatantId(), k.Ruling)
	case *feeriev1.Action_Unseen:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that an attacker is unseen (FEE-081)")
		}
		evs, err = decideUnseen(st, a.GetCombatantId(), k.Unseen, env.Dice)
	case *feeriev1.Action_Helpless:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that a combatant is helpless (FEE-022)")
		}
		evs, err = decideHelpless(st, a.GetCombatantId(), k.Helpless)
	case *feeriev1.Action_Surprise:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on surprise")
		}
		if s.GetStep() != feeriev1.Step_STEP_DECLARING {
			return nil, engine.Refused("FEE-080", "surprise is set at step 1 of an Action")
		}
		f, err := fighterOf(st, a.GetCombatantId())
		if err != nil {
			return nil, err
		}
		if t := f.cs.GetDeclared().GetTactic(); t.GetInitiative() != 0 || t.GetAttack() != 0 || t.GetDefense() != 0 {
			return nil, engine.Refused("FEE-080", "%s has already declared a tactic: rule on its surprise before it declares", f.name())
		}
		if k.Surprise.GetActions() < 1 {
			return nil, engine.Invalid("FEE-082", "surprise lasts at least one Action")
		}
		evs = one(&feeriev1.Event{Kind: &feeriev1.Event_Surprised{Surprised: &feeriev1.Surprised{
			CombatantId: f.id(), Actions: k.Surprise.GetActions(), NoActivity: k.Surprise.GetNoActivity(),
		}}})
	case nil:
		return nil, engine.Invalid("", "empty action")
	default:
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, ferr := fighterOf(st, a.GetCombatantId()) // not err: the refusals below must reach the check after the switch
		if ferr != nil {
			return nil, ferr
		}
		if b := a.GetBecomeObject(); f.inanimate() && !(b.GetEnd() && f.cs.GetInanimate()) {
			return nil, engine.Refused("FEE-026", "%s is an inanimate object and renounces every activity", f.name())
		}
		if f.cs.GetHelpless() && f.cs.GetEssence() > 0 {
			return nil, engine.Refused("FEE-022", "%s is helpless (%s) and cannot act until the GM rules it is no longer", f.name(), helplessReason(f))
		}
		if !f.able() && !f.inanimate() {
			return nil, engine.Refused("FEE-024", "%s is at 0 Essence and cannot act", f.name())
		}
		switch k := a.GetKind().(type) {
		case *feeriev1.Action_Declare:
			evs, err = sys.decideDeclare(st, f, k.Declare)
		case *feeriev1.Action_Act:
			evs, err = sys.decideAct(st, f, k.Act)
		case *feeriev1.Action_Change:
			evs, err = sys.decideChange(st, f, k.Change)
		case *feeriev1.Action_Gesture:
			evs, err = decideGesture(st, f, k.Gesture)
		case *feeriev1.Action_BecomeObject:
			evs, err = decideBecomeObject(f, k.BecomeObject)
		case *feeriev1.Action_Renounce:
			if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN {
				return nil, engine.Refused("FEE-075", "%s has nothing to renounce before the countdown", f.name())
			}
			evs = one(&feeriev1.Event{Kind: &feeriev1.Event_Renounced{Renounced: &feeriev1.Renounced{CombatantId: f.id()}}})
		default:
			return nil, engine.Unimplemented("this action is not part of Contes de Fées version %d", sys.version)
		}
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// Close rolls Initiative once the events of an action, folded into next, leave every able
// combatant declared (FEE-040 step 2).
func (sys System) Close(next *encounterv1.EncounterState, env engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	if !declarationsDone(next) {
		return nil, nil
	}
	ev := sys.rollInitiative(next, env.Dice)
	return []*encounterv1.Event{ev}, fold(ev)
}

func one(e *feeriev1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }

// declarationsDone: the declarations are under way and every able combatant has declared, so
// Initiative is rolled (FEE-040 step 2).
func declarationsDone(st *encounterv1.EncounterState) bool {
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return false
	}
	any := false
	for _, f := range fighters(st) {
		// One held by a surprise that forbids all activity has nothing to declare (FEE-082).
		if f.able() && !f.cs.GetHasDeclared() && !f.cs.GetSurpriseNoActivity() {
			return false
		}
		any = any || f.able()
	}
	return any
}

// roll rolls the encounter's zero-mean roll (FEE-001).
func rollDice(st *encounterv1.EncounterState, roller dice.Roller) (*feeriev1.RollResult, int32) {
	plus, minus, _ := rollExprs(options(st).GetRoll())
	r := &feeriev1.RollResult{Roll: roller.Roll(plus)}
	net := r.GetRoll().GetTotal()
	if minus != nil {
		r.Minus = roller.Roll(*minus)
		net -= r.GetMinus().GetTotal()
	}
	return r, net
}

// rollInitiative is step 2: Vigilance roll + applied Attributes + tactic + circumstances
// (FEE-010, FEE-043, FEE-062, FEE-073, FEE-080).
func (sys System) rollInitiative(st *encounterv1.EncounterState, roller dice.Roller) *encounterv1.Event {
	s := feerieState(st)
	cs := &feeriev1.CountdownStarted{Action: s.GetAction()}
	for _, f := range fighters(st) {
		if !f.able() {
			continue
		}
		v, _ := sys.ComputeValues(f.sh, f.cs.GetDeclared())
		m := v.Initiative
		m.add("tactic", "FEE-031", f.cs.GetDeclared().GetTactic().GetInitiative())
		m.add("penalties of the last Action", "FEE-062", -f.cs.GetThisAction())
		if f.cs.GetSurprisedActions() > 0 {
			m.add("surprised", "FEE-080", -sys.n.SurpriseInitiative)
		}
		if house(st).GetActivityMalusOnInitiative() { // the option of FEE-178
			sys.conditionMalus(f, &m)
		}
		m.add("attacking unseen", "FEE-081", f.cs.GetUnseenBonus())
		r, net := rollDice(st, roller)
		r.Score = m.sum()
		r.Modifiers = m
		r.Total = r.Score + net
		ir := &feeriev1.InitiativeRoll{CombatantId: f.id(), Result: r, CanAct: r.GetTotal() > 0 && !f.cs.GetSurpriseNoActivity()}
		cs.Initiative = append(cs.Initiative, ir)
		if ir.GetCanAct() && r.GetTotal() > cs.TopRank {
			cs.TopRank = r.GetTotal()
		}
	}
	return event(&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: cs}})
}

func (sys System) decideDeclare(st *encounterv1.EncounterState, f fighter, d *feeriev1.Declare) ([]*encounterv1.Event, error) {
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return nil, engine.Refused("FEE-033", "%s: intentions and tactics are declared at step 1 of the Action; use a change of intention (FEE-070)", f.name())
	}
	if f.cs.GetHasDeclared() {
		return nil, engine.Refused("FEE-033", "%s has already declared for this Action", f.name())
	}
	in := proto.CloneOf(d.GetIntent())
	if err := sys.checkIntent(st, f, in); err != nil {
		return nil, err
	}
	if f.cs.GetSurprisedActions() > 0 && in.GetTactic() != nil && (in.GetTactic().GetInitiative() != 0 || in.GetTactic().GetAttack() != 0 || in.GetTactic().GetDefense() != 0) {
		return nil, engine.Refused("FEE-080", "%s is surprised and may not declare a tactic this Action", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: f.id(), Intent: in}}}), nil
}

// checkIntent validates an intent: its kind, target, Attributes and tactic.
func (sys System) checkIntent(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent) error {
	if in == nil {
		return engine.Invalid("FEE-040", "declare an intention: an attack, another activity, or a passive one")
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED {
		return engine.Invalid("FEE-040", "%s's intention needs a kind of activity", f.name())
	}
	attack := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if attack {
		t, err := fighterOf(st, in.GetTargetId())
		if err != nil {
			return err
		}
		if t.id() == f.id() {
			return engine.Invalid("", "%s cannot attack itself", f.name())
		}
		for _, s := range in.GetStrikes() {
			switch s {
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
				if t.sh.GetTaille() > f.sh.GetTaille() {
					return engine.Refused("FEE-154", "%s can keep at bay only a target no larger than itself", f.name())
				}
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
				if t.sh.GetTaille() < f.sh.GetTaille() {
					return engine.Refused("FEE-159", "%s can enter the guard only of a target no smaller than itself", f.name())
				}
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_UNSPECIFIED:
				return engine.Invalid("FEE-149", "unknown special strike")
			}
		}
	} else if len(in.GetStrikes()) > 0 {
		return engine.Invalid("FEE-149", "special strikes go with an attack")
	}
	if err := checkSweep(st, f, in); err != nil { // FEE-094, FEE-095
		return err
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_OTHER && aspect(f.sh, in.GetAspect()) < 0 {
		return engine.Invalid("", "name the Aspect rolled: vigilance, habilete, puissance, resistance or charme")
	}
	if _, err := sys.ComputeValues(f.sh, in); err != nil {
		return withName(err, f.name())
	}
	return CheckTactic(f.sh, in, f.name())
}

func aspect(sh *feeriev1.Sheet, name string) int32 {
	switch strings.ToLower(name) {
	case "vigilance":
		return sh.GetVigilance()
	case "habilete", "habileté":
		return sh.GetHabilete()
	case "puissance":
		return sh.GetPuissance()
	case "resistance", "résistance":
		return sh.GetResistance()
	case "charme":
		return sh.GetCharme()
	}
	return -1
}

// sameIntent: no technical difference (FEE-070, FEE-182): a change of target alone is not a
// change of intention, nor, when the options say so, is a special strike chosen at the roll;
// another option makes a change of target one.
func sameIntent(o *feeriev1.Options, a, b *feeriev1.Intent) bool {
	x, y := proto.CloneOf(a), proto.CloneOf(b)
	x.Description, y.Description = "", ""
	if !o.GetTargetChangeIsChange() {
		x.TargetId, y.TargetId = "", ""
	}
	if o.GetStrikesAtRoll() {
		x.Strikes, y.Strikes = nil, nil
	}
	if x.GetTactic() != nil {
		x.Tactic.Preset = ""
	}
	if y.GetTactic() != nil {
		y.Tactic.Preset = ""
	}
	for _, i := range []*feeriev1.Intent{x, y} { // walking slowly is free alongside (FEE-047)
		if i.GetPace() == feeriev1.Pace_PACE_WALK {
			i.Pace = feeriev1.Pace_PACE_UNSPECIFIED
		}
	}
	return proto.Equal(x, y)
}

// newRank is the acting rank after a change of tactic (FEE-071): for the first activity, the
// rolled Initiative moved by the new tactic's Initiative modifier instead of the old one's; for
// a further activity that is also a change, its rank 8 ranks after the previous activity moved
// the same way from the tactic in force then (FEE-074); never above the rank of the change.
func (sys System) newRank(f fighter, in *feeriev1.Intent, rank int32) int32 {
	r := f.cs.GetInitiative() - f.cs.GetInitiativeTactic() + in.GetTactic().GetInitiative()
	if f.cs.GetActivities() > 0 {
		r = f.cs.GetLastRank() - sys.n.SupplementaryRanks - f.cs.GetLastTacticInitiative() + in.GetTactic().GetInitiative()
	}
	return min(r, rank)
}

// furtherRank is the rank of a further activity with no new change: 8 ranks after the
// previous one (FEE-060), or where a change declared since moved it (FEE-074).
func (sys System) furtherRank(f fighter) int32 {
	if f.cs.GetChangeMalus() > 0 {
		return f.cs.GetActingRank()
	}
	return f.cs.GetLastRank() - sys.n.SupplementaryRanks
}

func countdown(st *encounterv1.EncounterState) (int32, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN || s.GetRank() < 1 {
		return 0, engine.Refused("FEE-041", "activities take place during the countdown, at ranks from the highest Initiative down to 1")
	}
	return s.GetRank(), nil
}

func (sys System) decideChange(st *encounterv1.EncounterState, f fighter, c *feeriev1.Change) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if !f.cs.GetCanAct() {
		return nil, engine.Refused("FEE-043", "%s rolled an Initiative of %d and cannot act in this Action, whatever its intention", f.name(), f.cs.GetInitiative())
	}
	in := proto.CloneOf(c.GetIntent())
	if err := CheckNewCap(f.sh, f.cs.GetDeclared(), in, f.name()); err != nil {
		return nil, err
	}
	if err := sys.checkIntent(st, f, in); err != nil {
		return nil, err
	}
	if sameIntent(house(st), in, f.cs.GetDeclared()) {
		return nil, engine.Invalid("FEE-070", "this is the intention %s already declared", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_IntentionChanged{IntentionChanged: &feeriev1.IntentionChanged{
		CombatantId: f.id(), Intent: in, Rank: rank, ActingRank: sys.newRank(f, in, rank),
	}}}), nil
}

// rollPenalties is what earlier activities' anticipations weigh on rolls at a rank (FEE-050).
func rollPenalties(cs *feeriev1.CombatantState, rank int32) int32 {
	var n int32
	for _, p := range cs.GetPenalties() {
		if rank <= p.GetFromRank() {
			n += p.GetRolls()
		}
	}
	return n
}

func defensePenalties(cs *feeriev1.CombatantState, rank int32) int32 {
	var n int32
	for _, p := range cs.GetPenalties() {
		if rank <= p.GetFromRank() {
			n += p.GetDefense()
		}
	}
	return n
}

func (sys System) decideAct(st *encounterv1.EncounterState, f fighter, a *feeriev1.Act) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if f.cs.GetRenounced() {
		return nil, engine.Refused("FEE-075", "%s has renounced its activity this Action", f.name())
	}
	act := proto.CloneOf(a)
	if act.GetIntent() == nil {
		act.Intent = proto.CloneOf(f.cs.GetDeclared())
	}
	if err := CheckNewCap(f.sh, f.cs.GetDeclared(), act.GetIntent(), f.name()); err != nil {
		return nil, err
	}
	if err := sys.checkIntent(st, f, act.GetIntent()); err != nil {
		return nil, err
	}
	if err := checkObjectAndRelentless(st, f, act); err != nil {
		return nil, err
	}
	if e, most := act.GetEssence(), spendable(st, f); e < 0 || e > most {
		return nil, engine.Invalid("FEE-005", "%s may spend from 0 to %d Essence on this roll", f.name(), most)
	}
	if c := act.GetCircumstances(); c.GetRangedDifficulty() != feeriev1.RangedDifficulty_RANGED_DIFFICULTY_UNSPECIFIED && c.GetDistance() != feeriev1.Range_RANGE_UNSPECIFIED &&
		!house(st).GetCombineRangedDifficulty() {
		return nil, engine.Invalid("FEE-172", "%s: give the ranged difficulty either as one estimate or itemised by range, not both", f.name())
	}
	if err := sys.checkSituation(st, f, act); err != nil { // FEE-090…FEE-093, FEE-110…FEE-112, FEE-172
		return nil, err
	}
	change := !sameIntent(house(st), act.GetIntent(), f.cs.GetDeclared())
	n := f.cs.GetActivities()
	q := &feeriev1.Queued{CombatantId: f.id(), Act: act, Rank: rank, Nth: n + 1, ChangeOfIntention: change}
	q.DeclaredChange = f.cs.GetChangeMalus() > 0
	var base int32
	if n == 0 {
		base = f.cs.GetActingRank()
		if change {
			base = sys.newRank(f, act.GetIntent(), rank)
		}
		if !f.cs.GetCanAct() { // even through a change of intention (FEE-071)
			return nil, engine.Refused("FEE-043", "%s rolled an Initiative of %d and cannot act in this Action", f.name(), f.cs.GetInitiative())
		}
	} else {
		if rank >= f.cs.GetLastRank() {
			return nil, engine.Because(engine.Refused("FEE-060", "%s's further activity comes at least one rank after the previous one, at rank %d", f.name(), f.cs.GetLastRank()),
				engine.ReasonNotYourTurn, nil)
		}
		base = sys.furtherRank(f)
		if change {
			base = sys.newRank(f, act.GetIntent(), rank) // FEE-074
		}
	}
	q.Anticipation = max(0, rank-base)
	q.Delay = max(0, base-rank)
	if q.GetAnticipation() > 0 && !anyoneActed(st) {
		return nil, engine.Refused("FEE-051", "%s cannot anticipate: nobody has acted yet in this Action, and the first to act cannot anticipate", f.name())
	}
	q.RollPenalty = q.GetAnticipation() + sys.n.SupplementaryMalus*n + rollPenalties(f.cs, rank) + f.cs.GetChangeMalus()
	if change {
		q.RollPenalty += sys.n.ChangeMalus
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}), nil
}

func decideImpersonal(st *encounterv1.EncounterState, i *feeriev1.Impersonal) ([]*encounterv1.Event, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN || s.GetRank() != 0 {
		return nil, engine.Refused("FEE-046", "impersonal events happen at Initiative 0, after every character")
	}
	t, err := fighterOf(st, i.GetTargetId())
	if err != nil {
		return nil, err
	}
	if i.GetEssenceLoss() < 0 {
		return nil, engine.Invalid("FEE-046", "an Essence loss cannot be negative")
	}
	lost := min(i.GetEssenceLoss(), t.cs.GetEssence())
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{
		Description: i.GetDescription(), TargetId: t.id(), EssenceLost: lost,
	}}}), nil
}

// priority orders activities at one rank (FEE-044): higher Vigilance, then more Attributes
// applied to the Initiative roll, then the better tactic modifier to Initiative, then the
// better net die; the rolled Initiative itself is not a tie-breaker.
func priority(st *encounterv1.EncounterState, a, b *feeriev1.Queued) int {
	fa, _ := fighterOf(st, a.GetCombatantId())
	fb, _ := fighterOf(st, b.GetCombatantId())
	return cmp.Or(
		cmp.Compare(fb.sh.GetVigilance(), fa.sh.GetVigilance()),
		cmp.Compare(fb.cs.GetInitiativeApplied(), fa.cs.GetInitiativeApplied()),
		cmp.Compare(fb.cs.GetTactic().GetInitiative(), fa.cs.GetTactic().GetInitiative()),
		cmp.Compare(fb.cs.GetInitiativeDie(), fa.cs.GetInitiativeDie()),
	)
}

// decideAdvance resolves the activities of the current rank, each completely before the next
// (FEE-044, FEE-045), then moves the countdown down; from rank 0, the next Action begins.
// essences is each combatant's Essence in st.
func essences(st *encounterv1.EncounterState) map[string]int32 {
	out := make(map[string]int32, len(feerieState(st).GetCombatants()))
	for id, cs := range feerieState(st).GetCombatants() {
		out[id] = cs.GetEssence()
	}
	return out
}

func decideAdvance(sys System, st *encounterv1.EncounterState, a *feeriev1.Advance, env engine.Env) ([]*encounterv1.Event, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN {
		return nil, engine.Refused("FEE-040", "the countdown starts once everyone has declared")
	}
	if s.GetRank() == 0 { // after the impersonal events, step 1 of the next Action (FEE-046)
		return one(&feeriev1.Event{Kind: &feeriev1.Event_ActionStarted{ActionStarted: &feeriev1.ActionStarted{Action: s.GetAction() + 1}}}), nil
	}
	to := a.GetToRank()
	if to == 0 { // one rank down
		to = s.GetRank() - 1
	}
	if to < 0 || to >= s.GetRank() {
		return nil, engine.Invalid("FEE-041", "the countdown goes down from rank %d", s.GetRank())
	}
	next := engine.Fork(sys, st)
	var out []*encounterv1.Event
	queue := slices.Clone(s.GetQueue())
	slices.SortStableFunc(queue, func(x, y *feeriev1.Queued) int { return priority(st, x, y) })
	var before map[string]int32 // each one's Essence before a group of simultaneous activities
	for i, q := range queue {
		if i == 0 || priority(st, queue[i-1], q) != 0 {
			before = essences(next)
		}
		f, _ := fighterOf(next, q.GetCombatantId())
		var ev *encounterv1.Event
		if f.cs.GetEssence() <= 0 && before[q.GetCombatantId()] <= 0 { // put out by an earlier activity (FEE-045)
			ev = cannotAct(f, q)
		} else {
			ev = sys.resolve(next, q, env.Dice)
		}
		if err := sys.Evolve(next, ev); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	out = append(out, event(&feeriev1.Event{Kind: &feeriev1.Event_RankAdvanced{RankAdvanced: &feeriev1.RankAdvanced{FromRank: s.GetRank(), ToRank: to}}}))
	return out, nil
}
