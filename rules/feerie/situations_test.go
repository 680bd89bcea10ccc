package feerie_test

// Situations of combat (shared/rules/feerie.md, FEE-090…FEE-144, FEE-172…FEE-185): attack
// angles, sweeps, movement and charges, cover, lighting, ranged attacks and mounted combat,
// checked through real fights where the rule weighs on an attack.

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Helpers (prefix si).

const siGM = "gm"

// siFight is a Contes de Fées encounter driven command by command (enginetest.Fight), with
// fixed dice, every command given by the GM.
type siFight struct{ *enginetest.Fight }

// siNew creates and starts an encounter with cs, in order, under version 1.
func siNew(t *testing.T, cs ...*encounterv1.Combatant) *siFight {
	t.Helper()
	return siNewAt(t, 1, cs...)
}

// siNewAt is siNew under version of the rules.
func siNewAt(t *testing.T, version uint32, cs ...*encounterv1.Combatant) *siFight {
	t.Helper()
	f := &siFight{enginetest.NewFight(t, engine.NewRegistry(feerie.New(version)))}
	f.do(&encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "La clairière", RuleSystem: feerie.ID}}})
	for _, c := range cs {
		f.do(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	f.do(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	return f
}

// decide decides cmd as the GM with dice.NewFixed(faces...) and folds the events; on success
// every face must have been used.
func (f *siFight) decide(cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	return f.Decide(siGM, cmd, faces...)
}

func (f *siFight) do(cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	evs, err := f.decide(cmd, faces...)
	require.NoError(f.T, err)
	return evs
}

// refuse checks that cmd is refused with code and rule, naming each of names, rolling no die
// and changing nothing.
func (f *siFight) refuse(cmd *encounterv1.Command, code engine.Code, rule string, names ...string) {
	f.T.Helper()
	f.Refuse(siGM, cmd, code, rule, names...)
}

func (f *siFight) state() *feeriev1.State { return f.St.GetFeerie() }

// declare has every combatant that has not yet declared do so, in the order they joined
// (intents[id]; passive when absent); the last declaration rolls everyone's Initiative with
// even dice (10 − 10), so that each Initiative is the Vigilance.
func (f *siFight) declare(intents map[string]*feeriev1.Intent) {
	f.T.Helper()
	var ids []string
	for _, c := range f.St.GetCombatants() {
		if !f.state().GetCombatants()[c.GetId()].GetHasDeclared() {
			ids = append(ids, c.GetId())
		}
	}
	for i, id := range ids {
		in := intents[id]
		if in == nil {
			in = siPassive()
		}
		var faces []int32
		if i == len(ids)-1 {
			faces = siEven(len(f.St.GetCombatants()))
		}
		f.do(siDeclare(id, in), faces...)
	}
	require.Equal(f.T, feeriev1.Step_STEP_COUNTDOWN, f.state().GetStep())
}

// at moves the countdown down to rank, with nothing queued.
func (f *siFight) at(rank int32) {
	f.T.Helper()
	if f.state().GetRank() != rank {
		require.Empty(f.T, f.state().GetQueue())
		f.do(siAdvance(rank))
	}
}

// act queues id's declared activity at the current rank.
func (f *siFight) act(id string, c *feeriev1.Circumstances) {
	f.T.Helper()
	f.do(siAct(id, c))
}

// resolve closes the current rank, rolling even dice for each queued roll, and returns the
// activities resolved, in order.
func (f *siFight) resolve() []*feeriev1.ActivityResolved {
	f.T.Helper()
	return f.resolveWith(siEven(len(f.state().GetQueue()))...)
}

func (f *siFight) resolveWith(faces ...int32) []*feeriev1.ActivityResolved {
	f.T.Helper()
	evs := f.do(siAdvance(f.state().GetRank()-1), faces...)
	var out []*feeriev1.ActivityResolved
	for _, ev := range evs {
		if r := ev.GetFeerie().GetActivityResolved(); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// nextAction runs the countdown out and opens the next Action.
func (f *siFight) nextAction() {
	f.T.Helper()
	if f.state().GetRank() > 1 {
		f.at(1)
	}
	if f.state().GetRank() > 0 {
		f.do(siAdvance(0)) // one rank down, to the impersonal events
	}
	f.do(siAdvance(0))
	require.Equal(f.T, feeriev1.Step_STEP_DECLARING, f.state().GetStep())
}

func (f *siFight) essence(id string) int32 { return f.state().GetCombatants()[id].GetEssence() }

// siEven is two faces of 10 for each of n rolls: a net die of 0.
func siEven(n int) []int32 {
	out := make([]int32, 2*n)
	for i := range out {
		out[i] = 10
	}
	return out
}

// siWho is a combatant of the GM.
func siWho(id, name string, sh *feeriev1.Sheet) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Controller: siGM, Sheet: &encounterv1.Combatant_Feerie{Feerie: sh}}
}

// siSheet: Vigilance v (its Initiative with even dice), Habileté h, Puissance p, Résistance r,
// Taille t, Essence 40.
func siSheet(v, h, p, r, t int32, attrs ...*feeriev1.Attribute) *feeriev1.Sheet {
	return &feeriev1.Sheet{Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Taille: t, Essence: 40, Attributes: attrs}
}

func siFlier(sh *feeriev1.Sheet) *feeriev1.Sheet    { sh.Flier = true; return sh }
func siBurrower(sh *feeriev1.Sheet) *feeriev1.Sheet { sh.Burrower = true; return sh }
func siRiding(sh *feeriev1.Sheet, mount string) *feeriev1.Sheet {
	sh.MountId = mount
	return sh
}

func siMelee(target string, also ...string) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, AlsoTargetIds: also, Physical: true}
}

func siRanged(target string, also ...string) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: target, AlsoTargetIds: also, Physical: true}
}

func siPassive() *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
}

func siWith(in *feeriev1.Intent, edit func(*feeriev1.Intent)) *feeriev1.Intent {
	edit(in)
	return in
}

func siCmd(id string, a *feeriev1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

func siDeclare(id string, in *feeriev1.Intent) *encounterv1.Command {
	return siCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: in}}})
}

// siAct performs the declared activity under circumstances c.
func siAct(id string, c *feeriev1.Circumstances) *encounterv1.Command {
	return siCmd(id, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{Circumstances: c}}})
}

func siAdvance(to int32) *encounterv1.Command {
	return siCmd("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: to}}})
}

// siMod sums the terms of ms that cite rule.
func siMod(ms []*feeriev1.Modifier, rule string) int32 {
	var n int32
	for _, m := range ms {
		if m.GetRule() == rule {
			n += m.GetValue()
		}
	}
	return n
}

func siHas(ms []*feeriev1.Modifier, rule string) bool {
	for _, m := range ms {
		if m.GetRule() == rule {
			return true
		}
	}
	return false
}

func siAffinity(name string, v int32, edit func(*feeriev1.Attribute)) *feeriev1.Attribute {
	a := &feeriev1.Attribute{Name: name, Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: v}
	if edit != nil {
		edit(a)
	}
	return a
}

// Attack angles and multiple attackers.

// FEE-092: the surface of an attack angle by Taille, and the attackers that fit.
func TestSiSurfaceByTaille_FEE092(t *testing.T) {
	var got []int32
	for taille := int32(-5); taille <= 5; taille++ {
		got = append(got, feerie.Surface(taille))
	}
	require.Equal(t, []int32{1, 1, 2, 2, 4, 4, 4, 8, 8, 16, 16}, got)
	// Attackers fit while their summed surfaces stay within the angles': four humans on a human
	// in the open, not five; two humans in one angle of an Ogre (surface 8).
	require.True(t, feerie.MaxAttackers(0, 4, []int32{0, 0, 0, 0}))
	require.False(t, feerie.MaxAttackers(0, 4, []int32{0, 0, 0, 0, 0}))
	require.True(t, feerie.MaxAttackers(2, 1, []int32{0, 1}))
	require.False(t, feerie.MaxAttackers(2, 1, []int32{0, 1, -1}))
}

// FEE-091: −2 Defense per occupied angle beyond the first.
func TestSiAngleDefenseMalus_FEE091(t *testing.T) {
	for occupied, want := range []int32{0, 0, -2, -4, -6, -8, -10} {
		require.Equal(t, want, feerie.New(1).AngleDefenseMalus(int32(occupied)), "%d angles", occupied)
	}
}

// FEE-T14, FEE-091, FEE-092, FEE-175: equals on the ground: 4 angles (front, back, left, right),
// at most 4 attackers; with all four attacking the defender's Defense is −6 — from the first
// attack of the Action, for it watches all its potential aggressors (every one that declared a
// melee attack on it), not −0, −2, −4, −6 as each attack is resolved. A fifth finds no room.
func TestSiFourAttackers_FEET14(t *testing.T) {
	cs := []*encounterv1.Combatant{siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0))}
	intents := map[string]*feeriev1.Intent{}
	for i := range 5 {
		id := fmt.Sprintf("a%d", i+1)
		cs = append(cs, siWho(id, fmt.Sprintf("Assaillant %d", i+1), siSheet(int32(20-i), 10, 5, 10, 0)))
		intents[id] = siMelee("d")
	}
	f := siNew(t, cs...)
	f.declare(intents)
	f.at(16)
	for i := range 4 {
		f.act(fmt.Sprintf("a%d", i+1), nil)
	}
	f.refuse(siAct("a5", nil), engine.CodePrecondition, "FEE-092", "Assaillant 5", "Défenseur")
	res := f.resolve()
	require.Len(t, res, 4)
	for i, r := range res {
		require.Equal(t, fmt.Sprintf("a%d", i+1), r.GetCombatantId())
		require.Equal(t, int32(-6), siMod(r.GetDefenseModifiers(), "FEE-091"), "attack %d", i+1)
		require.Equal(t, int32(10-6), r.GetDefense(), "attack %d: FEE-T14, Defense −6", i+1)
	}
	// The four are engaged with it for the rest of the Action: the fifth still finds no room.
	f.refuse(siAct("a5", nil), engine.CodePrecondition, "FEE-092", "Assaillant 5")
}

