package feerie_test

// The Action sequence (FEE-040…FEE-047), anticipation (FEE-050, FEE-051), further activities
// (FEE-060…FEE-062), changes of intention (FEE-070…FEE-075), surprise (FEE-080…FEE-082,
// FEE-186), the lighting of FEE-173, the rank durations of FEE-179, what a change of intention
// is (FEE-182), and the worked examples FEE-T04…FEE-T08, driven through the registry.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

const sqGM = "gm"

// sqFight is a Contes de Fées encounter driven through the registry (enginetest.Fight) with
// fixed dice, every command given by the GM.
type sqFight struct{ *enginetest.Fight }

// sqNew creates an encounter, adds cs in order and starts it: Action 1, step 1.
func sqNew(t *testing.T, cs ...*encounterv1.Combatant) *sqFight {
	t.Helper()
	f := &sqFight{enginetest.NewFight(t, engine.NewRegistry(feerie.New(1)))}
	f.do(&encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "La clairière", RuleSystem: feerie.ID}}})
	for _, c := range cs {
		f.do(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	evs := f.do(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	require.Equal(t, int32(1), sqFind(t, evs, (*feeriev1.Event).GetActionStarted).GetAction())
	return f
}

// decide decides cmd with dice.NewFixed(faces...) and folds the events; on success every face
// must have been used.
func (f *sqFight) decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	return f.Decide(actor, cmd, faces...)
}

func (f *sqFight) do(cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	evs, err := f.decide(sqGM, cmd, faces...)
	require.NoError(f.T, err)
	return evs
}

// refuse checks that cmd is refused with code and rule, naming each of names, rolling nothing
// and changing nothing.
func (f *sqFight) refuse(cmd *encounterv1.Command, code engine.Code, rule string, names ...string) {
	f.T.Helper()
	f.Refuse(sqGM, cmd, code, rule, names...)
}

// replays checks that folding the log gives the same state (the same hash).
func (f *sqFight) replays() {
	f.T.Helper()
	f.Replays()
}

func (f *sqFight) s() *feeriev1.State { return f.St.GetFeerie() }

func (f *sqFight) cs(id string) *feeriev1.CombatantState {
	f.T.Helper()
	cs := f.s().GetCombatants()[id]
	require.NotNil(f.T, cs, "no state for %s", id)
	return cs
}

// sqD is one declaration.
type sqD struct {
	id string
	in *feeriev1.Intent
}

// declare declares each intent in order; nets are the net dice (d20 − d20) of the Initiative
// rolls the last declaration triggers, in the order the able combatants joined.
func (f *sqFight) declare(ds []sqD, nets ...int32) *feeriev1.CountdownStarted {
	f.T.Helper()
	for i, d := range ds {
		var faces []int32
		if i == len(ds)-1 {
			faces = sqDice(nets...)
		}
		evs := f.do(sqDeclare(d.id, d.in), faces...)
		if i < len(ds)-1 {
			sqNone(f.T, evs, (*feeriev1.Event).GetCountdownStarted)
		} else {
			cs := sqFind(f.T, evs, (*feeriev1.Event).GetCountdownStarted)
			require.Equal(f.T, feeriev1.Step_STEP_COUNTDOWN, f.s().GetStep())
			require.Equal(f.T, cs.GetTopRank(), f.s().GetRank())
			return cs
		}
	}
	return nil
}

// act performs id's activity at the current rank (in nil: as declared) and returns it queued.
func (f *sqFight) act(id string, in *feeriev1.Intent) *feeriev1.Queued {
	f.T.Helper()
	return sqFind(f.T, f.do(sqAct(id, in, nil)), (*feeriev1.Event).GetActivityQueued).GetQueued()
}

// advance resolves the current rank (nets: the net dice of its rolls, in resolution order) and
// moves the countdown to rank to (0: one rank down); it returns the activities resolved.
func (f *sqFight) advance(to int32, nets ...int32) []*feeriev1.ActivityResolved {
	f.T.Helper()
	from := f.s().GetRank()
	evs := f.do(sqAdvance(to), sqDice(nets...)...)
	ra := sqFind(f.T, evs, (*feeriev1.Event).GetRankAdvanced)
	require.Equal(f.T, from, ra.GetFromRank())
	require.NotNil(f.T, evs[len(evs)-1].GetFeerie().GetRankAdvanced(), "the countdown goes on once every activity is resolved (FEE-045)")
	if to == 0 {
		to = from - 1
	}
	require.Equal(f.T, to, f.s().GetRank())
	return sqAll(evs, (*feeriev1.Event).GetActivityResolved)
}

// nextAction closes rank 0 (after the impersonal events) and opens the next Action.
func (f *sqFight) nextAction() {
	f.T.Helper()
	for f.s().GetRank() > 0 {
		f.advance(0)
	}
	n := f.s().GetAction()
	as := sqFind(f.T, f.do(sqAdvance(0)), (*feeriev1.Event).GetActionStarted)
	require.Equal(f.T, n+1, as.GetAction())
	require.Equal(f.T, feeriev1.Step_STEP_DECLARING, f.s().GetStep())
}

// Commands.

func sqCmd(id string, a *feeriev1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

func sqDeclare(id string, in *feeriev1.Intent) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: in}}})
}

func sqAct(id string, in *feeriev1.Intent, c *feeriev1.Circumstances) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{Intent: in, Circumstances: c}}})
}

func sqChange(id string, in *feeriev1.Intent) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: in}}})
}

func sqRenounce(id string) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}})
}

func sqAdvance(to int32) *encounterv1.Command {
	return sqCmd("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: to}}})
}

func sqImpersonal(target string, loss int32) *encounterv1.Command {
	return sqCmd("", &feeriev1.Action{Kind: &feeriev1.Action_Impersonal{Impersonal: &feeriev1.Impersonal{
		Description: "le feu gagne", TargetId: target, EssenceLoss: loss,
	}}})
}

func sqSurprise(id string, actions int32, noActivity bool) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: actions, NoActivity: noActivity}}})
}

func sqUnseen(id, victim, aspect string, applied ...string) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{VictimId: victim, Aspect: aspect, Applied: applied}}})
}

func sqGesture(id, what string) *encounterv1.Command {
	return sqCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{Description: what}}})
}

// Dice.

// sqFaces are two d20 faces whose difference (first − second) is net.
func sqFaces(net int32) []int32 {
	plus, minus := 10+net, int32(10)
	if plus > 20 {
		plus, minus = 20, 30-plus
	}
	if plus < 1 {
		plus, minus = 1, 11-plus
	}
	return []int32{plus, minus}
}

func sqDice(nets ...int32) []int32 {
	var out []int32
	for _, n := range nets {
		out = append(out, sqFaces(n)...)
	}
	return out
}

// Events.

// sqFind returns the one event of evs that get picks out.
func sqFind[T any](t *testing.T, evs []*encounterv1.Event, get func(*feeriev1.Event) *T) *T {
	t.Helper()
	return enginetest.Find(t, evs, (*encounterv1.Event).GetFeerie, get)
}

