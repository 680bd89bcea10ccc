package feerie_test

// Combat values, rolls, tactics, objects and special strikes of Contes de Fées, driven through
// the engine with fixed dice. The default roll is 1d20−1d20: each roll takes two faces, the
// first added, the second subtracted.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const vaGM = "gm"

// vaFight is an encounter driven through the registry (enginetest.Fight), command by command,
// with fixed dice; its do returns the Contes de Fées events only.
type vaFight struct{ *enginetest.Fight }

// replays checks that folding the log gives the same state (the same hash).
func (f *vaFight) replays() {
	f.T.Helper()
	f.Replays()
}

func vaCreateCmd(opts *feeriev1.Options) *encounterv1.Command {
	return enginetest.CreateCmd("La clairière", "feerie", opts)
}

func vaAddCmd(c *encounterv1.Combatant) *encounterv1.Command { return enginetest.AddCmd(c) }

// vaBlank is a fight whose encounter is not created yet, under version 1.
func vaBlank(t *testing.T) *vaFight { return vaBlankAt(t, 1) }

// vaBlankAt is a fight under version of the rules, whose encounter is not created yet.
func vaBlankAt(t *testing.T, version uint32) *vaFight {
	return &vaFight{enginetest.NewFight(t, engine.NewRegistry(feerie.New(version)))}
}

// vaNew creates an encounter with opts (nil: the defaults), adds cs in order and starts it:
// Action 1, step 1, under version 1.
func vaNew(t *testing.T, opts *feeriev1.Options, cs ...*encounterv1.Combatant) *vaFight {
	t.Helper()
	return vaNewAt(t, 1, opts, cs...)
}

// vaNewAt is vaNew under version of the rules.
func vaNewAt(t *testing.T, version uint32, opts *feeriev1.Options, cs ...*encounterv1.Combatant) *vaFight {
	t.Helper()
	f := vaBlankAt(t, version)
	f.do(vaGM, vaCreateCmd(opts))
	for _, c := range cs {
		f.do(vaGM, vaAddCmd(c))
	}
	f.do(vaGM, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	return f
}

// decide decides cmd with dice.NewFixed(faces...) and folds the events; on success every face
// must have been used.
func (f *vaFight) decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	return f.Decide(actor, cmd, faces...)
}

// do decides cmd, which must pass, and returns its Contes de Fées events.
func (f *vaFight) do(actor string, cmd *encounterv1.Command, faces ...int32) []*feeriev1.Event {
	f.T.Helper()
	evs, err := f.decide(actor, cmd, faces...)
	require.NoError(f.T, err)
	var out []*feeriev1.Event
	for _, ev := range evs {
		if e := ev.GetFeerie(); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// refuse checks that cmd is refused with code and rule, that the message names each of names,
// that no die is rolled and that the state is untouched.
func (f *vaFight) refuse(actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	f.T.Helper()
	return f.Refuse(actor, cmd, code, rule, names...)
}

func vaCmd(id string, a *feeriev1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

func vaDeclareCmd(id string, in *feeriev1.Intent) *encounterv1.Command {
	return vaCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: in}}})
}

func vaActCmd(id string, a *feeriev1.Act) *encounterv1.Command {
	if a == nil {
		a = &feeriev1.Act{}
	}
	return vaCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: a}})
}

func vaAdvanceCmd(to int32) *encounterv1.Command {
	return vaCmd("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: to}}})
}

func vaRulingCmd(id string, r *feeriev1.Ruling) *encounterv1.Command {
	return vaCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Ruling{Ruling: r}})
}

func vaBecomeCmd(id, power string, end bool) *encounterv1.Command {
	return vaCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: power, End: end}}})
}

// declare declares in for id; faces roll the Initiative when id is the last to declare.
func (f *vaFight) declare(id string, in *feeriev1.Intent, faces ...int32) []*feeriev1.Event {
	f.T.Helper()
	return f.do(vaGM, vaDeclareCmd(id, in), faces...)
}

// act performs id's activity at the current rank (a nil Act: the activity declared).
func (f *vaFight) act(id string, a *feeriev1.Act) *feeriev1.Queued {
	f.T.Helper()
	evs := f.do(vaGM, vaActCmd(id, a))
	require.Len(f.T, evs, 1)
	require.NotNil(f.T, evs[0].GetActivityQueued(), "%v", evs[0])
	return evs[0].GetActivityQueued().GetQueued()
}

// advance moves the countdown to rank to (0: one rank down), resolving the rank's activities
// with faces, and returns their resolutions in order.
func (f *vaFight) advance(to int32, faces ...int32) []*feeriev1.ActivityResolved {
	f.T.Helper()
	var out []*feeriev1.ActivityResolved
	for _, e := range f.do(vaGM, vaAdvanceCmd(to), faces...) {
		if r := e.GetActivityResolved(); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// nextAction runs the countdown, with nothing left to resolve, down to step 1 of the next
// Action.
func (f *vaFight) nextAction() {
	f.T.Helper()
	if f.rank() > 1 {
		f.advance(1)
	}
	if f.rank() == 1 {
		f.advance(0)
	}
	evs := f.do(vaGM, vaAdvanceCmd(0))
	require.NotNil(f.T, evs[0].GetActionStarted())
}

func (f *vaFight) rank() int32 { return f.St.GetFeerie().GetRank() }

func (f *vaFight) cs(id string) *feeriev1.CombatantState {
	f.T.Helper()
	cs := f.St.GetFeerie().GetCombatants()[id]
	require.NotNil(f.T, cs, "no state for %s", id)
	return cs
}

// vaCountdown is the Initiative rolls among evs.
func vaCountdown(t *testing.T, evs []*feeriev1.Event) *feeriev1.CountdownStarted {
	t.Helper()
	for _, e := range evs {
		if c := e.GetCountdownStarted(); c != nil {
			return c
		}
	}
	t.Fatalf("no Initiative rolled: %v", evs)
	return nil
}

func vaInitiative(t *testing.T, c *feeriev1.CountdownStarted, id string) *feeriev1.InitiativeRoll {
	t.Helper()
	for _, ir := range c.GetInitiative() {
		if ir.GetCombatantId() == id {
			return ir
		}
	}
	t.Fatalf("%s rolled no Initiative", id)
	return nil
}

// vaMod is the value of the modifier of a reason, and whether there is one.
func vaMod(mods []*feeriev1.Modifier, reason string) (int32, bool) {
	for _, m := range mods {
		if m.GetReason() == reason {
			return m.GetValue(), true
		}
	}
	return 0, false
}

func vaRequireMod(t *testing.T, mods []*feeriev1.Modifier, reason, rule string, value int32) {
	t.Helper()
	for _, m := range mods {
		if m.GetReason() == reason {
			require.Equal(t, value, m.GetValue(), "modifier %q", reason)
			require.Equal(t, rule, m.GetRule(), "rule of modifier %q", reason)
			return
		}
	}
	t.Fatalf("no modifier %q among %v", reason, mods)
}

func vaNoMod(t *testing.T, mods []*feeriev1.Modifier, reason string) {
	t.Helper()
	_, ok := vaMod(mods, reason)
	require.False(t, ok, "unexpected modifier %q among %v", reason, mods)
}

func vaSum(mods []*feeriev1.Modifier) int32 {
	var n int32
	for _, m := range mods {
		n += m.GetValue()
	}
	return n
}

// Sheets.

const (
	vaAff = feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY
	vaPow = feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER
	vaAcc = feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY
)

func vaAttr(name string, kind feeriev1.AttributeKind, value int32, combat bool) *feeriev1.Attribute {
	return &feeriev1.Attribute{Name: name, Kind: kind, Value: value, Combat: combat}
}

func vaWeapon(name string, value int32) *feeriev1.Attribute {
	a := vaAttr(name, vaAcc, value, true)
	a.Weapon = true
	return a
}

func vaFey(id, name string, v, h, p, r, taille, essence int32, attrs ...*feeriev1.Attribute) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Controller: vaGM, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Taille: taille, Essence: essence, Attributes: attrs,
	}}}
}

func vaWith(c *encounterv1.Combatant, edit func(*feeriev1.Sheet)) *encounterv1.Combatant {
	c = proto.CloneOf(c)
	edit(c.GetFeerie())
	return c
}

// vaLutin: V14 H16 P8 R10 T−2, Essence 20: Defense 18, Soak 8, Damage 6 (physical); a sword
// Accessoire +3 (a weapon), vivacité +2, a sling +2, an apron +2, a hypnotic gaze Power 3.
func vaLutin() *encounterv1.Combatant {
	return vaFey("lutin", "Lutin", 14, 16, 8, 10, -2, 20,
		vaWeapon("épée", 3), vaAttr("vivacité", vaAff, 2, true), vaAttr("fronde", vaAcc, 2, true),
		vaAttr("tablier", vaAcc, 2, false), vaAttr("regard hypnotique", vaPow, 3, true))
}

// vaTroll: V10 H12 P16 R14 T+2, Essence 30, no Attribute: Defense 10, Soak 16 (physical).
func vaTroll() *encounterv1.Combatant { return vaFey("troll", "Troll", 10, 12, 16, 14, 2, 30) }

// vaOgre: V12 H14 P20 R18 T+2, Essence 40, a club Accessoire +2 (a weapon): Damage 22.
func vaOgre() *encounterv1.Combatant {
	return vaFey("ogre", "Ogre", 12, 14, 20, 18, 2, 40, vaWeapon("massue", 2))
}

// vaKobold: V10 H12 P16 R10 T−2 Charme 6, Essence 30, no Attribute: Defense 14, Soak 8,
// Damage 14 (physical); of the Lutin's size, so it fills one of its angles.
func vaKobold() *encounterv1.Combatant {
	return vaWith(vaFey("kobold", "Kobold", 10, 12, 16, 10, -2, 30), func(sh *feeriev1.Sheet) { sh.Charme = 6 })
}

// Intents.

func vaAtt(names ...string) *feeriev1.Applied { return &feeriev1.Applied{Attack: names} }