// FEE-090: six angles at most; on the ground the four, "above" only for fliers, "below" only
// for burrowers; a corridor leaves two (front and back).
func TestSiAnglesOffered_FEE090(t *testing.T) {
	cs := []*encounterv1.Combatant{siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0))}
	intents := map[string]*feeriev1.Intent{}
	add := func(id, name string, sh *feeriev1.Sheet) {
		cs = append(cs, siWho(id, name, sh))
		intents[id] = siMelee("d")
	}
	for i := range 4 {
		add(fmt.Sprintf("g%d", i+1), fmt.Sprintf("Lutin %d", i+1), siSheet(int32(20-i), 10, 5, 10, 0))
	}
	add("fl", "Sylphe", siFlier(siSheet(16, 10, 5, 10, 0)))
	add("bu", "Taupe", siBurrower(siSheet(15, 10, 5, 10, 0)))
	add("g5", "Lutin 5", siSheet(14, 10, 5, 10, 0))
	f := siNew(t, cs...)
	f.declare(intents)
	f.at(14)
	f.refuse(siAct("g1", &feeriev1.Circumstances{AnglesOffered: 7}), engine.CodeInvalid, "FEE-090", "Lutin 1")
	for _, id := range []string{"g1", "g2", "g3", "g4", "fl", "bu"} {
		f.act(id, nil)
	}
	// The flier takes "above", the burrower "below": all six angles are occupied.
	f.refuse(siAct("g5", nil), engine.CodePrecondition, "FEE-092", "Lutin 5", "Défenseur")
	res := f.resolve()
	require.Len(t, res, 6)
	for i, r := range res { // all six angles watched from the first attack (FEE-175)
		require.Equal(t, int32(-10), siMod(r.GetDefenseModifiers(), "FEE-091"), "attack %d", i+1)
		require.Equal(t, int32(10-10), r.GetDefense())
	}

	// A corridor: front and back only.
	f = siNew(t,
		siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)),
		siWho("a1", "Assaillant 1", siSheet(20, 10, 5, 10, 0)),
		siWho("a2", "Assaillant 2", siSheet(19, 10, 5, 10, 0)),
		siWho("a3", "Assaillant 3", siFlier(siSheet(18, 10, 5, 10, 0))))
	f.declare(map[string]*feeriev1.Intent{"a1": siMelee("d"), "a2": siMelee("d"), "a3": siMelee("d")})
	f.at(18)
	corridor := &feeriev1.Circumstances{AnglesOffered: 2}
	f.act("a1", corridor)
	f.act("a2", corridor)
	f.refuse(siAct("a3", corridor), engine.CodePrecondition, "FEE-092", "Assaillant 3")
	res = f.resolve()
	require.Equal(t, []int32{-2, -2}, []int32{siMod(res[0].GetDefenseModifiers(), "FEE-091"), siMod(res[1].GetDefenseModifiers(), "FEE-091")})
}

// FEE-T09, FEE-091, FEE-092: an Ogre (T+2) with its back to a rock wall against flying Sylphs
// (T−2): 4 angles (front, left, right, above) of surface 8, each Sylph of surface 2, so 16
// Sylphs can attack, and the Ogre's Defense is −6 (3 angles beyond the first) « pendant tout le
// combat »: against the first Sylph's attack as against the last (FEE-175). In the open the
// fliers have a fifth angle (FEE-090).
func TestSiOgreAgainstSylphs_FEET09(t *testing.T) {
	require.Equal(t, int32(8), feerie.Surface(2))
	require.Equal(t, int32(2), feerie.Surface(-2))
	sylphs := func(n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = -2
		}
		return out
	}
	require.True(t, feerie.MaxAttackers(2, 4, sylphs(16)))
	require.False(t, feerie.MaxAttackers(2, 4, sylphs(17)))

	fight := func() (*siFight, []string) {
		cs := []*encounterv1.Combatant{siWho("ogre", "Ogre", siSheet(5, 12, 10, 10, 2))}
		intents := map[string]*feeriev1.Intent{}
		var ids []string
		for i := range 17 {
			id := fmt.Sprintf("s%d", i+1)
			ids = append(ids, id)
			cs = append(cs, siWho(id, fmt.Sprintf("Sylphe %d", i+1), siFlier(siSheet(int32(30-i), 10, 3, 5, -2))))
			intents[id] = siMelee("ogre")
		}
		f := siNew(t, cs...)
		f.declare(intents)
		f.at(14)
		return f, ids
	}
	wall := &feeriev1.Circumstances{AnglesOffered: 4}
	f, ids := fight()
	for _, id := range ids[:16] {
		f.act(id, wall)
	}
	f.refuse(siAct(ids[16], wall), engine.CodePrecondition, "FEE-092", "Sylphe 17", "Ogre")
	res := f.resolve()
	require.Len(t, res, 16)
	for i, r := range res {
		require.Equal(t, int32(-6), siMod(r.GetDefenseModifiers(), "FEE-091"), "Sylphe %d", i+1)
		require.Equal(t, int32(12-2-6), r.GetDefense(), "Sylphe %d: Habileté − Taille − 6", i+1)
	}

	// In the open, the Ogre offers the fliers a fifth angle: 17 Sylphs fit, Defense −8.
	f, ids = fight()
	for _, id := range ids {
		f.act(id, nil)
	}
	res = f.resolve()
	require.Len(t, res, 17)
	require.Equal(t, int32(-8), siMod(res[0].GetDefenseModifiers(), "FEE-091"))
	require.Equal(t, int32(-8), siMod(res[16].GetDefenseModifiers(), "FEE-091"))
}