// sqAll returns the events of evs that get picks out, in order.
func sqAll[T any](evs []*encounterv1.Event, get func(*feeriev1.Event) *T) []*T {
	return enginetest.All(evs, (*encounterv1.Event).GetFeerie, get)
}

// sqNone checks that no event of evs is of the kind get picks out.
func sqNone[T any](t *testing.T, evs []*encounterv1.Event, get func(*feeriev1.Event) *T) {
	t.Helper()
	enginetest.None(t, evs, (*encounterv1.Event).GetFeerie, get)
}

// sqMod sums the terms of a value that cite rule.
func sqMod(ms []*feeriev1.Modifier, rule string) int32 {
	var n int32
	for _, m := range ms {
		if m.GetRule() == rule {
			n += m.GetValue()
		}
	}
	return n
}

func sqHas(ms []*feeriev1.Modifier, rule string) bool {
	for _, m := range ms {
		if m.GetRule() == rule {
			return true
		}
	}
	return false
}

func sqInit(t *testing.T, cs *feeriev1.CountdownStarted, id string) *feeriev1.InitiativeRoll {
	t.Helper()
	for _, ir := range cs.GetInitiative() {
		if ir.GetCombatantId() == id {
			return ir
		}
	}
	require.Fail(t, "no Initiative roll", "for %s", id)
	return nil
}

func sqWho(rs []*feeriev1.ActivityResolved) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.GetCombatantId())
	}
	return out
}

func sqLegal(t *testing.T, f *sqFight, id string) []string {
	t.Helper()
	ls, err := f.Reg.Legal(f.St, id)
	require.NoError(t, err)
	var out []string
	for _, l := range ls {
		out = append(out, l.GetName())
	}
	return out
}

// Sheets and intents.

// sqFae is a combatant of the GM with Aspects V, H, P, R (Charme 10), Taille 0 and Essence e.
func sqFae(id, name string, v, h, p, r, e int32, attrs ...*feeriev1.Attribute) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Controller: sqGM, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Charme: 10, Essence: e, Attributes: attrs,
	}}}
}

// sqPlain: V v, H 10, P 10, R 10, Essence 30: Damage and Soak cancel out.
func sqPlain(id, name string, v int32, attrs ...*feeriev1.Attribute) *encounterv1.Combatant {
	return sqFae(id, name, v, 10, 10, 10, 30, attrs...)
}

func sqAttr(name string, kind feeriev1.AttributeKind, v int32, combat bool) *feeriev1.Attribute {
	return &feeriev1.Attribute{Name: name, Kind: kind, Value: v, Combat: combat}
}

func sqAffinity(name string, v int32) *feeriev1.Attribute {
	return sqAttr(name, feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, v, true)
}

func sqMelee(target string, attack ...string) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true, Applied: &feeriev1.Applied{Attack: attack}}
}

func sqRanged(target string, attack ...string) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: target, Physical: true, Applied: &feeriev1.Applied{Attack: attack}}
}

func sqOther(aspect string, difficulty int32) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: aspect, Difficulty: difficulty}
}

func sqPassive() *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
}

func sqTactic(in *feeriev1.Intent, i, a, d int32) *feeriev1.Intent {
	in.Tactic = &feeriev1.Tactic{Initiative: i, Attack: a, Defense: d}
	return in
}

// FEE-040: step 1 declarations, step 2 the Initiative rolls once everyone has declared,
// steps 3–5 the countdown resolving activities, step 6 the impersonal events at rank 0, then
// the next Action at step 1. FEE-041: the countdown starts at the highest Initiative and goes
// down one by one; rank 1 is the last at which anyone acts. FEE-042: waiting is free.
// FEE-046: impersonal events only at Initiative 0, after every character.
func TestSqActionSequence(t *testing.T) {
	f := sqNew(t, sqPlain("a", "Aude", 10), sqPlain("b", "Brun", 10))
	require.Equal(t, feeriev1.Step_STEP_DECLARING, f.s().GetStep())
	require.Equal(t, int32(1), f.s().GetAction())
	f.refuse(sqAct("a", nil, nil), engine.CodePrecondition, "FEE-041", "Aude")
	f.refuse(sqAdvance(0), engine.CodePrecondition, "FEE-040")

	cs := f.declare([]sqD{{"a", sqMelee("b")}, {"b", sqMelee("a")}}, 5, 2)
	require.Equal(t, int32(1), cs.GetAction())
	require.Equal(t, []int32{15, 12}, []int32{sqInit(t, cs, "a").GetResult().GetTotal(), sqInit(t, cs, "b").GetResult().GetTotal()})
	require.Equal(t, int32(15), cs.GetTopRank(), "FEE-041: from the highest Initiative")
	require.Equal(t, int32(15), f.s().GetRank())
	f.refuse(sqDeclare("a", sqMelee("b")), engine.CodePrecondition, "FEE-033", "Aude")
	f.refuse(sqAdvance(15), engine.CodeInvalid, "FEE-041")
	f.refuse(sqAdvance(16), engine.CodeInvalid, "FEE-041")
	f.refuse(sqImpersonal("a", 3), engine.CodePrecondition, "FEE-046")

	require.Empty(t, f.advance(0), "15 → 14, one by one")
	require.Empty(t, f.advance(1))

	// FEE-042: Aude (Initiative 15) waits until rank 1: no modifier.
	q := f.act("a", nil)
	require.Equal(t, []int32{0, 14, 0}, []int32{q.GetAnticipation(), q.GetDelay(), q.GetRollPenalty()})
	f.act("b", nil)
	rs := f.advance(0, 0, 0)
	require.Equal(t, []string{"a", "b"}, sqWho(rs), "same Vigilance: the better net die first (FEE-044)")
	require.False(t, sqHas(rs[0].GetAttack().GetModifiers(), "FEE-050"))
	require.Equal(t, int32(10), rs[0].GetAttack().GetTotal())
	require.Empty(t, f.cs("a").GetPenalties())

	// Rank 0: nobody acts; the impersonal events happen; then Action 2 at step 1.
	require.Equal(t, int32(0), f.s().GetRank())
	f.refuse(sqAct("a", nil, nil), engine.CodePrecondition, "FEE-041", "Aude")
	im := sqFind(t, f.do(sqImpersonal("a", 3)), (*feeriev1.Event).GetImpersonal)
	require.Equal(t, int32(3), im.GetEssenceLost())
	require.Equal(t, int32(27), f.cs("a").GetEssence())
	f.nextAction()
	require.Equal(t, int32(2), f.s().GetAction())
	require.Empty(t, f.s().GetQueue())
	require.False(t, f.cs("a").GetHasDeclared())
}