func vaMelee(target string, ap *feeriev1.Applied, strikes ...feeriev1.SpecialStrike) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true, Applied: ap, Strikes: strikes}
}

func vaRanged(target string, ap *feeriev1.Applied, strikes ...feeriev1.SpecialStrike) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: target, Physical: true, Applied: ap, Strikes: strikes}
}

func vaPassive() *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
}

func vaTac(in *feeriev1.Intent, i, a, d int32) *feeriev1.Intent {
	in.Tactic = &feeriev1.Tactic{Initiative: i, Attack: a, Defense: d}
	return in
}

const (
	vaDisarm     = feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM
	vaTrip       = feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP
	vaEntangle   = feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE
	vaStun       = feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN
	vaKeepAtBay  = feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY
	vaCripple    = feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE
	vaRelentless = feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS
	vaFrighten   = feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW
	vaKnockback  = feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK
	vaEnterGuard = feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD
)

func vaAble(c *encounterv1.Combatant) bool {
	return c.GetFeerie().GetEssence() > 0 && !c.GetFeerie().GetInanimate()
}

// vaDuel: att and def declare (def passive when defIn is nil); att's Initiative is V+19
// (faces 20, 1) and def's V−19 (faces 1, 20), so att acts first, at the top rank, with act;
// atk are the faces of its roll. It returns the fight, one rank down, and the resolution.
func vaDuel(t *testing.T, opts *feeriev1.Options, att, def *encounterv1.Combatant, attIn, defIn *feeriev1.Intent, act *feeriev1.Act, atk ...int32) (*vaFight, *feeriev1.ActivityResolved) {
	t.Helper()
	f := vaNew(t, opts, att, def)
	if defIn == nil {
		defIn = vaPassive()
	}
	var faces []int32
	if vaAble(att) {
		faces = append(faces, 20, 1)
	}
	if vaAble(def) {
		faces = append(faces, 1, 20)
		f.declare(def.GetId(), defIn)
	}
	f.declare(att.GetId(), attIn, faces...)
	f.act(att.GetId(), act)
	res := f.advance(0, atk...)
	require.Len(t, res, 1)
	return f, res[0]
}

// vaWichtln is FEE-T01's Wichtln: V15 H20 P10 R15 T−2; hammer +3, leather apron +2,
// supernatural strength 4, thundering voice 3.
func vaWichtln() *encounterv1.Combatant {
	return vaFey("wichtln", "Wichtln", 15, 20, 10, 15, -2, 20,
		vaWeapon("marteau", 3), vaAttr("tablier de cuir", vaAcc, 2, false),
		vaAttr("force surnaturelle", vaPow, 4, false), vaAttr("voix tonnante", vaPow, 3, false))
}

// FEE-T01 through the engine: Initiative 15 (FEE-010), melee Attack 23 (FEE-011), Defense 25
// (FEE-013), melee Damage 12 (FEE-014), Soak 15 (FEE-015); next Action ranged Attack 15
// (FEE-012) and ranged Damage 7 (FEE-014: −4).
func TestVaWichtlnFightsWithItsValues(t *testing.T) {
	kobold := vaKobold()
	f := vaNew(t, nil, vaWichtln(), kobold)
	melee := vaMelee("kobold", &feeriev1.Applied{
		Attack: []string{"marteau"}, Defense: []string{"marteau"}, Damage: []string{"force surnaturelle"}, Soak: []string{"tablier de cuir"},
	})
	f.declare("wichtln", melee)
	cd := vaCountdown(t, f.declare("kobold", vaMelee("wichtln", nil), 11, 11, 5, 10))
	w := vaInitiative(t, cd, "wichtln").GetResult()
	require.Equal(t, int32(15), w.GetScore(), "Initiative 15: Vigilance alone")
	require.Equal(t, int32(15), w.GetTotal())
	require.Equal(t, int32(5), vaInitiative(t, cd, "kobold").GetResult().GetTotal())
	require.Equal(t, int32(15), cd.GetTopRank())

	f.act("wichtln", nil)
	res := f.advance(5, 14, 4)
	require.Len(t, res, 1)
	r := res[0]
	require.Equal(t, int32(23), r.GetAttack().GetScore(), "melee Attack 23: Habileté + hammer")
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Habileté", "FEE-011", 20)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "marteau", "FEE-011", 3)
	require.Equal(t, int32(33), r.GetAttack().GetTotal())
	require.Equal(t, int32(14), r.GetDefense(), "the Kobold: Habileté 12 − Taille −2")
	require.Equal(t, int32(19), r.GetMargin())
	require.Equal(t, int32(12), r.GetDamage(), "melee Damage 12: Puissance + Taille + strength")
	vaRequireMod(t, r.GetDamageModifiers(), "force surnaturelle", "FEE-014", 4)
	require.Equal(t, int32(8), r.GetSoak())
	require.Equal(t, int32(13), r.GetEssenceLost(), "9 + 12 − 8")
	require.Equal(t, int32(17), f.cs("kobold").GetEssence())

	f.act("kobold", nil)
	res = f.advance(1, 20, 1)
	r = res[0]
	require.Equal(t, int32(25), r.GetDefense(), "Defense 25: Habileté − Taille + hammer")
	vaRequireMod(t, r.GetDefenseModifiers(), "Taille", "FEE-013", 2)
	vaRequireMod(t, r.GetDefenseModifiers(), "marteau", "FEE-013", 3)
	require.Equal(t, int32(31), r.GetAttack().GetTotal())
	require.Equal(t, int32(6), r.GetMargin())
	require.Equal(t, int32(15), r.GetSoak(), "Soak 15: Résistance + Taille + apron")
	vaRequireMod(t, r.GetSoakModifiers(), "tablier de cuir", "FEE-015", 2)
	require.Equal(t, int32(2), r.GetEssenceLost(), "3 + 14 − 15")
	require.Equal(t, int32(18), f.cs("wichtln").GetEssence())

	f.nextAction()
	f.declare("wichtln", vaRanged("kobold", &feeriev1.Applied{Damage: []string{"voix tonnante"}}))
	f.declare("kobold", vaPassive(), 10, 10, 1, 20)
	f.act("wichtln", nil)
	r = f.advance(0, 12, 2)[0]
	require.Equal(t, int32(15), r.GetAttack().GetScore(), "ranged Attack 15: Vigilance alone")
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Vigilance", "FEE-012", 15)
	require.Equal(t, int32(25), r.GetAttack().GetTotal())
	require.Equal(t, int32(7), r.GetDamage(), "ranged Damage 7: Puissance + Taille + voice − 4")
	vaRequireMod(t, r.GetDamageModifiers(), "ranged", "FEE-014", -4)
	require.Equal(t, int32(11), r.GetMargin())
	require.Equal(t, int32(4), r.GetEssenceLost(), "5 + 7 − 8")
}

// FEE-001: a roll is score + d20 − d20, rolled anew; the option may name another zero-mean
// roll.
func TestVaRollIsScorePlusD20MinusD20(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	created := f.St.GetOptions().GetFeerie()
	require.Equal(t, feerie.DefaultRoll, created.GetRoll())
	f.declare("lutin", vaPassive())
	ir := vaInitiative(t, vaCountdown(t, f.declare("troll", vaPassive(), 12, 5, 3, 9)), "lutin").GetResult()
	require.Equal(t, []int32{12}, ir.GetRoll().GetFaces())
	require.Equal(t, []int32{5}, ir.GetMinus().GetFaces())
	require.Contains(t, ir.GetRoll().GetExpression(), "d20")
	require.Contains(t, ir.GetMinus().GetExpression(), "d20")
	require.Equal(t, int32(14+12-5), ir.GetTotal())

	g := vaNew(t, &feeriev1.Options{Roll: "2d10-11"}, vaLutin(), vaTroll())
	g.declare("lutin", vaPassive())
	ir = vaInitiative(t, vaCountdown(t, g.declare("troll", vaPassive(), 7, 8, 1, 1)), "lutin").GetResult()
	require.Equal(t, []int32{7, 8}, ir.GetRoll().GetFaces())
	require.Nil(t, ir.GetMinus())
	require.Equal(t, int32(14+7+8-11), ir.GetTotal())

	for _, roll := range []string{"1d20", "3d6-10", "1d20-1d10"} {
		re := vaBlank(t).refuse(vaGM, vaCreateCmd(&feeriev1.Options{Roll: roll}), engine.CodeInvalid, "FEE-001", roll)
		require.Contains(t, re.Msg, "mean of zero")
	}
	vaBlank(t).do(vaGM, vaCreateCmd(&feeriev1.Options{Roll: "d20-d20"}))
}

// FEE-002, FEE-020, FEE-021, FEE-003: the Lutin (Attack 19 with its sword) against the
// passive Troll (Defense 10, Soak 16).
func TestVaAttackAgainstDefense(t *testing.T) {
	in := vaMelee("troll", vaAtt("épée"))
	// Total = Defense: a success of margin 0 (FEE-002); 0 + 6 − 16 ≤ 0: nothing lost (FEE-021).
	f, r := vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, nil, 5, 14)
	require.Equal(t, int32(10), r.GetAttack().GetTotal())
	require.Equal(t, int32(10), r.GetDefense())
	require.True(t, r.GetSuccess())
	require.Zero(t, r.GetMargin())
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, int32(30), f.cs("troll").GetEssence())

	// One less: a failure, margin −1 (FEE-002), not a fumble.
	_, r = vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, nil, 5, 15)
	require.False(t, r.GetSuccess())
	require.Equal(t, int32(-1), r.GetMargin())
	require.False(t, r.GetFumble())
	require.Zero(t, r.GetEssenceLost())

	// Margin 25: floor(25/2) = 12 (FEE-003) + 6 − 16 = 2 (FEE-021).
	f, r = vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, nil, 20, 4)
	require.Equal(t, int32(35), r.GetAttack().GetTotal())
	require.Equal(t, int32(25), r.GetMargin())
	require.Equal(t, int32(6), r.GetDamage())
	require.Equal(t, int32(16), r.GetSoak())
	require.Equal(t, int32(2), r.GetEssenceLost())
	require.Equal(t, int32(28), r.GetTargetEssence())
	require.Equal(t, int32(28), f.cs("troll").GetEssence())
}