// FEE-T10, FEE-093, FEE-096, FEE-175: two Giants (T+4, surface 16) against a Will-o'-the-wisp
// (T−4, angle surface 1): one Giant fills every angle, so only one of them can attack it.
func TestSiTwoGiantsOneWisp_FEET10(t *testing.T) {
	require.False(t, feerie.MaxAttackers(-4, 4, []int32{4, 4}))
	require.True(t, feerie.MaxAttackers(-4, 4, []int32{4}))
	f := siNew(t,
		siWho("feu", "Feu Follet", siSheet(5, 15, 2, 5, -4)),
		siWho("g1", "Géant 1", siSheet(20, 10, 10, 10, 4)),
		siWho("g2", "Géant 2", siSheet(19, 10, 10, 10, 4)))
	f.declare(map[string]*feeriev1.Intent{"g1": siMelee("feu"), "g2": siMelee("feu")})
	f.at(19)
	f.act("g1", nil)
	f.refuse(siAct("g2", nil), engine.CodePrecondition, "FEE-093", "Géant 1", "Géant 2", "Feu Follet")
	res := f.resolve()
	require.Len(t, res, 1)
	// The Giant alone occupies ceil(16/1) angles, at most the 4 offered (FEE-096): −6.
	require.Equal(t, int32(-6), siMod(res[0].GetDefenseModifiers(), "FEE-091"))
	require.Equal(t, int32(15+4-6), res[0].GetDefense())
	// Engaged with the wisp for the rest of the Action, the first still bars the second (FEE-175).
	f.refuse(siAct("g2", nil), engine.CodePrecondition, "FEE-093", "Géant 2")

	// Next Action the first Giant stands back: the second may attack.
	f.nextAction()
	f.declare(map[string]*feeriev1.Intent{"g2": siMelee("feu")})
	f.at(19)
	f.act("g2", nil)
	res = f.resolve()
	require.Len(t, res, 1)
	require.Equal(t, "g2", res[0].GetCombatantId())
	require.Equal(t, int32(-6), siMod(res[0].GetDefenseModifiers(), "FEE-091"))
}

// FEE-T11, FEE-094: an Ogre (T+2, surface 8) biting: up to 8 Farfadets (T−4, surface 1), or 4
// Lutins (T−2, surface 2), or 2 Lutins and 4 Farfadets in one Attack roll compared to each
// Defense; each one hit takes the Damage.
func TestSiOgreSweep_FEET11(t *testing.T) {
	band := func() *siFight {
		cs := []*encounterv1.Combatant{siWho("ogre", "Ogre", siSheet(20, 12, 10, 10, 2))}
		for i := range 5 {
			cs = append(cs, siWho(fmt.Sprintf("l%d", i+1), fmt.Sprintf("Lutin %d", i+1), siSheet(5, 10, 3, 5, -2)))
		}
		for i := range 9 {
			cs = append(cs, siWho(fmt.Sprintf("f%d", i+1), fmt.Sprintf("Farfadet %d", i+1), siSheet(4, 8, 2, 4, -4)))
		}
		return siNew(t, cs...)
	}
	ids := func(prefix string, n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s%d", prefix, i+1))
		}
		return out
	}
	for _, c := range []struct {
		name    string
		targets []string
		fits    bool
	}{
		{"8 Farfadets", ids("f", 8), true},
		{"4 Lutins", ids("l", 4), true},
		{"2 Lutins and 4 Farfadets", append(ids("l", 2), ids("f", 4)...), true},
		{"9 Farfadets", ids("f", 9), false},
		{"5 Lutins", ids("l", 5), false},
		{"3 Lutins and 3 Farfadets", append(ids("l", 3), ids("f", 3)...), false},
	} {
		f := band()
		cmd := siDeclare("ogre", siMelee(c.targets[0], c.targets[1:]...))
		if c.fits {
			f.do(cmd)
		} else {
			f.refuse(cmd, engine.CodePrecondition, "FEE-094", "Ogre")
		}
	}
	require.True(t, feerie.SweepFits(2, []int32{-2, -2, -4, -4, -4, -4}))
	require.False(t, feerie.SweepFits(2, []int32{-2, -2, -2, -4, -4, -4}))

	f := band()
	f.refuse(siDeclare("ogre", siMelee("l1", "l1")), engine.CodeInvalid, "FEE-094", "Ogre")
	f.refuse(siDeclare("ogre", siWith(siMelee("l1", "l2"), func(in *feeriev1.Intent) {
		in.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP}
	})), engine.CodeInvalid, "FEE-094", "Ogre")
	f.declare(map[string]*feeriev1.Intent{"ogre": siMelee("l1", "l2", "f1", "f2", "f3", "f4")})
	f.act("ogre", nil)
	res := f.resolveWith(10, 10) // one Attack roll for the six
	require.Len(t, res, 1)
	r := res[0]
	require.Equal(t, int32(12), r.GetAttack().GetTotal())
	require.Equal(t, int32(12), r.GetDamage()) // Puissance 10 + Taille 2
	// Each small defender sees the Ogre fill 4 of its angles (FEE-096): Defense −6.
	require.Equal(t, int32(10+2-6), r.GetDefense())
	require.Equal(t, int32(6), r.GetMargin())
	require.Equal(t, int32(3+12-3), r.GetEssenceLost()) // Lutin: Soak 5 − 2
	require.Len(t, r.GetAlso(), 5)
	want := map[string]int32{"l2": 12, "f1": 15, "f2": 15, "f3": 15, "f4": 15} // Farfadet: Soak 4 − 4
	for _, s := range r.GetAlso() {
		require.True(t, s.GetSuccess(), s.GetTargetId())
		require.Equal(t, int32(6), s.GetDefense(), s.GetTargetId())
		require.Equal(t, int32(-6), siMod(s.GetDefenseModifiers(), "FEE-091"))
		require.Equal(t, want[s.GetTargetId()], s.GetEssenceLost(), s.GetTargetId())
		require.Equal(t, 40-want[s.GetTargetId()], f.essence(s.GetTargetId()))
	}
	require.Equal(t, int32(28), f.essence("l1"))
	require.Equal(t, int32(40), f.essence("f5"))
}

// FEE-095: the angle limits do not apply to ranged attacks; a piercing projectile hits one
// target, a blunt one covers the thrower's surface.
func TestSiRangedAttackers_FEE095(t *testing.T) {
	cs := []*encounterv1.Combatant{siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0))}
	intents := map[string]*feeriev1.Intent{}
	for i := range 5 {
		id := fmt.Sprintf("a%d", i+1)
		cs = append(cs, siWho(id, fmt.Sprintf("Archer %d", i+1), siSheet(int32(20-i), 10, 5, 10, 0)))
		intents[id] = siRanged("d")
	}
	cs = append(cs, siWho("m", "Bretteur", siSheet(15, 10, 5, 10, 0)))
	intents["m"] = siMelee("d")
	f := siNew(t, cs...)
	f.declare(intents)
	f.at(16)
	for i := range 5 {
		f.act(fmt.Sprintf("a%d", i+1), nil) // five shooters: no angle limit
	}
	for _, r := range f.resolve() {
		require.False(t, siHas(r.GetDefenseModifiers(), "FEE-091"))
		require.Equal(t, int32(10), r.GetDefense())
	}
	f.at(15)
	f.act("m", nil)
	res := f.resolve()
	require.Equal(t, int32(0), siMod(res[0].GetDefenseModifiers(), "FEE-091")) // the shooters hold no angle
	require.Equal(t, []string{"m"}, f.state().GetCombatants()["d"].GetEngagedBy())

	// Projectiles.
	f = siNew(t,
		siWho("t", "Lanceur", siSheet(14, 10, 8, 10, 0)),
		siWho("l1", "Lutin 1", siSheet(5, 10, 3, 5, -2)),
		siWho("l2", "Lutin 2", siSheet(5, 10, 3, 5, -2)),
		siWho("l3", "Lutin 3", siSheet(5, 10, 3, 5, -2)))
	projectile := func(p feeriev1.Projectile, targets ...string) *encounterv1.Command {
		return siDeclare("t", siWith(siRanged(targets[0], targets[1:]...), func(in *feeriev1.Intent) { in.Projectile = p }))
	}
	f.refuse(projectile(feeriev1.Projectile_PROJECTILE_PIERCING, "l1", "l2"), engine.CodeInvalid, "FEE-095", "Lanceur")
	f.refuse(projectile(feeriev1.Projectile_PROJECTILE_UNSPECIFIED, "l1", "l2"), engine.CodeInvalid, "FEE-095", "Lanceur")
	f.refuse(projectile(feeriev1.Projectile_PROJECTILE_BLUNT, "l1", "l2", "l3"), engine.CodePrecondition, "FEE-095", "Lanceur")
	f.refuse(siDeclare("t", siWith(siMelee("l1"), func(in *feeriev1.Intent) { in.Projectile = feeriev1.Projectile_PROJECTILE_BLUNT })),
		engine.CodeInvalid, "FEE-095", "Lanceur")
	f.do(projectile(feeriev1.Projectile_PROJECTILE_BLUNT, "l1", "l2")) // surfaces 2 + 2 ≤ 4
	f.declare(nil)
	f.act("t", nil)
	res = f.resolveWith(10, 10)
	require.Len(t, res, 1)
	r := res[0]
	require.Equal(t, int32(14), r.GetAttack().GetTotal()) // Vigilance
	require.Equal(t, int32(8-4), r.GetDamage())           // ranged: −4
	require.Equal(t, int32(12), r.GetDefense())
	require.Equal(t, int32(1+4-3), r.GetEssenceLost())
	require.Len(t, r.GetAlso(), 1)
	require.Equal(t, "l2", r.GetAlso()[0].GetTargetId())
	require.Equal(t, int32(2), r.GetAlso()[0].GetMargin())
	require.Equal(t, int32(2), r.GetAlso()[0].GetEssenceLost())
	require.Equal(t, []int32{38, 38, 40}, []int32{f.essence("l1"), f.essence("l2"), f.essence("l3")})
}