// FEE-043: a rolled Initiative ≤ 0 forbids acting this Action, even through a change of
// intention; FEE-071: a positive roll whose change of tactic brings the acting rank to ≤ 0
// must anticipate to act.
func TestSqInitiativeAtMostZero(t *testing.T) {
	f := sqNew(t, sqPlain("a", "Aude", 10), sqPlain("b", "Brun", 10), sqPlain("c", "Cyprine", 5),
		sqPlain("d", "Doucette", 10, sqAffinity("épée", 2)))
	cs := f.declare([]sqD{
		{"a", sqMelee("b")}, {"b", sqMelee("a")}, {"c", sqMelee("a")},
		{"d", sqTactic(sqMelee("b", "épée"), 2, -2, 0)},
	}, 5, -10, -8, -9)
	require.Equal(t, []int32{15, 0, -3, 3}, []int32{
		sqInit(t, cs, "a").GetResult().GetTotal(), sqInit(t, cs, "b").GetResult().GetTotal(),
		sqInit(t, cs, "c").GetResult().GetTotal(), sqInit(t, cs, "d").GetResult().GetTotal(),
	})
	require.Equal(t, []bool{true, false, false, true}, []bool{
		sqInit(t, cs, "a").GetCanAct(), sqInit(t, cs, "b").GetCanAct(), sqInit(t, cs, "c").GetCanAct(), sqInit(t, cs, "d").GetCanAct(),
	})
	f.refuse(sqAct("b", nil, nil), engine.CodePrecondition, "FEE-043", "Brun")
	f.refuse(sqAct("c", sqMelee("d"), nil), engine.CodePrecondition, "FEE-043", "Cyprine")
	f.refuse(sqChange("c", sqMelee("d")), engine.CodePrecondition, "FEE-043", "Cyprine")
	require.Equal(t, []string{"renounce", "gesture"}, sqLegal(t, f, "b"))

	f.act("a", nil)
	f.advance(1, 0)
	// Doucette (3, tactic Initiative +2) changes to Initiative −2: 3 − 2 − 2 = −1 (FEE-071).
	ic := sqFind(t, f.do(sqChange("d", sqTactic(sqMelee("b", "épée"), -2, 2, 0))), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, int32(-1), ic.GetActingRank())
	q := f.act("d", nil)
	require.Equal(t, int32(2), q.GetAnticipation(), "at rank 1 it anticipates 1 − (−1) ranks")
	require.Equal(t, int32(2+4), q.GetRollPenalty())
}

// FEE-044: at one rank, the higher Vigilance first, then the larger total of Attributes applied
// to the Initiative roll, then the better tactic modifier to Initiative, then the better net
// die; the order in which the activities were performed does not matter.
func TestSqPriorityAtOneRank(t *testing.T) {
	cases := []struct {
		name       string
		x, y       *encounterv1.Combatant
		xIn, yIn   *feeriev1.Intent
		xNet, yNet int32
		rank       int32
	}{
		{"Vigilance", sqPlain("x", "Xavière", 14), sqPlain("y", "Yvon", 12), sqMelee("y"), sqMelee("x"), -2, 0, 12},
		{"Attributes applied to Initiative",
			sqPlain("x", "Xavière", 10, sqAffinity("réflexes", 2)), sqPlain("y", "Yvon", 10),
			&feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "y", Physical: true, Applied: &feeriev1.Applied{Initiative: []string{"réflexes"}}},
			sqMelee("x"), 0, 2, 12},
		{"tactic modifier to Initiative",
			sqPlain("x", "Xavière", 10, sqAffinity("épée", 2)), sqPlain("y", "Yvon", 10, sqAffinity("épée", 2)),
			sqTactic(sqMelee("y", "épée"), 2, -2, 0), sqMelee("x", "épée"), 0, 2, 12},
		{"net die", sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10), sqMelee("y"), sqMelee("x"), 2, 0, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := sqNew(t, c.x, c.y)
			f.declare([]sqD{{"x", c.xIn}, {"y", c.yIn}}, c.xNet, c.yNet)
			if f.s().GetRank() != c.rank {
				f.advance(c.rank)
			}
			f.act("y", nil) // Yvon performs first…
			f.act("x", nil)
			rs := f.advance(0, 0, 0)
			require.Equal(t, []string{"x", "y"}, sqWho(rs), "…Xavière is resolved first")
		})
	}
}

// FEE-044: when every criterion is equal the activities are simultaneous: one put at 0
// Essence by the other at that very rank still acts. FEE-045: otherwise each activity is
// resolved completely, consequences included, before the next: a character put at 0 Essence
// by an activity resolved before its own does not act (no roll), and the countdown goes on
// only after.
func TestSqCompleteResolution(t *testing.T) {
	for _, c := range []struct {
		name     string
		xv       int32
		xNet     int32
		yActs    bool
		xEssence int32
	}{
		{"simultaneous (FEE-044)", 10, 0, true, 29},
		{"Xavière first (FEE-045)", 12, -2, false, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := sqNew(t, sqPlain("x", "Xavière", c.xv), sqFae("y", "Yvon", 10, 10, 10, 10, 1))
			f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, c.xNet, 0)
			require.Equal(t, int32(10), f.s().GetRank())
			f.act("x", nil)
			f.act("y", nil)
			nets := []int32{19} // Xavière: 10 + 19 against 10, 9 Essence lost: Yvon falls
			if c.yActs {
				nets = append(nets, 2) // Yvon: 12 against 10, 1 Essence lost
			}
			rs := f.advance(0, nets...)
			require.Equal(t, []string{"x", "y"}, sqWho(rs))
			require.Equal(t, int32(0), rs[0].GetTargetEssence())
			require.Equal(t, c.yActs, rs[1].GetAttack() != nil)
			if !c.yActs {
				require.Contains(t, rs[1].GetNote(), "Yvon")
				require.Contains(t, rs[1].GetNote(), "FEE-045")
			}
			require.Equal(t, c.xEssence, f.cs("x").GetEssence())
			require.Empty(t, f.s().GetQueue())
		})
	}
}