// FEE-020: the defender's Defense as modified by its own tactic and penalties at that moment:
// the Ogre (H14 − T2 + club 2, tactic Defense +2) anticipates its heave by 5 ranks to the
// Kobold's rank 15 (FEE-050), so its Defense is 11 against the Lutin's attack at rank 14.
func TestVaDefenseWithTheDefendersTacticAndPenalties(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaOgre(), vaKobold())
	f.declare("lutin", vaMelee("ogre", vaAtt("épée")))
	heave := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "puissance", Difficulty: 10,
		Applied: &feeriev1.Applied{Defense: []string{"massue"}}}
	f.declare("ogre", vaTac(heave, 0, -2, 2))
	f.declare("kobold", vaPassive(), 10, 10, 10, 12, 10, 5)
	require.Equal(t, []int32{14, 10, 15}, []int32{f.cs("lutin").GetInitiative(), f.cs("ogre").GetInitiative(), f.cs("kobold").GetInitiative()})
	f.act("kobold", nil)
	require.Equal(t, int32(5), f.act("ogre", nil).GetAnticipation())
	f.advance(0, 10, 10)
	f.act("lutin", nil)
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(11), r.GetDefense(), "14 − 2 + 2 + 2 − 5")
	vaRequireMod(t, r.GetDefenseModifiers(), "tactic", "FEE-031", 2)
	require.Equal(t, int32(19), r.GetAttack().GetTotal())
	require.Equal(t, int32(8), r.GetMargin())
	require.True(t, r.GetSuccess())
	require.Equal(t, int32(20), r.GetSoak())
	require.Zero(t, r.GetEssenceLost(), "4 + 6 − 20 ≤ 0 (FEE-021)")
}

// FEE-004 (and FEE-003 on |margin|): a failure by 10 or more is a fumble, recorded with what
// hurting oneself would cost: floor(|margin|/2) + own Damage − own Soak, at least 0.
func TestVaFumble(t *testing.T) {
	in := vaMelee("troll", vaAtt("épée"))
	// Attack 0 against Defense 10: margin −10, a fumble; 5 + 6 − 8 = 3.
	f, r := vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, nil, 1, 20)
	require.Equal(t, int32(-10), r.GetMargin())
	require.True(t, r.GetFumble())
	require.Equal(t, int32(3), r.GetSelfHarm())
	require.Equal(t, int32(20), f.cs("lutin").GetEssence(), "the engine only offers it")
	// Margin −9: no fumble.
	_, r = vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, nil, 1, 19)
	require.Equal(t, int32(-9), r.GetMargin())
	require.False(t, r.GetFumble())
	require.Zero(t, r.GetSelfHarm())

	five := &feeriev1.Options{FumbleMargin: proto.Int32(5)}
	// fumble_margin 5: margin −7 is a fumble, floor(7/2) = 3 (FEE-003) + 6 − 8 = 1.
	_, r = vaDuel(t, five, vaLutin(), vaTroll(), in, nil, nil, 2, 18)
	require.Equal(t, int32(-7), r.GetMargin())
	require.True(t, r.GetFumble())
	require.Equal(t, int32(1), r.GetSelfHarm())
	_, r = vaDuel(t, five, vaLutin(), vaTroll(), in, nil, nil, 2, 15)
	require.Equal(t, int32(-4), r.GetMargin())
	require.False(t, r.GetFumble())
	// fumble_margin 1: margin −1 is a fumble; 0 + 6 − 8 < 0 gives 0.
	_, r = vaDuel(t, &feeriev1.Options{FumbleMargin: proto.Int32(1)}, vaLutin(), vaTroll(), in, nil, nil, 5, 15)
	require.True(t, r.GetFumble())
	require.Zero(t, r.GetSelfHarm())

	require.Equal(t, int32(10), vaNew(t, nil, vaLutin(), vaTroll()).St.GetOptions().GetFeerie().GetFumbleMargin())
	vaBlank(t).refuse(vaGM, vaCreateCmd(&feeriev1.Options{FumbleMargin: proto.Int32(0)}), engine.CodeInvalid, "FEE-004")
}

// FEE-005: each point of Essence spent adds +1 to the roll and is lost; the option caps it.
func TestVaSpendingEssence(t *testing.T) {
	in := vaMelee("troll", vaAtt("épée"))
	f, r := vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, &feeriev1.Act{Essence: 3}, 5, 14)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Essence spent", "FEE-005", 3)
	require.Equal(t, int32(22), r.GetAttack().GetScore(), "16 + 3 + 3")
	require.Equal(t, int32(13), r.GetAttack().GetTotal())
	require.Equal(t, int32(3), r.GetMargin())
	require.Equal(t, int32(3), r.GetEssenceSpent())
	require.Equal(t, int32(17), f.cs("lutin").GetEssence())

	// Unlimited by default, short of the last point.
	f = vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", in)
	f.declare("troll", vaPassive(), 20, 1, 1, 20)
	f.refuse(vaGM, vaActCmd("lutin", &feeriev1.Act{Essence: 20}), engine.CodeInvalid, "FEE-005", "Lutin", "0 to 19")
	require.Equal(t, int32(15), f.act("lutin", &feeriev1.Act{Essence: 15}).GetAct().GetEssence())
	require.Equal(t, int32(5), f.cs("lutin").GetEssence())

	f = vaNew(t, &feeriev1.Options{EssenceSpendCap: proto.Int32(2)}, vaLutin(), vaTroll())
	f.declare("lutin", in)
	f.declare("troll", vaPassive(), 20, 1, 1, 20)
	f.refuse(vaGM, vaActCmd("lutin", &feeriev1.Act{Essence: 3}), engine.CodeInvalid, "FEE-005", "Lutin", "0 to 2")
	f.act("lutin", &feeriev1.Act{Essence: 2})
	vaBlank(t).refuse(vaGM, vaCreateCmd(&feeriev1.Options{EssenceSpendCap: proto.Int32(-1)}), engine.CodeInvalid, "FEE-005")
}

// FEE-010: Initiative = Vigilance roll + the Attributes applied + the tactic + circumstances,
// rolled anew at each Action.
func TestVaInitiativeRolledAnewEachAction(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	in := vaTac(vaMelee("troll", &feeriev1.Applied{Initiative: []string{"vivacité"}, Attack: []string{"épée"}}), 2, -2, 0)
	f.declare("lutin", in)
	r := vaInitiative(t, vaCountdown(t, f.declare("troll", vaPassive(), 12, 5, 1, 20)), "lutin").GetResult()
	vaRequireMod(t, r.GetModifiers(), "Vigilance", "FEE-010", 14)
	vaRequireMod(t, r.GetModifiers(), "vivacité", "FEE-010", 2)
	vaRequireMod(t, r.GetModifiers(), "tactic", "FEE-031", 2)
	require.Equal(t, int32(18), r.GetScore())
	require.Equal(t, int32(25), r.GetTotal())
	require.Equal(t, int32(25), f.cs("lutin").GetInitiative())

	// Action 2: rolled again; surprise is a circumstance (−8, FEE-080).
	f.nextAction()
	f.do(vaGM, vaCmd("lutin", &feeriev1.Action{Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 1}}}))
	f.declare("lutin", vaMelee("troll", &feeriev1.Applied{Initiative: []string{"vivacité"}, Attack: []string{"épée"}}))
	r = vaInitiative(t, vaCountdown(t, f.declare("troll", vaPassive(), 3, 9, 1, 20)), "lutin").GetResult()
	vaRequireMod(t, r.GetModifiers(), "surprised", "FEE-080", -8)
	require.Equal(t, int32(8), r.GetScore(), "14 + 2 − 8")
	require.Equal(t, int32(2), r.GetTotal())
	require.Equal(t, int32(2), f.cs("lutin").GetInitiative())
}

// FEE-011, FEE-012, FEE-019: a melee attack (contact through the body or a held weapon) rolls
// Habileté and engages the defender; a ranged one (a projectile) rolls Vigilance, engages no
// one and its Damage is 4 lower (FEE-014).
func TestVaMeleeAndRangedAttacks(t *testing.T) {
	f, r := vaDuel(t, nil, vaLutin(), vaTroll(), vaMelee("troll", vaAtt("épée")), nil, nil, 10, 10)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Habileté", "FEE-011", 16)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "épée", "FEE-011", 3)
	vaNoMod(t, r.GetAttack().GetModifiers(), "Vigilance")
	require.Equal(t, int32(19), r.GetAttack().GetTotal())
	require.Equal(t, int32(6), r.GetDamage())
	vaNoMod(t, r.GetDamageModifiers(), "ranged")
	require.Contains(t, f.cs("troll").GetEngagedBy(), "lutin", "melee: in contact")

	f, r = vaDuel(t, nil, vaLutin(), vaTroll(), vaRanged("troll", vaAtt("fronde")), nil, nil, 10, 10)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Vigilance", "FEE-012", 14)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "fronde", "FEE-011", 2)
	vaNoMod(t, r.GetAttack().GetModifiers(), "Habileté")
	require.Equal(t, int32(16), r.GetAttack().GetTotal())
	require.Equal(t, int32(2), r.GetDamage(), "8 − 2 − 4")
	vaRequireMod(t, r.GetDamageModifiers(), "ranged", "FEE-014", -4)
	vaNoMod(t, r.GetDefenseModifiers(), "attack angles occupied")
	require.NotContains(t, f.cs("troll").GetEngagedBy(), "lutin", "ranged: no contact")
	require.Equal(t, int32(6), r.GetMargin())
	require.Zero(t, r.GetEssenceLost(), "3 + 2 − 16")
}