// FEE-096: a much larger attacker occupies ceil(own surface / the defender's angle surface)
// angles, at most those offered: a Giant on a human 4 (Defense −6), an Ogre 2 (−2), a Giant in
// a corridor 2 (−2).
func TestSiLargeAttackerAngles_FEE096(t *testing.T) {
	require.Equal(t, int32(4), feerie.AnglesOccupied(4, 0, 4))
	require.Equal(t, int32(2), feerie.AnglesOccupied(4, 0, 2))
	require.Equal(t, int32(2), feerie.AnglesOccupied(2, 0, 4))
	require.Equal(t, int32(1), feerie.AnglesOccupied(0, 0, 4))
	require.Equal(t, int32(1), feerie.AnglesOccupied(-4, 0, 4))
	require.Equal(t, int32(6), feerie.AnglesOccupied(4, -4, 6))

	f := siNew(t,
		siWho("d1", "Humain 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Humain 2", siSheet(5, 10, 5, 10, 0)),
		siWho("d3", "Humain 3", siSheet(5, 10, 5, 10, 0)),
		siWho("g", "Géant", siSheet(20, 10, 10, 10, 4)),
		siWho("o", "Ogre", siSheet(19, 10, 10, 10, 2)),
		siWho("g2", "Géant du couloir", siSheet(18, 10, 10, 10, 4)))
	f.declare(map[string]*feeriev1.Intent{"g": siMelee("d1"), "o": siMelee("d2"), "g2": siMelee("d3")})
	f.at(18)
	f.act("g", nil)
	f.act("o", nil)
	f.act("g2", &feeriev1.Circumstances{AnglesOffered: 2})
	res := f.resolve()
	require.Len(t, res, 3)
	var got []int32
	for _, r := range res {
		got = append(got, siMod(r.GetDefenseModifiers(), "FEE-091"))
	}
	require.Equal(t, []int32{-6, -2, -2}, got)
}

// FEE-175: an angle is occupied by each opponent engaged with the defender in melee when the
// attack is resolved — those who struck it and those it struck this Action — and by each that
// declared a melee attack on it, from the start of the Action; not by a shooter, and not into
// the next Action.
func TestSiEngagedThisAction_FEE175(t *testing.T) {
	f := siNew(t,
		siWho("d", "Défenseur", siSheet(18, 10, 5, 10, 0)),
		siWho("x", "Xavier", siSheet(20, 10, 5, 10, 0)),
		siWho("r", "Archer", siSheet(19, 10, 5, 10, 0)),
		siWho("y", "Yvain", siSheet(4, 10, 5, 10, 0)),
		siWho("z", "Zoé", siSheet(15, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"x": siMelee("d"), "r": siRanged("d"), "d": siMelee("y"), "z": siMelee("d")})
	f.act("x", nil) // rank 20: Xavier, and Zoé, who declared a melee attack on it
	require.Equal(t, int32(-2), siMod(f.resolve()[0].GetDefenseModifiers(), "FEE-091"))
	f.act("r", nil) // rank 19: a shot engages no one
	f.resolve()
	f.act("d", nil) // rank 18: the defender strikes Yvain, who is now engaged with it
	f.resolve()
	f.at(15)
	f.act("z", nil)
	res := f.resolve()
	require.Equal(t, int32(-4), siMod(res[0].GetDefenseModifiers(), "FEE-091")) // Xavier, Yvain, Zoé
	require.ElementsMatch(t, []string{"x", "y", "z"}, f.state().GetCombatants()["d"].GetEngagedBy())

	f.nextAction()
	require.Empty(t, f.state().GetCombatants()["d"].GetEngagedBy())
	f.declare(map[string]*feeriev1.Intent{"z": siMelee("d")})
	f.at(15)
	f.act("z", nil)
	require.Equal(t, int32(0), siMod(f.resolve()[0].GetDefenseModifiers(), "FEE-091"))
}

// FEE-174: a helpless defender at range has Defense 0 plus the range modifier, without the
// "immobile" −8, and in melee no angle penalty on top.
func TestSiHelplessDefender_FEE174(t *testing.T) {
	f := siNew(t,
		siWho("d", "Dormeur", siSheet(4, 10, 5, 10, 0)),
		siWho("r1", "Archer 1", siSheet(20, 10, 5, 10, 0)),
		siWho("r2", "Archer 2", siSheet(19, 10, 5, 10, 0)),
		siWho("m1", "Bretteur 1", siSheet(18, 10, 5, 10, 0)),
		siWho("m2", "Bretteur 2", siSheet(17, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"r1": siRanged("d"), "r2": siRanged("d"), "m1": siMelee("d"), "m2": siMelee("d")})
	f.act("r1", &feeriev1.Circumstances{Undefended: true, Distance: feeriev1.Range_RANGE_FAR})
	res := f.resolve()
	require.Equal(t, int32(12), res[0].GetDefense())
	f.act("r2", &feeriev1.Circumstances{Undefended: true, RangedDifficulty: feeriev1.RangedDifficulty_RANGED_DIFFICULTY_TRIVIAL})
	res = f.resolve()
	require.Equal(t, int32(0), res[0].GetDefense()) // not −8
	require.False(t, siHas(res[0].GetDefenseModifiers(), "FEE-130"))
	f.act("m1", &feeriev1.Circumstances{Undefended: true})
	f.resolve()
	f.act("m2", &feeriev1.Circumstances{Undefended: true})
	res = f.resolve()
	require.Equal(t, int32(0), res[0].GetDefense()) // two engaged, no −2
	require.Equal(t, int32(10), res[0].GetMargin())
}

// Movement.

// FEE-100: paces: walk (H+T)/4, trot (H+T)/3 −4, run (H+T)/2 −8, sprint H+T −12, rounded down.
func TestSiPaces_FEE100(t *testing.T) {
	sh := siSheet(10, 13, 5, 5, 2) // H + T = 15
	var speeds, maluses []int32
	for _, p := range []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_TROT, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT} {
		speeds = append(speeds, feerie.PaceSpeed(sh, p))
		maluses = append(maluses, feerie.PaceMalus(p))
	}
	require.Equal(t, []int32{3, 5, 7, 15}, speeds)
	require.Equal(t, []int32{0, -4, -8, -12}, maluses)
}

// FEE-100, FEE-101, FEE-T12: an attack during straight-line movement is a charge: Damage +2
// trotting, +4 running, +6 sprinting, 0 walking, with the pace malus on the Attack; the pace
// malus does not touch Defense. A running charge: Damage +4 and Attack −8.
func TestSiCharges_FEET12(t *testing.T) {
	paces := []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_TROT, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT, feeriev1.Pace_PACE_TROT}
	var cs []*encounterv1.Combatant
	intents := map[string]*feeriev1.Intent{}
	for i, p := range paces {
		a, d := fmt.Sprintf("a%d", i+1), fmt.Sprintf("d%d", i+1)
		cs = append(cs, siWho(a, fmt.Sprintf("Chargeur %d", i+1), siSheet(int32(20-i), 12, 10, 10, 0)),
			siWho(d, fmt.Sprintf("Cible %d", i+1), siSheet(5, 10, 5, 10, 0)))
		charge := i < 4 // the last one trots without charging
		intents[a] = siWith(siMelee(d), func(in *feeriev1.Intent) { in.Pace, in.Charge = p, charge })
	}
	intents["d3"] = siMelee("a3") // the running charger's target strikes back
	f := siNew(t, cs...)
	f.declare(intents)
	f.at(16)
	for i := range paces {
		f.act(fmt.Sprintf("a%d", i+1), nil)
	}
	res := f.resolve()
	require.Len(t, res, 5)
	var att, dmg, total []int32
	for _, r := range res {
		att = append(att, siMod(r.GetAttack().GetModifiers(), "FEE-100"))
		dmg = append(dmg, siMod(r.GetDamageModifiers(), "FEE-101"))
		total = append(total, r.GetDamage())
	}
	require.Equal(t, []int32{0, -4, -8, -12, -4}, att)
	require.Equal(t, []int32{0, 2, 4, 6, 0}, dmg)
	require.Equal(t, []int32{10, 12, 14, 16, 10}, total)
	require.Equal(t, int32(12-8), res[2].GetAttack().GetTotal()) // FEE-T12
	// The running charger defends at full Defense (FEE-100: no pace malus on Defense).
	f.at(5)
	f.act("d3", nil)
	res = f.resolve()
	require.Equal(t, int32(12), res[0].GetDefense())
	require.False(t, siHas(res[0].GetDefenseModifiers(), "FEE-100"))
}