// FEE-T04: Rübezahl (V20) rolls 15, the Serpent à Sornettes (V17) 17; Rübezahl anticipates 2
// ranks to 17 and acts first (Vigilance 20 > 17, FEE-044: its rolled Initiative is no
// tie-breaker), at −2, and its Defense is −2 for the rest of the Action, against the Serpent's
// gaze too (FEE-050); nothing carries over. FEE-051: nobody acts above 17; the Serpent, first
// to act, does not anticipate, and nobody may anticipate before it has acted.
func TestSqRubezahlAnticipates(t *testing.T) {
	gaze := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: "r", Description: "regard hypnotique"}
	f := sqNew(t, sqFae("r", "Rübezahl", 20, 15, 12, 12, 40), sqFae("s", "Serpent à Sornettes", 17, 12, 8, 8, 30))
	cs := f.declare([]sqD{{"r", sqMelee("s")}, {"s", gaze}}, -5, 0)
	require.Equal(t, int32(15), sqInit(t, cs, "r").GetResult().GetTotal())
	require.Equal(t, int32(17), sqInit(t, cs, "s").GetResult().GetTotal())
	require.Equal(t, int32(17), f.s().GetRank())
	f.refuse(sqAdvance(18), engine.CodeInvalid, "FEE-041")
	f.refuse(sqAct("r", nil, nil), engine.CodePrecondition, "FEE-051", "Rübezahl")
	require.Equal(t, []string{"change", "renounce", "gesture"}, sqLegal(t, f, "r"))

	qs := f.act("s", nil)
	require.Equal(t, int32(0), qs.GetAnticipation(), "FEE-051: the first to act does not anticipate")
	qr := f.act("r", nil)
	require.Equal(t, []int32{2, 2}, []int32{qr.GetAnticipation(), qr.GetRollPenalty()})
	require.Len(t, f.cs("r").GetPenalties(), 1)
	p := f.cs("r").GetPenalties()[0]
	require.Equal(t, []int32{17, 2, 2}, []int32{p.GetFromRank(), p.GetRolls(), p.GetDefense()})

	rs := f.advance(0, -3, 0)
	require.Equal(t, []string{"r", "s"}, sqWho(rs), "Rübezahl, Vigilance 20, before the Serpent")
	require.Equal(t, int32(-2), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))
	require.Equal(t, int32(15-2-3), rs[0].GetAttack().GetTotal())
	require.Equal(t, int32(-2), sqMod(rs[1].GetDefenseModifiers(), "FEE-050"))
	require.Equal(t, int32(15-2), rs[1].GetDefense(), "H15, no Taille (not physical), −2")

	// Rank 9: the Serpent's further activity; Rübezahl's Defense is still −2.
	f.advance(9)
	require.Equal(t, int32(4), f.act("s", nil).GetRollPenalty())
	rs = f.advance(0, 0)
	require.Equal(t, int32(-2), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"))
	require.Equal(t, int32(-4), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))

	// Anticipation does not carry over; the Serpent's further activity does (FEE-062).
	f.nextAction()
	require.Equal(t, []int32{0, 4}, []int32{f.cs("r").GetThisAction(), f.cs("s").GetThisAction()})
	require.Empty(t, f.cs("r").GetPenalties())
	cs = f.declare([]sqD{{"r", sqMelee("s")}, {"s", gaze}}, 0, 0)
	require.False(t, sqHas(sqInit(t, cs, "r").GetResult().GetModifiers(), "FEE-062"))
	require.Equal(t, int32(-4), sqMod(sqInit(t, cs, "s").GetResult().GetModifiers(), "FEE-062"))
	require.Equal(t, []int32{20, 13}, []int32{sqInit(t, cs, "r").GetResult().GetTotal(), sqInit(t, cs, "s").GetResult().GetTotal()})
}