// FEE-013, FEE-014, FEE-015, FEE-170: Taille counts in Defense, Damage and Soak only when the
// conflict is physical; no roll for any of them.
func TestVaTailleOnlyInPhysicalConflicts(t *testing.T) {
	gaze := vaRanged("troll", vaAtt("regard hypnotique"))
	gaze.Physical = false
	_, r := vaDuel(t, nil, vaLutin(), vaTroll(), gaze, nil, nil, 10, 10)
	require.Equal(t, int32(17), r.GetAttack().GetTotal(), "14 + 3")
	require.Equal(t, int32(12), r.GetDefense(), "Habileté 12, no Taille")
	vaNoMod(t, r.GetDefenseModifiers(), "Taille")
	require.Equal(t, int32(4), r.GetDamage(), "8 − 4, no Taille")
	vaNoMod(t, r.GetDamageModifiers(), "Taille")
	require.Equal(t, int32(14), r.GetSoak(), "Résistance 14, no Taille")
	vaNoMod(t, r.GetSoakModifiers(), "Taille")
	require.Equal(t, int32(5), r.GetMargin())

	gaze.Physical = true
	_, r = vaDuel(t, nil, vaLutin(), vaTroll(), gaze, nil, nil, 10, 10)
	require.Equal(t, int32(10), r.GetDefense())
	vaRequireMod(t, r.GetDefenseModifiers(), "Taille", "FEE-013", -2)
	require.Equal(t, int32(2), r.GetDamage())
	vaRequireMod(t, r.GetDamageModifiers(), "Taille", "FEE-014", -2)
	require.Equal(t, int32(16), r.GetSoak())
	vaRequireMod(t, r.GetSoakModifiers(), "Taille", "FEE-015", 2)

	// The Wichtln (T−2) outside a physical conflict: Defense 23, Damage 14, Soak 17.
	w := vaWichtln().GetFeerie()
	v, err := feerie.New(1).ComputeValues(w, &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, Applied: &feeriev1.Applied{
		Defense: []string{"marteau"}, Damage: []string{"force surnaturelle"}, Soak: []string{"tablier de cuir"},
	}})
	require.NoError(t, err)
	require.Equal(t, []int32{23, 14, 17}, []int32{v.Defense.Sum(), v.Damage.Sum(), v.Soak.Sum()})
}

// FEE-016, FEE-017: an Attribute on the Attack cannot serve the Damage, one on the Defense
// cannot serve the Soak; the same one may serve Attack and Defense.
func TestVaAttributesAppliedOnce(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	f.refuse(vaGM, vaDeclareCmd("lutin", vaMelee("kobold", &feeriev1.Applied{Attack: []string{"épée"}, Damage: []string{"épée"}})),
		engine.CodeInvalid, "FEE-016", "Lutin", "épée")
	f.refuse(vaGM, vaDeclareCmd("lutin", vaMelee("kobold", &feeriev1.Applied{Defense: []string{"tablier"}, Soak: []string{"tablier"}})),
		engine.CodeInvalid, "FEE-017", "Lutin", "tablier")
	f.declare("lutin", vaMelee("kobold", &feeriev1.Applied{Attack: []string{"épée"}, Defense: []string{"épée"}, Soak: []string{"tablier"}}))
	f.declare("kobold", vaMelee("lutin", nil), 20, 1, 10, 10)
	f.act("lutin", nil)
	f.advance(10, 10, 10)
	f.act("kobold", nil)
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(21), r.GetDefense(), "16 + 2 + épée 3 (the sword also on its Attack)")
	require.Equal(t, int32(10), r.GetSoak(), "10 − 2 + tablier 2")
}

// FEE-018: circumstance modifiers all add up: light, pace, cover, the GM's.
func TestVaCircumstancesAreCumulative(t *testing.T) {
	in := vaMelee("troll", vaAtt("épée"))
	in.Pace = feeriev1.Pace_PACE_TROT
	act := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{
		Lighting: feeriev1.Lighting_LIGHTING_DUSK, Modifier: -3,
		Cover: &feeriev1.Cover{Solidity: "normal", SemiTransparent: true, DomainSoak: 10},
	}}
	_, r := vaDuel(t, nil, vaLutin(), vaTroll(), in, nil, act, 20, 1)
	mods := r.GetAttack().GetModifiers()
	vaRequireMod(t, mods, "lighting", "FEE-120", -2)
	vaRequireMod(t, mods, "pace", "FEE-100", -4)
	vaRequireMod(t, mods, "cover", "FEE-111", -4)
	vaRequireMod(t, mods, "GM", "FEE-036", -3)
	require.Equal(t, int32(6), r.GetAttack().GetScore(), "16 + 3 − 2 − 4 − 4 − 3")
	require.Equal(t, int32(25), r.GetAttack().GetTotal())
	vaRequireMod(t, r.GetSoakModifiers(), "cover", "FEE-111", 5)
	require.Equal(t, int32(21), r.GetSoak(), "14 + 2 + half the Domain's 10")
	require.Equal(t, int32(15), r.GetMargin())
	require.Zero(t, r.GetEssenceLost(), "7 + 6 − 21")
}

// FEE-022, FEE-024: a defender that does not defend, or is at 0 Essence, has Defense 0: the
// whole Attack total is the margin; at 0 Essence a character cannot act.
func TestVaHelplessDefenderAndZeroEssence(t *testing.T) {
	f, r := vaDuel(t, nil, vaOgre(), vaLutin(), vaMelee("lutin", vaAtt("massue")), nil,
		&feeriev1.Act{Circumstances: &feeriev1.Circumstances{Undefended: true}}, 10, 10)
	require.Zero(t, r.GetDefense())
	require.Zero(t, vaSum(r.GetDefenseModifiers()))
	require.Equal(t, int32(16), r.GetAttack().GetTotal())
	require.Equal(t, int32(16), r.GetMargin())
	require.Equal(t, int32(20), r.GetEssenceLost(), "8 + 22 − 8 = 22, all 20 it has")
	require.Zero(t, f.cs("lutin").GetEssence())

	f.nextAction()
	f.refuse(vaGM, vaDeclareCmd("lutin", vaPassive()), engine.CodePrecondition, "FEE-024", "Lutin")
	f.declare("ogre", vaMelee("lutin", vaAtt("massue")), 20, 1)
	f.refuse(vaGM, vaActCmd("lutin", nil), engine.CodePrecondition, "FEE-024", "Lutin")
	f.act("ogre", nil)
	r = f.advance(0, 12, 2)[0]
	require.Zero(t, r.GetDefense(), "at 0 Essence: helpless")
	require.Equal(t, int32(26), r.GetMargin())
	require.Zero(t, r.GetEssenceLost())
}

// FEE-023: an inanimate object has no Defense: no Attack roll, a Damage roll (Damage + d20 −
// d20); a negative total is an incident.
func TestVaObjectsTakeADamageRoll(t *testing.T) {
	door := vaFey("porte", "Porte", 0, 0, 0, 10, 0, 15)
	door.GetFeerie().Inanimate = true
	f, r := vaDuel(t, nil, vaOgre(), door, vaMelee("porte", vaAtt("massue")), nil, nil, 12, 5)
	require.Equal(t, int32(22), r.GetAttack().GetScore(), "the Ogre's Damage, not its Attack")
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Puissance", "FEE-014", 20)
	vaNoMod(t, r.GetAttack().GetModifiers(), "massue")
	require.Equal(t, int32(29), r.GetAttack().GetTotal())
	require.Zero(t, r.GetDefense())
	require.Empty(t, r.GetDefenseModifiers())
	require.True(t, r.GetSuccess())
	require.Equal(t, int32(10), r.GetSoak())
	require.Equal(t, int32(15), r.GetEssenceLost(), "29 − 10, all 15 it has")
	require.Zero(t, f.cs("porte").GetEssence())

	_, r = vaDuel(t, nil, vaLutin(), door, vaMelee("porte", vaAtt("épée")), nil, nil, 1, 20)
	require.Equal(t, int32(-13), r.GetAttack().GetTotal(), "6 − 19")
	require.True(t, r.GetFumble(), "an incident")
	require.False(t, r.GetSuccess())
	require.Zero(t, r.GetEssenceLost())
}

// FEE-025: cutting a rope in a hurry: an Attack roll against a difficulty set by the
// circumstances, here with an anticipation malus (FEE-050), instead of the Damage roll.
func TestVaSmallObjectAgainstADifficulty(t *testing.T) {
	rope := vaFey("corde", "Corde", 0, 0, 0, 4, -3, 1)
	rope.GetFeerie().Inanimate = true
	f := vaNew(t, nil, vaOgre(), vaLutin(), rope)
	f.declare("ogre", vaPassive())
	f.declare("lutin", vaMelee("corde", vaAtt("épée")), 15, 5, 8, 8)
	require.Equal(t, int32(22), f.rank())
	require.Equal(t, int32(14), f.cs("lutin").GetInitiative())
	f.act("ogre", nil)
	hurry := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{SmallObjectDifficulty: 12}}
	f.refuse(vaGM, vaActCmd("lutin", &feeriev1.Act{Intent: vaMelee("ogre", vaAtt("épée")), Circumstances: hurry.GetCircumstances()}),
		engine.CodeInvalid, "FEE-025", "Lutin")
	q := f.act("lutin", hurry)
	require.Equal(t, int32(8), q.GetAnticipation())
	res := f.advance(0, 15, 5)
	require.Len(t, res, 2)
	r := res[0]
	require.Equal(t, "lutin", r.GetCombatantId(), "Vigilance 14 > 12")
	require.Equal(t, int32(11), r.GetAttack().GetScore(), "16 + 3 − 8")
	require.Equal(t, int32(21), r.GetAttack().GetTotal())
	require.Equal(t, int32(12), r.GetDefense())
	vaRequireMod(t, r.GetDefenseModifiers(), "difficulty of hitting a small object", "FEE-025", 12)
	require.Equal(t, int32(9), r.GetMargin())
	require.True(t, r.GetSuccess())
	require.Equal(t, int32(1), r.GetEssenceLost(), "4 + 6 − 1 = 9: the rope's last point")
	require.Zero(t, f.cs("corde").GetEssence())
}