// Cover.

// FEE-110, FEE-185: aiming at the exposed part of a defender uses the range table's malus for
// its apparent size: whole 0, a quarter +4, a tenth +12, a hundredth +20, a thousandth +28;
// between two rows the nearest (as a ratio, like the table), ties to the harder: half exposed
// lies exactly between whole and a quarter, so it counts as a quarter.
func TestSiExposedPart_FEE110_FEE185(t *testing.T) {
	for _, c := range []struct{ permille, mod int32 }{
		{1000, 0}, {700, 0}, {501, 0}, {500, 4}, {400, 4}, {250, 4}, {159, 4}, {158, 12}, {100, 12},
		{60, 12}, {32, 12}, {31, 20}, {10, 20}, {4, 20}, {3, 28}, {1, 28},
	} {
		require.Equal(t, c.mod, feerie.ExposedMod(c.permille), "%d‰ exposed", c.permille)
	}
	f := siNew(t,
		siWho("a1", "Archer 1", siSheet(20, 10, 5, 10, 0)),
		siWho("a2", "Archer 2", siSheet(19, 10, 5, 10, 0)),
		siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siRanged("d"), "a2": siMelee("d")})
	f.refuse(siAct("a1", &feeriev1.Circumstances{ExposedPermille: 1001}), engine.CodeInvalid, "FEE-110", "Archer 1")
	f.refuse(siAct("a1", &feeriev1.Circumstances{ExposedPermille: 500, Cover: &feeriev1.Cover{Solidity: "solid", Thick: true, Opaque: true, DomainSoak: 10}}),
		engine.CodeInvalid, "FEE-110", "Archer 1")
	f.act("a1", &feeriev1.Circumstances{ExposedPermille: 500}) // half behind a wall
	res := f.resolve()
	require.Equal(t, int32(-4), siMod(res[0].GetAttack().GetModifiers(), "FEE-110"))
	require.Equal(t, int32(20-4), res[0].GetAttack().GetTotal()) // Vigilance 20
	f.act("a2", &feeriev1.Circumstances{ExposedPermille: 60})    // a hand over a parapet, in melee too
	res = f.resolve()
	require.Equal(t, int32(-12), siMod(res[0].GetAttack().GetModifiers(), "FEE-110"))
}

// FEE-111: striking through cover: the defender's Soak gains a share of the Domain's Soak by
// the cover's solidity and thickness (rounded down), and the attacker has −8 through an opaque
// cover, −4 through a semi-transparent one.
func TestSiStrikeThroughCover_FEE111(t *testing.T) {
	rows := []struct {
		solidity string
		thick    bool
		of20     int32
		of10     int32
	}{
		{"fragile", false, 5, 2}, // glass, cardboard: 1/4
		{"fragile", true, 10, 5}, // violent wind: 1/2
		{"normal", false, 10, 5}, // immersion in water: 1/2
		{"normal", true, 15, 7},  // wooden partition: 3/4
		{"solid", false, 15, 7},  // rubble stone: 3/4
		{"solid", true, 20, 10},  // rock: 1
	}
	for _, r := range rows {
		require.Equal(t, r.of20, feerie.CoverSoak(&feeriev1.Cover{Solidity: r.solidity, Thick: r.thick, DomainSoak: 20}), "%s thick=%v", r.solidity, r.thick)
		require.Equal(t, r.of10, feerie.CoverSoak(&feeriev1.Cover{Solidity: r.solidity, Thick: r.thick, DomainSoak: 10}), "%s thick=%v", r.solidity, r.thick)
	}
	require.Equal(t, int32(-8), feerie.CoverAttackMalus(&feeriev1.Cover{Opaque: true}))
	require.Equal(t, int32(-4), feerie.CoverAttackMalus(&feeriev1.Cover{SemiTransparent: true}))
	require.Equal(t, int32(0), feerie.CoverAttackMalus(&feeriev1.Cover{}))

	f := siNew(t,
		siWho("a1", "Cogneur 1", siSheet(20, 20, 10, 10, 0)),
		siWho("a2", "Cogneur 2", siSheet(19, 20, 10, 10, 0)),
		siWho("d1", "Caché 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Caché 2", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siMelee("d1"), "a2": siMelee("d2")})
	f.refuse(siAct("a1", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Solidity: "acier", DomainSoak: 20}}), engine.CodeInvalid, "FEE-111", "Cogneur 1")
	f.refuse(siAct("a1", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Solidity: "normal", Opaque: true, SemiTransparent: true}}), engine.CodeInvalid, "FEE-111", "Cogneur 1")
	f.at(19)
	f.act("a1", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Solidity: "normal", Thick: true, Opaque: true, DomainSoak: 20}}) // a wooden partition
	f.act("a2", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Solidity: "fragile", SemiTransparent: true, DomainSoak: 10}})    // frosted glass
	res := f.resolve()
	require.Equal(t, int32(-8), siMod(res[0].GetAttack().GetModifiers(), "FEE-111"))
	require.Equal(t, int32(15), siMod(res[0].GetSoakModifiers(), "FEE-111"))
	require.Equal(t, int32(10+15), res[0].GetSoak())
	// Attack 20 − 8 = 12 against Defense 10: margin 2, 1 + 10 − 25 < 0: nothing lost.
	require.Equal(t, int32(0), res[0].GetEssenceLost())
	require.Equal(t, int32(-4), siMod(res[1].GetAttack().GetModifiers(), "FEE-111"))
	require.Equal(t, int32(2), siMod(res[1].GetSoakModifiers(), "FEE-111"))
	require.Equal(t, int32((16-10)/2+10-12), res[1].GetEssenceLost())
}

// FEE-112: cover created by Influence gives a Soak bonus equal to the intensity of the
// Influence, not a share of the Domain's Soak; striking through it is still blind.
func TestSiInfluenceCover_FEE112(t *testing.T) {
	require.Equal(t, int32(6), feerie.CoverSoak(&feeriev1.Cover{Influence: 6}))
	f := siNew(t,
		siWho("a", "Cogneur", siSheet(20, 20, 10, 10, 0)),
		siWho("d", "Enchanteur", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a": siMelee("d")})
	f.refuse(siAct("a", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Influence: 6, DomainSoak: 20}}), engine.CodeInvalid, "FEE-112", "Cogneur")
	f.act("a", &feeriev1.Circumstances{Cover: &feeriev1.Cover{Influence: 6, Opaque: true}}) // a wall of brambles
	res := f.resolve()
	require.Equal(t, int32(6), siMod(res[0].GetSoakModifiers(), "FEE-112"))
	require.False(t, siHas(res[0].GetSoakModifiers(), "FEE-111"))
	require.Equal(t, int32(16), res[0].GetSoak())
	require.Equal(t, int32(-8), siMod(res[0].GetAttack().GetModifiers(), "FEE-111"))
}