// FEE-T05, first case: acting at 17, a second activity at rank 9 is at −4 (FEE-061), and the
// Defense is −4 against the attacks resolved after it, from rank 9; never at the rank of the
// previous activity (FEE-060); the next Action's Initiative, activities and Defense at −4
// (FEE-062).
func TestSqSecondActivityAtRank9(t *testing.T) {
	f := sqNew(t, sqFae("h", "Héron", 16, 14, 10, 10, 40), sqFae("f", "Farfadet", 18, 10, 10, 10, 40))
	f.declare([]sqD{{"h", sqMelee("f")}, {"f", sqMelee("h")}}, 1, -9)
	require.Equal(t, int32(17), f.s().GetRank())
	f.act("h", nil)
	f.refuse(sqAct("h", nil, nil), engine.CodePrecondition, "FEE-060", "Héron")
	f.advance(9, 0)

	q := f.act("h", nil)
	require.Equal(t, []int32{2, 0, 4}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
	f.act("f", nil) // the Farfadet (V18) is resolved before the Héron's second activity
	rs := f.advance(0, 0, 0)
	require.Equal(t, []string{"f", "h"}, sqWho(rs))
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-050"), "not yet: the second activity is resolved after")
	require.Equal(t, int32(14), rs[0].GetDefense())
	require.Equal(t, int32(-4), sqMod(rs[1].GetAttack().GetModifiers(), "FEE-050"))

	f.advance(1)
	require.Equal(t, int32(4), f.act("f", nil).GetRollPenalty(), "the Farfadet's own further activity, 9 − 8 = 1")
	rs = f.advance(0, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"), "from rank 9 on")

	f.nextAction()
	require.Equal(t, int32(4), f.cs("h").GetThisAction())
	cs := f.declare([]sqD{{"h", sqMelee("f")}, {"f", sqMelee("h")}}, 1, -9)
	ir := sqInit(t, cs, "h").GetResult()
	require.Equal(t, int32(-4), sqMod(ir.GetModifiers(), "FEE-062"))
	require.Equal(t, int32(16-4+1), ir.GetTotal())
	f.act("h", nil)
	rs = f.advance(9, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-062"))
	f.act("f", nil)
	rs = f.advance(0, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetDefenseModifiers(), "FEE-062"))
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-050"))
}

// FEE-T05, second case: the second activity anticipated to rank 12 (3 ranks before 17 − 8 = 9)
// is at −7 and the Defense −7 from rank 12 (FEE-050, FEE-060, FEE-061); a third activity 8
// ranks later is at −8 − 3 and the Defense −11 (FEE-061 cumulative, FEE-050 on every later
// roll); two further activities weigh −8 on the next Action (FEE-062).
func TestSqSecondActivityAnticipatedTo12(t *testing.T) {
	f := sqNew(t, sqFae("h", "Héron", 16, 14, 10, 10, 60), sqFae("f", "Farfadet", 18, 10, 10, 10, 40), sqFae("g", "Gobelin", 15, 10, 10, 10, 40))
	f.declare([]sqD{{"h", sqMelee("f")}, {"f", sqMelee("h")}, {"g", sqMelee("h")}}, 1, -5, -3)
	f.act("h", nil)
	f.advance(13, 0)
	f.act("f", nil)
	rs := f.advance(0, 0)
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-050"), "rank 13: no penalty yet")

	q := f.act("h", nil)
	require.Equal(t, []int32{2, 3, 7}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
	f.act("g", nil) // the Gobelin (V15) after the Héron (V16)
	rs = f.advance(4, 0, 0)
	require.Equal(t, []string{"h", "g"}, sqWho(rs))
	require.Equal(t, int32(-7), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))
	require.Equal(t, int32(-7), sqMod(rs[1].GetDefenseModifiers(), "FEE-050"))

	// Rank 4 = 12 − 8: the third activity.
	f.act("f", nil) // resolved first (V18): the Héron's Defense is still −7
	q = f.act("h", nil)
	require.Equal(t, []int32{3, 0, 8 + 3}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
	f.act("g", nil)
	rs = f.advance(0, 0, 0, 0)
	require.Equal(t, []string{"f", "h", "g"}, sqWho(rs))
	require.Equal(t, int32(-7), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"))
	require.Equal(t, int32(-11), sqMod(rs[1].GetAttack().GetModifiers(), "FEE-050"))
	require.Equal(t, int32(-11), sqMod(rs[2].GetDefenseModifiers(), "FEE-050"))

	f.nextAction()
	require.Equal(t, int32(8), f.cs("h").GetThisAction())
	cs := f.declare([]sqD{{"h", sqMelee("f")}, {"f", sqMelee("h")}, {"g", sqMelee("h")}}, 1, -5, -3)
	require.Equal(t, int32(-8), sqMod(sqInit(t, cs, "h").GetResult().GetModifiers(), "FEE-062"))
}

// FEE-T06: the Pixie (taquinerie +5; tactic Attack +5 Initiative −5) rolls 17; at rank 19 it
// changes intention to flee (couardise +3, esquive +2; Defense +5 Attack −5): 17 + 5 = 22,
// capped at 19 (FEE-071), so it acts at 19 without anticipating; from rank 19 its Defense
// carries +5 − 4 = +1 (FEE-070, FEE-072) on top of H − T + 5; −4 on the next Action (FEE-073).
func TestSqPixieFlees(t *testing.T) {
	pixie := &feeriev1.Sheet{Vigilance: 20, Habilete: 14, Puissance: 4, Resistance: 6, Taille: -3, Charme: 10, Essence: 20, Attributes: []*feeriev1.Attribute{
		sqAffinity("taquinerie", 5), sqAffinity("couardise", 3), sqAffinity("esquive", 2),
	}}
	f := sqNew(t,
		&encounterv1.Combatant{Id: "p", Name: "Pixie", Controller: sqGM, Sheet: &encounterv1.Combatant_Feerie{Feerie: pixie}},
		sqPlain("l", "Lutin", 15),
		&encounterv1.Combatant{Id: "g", Name: "Hippogriffe", Controller: sqGM, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
			Vigilance: 12, Habilete: 12, Puissance: 16, Resistance: 14, Taille: 2, Essence: 40,
		}}})
	cs := f.declare([]sqD{
		{"p", sqTactic(sqMelee("g", "taquinerie"), -5, 5, 0)},
		{"l", sqOther("charme", 5)},
		{"g", sqMelee("p")},
	}, 2, 4, -4)
	require.Equal(t, int32(17), sqInit(t, cs, "p").GetResult().GetTotal())
	require.Equal(t, int32(-5), sqMod(sqInit(t, cs, "p").GetResult().GetModifiers(), "FEE-031"))
	require.Equal(t, int32(19), f.s().GetRank())

	f.act("l", nil) // the Lutin shouts
	flee := sqTactic(sqOther("habilete", 10), 0, -5, 5)
	flee.Applied = &feeriev1.Applied{Defense: []string{"couardise", "esquive"}}
	ic := sqFind(t, f.do(sqChange("p", flee)), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, []int32{19, 19}, []int32{ic.GetRank(), ic.GetActingRank()}, "17 − (−5) + 0 = 22, capped at 19")
	require.Equal(t, int32(5), f.cs("p").GetTactic().GetDefense(), "FEE-072: from the declaration")
	q := f.act("p", nil)
	require.Equal(t, []int32{0, 4}, []int32{q.GetAnticipation(), q.GetRollPenalty()}, "not an anticipation; the change's −4")
	require.False(t, q.GetChangeOfIntention(), "the change was declared already")
	rs := f.advance(8, 0, 0)
	require.Equal(t, []string{"p", "l"}, sqWho(rs))
	require.Equal(t, int32(-5), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-031"))
	require.Equal(t, int32(-4), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))

	f.act("g", nil) // the Hippogriffe, awake, bad-tempered
	rs = f.advance(0, 0)
	d := rs[0].GetDefenseModifiers()
	require.Equal(t, int32(14+3+3+2), sqMod(d, "FEE-013"), "H − T + couardise + esquive")
	require.Equal(t, int32(5), sqMod(d, "FEE-031"))
	require.Equal(t, int32(-4), sqMod(d, "FEE-050"))
	require.Equal(t, int32(-6), sqMod(d, "FEE-091"), "the Hippogriffe (Taille +2) fills four of the Pixie's angles")
	require.Equal(t, int32(22+1-6), rs[0].GetDefense())

	f.nextAction()
	require.Equal(t, int32(4), f.cs("p").GetThisAction())
}

// sqDagger: the FEE-T07 fight. Moi (V11, crystal dagger +2, fire breath mastery 2; tactic
// Initiative +2 Attack −2) rolls 13; an ally (16) fells the first target at rank 16; the other
// (14) is far.
func sqDagger(t *testing.T) *sqFight {
	t.Helper()
	f := sqNew(t,
		sqFae("m", "Moi", 11, 12, 10, 10, 30,
			sqAttr("poignard de cristal", feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, 2, true),
			sqAttr("souffle de flammes", feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, 2, true)),
		sqFae("a", "Alliée", 16, 14, 14, 10, 30),
		sqFae("t1", "Premier", 10, 8, 6, 6, 1),
		sqFae("t2", "Second", 14, 12, 10, 10, 30))
	cs := f.declare([]sqD{
		{"m", sqTactic(sqMelee("t1", "poignard de cristal"), 2, -2, 0)},
		{"a", sqMelee("t1")}, {"t1", sqPassive()}, {"t2", sqRanged("m")},
	}, 0, 0, -5, 0)
	require.Equal(t, int32(13), sqInit(t, cs, "m").GetResult().GetTotal())
	f.act("a", nil)
	rs := f.advance(0, 19)
	require.Equal(t, int32(0), rs[0].GetTargetEssence(), "the first target is down")
	require.Equal(t, int32(15), f.s().GetRank())
	return f
}

func sqBreath() *feeriev1.Intent { return sqTactic(sqRanged("t2", "souffle de flammes"), 0, 2, -2) }

// FEE-T07: at rank 15 Moi changes to Attack +2 Defense −2 with its fire breath: it acts at
// 13 − 2 = 11 (FEE-071), at −4 + 2 = −2 (FEE-070); its Defense is −2 − 4 = −6 from rank 15
// (FEE-070, FEE-072); the next Action −4 everywhere (FEE-073).
func TestSqCrystalDagger(t *testing.T) {
	f := sqDagger(t)
	ic := sqFind(t, f.do(sqChange("m", sqBreath())), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, []int32{15, 11}, []int32{ic.GetRank(), ic.GetActingRank()})
	p := f.cs("m").GetPenalties()
	require.Len(t, p, 1)
	require.Equal(t, []int32{15, 0, 4}, []int32{p[0].GetFromRank(), p[0].GetRolls(), p[0].GetDefense()})

	f.advance(14)
	f.act("t2", nil)
	rs := f.advance(11, 0)
	require.Equal(t, int32(-2), sqMod(rs[0].GetDefenseModifiers(), "FEE-031"), "FEE-072: before its activity")
	require.Equal(t, int32(-4), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"))
	require.Equal(t, int32(12-6), rs[0].GetDefense())

	q := f.act("m", nil)
	require.Equal(t, []int32{0, 4}, []int32{q.GetAnticipation(), q.GetRollPenalty()})
	rs = f.advance(0, 0)
	a := rs[0].GetAttack().GetModifiers()
	require.Equal(t, int32(2-4), sqMod(a, "FEE-031")+sqMod(a, "FEE-050"))
	require.Equal(t, int32(11+2-2), rs[0].GetAttack().GetTotal(), "Vigilance + fire breath − 2")

	f.nextAction()
	require.Equal(t, int32(4), f.cs("m").GetThisAction())
	cs := f.declare([]sqD{{"m", sqRanged("t2", "souffle de flammes")}, {"a", sqPassive()}, {"t2", sqRanged("m")}}, 0, 0, 0)
	require.Equal(t, int32(-4), sqMod(sqInit(t, cs, "m").GetResult().GetModifiers(), "FEE-062"))
	require.Equal(t, int32(11-4), sqInit(t, cs, "m").GetResult().GetTotal())
}

// FEE-T07, anticipated: breathing at rank 15 anticipates 11 → 15, 4 ranks: the activity at
// −6 and the Defense −10 for this Action (FEE-050, FEE-070); the next Action only −4 (FEE-073:
// the anticipation does not carry over). The same whether the change is declared first or
// made in the act.
func TestSqCrystalDaggerAnticipated(t *testing.T) {
	for _, declared := range []bool{false, true} {
		t.Run(map[bool]string{false: "in the act", true: "declared, then acted"}[declared], func(t *testing.T) {
			f := sqDagger(t)
			var in *feeriev1.Intent
			if declared {
				f.do(sqChange("m", sqBreath()))
			} else {
				in = sqBreath()
			}
			q := f.act("m", in)
			require.Equal(t, []int32{4, 8}, []int32{q.GetAnticipation(), q.GetRollPenalty()})
			require.Equal(t, !declared, q.GetChangeOfIntention())
			rs := f.advance(14, 0)
			a := rs[0].GetAttack().GetModifiers()
			require.Equal(t, int32(2-8), sqMod(a, "FEE-031")+sqMod(a, "FEE-050"))

			f.act("t2", nil)
			rs = f.advance(0, 0)
			d := rs[0].GetDefenseModifiers()
			require.Equal(t, int32(-2-8), sqMod(d, "FEE-031")+sqMod(d, "FEE-050"))
			require.Equal(t, int32(12-10), rs[0].GetDefense())

			f.nextAction()
			require.Equal(t, int32(4), f.cs("m").GetThisAction())
		})
	}
}

// FEE-073: each change of intention weighs −4 more on the next Action; FEE-071: the acting rank
// always moves from the tactic of the Initiative roll (13 − 2 + 0 = 11, then 13 − 2 − 2 = 9).
func TestSqTwoChanges(t *testing.T) {
	f := sqDagger(t)
	ic := sqFind(t, f.do(sqChange("m", sqBreath())), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, int32(11), ic.GetActingRank())
	f.advance(12)
	ic = sqFind(t, f.do(sqChange("m", sqTactic(sqRanged("t2", "souffle de flammes"), -2, 2, 0))), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, int32(9), ic.GetActingRank())
	require.Equal(t, int32(8), f.cs("m").GetNextAction())
	f.advance(9)
	q := f.act("m", nil)
	require.Equal(t, []int32{0, 8}, []int32{q.GetAnticipation(), q.GetRollPenalty()})
	f.advance(0, 0)
	f.nextAction()
	cs := f.declare([]sqD{{"m", sqRanged("t2", "souffle de flammes")}, {"a", sqPassive()}, {"t2", sqRanged("m")}}, 0, 0, 0)
	require.Equal(t, int32(-8), sqMod(sqInit(t, cs, "m").GetResult().GetModifiers(), "FEE-062"))
}

// FEE-T08 / FEE-074: a further activity that is also a change of intention comes 8 ranks after
// the previous one, at −8, with Defense −8 from its declaration, and −8 on the next Action.
func TestSqFurtherActivityThatChanges(t *testing.T) {
	sheet := func() *encounterv1.Combatant {
		return sqFae("h", "Héron", 16, 14, 10, 10, 40, sqAffinity("épée", 2),
			sqAttr("éclair", feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, 2, true))
	}
	bolt := func() *feeriev1.Intent { return sqRanged("f", "éclair") }

	t.Run("in the act", func(t *testing.T) {
		f := sqNew(t, sheet(), sqFae("f", "Farfadet", 12, 10, 10, 10, 40))
		f.declare([]sqD{{"h", sqMelee("f", "épée")}, {"f", sqMelee("h")}}, 1, -3)
		f.act("h", nil)
		f.advance(9, 0)
		q := f.act("h", bolt())
		require.Equal(t, []int32{2, 0, 8}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
		require.True(t, q.GetChangeOfIntention())
		f.act("f", nil)
		rs := f.advance(0, 0, 0)
		require.Equal(t, []string{"h", "f"}, sqWho(rs))
		require.Equal(t, int32(-8), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-050"))
		require.Equal(t, int32(-8), sqMod(rs[1].GetDefenseModifiers(), "FEE-050"))
		f.nextAction()
		require.Equal(t, int32(8), f.cs("h").GetThisAction())
		cs := f.declare([]sqD{{"h", bolt()}, {"f", sqMelee("h")}}, 1, -3)
		require.Equal(t, int32(-8), sqMod(sqInit(t, cs, "h").GetResult().GetModifiers(), "FEE-062"))
	})

	t.Run("declared at rank 12", func(t *testing.T) {
		f := sqNew(t, sheet(), sqFae("f", "Farfadet", 12, 10, 10, 10, 40))
		f.declare([]sqD{{"h", sqMelee("f", "épée")}, {"f", sqMelee("h")}}, 1, 0)
		f.act("h", nil)
		f.advance(12, 0)
		f.do(sqChange("h", bolt()))
		p := f.cs("h").GetPenalties()
		require.Len(t, p, 1)
		require.Equal(t, []int32{12, 8}, []int32{p[0].GetFromRank(), p[0].GetDefense()}, "−8 from the declaration")
		f.act("f", nil)
		rs := f.advance(9, 0)
		require.Equal(t, int32(-8), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"))

		q := f.act("h", nil)
		require.Equal(t, []int32{2, 0, 8}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
		f.advance(4, 0)
		f.act("f", nil)
		rs = f.advance(0, 0)
		require.Equal(t, int32(-8), sqMod(rs[0].GetDefenseModifiers(), "FEE-050"), "still −8, not −12")
		require.Equal(t, int32(8), f.cs("h").GetNextAction())
		f.replays()
	})
}

// FEE-075: renouncing is not a change of intention and costs nothing.
func TestSqRenounce(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.refuse(sqRenounce("x"), engine.CodePrecondition, "FEE-075", "Xavière")
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 5, 2)
	f.act("x", nil)
	sqFind(t, f.do(sqRenounce("x")), (*feeriev1.Event).GetRenounced)
	require.Empty(t, f.s().GetQueue())
	require.Empty(t, f.advance(0), "nothing left to resolve, no die rolled")
	f.refuse(sqAct("x", nil, nil), engine.CodePrecondition, "FEE-075", "Xavière")
	f.do(sqRenounce("y"))
	x := f.cs("x")
	require.Empty(t, x.GetPenalties())
	require.Zero(t, x.GetNextAction())
	require.Zero(t, f.cs("y").GetNextAction())
	f.nextAction()
	cs := f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 0, 0)
	require.False(t, sqHas(sqInit(t, cs, "x").GetResult().GetModifiers(), "FEE-062"))
}

// FEE-080: a surprised character has −8 Initiative and −4 Defense for the first Action and may
// not declare a tactic, but may change intention (with the penalties).
func TestSqSurprise(t *testing.T) {
	f := sqNew(t, sqFae("v", "Violette", 12, 12, 10, 10, 30, sqAffinity("épée", 2)), sqPlain("a", "Ambroise", 10))
	sqFind(t, f.do(sqSurprise("v", 1, false)), (*feeriev1.Event).GetSurprised)
	f.refuse(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 2, -2, 0)), engine.CodePrecondition, "FEE-080", "Violette")
	cs := f.declare([]sqD{{"v", sqMelee("a", "épée")}, {"a", sqMelee("v")}}, 6, 2)
	ir := sqInit(t, cs, "v").GetResult()
	require.Equal(t, int32(-8), sqMod(ir.GetModifiers(), "FEE-080"))
	require.Equal(t, int32(12-8+6), ir.GetTotal())
	f.refuse(sqSurprise("a", 1, false), engine.CodePrecondition, "FEE-080")

	f.act("a", nil)
	rs := f.advance(10, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetDefenseModifiers(), "FEE-080"))
	require.Equal(t, int32(12-4), rs[0].GetDefense())

	sqFind(t, f.do(sqChange("v", sqTactic(sqMelee("a", "épée"), 0, 2, -2))), (*feeriev1.Event).GetIntentionChanged)
	q := f.act("v", nil)
	require.Equal(t, int32(4), q.GetRollPenalty())
	rs = f.advance(0, 0)
	require.Equal(t, int32(2), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-031"))

	f.nextAction()
	require.Zero(t, f.cs("v").GetSurprisedActions())
	f.do(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 2, -2, 0)))
	f.refuse(sqSurprise("v", 1, false), engine.CodePrecondition, "FEE-080", "Violette")
	cs = f.declare([]sqD{{"a", sqMelee("v")}}, 0, 0)
	require.False(t, sqHas(sqInit(t, cs, "v").GetResult().GetModifiers(), "FEE-080"))
	require.Equal(t, int32(-4), sqMod(sqInit(t, cs, "v").GetResult().GetModifiers(), "FEE-062"), "the change of intention")
}

// FEE-082: the GM extends surprise over several Actions and may forbid all activity while it
// lasts; FEE-080's −8 Initiative and −4 Defense last as long.
func TestSqLongSurprise(t *testing.T) {
	f := sqNew(t, sqPlain("v", "Violette", 12), sqPlain("a", "Ambroise", 10))
	f.refuse(sqSurprise("v", 0, false), engine.CodeInvalid, "FEE-082")
	f.do(sqSurprise("v", 2, true))
	for action := 1; action <= 3; action++ {
		cs := f.declare([]sqD{{"v", sqPassive()}, {"a", sqMelee("v")}}, 6, 2)
		v := sqInit(t, cs, "v")
		if action <= 2 {
			require.Equal(t, int32(-8), sqMod(v.GetResult().GetModifiers(), "FEE-080"), "Action %d", action)
			require.False(t, v.GetCanAct())
			f.refuse(sqAct("v", nil, nil), engine.CodePrecondition, "FEE-082", "Violette")
			f.refuse(sqChange("v", sqMelee("a")), engine.CodePrecondition, "FEE-082", "Violette")
			f.refuse(sqGesture("v", "bâille"), engine.CodePrecondition, "FEE-082", "Violette")
		} else {
			require.False(t, sqHas(v.GetResult().GetModifiers(), "FEE-080"))
			require.True(t, v.GetCanAct())
			require.Equal(t, int32(18), f.s().GetRank())
			f.advance(12)
		}
		f.act("a", nil)
		rs := f.advance(0, 0)
		if action <= 2 {
			require.Equal(t, int32(-4), sqMod(rs[0].GetDefenseModifiers(), "FEE-080"), "Action %d", action)
		} else {
			require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-080"))
		}
		f.nextAction()
	}
}

// FEE-081 / FEE-186: the victim on guard has no penalty, but its unseen attacker gains
// floor(margin/2) Initiative, the margin of its dissimulation roll against the victim's
// Vigilance score (not a roll), for that Action.
func TestSqUnseenAttacker(t *testing.T) {
	assassin := sqPlain("a", "Aspic", 12, sqAttr("discrétion", feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, 3, false))
	assassin.Controller = "alice"
	f := sqNew(t, assassin, sqPlain("v", "Violette", 12))
	_, err := f.decide("alice", sqUnseen("a", "v", "habilete", "discrétion"))
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, engine.CodePermission, re.Code)
	f.refuse(sqUnseen("a", "v", "agilité"), engine.CodeInvalid, "FEE-081", "Aspic")
	f.refuse(sqUnseen("a", "a", "habilete"), engine.CodeInvalid, "FEE-081", "Aspic")

	// H10 + discrétion 3 + 6 = 19 against Vigilance 12: margin 7, +3 Initiative; one roll only.
	ur := sqFind(t, f.do(sqUnseen("a", "v", "habilete", "discrétion"), sqFaces(6)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, []int32{19, 12, 7, 3}, []int32{ur.GetRoll().GetTotal(), ur.GetVigilance(), ur.GetMargin(), ur.GetInitiativeBonus()})
	cs := f.declare([]sqD{{"a", sqMelee("v")}, {"v", sqMelee("a")}}, 0, 0)
	a, v := sqInit(t, cs, "a").GetResult(), sqInit(t, cs, "v").GetResult()
	require.Equal(t, int32(3), sqMod(a.GetModifiers(), "FEE-081"))
	require.Equal(t, []int32{15, 12}, []int32{a.GetTotal(), v.GetTotal()})
	require.Len(t, v.GetModifiers(), 1, "the victim on guard: Vigilance alone, no penalty")
	f.refuse(sqUnseen("a", "v", "habilete"), engine.CodePrecondition, "FEE-081", "Aspic")

	// Action 2: the bonus is gone; a failed dissimulation gives nothing.
	f.nextAction()
	ur = sqFind(t, f.do(sqUnseen("a", "v", "habilete", "discrétion"), sqFaces(-5)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, []int32{8, -4, 0}, []int32{ur.GetRoll().GetTotal(), ur.GetMargin(), ur.GetInitiativeBonus()})
	cs = f.declare([]sqD{{"a", sqMelee("v")}, {"v", sqMelee("a")}}, 0, 0)
	require.False(t, sqHas(sqInit(t, cs, "a").GetResult().GetModifiers(), "FEE-081"))
	require.Equal(t, int32(12), sqInit(t, cs, "a").GetResult().GetTotal())

	// A surprised victim is not on guard: FEE-080 applies instead.
	f.nextAction()
	f.do(sqSurprise("v", 1, false))
	f.refuse(sqUnseen("a", "v", "habilete"), engine.CodePrecondition, "FEE-081", "Violette", "Aspic")
	f.replays()
}

// FEE-047: one activity is one roll; walking slowly, talking, a simple gesture are free
// alongside it: no roll, no activity, no penalty.
func TestSqFreeGestures(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.refuse(sqGesture("x", "crie « À moi ! »"), engine.CodePrecondition, "FEE-041", "Xavière")
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 5, 0)
	g := sqFind(t, f.do(sqGesture("x", "crie « À moi ! » en reculant lentement")), (*feeriev1.Event).GetGestured)
	require.Equal(t, int32(15), g.GetRank())
	require.Zero(t, f.cs("x").GetActivities())
	f.refuse(sqGesture("x", ""), engine.CodeInvalid, "FEE-047", "Xavière")

	walking := sqMelee("y")
	walking.Pace = feeriev1.Pace_PACE_WALK
	q := f.act("x", walking)
	require.Equal(t, []int32{1, 0}, []int32{q.GetNth(), q.GetRollPenalty()})
	f.do(sqGesture("x", "salue de la main"))
	rs := f.advance(0, 3) // one roll: two faces
	require.Len(t, rs[0].GetAttack().GetRoll().GetFaces(), 1)
	require.Len(t, rs[0].GetAttack().GetMinus().GetFaces(), 1)
	require.False(t, sqHas(rs[0].GetAttack().GetModifiers(), "FEE-050"))
	require.False(t, sqHas(rs[0].GetAttack().GetModifiers(), "FEE-100"))
	require.Equal(t, int32(13), rs[0].GetAttack().GetTotal())
	require.Equal(t, int32(1), f.cs("x").GetActivities())
	require.Contains(t, sqLegal(t, f, "y"), "gesture")
	f.replays()
}

// FEE-173: lighting weighs on activity rolls, not on Initiative nor Defense.
func TestSqLightingOnRollsOnly(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	cs := f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqRanged("x")}}, 5, 0)
	require.False(t, sqHas(sqInit(t, cs, "x").GetResult().GetModifiers(), "FEE-120"))
	f.do(sqAct("x", nil, &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_MOONLIGHT}))
	rs := f.advance(10, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-120"))
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-120"))
	require.Equal(t, int32(10), rs[0].GetDefense())
	f.do(sqAct("y", nil, &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_DUSK}))
	rs = f.advance(0, 0)
	require.Equal(t, int32(-4), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-120"), "ranged: dusk −4")
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-120"))
}