// FEE-026: a Power that makes a character an inanimate object (a wooden puppet): it takes
// damage as an object and renounces every activity until the status ends.
func TestVaPowerOfAnInanimateObject(t *testing.T) {
	puppet := vaFey("pantin", "Pinocchio", 10, 12, 6, 8, -1, 30, vaAttr("pantin de bois", vaPow, 2, false))
	f := vaNew(t, nil, vaOgre(), puppet)
	f.declare("ogre", vaMelee("pantin", vaAtt("massue")))
	f.declare("pantin", vaMelee("ogre", nil), 20, 1, 10, 10)
	f.refuse(vaGM, vaBecomeCmd("pantin", "massue", false), engine.CodeInvalid, "FEE-026", "Pinocchio")
	f.refuse(vaGM, vaBecomeCmd("pantin", "", true), engine.CodePrecondition, "FEE-026", "Pinocchio")
	evs := f.do(vaGM, vaBecomeCmd("pantin", "pantin de bois", false))
	require.Equal(t, "pantin de bois", evs[0].GetBecameObject().GetPower())
	require.True(t, f.cs("pantin").GetInanimate())
	require.True(t, f.cs("pantin").GetRenounced())
	f.refuse(vaGM, vaActCmd("pantin", nil), engine.CodePrecondition, "FEE-026", "Pinocchio")
	f.act("ogre", nil)
	r := f.advance(0, 10, 10)[0]
	require.Zero(t, r.GetDefense(), "no Defense")
	require.Equal(t, int32(22), r.GetAttack().GetTotal(), "a Damage roll: 22 + 0")
	require.Equal(t, int32(7), r.GetSoak())
	require.Equal(t, int32(15), r.GetEssenceLost())
	require.Equal(t, int32(15), f.cs("pantin").GetEssence())

	f.nextAction()
	f.refuse(vaGM, vaDeclareCmd("pantin", vaPassive()), engine.CodePrecondition, "FEE-026", "Pinocchio")
	cd := vaCountdown(t, f.declare("ogre", vaPassive(), 10, 10))
	require.Len(t, cd.GetInitiative(), 1, "an object rolls no Initiative")
	f.do(vaGM, vaBecomeCmd("pantin", "", true))
	require.False(t, f.cs("pantin").GetInanimate())
	f.nextAction()
	f.declare("pantin", vaMelee("ogre", nil))
	f.declare("ogre", vaPassive(), 10, 10, 10, 10)
	require.Equal(t, int32(10), f.cs("pantin").GetInitiative())
}

// FEE-030: only a character applying a combat Affinity or Power may declare a tactic; a
// passive one may not.
func TestVaTacticNeedsCombatAptitude(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.refuse(vaGM, vaDeclareCmd("troll", vaTac(vaMelee("lutin", nil), 2, -2, 0)), engine.CodePrecondition, "FEE-030", "Troll")
	f.refuse(vaGM, vaDeclareCmd("lutin", vaTac(vaMelee("troll", &feeriev1.Applied{Soak: []string{"tablier"}}), 2, -2, 0)),
		engine.CodePrecondition, "FEE-030", "Lutin")
	passive := vaPassive()
	passive.Applied = &feeriev1.Applied{Defense: []string{"épée"}}
	f.refuse(vaGM, vaDeclareCmd("lutin", vaTac(passive, 0, -2, 2)), engine.CodePrecondition, "FEE-030", "Lutin", "passive")
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 2, -2, 0))
	require.Equal(t, int32(2), f.cs("lutin").GetTactic().GetInitiative())
}

// FEE-030, FEE-032: only the Attributes that modify the Attack or the Defense make the combat
// aptitude that entitles a tactic, and only they make its cap: a combat Affinity applied to
// the Initiative alone, or a Power to the Damage alone, entitles nothing and adds nothing; an
// Accessoire on the Defense does, whatever its combat flag.
func TestVaTacticFromAttackOrDefense_FEE030(t *testing.T) {
	lutin := vaLutin().GetFeerie()
	initOnly := vaTac(vaMelee("troll", &feeriev1.Applied{Initiative: []string{"vivacité"}, Damage: []string{"regard hypnotique"}}), 2, -2, 0)
	require.Zero(t, feerie.Cap(lutin, initOnly), "was 2: vivacité on the Initiative counted")
	err := feerie.CheckTactic(lutin, proto.CloneOf(initOnly), "Lutin")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "was accepted: a combat Affinity on the Initiative entitled a tactic")
	require.Equal(t, "FEE-030", re.Rule)
	both := vaMelee("troll", &feeriev1.Applied{Initiative: []string{"vivacité"}, Attack: []string{"épée"}})
	require.Equal(t, int32(3), feerie.Cap(lutin, both), "épée alone: was 5")
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.refuse(vaGM, vaDeclareCmd("lutin", vaTac(proto.CloneOf(both), 4, -4, 0)), engine.CodeInvalid, "FEE-032", "Lutin", "cap of 3", "épée +3")
	f.refuse(vaGM, vaDeclareCmd("lutin", initOnly), engine.CodePrecondition, "FEE-030", "Lutin")
	apron := vaTac(vaMelee("troll", &feeriev1.Applied{Defense: []string{"tablier"}}), 0, -2, 2)
	require.Equal(t, int32(2), feerie.Cap(lutin, apron))
	f.declare("lutin", apron)
	require.Equal(t, int32(2), f.cs("lutin").GetTactic().GetDefense())
}

// FEE-031: a tactic's three modifiers add up to exactly 0.
func TestVaTacticSumsToZero(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.refuse(vaGM, vaDeclareCmd("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 2, 2, -3)), engine.CodeInvalid, "FEE-031", "Lutin", "+1")
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -1, -2))
}

// FEE-T02, FEE-032: the Redcap's axe +3 and massacre +4 make a cap of 7: Att +7, Init −2,
// Def −5 is valid, Att +8 is not; the cap counts only what is applied.
func TestVaRedcapTacticCap(t *testing.T) {
	redcap := vaFey("redcap", "Redcap", 12, 15, 14, 12, 0, 30,
		vaAttr("hache", vaAff, 3, true), vaAttr("massacre", vaAff, 4, true), vaAttr("chapeau rouge", vaAcc, 5, false))
	villager := vaFey("villageois", "Villageois", 8, 8, 6, 6, 0, 10)
	in := vaMelee("villageois", vaAtt("hache", "massacre"))
	require.Equal(t, int32(7), feerie.Cap(redcap.GetFeerie(), in))
	require.NoError(t, feerie.CheckTactic(redcap.GetFeerie(), vaTac(proto.CloneOf(in), -2, 7, -5), "Redcap"))
	err := feerie.CheckTactic(redcap.GetFeerie(), vaTac(proto.CloneOf(in), -3, 8, -5), "Redcap")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, "FEE-032", re.Rule)
	axe := vaMelee("villageois", vaAtt("hache"))
	require.Equal(t, int32(3), feerie.Cap(redcap.GetFeerie(), axe), "massacre not applied")

	f := vaNew(t, nil, redcap, villager)
	f.refuse(vaGM, vaDeclareCmd("redcap", vaTac(proto.CloneOf(in), -3, 8, -5)), engine.CodeInvalid, "FEE-032", "Redcap", "cap of 7")
	f.refuse(vaGM, vaDeclareCmd("redcap", vaTac(proto.CloneOf(axe), -2, 4, -2)), engine.CodeInvalid, "FEE-032", "Redcap", "cap of 3")
	f.declare("redcap", vaTac(proto.CloneOf(in), -2, 7, -5))
	ir := vaInitiative(t, vaCountdown(t, f.declare("villageois", vaPassive(), 20, 1, 1, 20)), "redcap").GetResult()
	require.Equal(t, int32(29), ir.GetTotal(), "12 − 2 + 19")
	f.act("redcap", nil)
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(29), r.GetAttack().GetTotal(), "15 + 3 + 4 + 7")
	vaRequireMod(t, r.GetAttack().GetModifiers(), "tactic", "FEE-031", 7)
	require.Equal(t, int32(21), r.GetMargin())
	require.Equal(t, int32(10), r.GetEssenceLost(), "10 + 14 − 6, all 10 it has")
}

// FEE-T03, FEE-034: Sire Didimus, duel +4: all thirteen named tactics are valid; a triple with
// a component of 5 is not. The presets' values are FEE-034's.
func TestVaDidimusPresets(t *testing.T) {
	want := []struct {
		name           string
		init, att, def int32
	}{
		{"Attaque foudroyante", 4, -2, -2}, {"Attaque brutale", -2, 4, -2}, {"Feinte", -4, 1, 3},
		{"Sauve qui peut", 0, -4, 4}, {"Coûte que coûte", 4, 0, -4}, {"Passage en force", 0, 4, -4},
		{"Préparation minutieuse", -4, 4, 0}, {"Botte secrète", 2, 2, -4}, {"Frappe et file", 1, -4, 3},
		{"Tenir en respect", 3, -4, 1}, {"Grande parade", 2, -4, 2}, {"Parade simple", -2, -2, 4},
		{"Riposte œil pour œil", -4, 2, 2},
	}
	require.Len(t, feerie.Presets, len(want))
	didimus := vaFey("didimus", "Sire Didimus", 14, 16, 10, 12, 0, 30, vaAttr("duel", vaAff, 4, true))
	duel := vaMelee("rival", vaAtt("duel"))
	for i, p := range want {
		require.Equal(t, p.name, feerie.Presets[i].Name)
		require.Equal(t, []int32{p.init, p.att, p.def}, []int32{feerie.Presets[i].Init, feerie.Presets[i].Att, feerie.Presets[i].Def}, p.name)
		require.NoError(t, feerie.CheckTactic(didimus.GetFeerie(), vaTac(proto.CloneOf(duel), p.init, p.att, p.def), "Sire Didimus"), p.name)
		byName := proto.CloneOf(duel)
		byName.Tactic = &feeriev1.Tactic{Preset: p.name}
		require.NoError(t, feerie.CheckTactic(didimus.GetFeerie(), byName, "Sire Didimus"), p.name)
		require.Equal(t, []int32{p.init, p.att, p.def}, []int32{byName.GetTactic().GetInitiative(), byName.GetTactic().GetAttack(), byName.GetTactic().GetDefense()})
	}
	for _, bad := range [][3]int32{{5, -5, 0}, {-1, 5, -4}, {0, -5, 5}} {
		err := feerie.CheckTactic(didimus.GetFeerie(), vaTac(proto.CloneOf(duel), bad[0], bad[1], bad[2]), "Sire Didimus")
		re, ok := engine.AsRuleError(err)
		require.True(t, ok, "%v", bad)
		require.Equal(t, "FEE-032", re.Rule)
	}
	// Any valid triple, not only the presets.
	require.NoError(t, feerie.CheckTactic(didimus.GetFeerie(), vaTac(proto.CloneOf(duel), 3, -3, 0), "Sire Didimus"))

	rival := vaFey("rival", "Rival", 12, 14, 10, 12, 0, 30)
	f := vaNew(t, nil, didimus, rival)
	wrong := proto.CloneOf(duel)
	wrong.Tactic = &feeriev1.Tactic{Preset: "Feinte", Initiative: 4, Attack: -2, Defense: -2}
	f.refuse(vaGM, vaDeclareCmd("didimus", wrong), engine.CodeInvalid, "FEE-034", "Sire Didimus", "Feinte")
	unknown := proto.CloneOf(duel)
	unknown.Tactic = &feeriev1.Tactic{Preset: "Botte de Nevers"}
	f.refuse(vaGM, vaDeclareCmd("didimus", unknown), engine.CodeInvalid, "FEE-034", "Sire Didimus", "Botte de Nevers")
	feint := proto.CloneOf(duel)
	feint.Tactic = &feeriev1.Tactic{Preset: "Feinte"}
	evs := f.declare("didimus", feint)
	got := evs[0].GetDeclared().GetIntent().GetTactic()
	require.Equal(t, []int32{-4, 1, 3}, []int32{got.GetInitiative(), got.GetAttack(), got.GetDefense()})
	require.Equal(t, int32(3), f.cs("didimus").GetTactic().GetDefense())
}