// Lighting and ranged attacks.

// FEE-120: lighting: dusk, fog, torchlight −2/−4; full moon, sun in the eyes −4/−8; starlight
// −6/−12; blindfolded, darkness −8/−16 (contact / ranged or sight).
func TestSiLighting_FEE120(t *testing.T) {
	for _, c := range []struct {
		l               feeriev1.Lighting
		contact, ranged int32
	}{
		{feeriev1.Lighting_LIGHTING_UNSPECIFIED, 0, 0},
		{feeriev1.Lighting_LIGHTING_DUSK, -2, -4},
		{feeriev1.Lighting_LIGHTING_MOONLIGHT, -4, -8},
		{feeriev1.Lighting_LIGHTING_STARLIGHT, -6, -12},
		{feeriev1.Lighting_LIGHTING_DARKNESS, -8, -16},
	} {
		require.Equal(t, c.contact, feerie.LightingMalus(c.l, false), c.l.String())
		require.Equal(t, c.ranged, feerie.LightingMalus(c.l, true), c.l.String())
	}
	f := siNew(t,
		siWho("m", "Bretteur", siSheet(20, 12, 5, 10, 0)),
		siWho("r", "Archer", siSheet(19, 10, 5, 10, 0)),
		siWho("d1", "Cible 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Cible 2", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"m": siMelee("d1"), "r": siRanged("d2")})
	starlight := &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_STARLIGHT}
	f.at(19)
	f.act("m", starlight)
	f.act("r", starlight)
	res := f.resolve()
	require.Equal(t, int32(-6), siMod(res[0].GetAttack().GetModifiers(), "FEE-120"))
	require.Equal(t, int32(12-6), res[0].GetAttack().GetTotal())
	require.Equal(t, int32(-12), siMod(res[1].GetAttack().GetModifiers(), "FEE-120"))
	require.Equal(t, int32(19-12), res[1].GetAttack().GetTotal())
	require.Equal(t, int32(10), res[1].GetDefense())
}

// FEE-130, FEE-131, FEE-172: the ranged difficulty (trivial −8, typical 0, very hard +8,
// formidable +16, near-impossible +20, impossible +24) or the range (arm's length −4, a few
// steps 0, moderately far +4, far +12, very far +20, horizon +28) modify the target's Defense;
// the difficulty is one global estimate or itemised, never both.
func TestSiRangedDifficultyAndRange_FEE130_FEE131_FEE172(t *testing.T) {
	var diff, rng []int32
	for d := feeriev1.RangedDifficulty_RANGED_DIFFICULTY_TRIVIAL; d <= feeriev1.RangedDifficulty_RANGED_DIFFICULTY_IMPOSSIBLE; d++ {
		diff = append(diff, feerie.RangedDifficultyMod(d))
	}
	for r := feeriev1.Range_RANGE_ARMS_LENGTH; r <= feeriev1.Range_RANGE_HORIZON; r++ {
		rng = append(rng, feerie.RangeMod(r))
	}
	require.Equal(t, []int32{-8, 0, 8, 16, 20, 24}, diff)
	require.Equal(t, []int32{-4, 0, 4, 12, 20, 28}, rng)

	var cs []*encounterv1.Combatant
	intents := map[string]*feeriev1.Intent{}
	for i := range 5 {
		s, d := fmt.Sprintf("s%d", i+1), fmt.Sprintf("d%d", i+1)
		cs = append(cs, siWho(s, fmt.Sprintf("Tireur %d", i+1), siSheet(int32(20-i), 10, 5, 10, 0)), siWho(d, fmt.Sprintf("Cible %d", i+1), siSheet(5, 10, 5, 10, 0)))
		intents[s] = siRanged(d)
	}
	intents["s5"] = siWith(siRanged("d5"), func(in *feeriev1.Intent) { in.Pace = feeriev1.Pace_PACE_RUN })
	f := siNew(t, cs...)
	f.declare(intents)
	hard := feeriev1.RangedDifficulty_RANGED_DIFFICULTY_VERY_HARD
	for _, c := range []*feeriev1.Circumstances{
		{RangedDifficulty: hard, Distance: feeriev1.Range_RANGE_FAR},
		{RangedDifficulty: hard, Lighting: feeriev1.Lighting_LIGHTING_DUSK},
		{RangedDifficulty: hard, Terrain: feeriev1.Terrain_TERRAIN_DENSE_FOREST},
		{RangedDifficulty: hard, TargetPace: feeriev1.Pace_PACE_RUN},
	} {
		f.refuse(siAct("s1", c), engine.CodeInvalid, "FEE-172", "Tireur 1")
	}
	f.at(16)
	f.refuse(siAct("s5", &feeriev1.Circumstances{RangedDifficulty: hard}), engine.CodeInvalid, "FEE-172", "Tireur 5") // its own running
	f.act("s1", &feeriev1.Circumstances{RangedDifficulty: hard})
	f.act("s2", &feeriev1.Circumstances{Distance: feeriev1.Range_RANGE_FAR})
	f.act("s3", &feeriev1.Circumstances{RangedDifficulty: feeriev1.RangedDifficulty_RANGED_DIFFICULTY_TRIVIAL})
	f.act("s4", &feeriev1.Circumstances{Distance: feeriev1.Range_RANGE_HORIZON, Lighting: feeriev1.Lighting_LIGHTING_STARLIGHT}) // itemised
	res := f.resolve()
	require.Len(t, res, 4)
	require.Equal(t, []int32{8, 0}, []int32{siMod(res[0].GetDefenseModifiers(), "FEE-130"), siMod(res[0].GetDefenseModifiers(), "FEE-131")})
	require.Equal(t, int32(18), res[0].GetDefense())
	require.Equal(t, []int32{0, 12}, []int32{siMod(res[1].GetDefenseModifiers(), "FEE-130"), siMod(res[1].GetDefenseModifiers(), "FEE-131")})
	require.Equal(t, int32(22), res[1].GetDefense())
	require.Equal(t, int32(2), res[2].GetDefense()) // trivial: −8
	require.Equal(t, int32(38), res[3].GetDefense())
	require.Equal(t, int32(-12), siMod(res[3].GetAttack().GetModifiers(), "FEE-120"))
}