// FEE-179: a stun wanes by 1 for each rank the countdown passes, into the next Action's
// countdown; rank 0 does not count; a new stun adds its malus to what remains.
func TestSqStunAcrossRanks(t *testing.T) {
	stun := func() *feeriev1.Intent {
		in := sqMelee("y")
		in.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN}
		return in
	}
	malus := func(f *sqFight) int32 {
		for _, c := range f.cs("y").GetConditions() {
			if c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN {
				return c.GetMalus()
			}
		}
		return 0
	}
	newFight := func(t *testing.T) *sqFight {
		f := sqNew(t, sqFae("x", "Xavière", 15, 10, 20, 10, 40), sqFae("y", "Yvon", 10, 10, 10, 10, 40))
		f.declare([]sqD{{"x", stun()}, {"y", sqMelee("x")}}, 0, -5)
		f.act("x", nil)
		// 10 − 4 + 18 = 24 against 10: margin 14, 7 + 20 − 10 = 17.
		rs := f.advance(0, 18)
		require.Equal(t, int32(17), rs[0].GetConditions()[0].GetMalus())
		require.Equal(t, int32(16), malus(f), "rank 15 passed")
		return f
	}

	t.Run("across the Action", func(t *testing.T) {
		f := newFight(t)
		f.advance(1)
		require.Equal(t, int32(3), malus(f), "ranks 14…2 passed")
		f.do(sqRenounce("y"))
		f.advance(0)
		require.Equal(t, int32(2), malus(f), "rank 1 passed")
		f.nextAction()
		require.Equal(t, int32(2), malus(f), "rank 0 does not count")
		f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, -5, 5)
		require.Equal(t, int32(15), f.s().GetRank())
		require.Equal(t, int32(2), malus(f))
		f.act("y", nil)
		rs := f.advance(0, 0)
		require.Equal(t, int32(-2), sqMod(rs[0].GetAttack().GetModifiers(), "FEE-153"))
		require.Equal(t, int32(1), malus(f))
		f.advance(0)
		require.Zero(t, malus(f))
		require.Empty(t, f.cs("y").GetConditions())
	})

	t.Run("a new stun adds to what remains", func(t *testing.T) {
		f := newFight(t)
		f.advance(7)
		require.Equal(t, int32(9), malus(f))
		f.act("x", nil)
		// 10 − 4 − 4 + 19 = 21 against 10: margin 11, 5 + 20 − 10 = 15.
		f.advance(0, 19)
		require.Equal(t, int32(9+15-1), malus(f))
	})
}