// FEE-033: a tactic is declared at step 1 and holds for the whole Action; it changes at the
// next step 1.
func TestVaTacticHoldsForTheAction(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	guard := &feeriev1.Applied{Attack: []string{"épée"}, Defense: []string{"épée"}}
	f.declare("lutin", vaTac(vaMelee("kobold", guard), -3, 0, 3))
	f.refuse(vaGM, vaDeclareCmd("lutin", vaTac(vaMelee("kobold", guard), 3, 0, -3)), engine.CodePrecondition, "FEE-033", "Lutin", "already declared")
	f.declare("kobold", vaMelee("lutin", nil), 10, 10, 15, 5)
	require.Equal(t, []int32{11, 20}, []int32{f.cs("lutin").GetInitiative(), f.cs("kobold").GetInitiative()})
	f.refuse(vaGM, vaDeclareCmd("kobold", vaPassive()), engine.CodePrecondition, "FEE-033", "Kobold", "step 1")
	f.act("kobold", nil)
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(24), r.GetDefense(), "16 + 2 + 3 + tactic 3")
	vaRequireMod(t, r.GetDefenseModifiers(), "tactic", "FEE-031", 3)
	require.Equal(t, int32(3), f.cs("lutin").GetTactic().GetDefense(), "still in force at rank 19")

	f.nextAction()
	require.Zero(t, f.cs("lutin").GetTactic().GetDefense()+f.cs("lutin").GetTactic().GetInitiative(), "a new declaration is due")
	f.declare("lutin", vaTac(vaMelee("kobold", guard), 3, 0, -3))
	f.declare("kobold", vaMelee("lutin", nil), 10, 10, 15, 5)
	require.Equal(t, int32(17), f.cs("lutin").GetInitiative())
	f.act("kobold", nil)
	r = f.advance(0, 10, 10)[0]
	require.Equal(t, int32(18), r.GetDefense(), "16 + 2 + 3 − 3")
	vaRequireMod(t, r.GetDefenseModifiers(), "tactic", "FEE-031", -3)
}

// FEE-035: changing the Attributes applied is a de facto change of tactic: a change of
// intention (FEE-070: −4 on the activity, −4 Defense, −4 next Action), and the cap is
// recomputed from the new Attributes.
func TestVaNewAttributesRecomputeTheCap(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	declared := &feeriev1.Applied{Initiative: []string{"vivacité"}, Attack: []string{"épée"}, Defense: []string{"épée", "vivacité"}}
	f.declare("lutin", vaTac(vaMelee("troll", declared), 1, 4, -5))
	f.declare("troll", vaPassive(), 10, 10, 1, 20)
	require.Equal(t, int32(17), f.cs("lutin").GetInitiative(), "14 + 2 + 1")
	// Without vivacité the cap falls to 3, below the declared 4 and 5.
	narrow := vaTac(vaMelee("troll", &feeriev1.Applied{Attack: []string{"épée"}, Defense: []string{"épée"}}), 1, 4, -5)
	f.refuse(vaGM, vaActCmd("lutin", &feeriev1.Act{Intent: narrow}), engine.CodeInvalid, "FEE-035", "Lutin", "cap is now 3")
	f.refuse(vaGM, vaCmd("lutin", &feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: narrow}}}),
		engine.CodeInvalid, "FEE-035", "Lutin", "cap is now 3")
	// With the sling on the Attack the cap is 5 again (vivacité, on the Initiative only, adds
	// nothing: FEE-030): the same tactic holds, at the price of a change.
	wide := vaTac(vaMelee("troll", &feeriev1.Applied{Initiative: []string{"vivacité"}, Attack: []string{"épée", "fronde"}, Defense: []string{"épée"}}), 1, 4, -5)
	q := f.act("lutin", &feeriev1.Act{Intent: wide})
	require.True(t, q.GetChangeOfIntention())
	require.Zero(t, q.GetAnticipation())
	require.Equal(t, int32(4), q.GetRollPenalty())
	require.Equal(t, int32(4), f.cs("lutin").GetNextAction())
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(21), r.GetAttack().GetTotal(), "16 + 3 + 2 + 4 − 4")
	require.Equal(t, int32(11), r.GetMargin())
}

// FEE-036: the GM cancels or modifies a tactic, or gives a malus, through an event.
func TestVaGMRulesOnATactic(t *testing.T) {
	lutin := vaLutin()
	lutin.Controller = "rita"
	f := vaNew(t, nil, lutin, vaTroll())
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -3, 0))
	f.refuse("rita", vaRulingCmd("lutin", &feeriev1.Ruling{CancelTactic: true}), engine.CodePermission, "", "GM")
	f.refuse(vaGM, vaRulingCmd("troll", &feeriev1.Ruling{CancelTactic: true}), engine.CodePrecondition, "FEE-036", "Troll", "no tactic")
	f.refuse(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{}), engine.CodeInvalid, "FEE-036", "Lutin")
	f.refuse(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Malus: -2}), engine.CodeInvalid, "FEE-036", "Lutin")
	evs := f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{CancelTactic: true, Reason: "no lunge described"}))
	require.True(t, evs[0].GetTacticRuled().GetCancelTactic())
	evs = f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Malus: 2, Reason: "a lazy description"}))
	require.Equal(t, int32(2), evs[0].GetTacticRuled().GetMalus())
	ir := vaInitiative(t, vaCountdown(t, f.declare("troll", vaPassive(), 10, 10, 1, 20)), "lutin").GetResult()
	vaNoMod(t, ir.GetModifiers(), "tactic")
	require.Equal(t, int32(14), ir.GetTotal(), "the cancelled tactic's +3 is gone")
	q := f.act("lutin", nil)
	require.False(t, q.GetChangeOfIntention(), "the ruling is not the player's change of intention")
	require.Equal(t, int32(2), q.GetRollPenalty(), "the GM's malus")
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(17), r.GetAttack().GetTotal(), "16 + 3 − 2, no tactic")
	vaNoMod(t, r.GetAttack().GetModifiers(), "tactic")

	// Action 2: modified during the countdown; the new Initiative modifier moves the acting
	// rank (FEE-071) without any penalty.
	f.nextAction()
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -3, 0))
	f.declare("troll", vaPassive(), 10, 10, 1, 20)
	require.Equal(t, int32(17), f.rank())
	f.refuse(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Tactic: &feeriev1.Tactic{Initiative: 5, Attack: -5}}), engine.CodeInvalid, "FEE-032", "Lutin")
	f.refuse(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{CancelTactic: true, Tactic: &feeriev1.Tactic{Attack: 3, Defense: -3}}), engine.CodeInvalid, "FEE-036", "Lutin")
	evs = f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Tactic: &feeriev1.Tactic{Attack: 3, Defense: -3}}))
	require.Equal(t, int32(14), evs[0].GetTacticRuled().GetActingRank(), "17 − 3 + 0")
	require.Equal(t, int32(-3), f.cs("lutin").GetTactic().GetDefense())
	f.advance(14)
	q = f.act("lutin", nil)
	require.Zero(t, q.GetAnticipation())
	require.False(t, q.GetChangeOfIntention())
	require.Zero(t, q.GetRollPenalty())
	r = f.advance(0, 10, 10)[0]
	require.Equal(t, int32(22), r.GetAttack().GetTotal(), "16 + 3 + 3")
	require.Zero(t, f.cs("lutin").GetNextAction())
}