// FEE-132: aiming: +1 Attack per rank of delay, at most +8, lost if the target leaves sight; a
// melee attack gains nothing by waiting.
func TestSiAiming_FEE132(t *testing.T) {
	f := siNew(t,
		siWho("d", "Cible", siSheet(20, 10, 5, 10, 0)),
		siWho("s1", "Tireur 1", siSheet(15, 10, 5, 10, 0)),
		siWho("s2", "Tireur 2", siSheet(15, 10, 5, 10, 0)),
		siWho("s3", "Tireur 3", siSheet(15, 10, 5, 10, 0)),
		siWho("m", "Bretteur", siSheet(14, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"s1": siRanged("d"), "s2": siRanged("d"), "s3": siRanged("d"), "m": siMelee("d")})
	f.at(10)
	f.act("s1", nil) // 5 ranks after its Initiative of 15
	f.act("m", nil)
	res := f.resolve()
	require.Equal(t, int32(5), siMod(res[0].GetAttack().GetModifiers(), "FEE-132"))
	require.Equal(t, int32(15+5), res[0].GetAttack().GetTotal())
	require.False(t, siHas(res[1].GetAttack().GetModifiers(), "FEE-132"))
	f.at(5)
	f.act("s3", &feeriev1.Circumstances{SightLost: true}) // the target ducked behind a tree
	res = f.resolve()
	require.False(t, siHas(res[0].GetAttack().GetModifiers(), "FEE-132"))
	f.at(3)
	f.act("s2", nil) // 12 ranks: +8 at most
	res = f.resolve()
	require.Equal(t, int32(8), siMod(res[0].GetAttack().GetModifiers(), "FEE-132"))
}

// FEE-133, FEE-100: a shot is modified by the shooter's pace, the target's pace halved (−2
// trot, −4 run, −6 sprint) and the terrain (dense forest −12, corridor +4, winding tunnel −4).
func TestSiShotConditions_FEE133(t *testing.T) {
	var tp []int32
	for _, p := range []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_TROT, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT} {
		tp = append(tp, feerie.TargetPaceMalus(p))
	}
	require.Equal(t, []int32{0, -2, -4, -6}, tp)
	require.Equal(t, []int32{-12, 4, -4}, []int32{
		feerie.TerrainMod(feeriev1.Terrain_TERRAIN_DENSE_FOREST), feerie.TerrainMod(feeriev1.Terrain_TERRAIN_CORRIDOR), feerie.TerrainMod(feeriev1.Terrain_TERRAIN_WINDING_TUNNEL),
	})
	f := siNew(t,
		siWho("s1", "Tireur 1", siSheet(20, 10, 5, 10, 0)),
		siWho("s2", "Tireur 2", siSheet(19, 10, 5, 10, 0)),
		siWho("s3", "Tireur 3", siSheet(18, 10, 5, 10, 0)),
		siWho("d1", "Cible 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Cible 2", siSheet(5, 10, 5, 10, 0)),
		siWho("d3", "Cible 3", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{
		"s1": siWith(siRanged("d1"), func(in *feeriev1.Intent) { in.Pace = feeriev1.Pace_PACE_TROT }),
		"s2": siRanged("d2"), "s3": siRanged("d3"),
	})
	f.act("s1", &feeriev1.Circumstances{TargetPace: feeriev1.Pace_PACE_RUN, Terrain: feeriev1.Terrain_TERRAIN_DENSE_FOREST})
	res := f.resolve()
	require.Equal(t, int32(-4-12), siMod(res[0].GetAttack().GetModifiers(), "FEE-133"))
	require.Equal(t, int32(-4), siMod(res[0].GetAttack().GetModifiers(), "FEE-100"))
	require.Equal(t, int32(20-16-4), res[0].GetAttack().GetTotal())
	f.act("s2", &feeriev1.Circumstances{TargetPace: feeriev1.Pace_PACE_SPRINT, Terrain: feeriev1.Terrain_TERRAIN_CORRIDOR})
	res = f.resolve()
	require.Equal(t, int32(-6+4), siMod(res[0].GetAttack().GetModifiers(), "FEE-133"))
	f.act("s3", &feeriev1.Circumstances{TargetPace: feeriev1.Pace_PACE_TROT, Terrain: feeriev1.Terrain_TERRAIN_WINDING_TUNNEL})
	res = f.resolve()
	require.Equal(t, int32(-2-4), siMod(res[0].GetAttack().GetModifiers(), "FEE-133"))
}

// Mounted combat.

// FEE-140, FEE-T13, FEE-143: a foot attacker striking the rider has 4 + Taille(mount) −
// Taille(attacker), never a bonus: a foot soldier (T0) against a rider on a mount T+2 −6, on a
// mount T−5 0. Striking the mount instead carries no such malus.
func TestSiFootAgainstRider_FEET13(t *testing.T) {
	require.Equal(t, int32(-6), feerie.MountedMalus(2, 0))
	require.Equal(t, int32(0), feerie.MountedMalus(-5, 0))
	require.Equal(t, int32(-3), feerie.MountedMalus(2, 3))
	f := siNew(t,
		siWho("s1", "Fantassin 1", siSheet(20, 12, 5, 10, 0)),
		siWho("s2", "Fantassin 2", siSheet(19, 12, 5, 10, 0)),
		siWho("s3", "Fantassin 3", siSheet(18, 12, 5, 10, 0)),
		siWho("r1", "Chevalier", siRiding(siSheet(5, 10, 5, 10, 0), "m1")),
		siWho("m1", "Destrier", siSheet(5, 8, 10, 10, 2)),
		siWho("r2", "Pixie", siRiding(siSheet(5, 10, 2, 5, -5), "m2")),
		siWho("m2", "Souris", siSheet(5, 8, 2, 5, -5)))
	f.declare(map[string]*feeriev1.Intent{"s1": siMelee("r1"), "s2": siMelee("r2"), "s3": siMelee("m1")})
	f.at(18)
	for _, id := range []string{"s1", "s2", "s3"} {
		f.act(id, nil)
	}
	res := f.resolve()
	require.Equal(t, int32(-6), siMod(res[0].GetAttack().GetModifiers(), "FEE-140"))
	require.Equal(t, int32(12-6), res[0].GetAttack().GetTotal())
	require.False(t, siHas(res[1].GetAttack().GetModifiers(), "FEE-140")) // never a bonus
	require.Equal(t, int32(12), res[1].GetAttack().GetTotal())
	require.False(t, siHas(res[2].GetAttack().GetModifiers(), "FEE-140")) // the mount itself
	require.Equal(t, int32(8-2), res[2].GetDefense())                     // its own Defense
}

// FEE-141: a rider who does not attack may defend with its mount's Habileté minus its own
// Taille; one who attacks, or whose mount is less skilled, keeps its own.
func TestSiRiderDefense_FEE141(t *testing.T) {
	f := siNew(t,
		siWho("s1", "Fantassin 1", siSheet(20, 30, 5, 10, 0)),
		siWho("s2", "Fantassin 2", siSheet(19, 30, 5, 10, 0)),
		siWho("s3", "Fantassin 3", siSheet(18, 30, 5, 10, 0)),
		siWho("r1", "Cavalier 1", siRiding(siSheet(5, 10, 5, 10, -1), "m1")),
		siWho("m1", "Cheval vif", siSheet(5, 18, 10, 10, 2)),
		siWho("r2", "Cavalier 2", siRiding(siSheet(5, 10, 5, 10, -1), "m2")),
		siWho("m2", "Cheval vif 2", siSheet(5, 18, 10, 10, 2)),
		siWho("r3", "Cavalier 3", siRiding(siSheet(5, 10, 5, 10, -1), "m3")),
		siWho("m3", "Vieille mule", siSheet(5, 8, 10, 10, 2)))
	f.declare(map[string]*feeriev1.Intent{"s1": siMelee("r1"), "s2": siMelee("r2"), "s3": siMelee("r3"), "r2": siMelee("s2")})
	f.at(18)
	for _, id := range []string{"s1", "s2", "s3"} {
		f.act(id, nil)
	}
	res := f.resolve()
	require.Equal(t, int32(8), siMod(res[0].GetDefenseModifiers(), "FEE-141"))
	require.Equal(t, int32(18+1), res[0].GetDefense()) // Habileté(mount) − Taille(rider)
	require.False(t, siHas(res[1].GetDefenseModifiers(), "FEE-141"))
	require.Equal(t, int32(10+1), res[1].GetDefense())
	require.False(t, siHas(res[2].GetDefenseModifiers(), "FEE-141"))
	require.Equal(t, int32(10+1), res[2].GetDefense())
}

// FEE-142, FEE-184, FEE-101: a mounted charge's Taille term is the rider's plus the mount's
// when the mount's is positive, else the larger of the two, plus +2/+4/+6 by the mount's pace;
// the rider takes no pace malus.
func TestSiMountedCharge_FEE142_FEE184(t *testing.T) {
	require.Equal(t, int32(2), feerie.MountedChargeTaille(0, 2))
	require.Equal(t, int32(-1), feerie.MountedChargeTaille(-3, -1))
	require.Equal(t, int32(-1), feerie.MountedChargeTaille(-1, -3))
	require.Equal(t, int32(1), feerie.MountedChargeTaille(1, 0))
	charge := func(target string, p feeriev1.Pace) *feeriev1.Intent {
		return siWith(siMelee(target), func(in *feeriev1.Intent) { in.Charge, in.Pace = true, p })
	}
	f := siNew(t,
		siWho("r1", "Chevalier", siRiding(siSheet(20, 12, 10, 10, 0), "m1")),
		siWho("m1", "Destrier", siSheet(5, 8, 10, 10, 2)),
		siWho("r2", "Lutin monté", siRiding(siSheet(19, 12, 10, 10, -3), "m2")),
		siWho("m2", "Renard", siSheet(5, 8, 5, 5, -1)),
		siWho("r3", "Gnome monté", siRiding(siSheet(18, 12, 10, 10, -1), "m3")),
		siWho("m3", "Lièvre", siSheet(5, 8, 5, 5, -3)),
		siWho("d1", "Cible 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Cible 2", siSheet(5, 10, 5, 10, 0)),
		siWho("d3", "Cible 3", siSheet(5, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{
		"r1": charge("d1", feeriev1.Pace_PACE_RUN), "r2": charge("d2", feeriev1.Pace_PACE_SPRINT), "r3": charge("d3", feeriev1.Pace_PACE_TROT),
	})
	f.at(18)
	for _, id := range []string{"r1", "r2", "r3"} {
		f.act(id, nil)
	}
	res := f.resolve()
	require.Len(t, res, 3)
	var taille, pace, dmg, att []int32
	for _, r := range res {
		taille = append(taille, siMod(r.GetDamageModifiers(), "FEE-142"))
		pace = append(pace, siMod(r.GetDamageModifiers(), "FEE-101"))
		dmg = append(dmg, r.GetDamage())
		att = append(att, siMod(r.GetAttack().GetModifiers(), "FEE-100"))
	}
	require.Equal(t, []int32{2, 2, 0}, taille) // 0+2; max(−3,−1) = −3+2; max(−1,−3) = −1
	require.Equal(t, []int32{4, 6, 2}, pace)   // the mount runs, sprints, trots
	require.Equal(t, []int32{10 + 0 + 2 + 4, 10 - 3 + 2 + 6, 10 - 1 + 2}, dmg)
	require.Equal(t, []int32{0, 0, 0}, att) // no pace malus for the rider
	require.Equal(t, int32(12), res[0].GetAttack().GetTotal())
}

// FEE-143: a rider moves at its mount's speed; the mount acts at its own Initiative with its
// own Defense; the rider's "below" and the mount's "above" are protected; an attacker chooses
// the rider or the mount.
func TestSiRiderAndMount_FEE143(t *testing.T) {
	f := siNew(t,
		siWho("r", "Cavalier", siRiding(siSheet(12, 10, 5, 10, 0), "m")),
		siWho("m", "Destrier", siSheet(17, 14, 10, 10, 2)),
		siWho("e1", "Ennemi 1", siSheet(6, 20, 5, 10, 0)),
		siWho("e2", "Ennemi 2", siSheet(5, 20, 5, 10, 0)))
	mount := f.St.GetCombatants()[1].GetFeerie()
	for _, p := range []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT} {
		require.Equal(t, feerie.PaceSpeed(mount, p), feerie.Speed(f.St, "r", p))
	}
	require.Equal(t, int32(16), feerie.Speed(f.St, "r", feeriev1.Pace_PACE_SPRINT)) // not the rider's 10
	f.declare(map[string]*feeriev1.Intent{"m": siMelee("e1"), "e1": siMelee("r"), "e2": siMelee("m")})
	require.Equal(t, int32(17), f.state().GetTopRank()) // the mount's own Initiative
	f.act("m", nil)
	res := f.resolve()
	require.Equal(t, "m", res[0].GetCombatantId())
	require.Equal(t, int32(14), res[0].GetAttack().GetTotal())
	f.at(6)
	f.act("e1", nil) // strikes the rider
	res = f.resolve()
	require.True(t, siHas(res[0].GetAttack().GetModifiers(), "FEE-140"))
	f.act("e2", nil) // strikes the mount: its own Defense
	res = f.resolve()
	require.False(t, siHas(res[0].GetAttack().GetModifiers(), "FEE-140"))
	require.Equal(t, int32(14-2), siMod(res[0].GetDefenseModifiers(), "FEE-013")) // the mount's Habileté − Taille
	require.False(t, siHas(res[0].GetDefenseModifiers(), "FEE-141"))

	// Protected angles: fliers have the rider's "above" but not the mount's, burrowers the
	// mount's "below" but not the rider's.
	angles := func(target string) (*siFight, []string) {
		cs := []*encounterv1.Combatant{
			siWho("r", "Cavalier", siRiding(siSheet(2, 10, 5, 10, 0), "m")),
			siWho("m", "Poney", siSheet(1, 10, 5, 10, 0)),
		}
		intents := map[string]*feeriev1.Intent{}
		var ids []string
		for i := range 5 {
			id := fmt.Sprintf("f%d", i+1)
			ids = append(ids, id)
			cs = append(cs, siWho(id, fmt.Sprintf("Sylphe %d", i+1), siFlier(siSheet(int32(20-i), 10, 5, 10, 0))))
			intents[id] = siMelee(target)
		}
		cs = append(cs, siWho("b", "Taupe", siBurrower(siSheet(10, 10, 5, 10, 0))))
		intents["b"] = siMelee(target)
		f := siNew(t, cs...)
		f.declare(intents)
		f.at(10)
		return f, ids
	}
	f, ids := angles("r")
	for _, id := range ids {
		f.act(id, nil) // five angles: front, back, left, right, above
	}
	f.refuse(siAct("b", nil), engine.CodePrecondition, "FEE-092", "Taupe", "Cavalier")
	res = f.resolve()
	require.Equal(t, int32(-8), siMod(res[4].GetDefenseModifiers(), "FEE-091"))

	f, ids = angles("m")
	for _, id := range ids[:4] {
		f.act(id, nil)
	}
	f.refuse(siAct(ids[4], nil), engine.CodePrecondition, "FEE-092", "Sylphe 5", "Poney")
	f.act("b", nil) // below the mount
	res = f.resolve()
	require.Len(t, res, 5)
	require.Equal(t, int32(-8), siMod(res[4].GetDefenseModifiers(), "FEE-091"))
}

// FEE-144: the Affinity level of a mounted attack is the lower of the mount Affinity and the
// combat Affinity; where several add up, mount Affinities replace combat Affinities of the
// same kind (general for general, specific for specific).
func TestSiMountedAffinities_FEE144(t *testing.T) {
	combat := func(a *feeriev1.Attribute) { a.Combat = true }
	mount := func(a *feeriev1.Attribute) { a.Mount = true }
	specific := func(edit func(*feeriev1.Attribute)) func(*feeriev1.Attribute) {
		return func(a *feeriev1.Attribute) { edit(a); a.Specific = true }
	}
	sh := siSheet(20, 10, 10, 10, 0,
		siAffinity("épée", 5, combat),
		siAffinity("équitation", 3, mount),
		siAffinity("combat", 2, combat),
		siAffinity("lance", 4, specific(combat)),
		siAffinity("destrier", 1, specific(mount)),
		&feeriev1.Attribute{Name: "éperons", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, Value: 2})
	require.Equal(t, int32(3-8), feerie.MountedAffinities(sh, []string{"épée", "équitation"}))
	// general min(2, 3) + specific min(4, 1) = 3 of 10
	require.Equal(t, int32(3-10), feerie.MountedAffinities(sh, []string{"combat", "lance", "équitation", "destrier"}))
	require.Equal(t, int32(-5), feerie.MountedAffinities(sh, []string{"épée"})) // no mount Affinity: level 0
	require.Equal(t, int32(3-8), feerie.MountedAffinities(sh, []string{"épée", "équitation", "éperons"}))

	rider := proto.CloneOf(sh)
	rider.MountId = "m"
	foot := proto.CloneOf(sh)
	foot.Vigilance = 19
	f := siNew(t,
		siWho("r", "Chevalier", rider),
		siWho("m", "Destrier", siSheet(5, 8, 10, 10, 2)),
		siWho("p", "Fantassin", foot),
		siWho("d1", "Cible 1", siSheet(5, 10, 5, 10, 0)),
		siWho("d2", "Cible 2", siSheet(5, 10, 5, 10, 0)))
	withApplied := func(target string, names ...string) *feeriev1.Intent {
		return siWith(siMelee(target), func(in *feeriev1.Intent) { in.Applied = &feeriev1.Applied{Attack: names} })
	}
	f.declare(map[string]*feeriev1.Intent{"r": withApplied("d1", "épée", "équitation"), "p": withApplied("d2", "épée", "équitation")})
	f.act("r", nil)
	res := f.resolve()
	require.Equal(t, int32(-5), siMod(res[0].GetAttack().GetModifiers(), "FEE-144"))
	require.Equal(t, int32(10+3), res[0].GetAttack().GetTotal())
	f.act("p", nil)
	res = f.resolve()
	require.False(t, siHas(res[0].GetAttack().GetModifiers(), "FEE-144")) // on foot
	require.Equal(t, int32(10+5+3), res[0].GetAttack().GetTotal())
}