// FEE-182: a special strike not declared at step 1 is a change of intention; a change of
// target alone is not, unless the Attribute, the tactic or the kind of attack changes.
func TestSqWhatIsAChange(t *testing.T) {
	cases := []struct {
		name   string
		in     *feeriev1.Intent
		change bool
	}{
		{"another target", sqMelee("z", "épée"), false},
		{"a special strike", func() *feeriev1.Intent {
			in := sqMelee("y", "épée")
			in.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP}
			return in
		}(), true},
		{"another target, another Attribute", sqMelee("z"), true},
		{"another target, another kind of attack", sqRanged("z", "épée"), true},
		{"a tactic", sqTactic(sqMelee("y", "épée"), 0, 2, -2), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := sqNew(t, sqPlain("x", "Xavière", 15, sqAffinity("épée", 2)), sqPlain("y", "Yvon", 10), sqPlain("z", "Zélie", 10))
			f.declare([]sqD{{"x", sqMelee("y", "épée")}, {"y", sqPassive()}, {"z", sqPassive()}}, 0, 0, 0)
			q := f.act("x", c.in)
			require.Equal(t, c.change, q.GetChangeOfIntention())
			if c.change {
				require.Equal(t, int32(4), q.GetRollPenalty())
				require.Equal(t, int32(4), f.cs("x").GetNextAction())
			} else {
				require.Zero(t, q.GetRollPenalty())
				require.Zero(t, f.cs("x").GetNextAction())
			}
		})
	}
	f := sqNew(t, sqPlain("x", "Xavière", 15, sqAffinity("épée", 2)), sqPlain("y", "Yvon", 10), sqPlain("z", "Zélie", 10))
	f.declare([]sqD{{"x", sqMelee("y", "épée")}, {"y", sqPassive()}, {"z", sqPassive()}}, 0, 0, 0)
	f.refuse(sqChange("x", sqMelee("z", "épée")), engine.CodeInvalid, "FEE-070", "Xavière")
}

// FEE-082: one held by a surprise that forbids all activity has nothing to declare: the others'
// declarations alone open the countdown, and it still rolls Initiative with its −8.
func TestSqSurpriseNeedsNoDeclaration(t *testing.T) {
	f := sqNew(t, sqPlain("v", "Violette", 12), sqPlain("a", "Ambroise", 10))
	f.do(sqSurprise("v", 1, true))
	cs := f.declare([]sqD{{"a", sqMelee("v")}}, 6, 2)
	v := sqInit(t, cs, "v")
	require.False(t, v.GetCanAct())
	require.Equal(t, int32(12-8+6), v.GetResult().GetTotal())
	f.refuse(sqAct("v", nil, nil), engine.CodePrecondition, "FEE-082", "Violette")
	f.act("a", nil)
	f.advance(0, 0)
	f.nextAction()
	// The surprise is over: Violette must declare again before the countdown opens.
	evs := f.do(sqDeclare("a", sqMelee("v")))
	sqNone(t, evs, (*feeriev1.Event).GetCountdownStarted)
	f.declare([]sqD{{"v", sqMelee("a")}}, 0, 0)
	f.replays()
}