// FEE-134: weapons and armour are cosmetic: only an Accessoire's bonus, where applied, counts.
func TestVaWeaponsAreCosmetic(t *testing.T) {
	lutin := vaLutin().GetFeerie()
	bare := vaMelee("troll", nil)
	bare.Description = "à mains nues"
	flamberge := vaMelee("troll", nil)
	flamberge.Description = "d'un coup de flamberge, en armure de plates"
	a, err := feerie.New(1).ComputeValues(lutin, bare)
	require.NoError(t, err)
	b, err := feerie.New(1).ComputeValues(lutin, flamberge)
	require.NoError(t, err)
	require.Equal(t, []int32{a.Attack.Sum(), a.Damage.Sum(), a.Soak.Sum()}, []int32{b.Attack.Sum(), b.Damage.Sum(), b.Soak.Sum()})
	require.Equal(t, []int32{16, 6, 8}, []int32{a.Attack.Sum(), a.Damage.Sum(), a.Soak.Sum()})
	sword := vaMelee("troll", &feeriev1.Applied{Attack: []string{"épée"}, Soak: []string{"tablier"}})
	c, err := feerie.New(1).ComputeValues(lutin, sword)
	require.NoError(t, err)
	require.Equal(t, []int32{19, 6, 10}, []int32{c.Attack.Sum(), c.Damage.Sum(), c.Soak.Sum()}, "the sword's +3 only as an Accessoire applied to the Attack")

	_, r := vaDuel(t, nil, vaOgre(), vaTroll(), vaMelee("troll", vaAtt("massue")), nil, nil, 10, 10)
	require.Equal(t, int32(22), r.GetDamage(), "Puissance 20 + Taille 2: the club adds nothing to Damage")
	vaNoMod(t, r.GetDamageModifiers(), "massue")
}

func vaCondition(t *testing.T, cs []*feeriev1.Condition, s feeriev1.SpecialStrike) *feeriev1.Condition {
	t.Helper()
	for _, c := range cs {
		if c.GetStrike() == s {
			return c
		}
	}
	t.Fatalf("no %s among %v", s, cs)
	return nil
}

// FEE-149, FEE-151, FEE-153, FEE-178: the Kobold, with no combat Affinity at all, trips and
// stuns the Lutin with one attack (−6 − 4); the effects replace the Essence loss. The Lutin,
// down and stunned, has −4 and the remaining stun on its activity, not on its Defense nor on
// its next Initiative; getting up is an activity without a roll.
func TestVaTripAndStun(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaMelee("lutin", nil, vaTrip, vaStun), 15, 2, 20, 1)
	require.Equal(t, []int32{27, 29}, []int32{f.cs("lutin").GetInitiative(), f.cs("kobold").GetInitiative()})
	f.act("kobold", nil)
	r := f.advance(27, 20, 2)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_TRIP", "FEE-149", -6)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_STUN", "FEE-149", -4)
	require.Equal(t, int32(20), r.GetAttack().GetTotal(), "12 − 10 + 18")
	require.Equal(t, int32(18), r.GetDefense())
	require.Equal(t, int32(2), r.GetMargin())
	require.Zero(t, r.GetEssenceLost(), "special strikes replace the Essence loss")
	require.Equal(t, int32(7), vaCondition(t, r.GetConditions(), vaStun).GetMalus(), "floor(2/2) + 14 − 8 (FEE-153)")
	require.True(t, f.cs("lutin").GetProne())
	require.Equal(t, int32(20), f.cs("lutin").GetEssence())
	require.Equal(t, int32(5), vaCondition(t, f.cs("lutin").GetConditions(), vaStun).GetMalus(), "−1 for each of the 2 ranks passed")

	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "down", "FEE-151", -4)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "stunned", "FEE-153", -5)
	require.Equal(t, int32(10), r.GetAttack().GetTotal(), "16 + 3 − 4 − 5")

	f.nextAction()
	f.declare("lutin", &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP})
	cd := vaCountdown(t, f.declare("kobold", vaMelee("lutin", nil), 10, 10, 20, 1))
	ir := vaInitiative(t, cd, "lutin").GetResult()
	require.Equal(t, int32(14), ir.GetScore(), "no malus on Initiative (FEE-178)")
	require.True(t, f.cs("lutin").GetProne())
	f.act("kobold", nil)
	r = f.advance(14, 10, 10)[0]
	require.Equal(t, int32(18), r.GetDefense(), "no malus on Defense (FEE-178)")
	vaNoMod(t, r.GetDefenseModifiers(), "down")
	f.act("lutin", nil)
	r = f.advance(0)[0]
	require.True(t, r.GetSuccess())
	require.Nil(t, r.GetAttack(), "no roll")
	require.False(t, f.cs("lutin").GetProne())
}

// FEE-152, FEE-178: Entangle (−8) gives a malus equal to the margin until a Puissance roll
// beats the striker's Puissance; at range (−12) freeing oneself must beat its Damage +
// floor(margin/2).
func TestVaEntangle(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	f.declare("lutin", &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_FREE})
	f.declare("kobold", vaMelee("lutin", nil, vaEntangle), 10, 10, 20, 1)
	f.act("kobold", nil)
	r := f.advance(14, 18, 2)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_ENTANGLE", "FEE-149", -8)
	require.Equal(t, int32(20), r.GetAttack().GetTotal())
	require.Equal(t, int32(2), r.GetMargin())
	c := vaCondition(t, f.cs("lutin").GetConditions(), vaEntangle)
	require.Equal(t, int32(2), c.GetMalus(), "the margin")
	require.Equal(t, int32(16), c.GetFreeAgainst(), "the Kobold's Puissance")
	require.Zero(t, r.GetEssenceLost())
	f.act("lutin", nil)
	r = f.advance(0, 15, 3)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "Puissance", "FEE-152", 8)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "entangled", "FEE-152", -2)
	require.Equal(t, int32(18), r.GetAttack().GetTotal(), "8 − 2 + 12")
	require.Equal(t, int32(16), r.GetDefense())
	require.True(t, r.GetSuccess())
	require.Empty(t, f.cs("lutin").GetConditions())

	// At range: the Lutin pins the Kobold with its sling, −12.
	f, r = vaDuel(t, nil, vaLutin(), vaKobold(), vaRanged("kobold", vaAtt("fronde"), vaEntangle), nil, nil, 20, 1)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_ENTANGLE", "FEE-149", -12)
	require.Equal(t, int32(23), r.GetAttack().GetTotal(), "14 + 2 − 12 + 19")
	require.Equal(t, int32(9), r.GetMargin())
	c = vaCondition(t, f.cs("kobold").GetConditions(), vaEntangle)
	require.Equal(t, int32(9), c.GetMalus())
	require.Equal(t, int32(6), c.GetFreeAgainst(), "ranged Damage 2 + floor(9/2)")
}

// FEE-150, FEE-183: Disarm (−8): the Defense is computed with Puissance instead of Habileté
// (P − T + Affinities + modifiers); the sword, a weapon Accessoire, gives nothing until it is
// picked up again, an activity.
func TestVaDisarm(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaKobold())
	f.declare("lutin", vaMelee("kobold", &feeriev1.Applied{Attack: []string{"épée"}, Defense: []string{"épée"}}))
	f.declare("kobold", vaMelee("lutin", nil, vaDisarm), 10, 10, 20, 1)
	f.act("kobold", nil)
	r := f.advance(14, 15, 5)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_DISARM", "FEE-149", -8)
	vaRequireMod(t, r.GetDefenseModifiers(), "Disarm: Puissance instead of Habileté", "FEE-150", 8-16)
	require.Equal(t, int32(13), r.GetDefense(), "8 + 2 + 3")
	require.Equal(t, int32(14), r.GetAttack().GetTotal())
	require.True(t, r.GetSuccess())
	require.Zero(t, r.GetEssenceLost())
	require.True(t, f.cs("lutin").GetDisarmed())

	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaNoMod(t, r.GetAttack().GetModifiers(), "épée")
	require.Equal(t, int32(16), r.GetAttack().GetTotal(), "Habileté alone: the sword is on the ground")

	f.nextAction()
	f.declare("lutin", &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP, Applied: &feeriev1.Applied{Defense: []string{"épée"}}})
	f.declare("kobold", vaMelee("lutin", nil), 20, 1, 10, 10)
	f.act("lutin", nil)
	r = f.advance(10)[0]
	require.True(t, r.GetSuccess())
	require.False(t, f.cs("lutin").GetDisarmed())
	f.act("kobold", nil)
	r = f.advance(0, 10, 10)[0]
	require.Equal(t, int32(21), r.GetDefense(), "16 + 2 + the sword's 3 again")

	// Only an Accessoire can be a weapon.
	g := vaBlank(t)
	g.do(vaGM, vaCreateCmd(nil))
	claws := vaWith(vaKobold(), func(sh *feeriev1.Sheet) {
		sh.Attributes = []*feeriev1.Attribute{{Name: "griffes", Kind: vaAff, Value: 2, Weapon: true}}
	})
	g.refuse(vaGM, vaAddCmd(claws), engine.CodeInvalid, "FEE-183", "Kobold", "griffes")
}

// FEE-154, FEE-159, FEE-180, FEE-187: the Ogre (T+2) keeps the Lutin (T−2) at bay (−12 + 2 + 2
// = −8): −8 to the Lutin's attacks on the Ogre only, until the Lutin enters its guard (−12 +
// 2 + 2), which only cancels it. "Keep at bay" is not the tactic "Tenir en respect".
func TestVaKeepAtBayAndEnterTheGuard(t *testing.T) {
	f := vaNew(t, nil, vaOgre(), vaLutin(), vaKobold())
	f.refuse(vaGM, vaDeclareCmd("lutin", vaMelee("ogre", nil, vaKeepAtBay)), engine.CodePrecondition, "FEE-154", "Lutin")
	f.refuse(vaGM, vaDeclareCmd("ogre", vaMelee("lutin", nil, vaEnterGuard)), engine.CodePrecondition, "FEE-159", "Ogre")
	f.declare("ogre", vaMelee("lutin", vaAtt("massue"), vaKeepAtBay))
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaPassive(), 20, 1, 15, 2, 1, 20)
	f.act("ogre", nil)
	r := f.advance(27, 15, 5)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_KEEP_AT_BAY", "FEE-149", -8)
	require.Equal(t, int32(18), r.GetAttack().GetTotal(), "14 + 2 − 8 + 10")
	require.True(t, r.GetSuccess())
	require.Zero(t, r.GetEssenceLost())
	c := vaCondition(t, f.cs("lutin").GetConditions(), vaKeepAtBay)
	require.Equal(t, "ogre", c.GetBy())
	require.Equal(t, int32(8), c.GetMalus())

	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaNoMod(t, r.GetAttack().GetModifiers(), "kept at bay")
	require.Equal(t, int32(19), r.GetAttack().GetTotal(), "against the Kobold: no malus (FEE-180)")

	f.nextAction()
	f.declare("ogre", vaPassive())
	f.declare("lutin", vaMelee("ogre", vaAtt("épée")))
	f.declare("kobold", vaPassive(), 1, 20, 20, 1, 1, 20)
	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "kept at bay", "FEE-154", -8)
	require.Equal(t, int32(11), r.GetAttack().GetTotal(), "16 + 3 − 8")

	f.nextAction()
	f.declare("ogre", vaPassive())
	f.declare("lutin", vaMelee("ogre", vaAtt("épée"), vaEnterGuard))
	f.declare("kobold", vaPassive(), 1, 20, 20, 1, 1, 20)
	f.act("lutin", nil)
	r = f.advance(0, 20, 1)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_ENTER_THE_GUARD", "FEE-149", -8)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "kept at bay", "FEE-154", -8)
	require.Equal(t, int32(22), r.GetAttack().GetTotal(), "16 + 3 − 8 − 8 + 19")
	require.Equal(t, int32(12), r.GetDefense())
	require.True(t, r.GetSuccess())
	require.Zero(t, vaCondition(t, r.GetConditions(), vaEnterGuard).GetMalus(), "it only cancels")
	require.Empty(t, f.cs("lutin").GetConditions(), "no longer kept at bay")
	require.Empty(t, f.cs("ogre").GetConditions(), "and the Ogre is not inside its guard")

	// FEE-187: two names.
	require.NotEqual(t, "Keep at bay", feerie.Presets[9].Name)
	require.Equal(t, "Tenir en respect", feerie.Presets[9].Name)
	tactic := vaMelee("lutin", vaAtt("massue"))
	tactic.Tactic = &feeriev1.Tactic{Preset: "Keep at bay"}
	re, ok := engine.AsRuleError(feerie.CheckTactic(vaOgre().GetFeerie(), tactic, "Ogre"))
	require.True(t, ok)
	require.Equal(t, "FEE-034", re.Rule, "the strike is no tactic")
	require.Equal(t, "SPECIAL_STRIKE_KEEP_AT_BAY", vaKeepAtBay.String())
}

// FEE-155, FEE-176: Cripple (−12): when floor(margin/2) + Damage − Soak ≥ 1, an organ is
// unusable for floor(margin/2) + Damage ranks; no Essence is lost.
func TestVaCripple(t *testing.T) {
	f, r := vaDuel(t, nil, vaKobold(), vaLutin(), vaMelee("lutin", nil, vaCripple), nil, nil, 20, 1)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_CRIPPLE", "FEE-149", -12)
	require.Equal(t, int32(19), r.GetAttack().GetTotal())
	require.Equal(t, int32(1), r.GetMargin())
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, int32(14), vaCondition(t, r.GetConditions(), vaCripple).GetRanks(), "0 + 14 (0 + 14 − 8 = 6 ≥ 1)")
	require.Equal(t, int32(20), f.cs("lutin").GetEssence())
	require.Equal(t, int32(13), vaCondition(t, f.cs("lutin").GetConditions(), vaCripple).GetRanks(), "one rank passed")

	// 8 + 6 − 16 < 1: nothing.
	f, r = vaDuel(t, nil, vaLutin(), vaTroll(), vaMelee("troll", vaAtt("épée"), vaCripple), nil, nil, 20, 1)
	require.Equal(t, int32(16), r.GetMargin())
	require.True(t, r.GetSuccess())
	require.Empty(t, r.GetConditions())
	require.Empty(t, f.cs("troll").GetConditions())
	require.Zero(t, r.GetEssenceLost())
}

// FEE-156, FEE-177, FEE-171: Relentless needs the wound of a damaging previous activity:
// Damage + floor(that loss / 4); −8 to the striker's Defense (not its Attack) until its
// weapon is dislodged by its first failed Attack.
func TestVaRelentless(t *testing.T) {
	lutin := vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.Essence = 60 })
	f := vaNew(t, nil, lutin, vaKobold())
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaMelee("lutin", nil), 10, 10, 20, 1)
	f.refuse(vaGM, vaActCmd("kobold", &feeriev1.Act{Intent: vaMelee("lutin", nil, vaRelentless)}), engine.CodePrecondition, "FEE-156", "Kobold", "Lutin")
	f.act("kobold", nil)
	r := f.advance(14, 16, 4)[0]
	require.Equal(t, int32(6), r.GetMargin())
	require.Equal(t, int32(9), r.GetEssenceLost(), "3 + 14 − 8")
	require.Equal(t, int32(9), f.cs("kobold").GetLastLoss())
	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	require.Equal(t, int32(14), r.GetDefense())

	f.nextAction()
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaMelee("lutin", nil, vaRelentless), 10, 10, 20, 1)
	f.act("kobold", nil)
	r = f.advance(14, 16, 4)[0]
	vaNoMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_RELENTLESS")
	require.Equal(t, int32(24), r.GetAttack().GetTotal(), "no malus on the Attack")
	vaRequireMod(t, r.GetDamageModifiers(), "relentless", "FEE-156", 2)
	require.Equal(t, int32(16), r.GetDamage(), "14 + floor(9/4)")
	require.Equal(t, int32(11), r.GetEssenceLost(), "3 + 16 − 8: it adds to the loss")
	require.Equal(t, int32(40), f.cs("lutin").GetEssence())
	require.True(t, f.cs("kobold").GetRelentless())
	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaRequireMod(t, r.GetDefenseModifiers(), "relentless", "FEE-156", -8)
	require.Equal(t, int32(6), r.GetDefense(), "14 − 8")
	require.Equal(t, int32(13), r.GetMargin())

	f.nextAction()
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaMelee("lutin", nil), 10, 10, 20, 1)
	f.act("kobold", nil)
	r = f.advance(14, 1, 20)[0]
	require.False(t, r.GetSuccess())
	require.False(t, f.cs("kobold").GetRelentless(), "dislodged")
	require.Zero(t, f.cs("kobold").GetLastLoss())
	f.act("lutin", nil)
	r = f.advance(0, 10, 10)[0]
	vaNoMod(t, r.GetDefenseModifiers(), "relentless")
	require.Equal(t, int32(14), r.GetDefense())
}

// FEE-157, FEE-181, FEE-176: a frightening blow (−4) gives the striker +1 per 4 Damage
// before Soak (floor(margin/2) + Damage) on its next intimidation — the erratum of the seed's
// lowered Charme; no Essence is lost.
func TestVaFrighteningBlow(t *testing.T) {
	f := vaNew(t, nil, vaKobold(), vaLutin())
	f.declare("kobold", vaMelee("lutin", nil, vaFrighten))
	f.declare("lutin", vaPassive(), 20, 1, 1, 20)
	f.act("kobold", nil)
	r := f.advance(0, 20, 4)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_FRIGHTENING_BLOW", "FEE-149", -4)
	require.Equal(t, int32(24), r.GetAttack().GetTotal())
	require.Equal(t, int32(6), r.GetMargin())
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, int32(4), vaCondition(t, r.GetConditions(), vaFrighten).GetMalus(), "floor((3 + 14)/4)")
	require.Equal(t, int32(4), feerie.IntimidationBonus(f.cs("kobold"), ""))
	require.Equal(t, int32(6), vaKobold().GetFeerie().GetCharme(), "its Charme is not lowered")

	f.nextAction()
	scare := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 10, Intimidation: true}
	f.declare("kobold", scare)
	f.declare("lutin", vaPassive(), 20, 1, 1, 20)
	f.act("kobold", nil)
	r = f.advance(0, 10, 10)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "frightening blow", "FEE-181", 4)
	require.Equal(t, int32(10), r.GetAttack().GetTotal(), "Charme 6 + 4")
	require.True(t, r.GetSuccess())
	require.Zero(t, feerie.IntimidationBonus(f.cs("kobold"), ""), "for its next intimidation only")
}

// FEE-158, FEE-176, FEE-171: Knockback (−8) throws the target 1 unit per 4 Damage before Soak.
func TestVaKnockback(t *testing.T) {
	f, r := vaDuel(t, nil, vaKobold(), vaLutin(), vaMelee("lutin", nil, vaKnockback), nil, nil, 18, 1)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_KNOCKBACK", "FEE-149", -8)
	require.Equal(t, int32(21), r.GetAttack().GetTotal())
	require.Equal(t, int32(3), r.GetMargin())
	require.Equal(t, int32(3), vaCondition(t, r.GetConditions(), vaKnockback).GetDistance(), "floor((1 + 14)/4)")
	require.Contains(t, r.GetNote(), "3 distance units")
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, int32(20), f.cs("lutin").GetEssence())
}

// FEE-171: every division rounds down: paces and the cover's share of the Domain's Soak (the
// quarters of Relentless, Frightening blow and Knockback are checked above).
func TestVaDivisionsRoundDown(t *testing.T) {
	lutin := vaLutin().GetFeerie() // H16 + T−2 = 14
	require.Equal(t, []int32{3, 4, 7, 14}, []int32{
		feerie.PaceSpeed(lutin, feeriev1.Pace_PACE_WALK), feerie.PaceSpeed(lutin, feeriev1.Pace_PACE_TROT),
		feerie.PaceSpeed(lutin, feeriev1.Pace_PACE_RUN), feerie.PaceSpeed(lutin, feeriev1.Pace_PACE_SPRINT),
	})
	var got []int32
	for _, c := range []struct {
		solidity string
		thick    bool
	}{{"fragile", false}, {"fragile", true}, {"normal", false}, {"normal", true}, {"solid", false}, {"solid", true}} {
		got = append(got, feerie.CoverSoak(&feeriev1.Cover{Solidity: c.solidity, Thick: c.thick, DomainSoak: 15}))
	}
	require.Equal(t, []int32{3, 7, 7, 11, 11, 15}, got, "15 × 1/4, 1/2, 1/2, 3/4, 3/4, 1")
}
