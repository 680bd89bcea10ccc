package feerie_test

// Edges of a sheet, of the options and of the legal actions: each test kills a mutant that
// lived in a mutation run of this package, with the numbers at the edge.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// The ranges of a sheet, both ends included: Aspects 0 to 100, Taille −5 to +5 (FEE-092),
// Essence 0 to 1000, an Attribute's value −50 to 50; one step beyond is refused.
func TestEdgeSheetRanges(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*feeriev1.Sheet)
		rule string // "-": accepted
	}{
		{"Vigilance 0", func(sh *feeriev1.Sheet) { sh.Vigilance = 0 }, "-"},
		{"Charme 100", func(sh *feeriev1.Sheet) { sh.Charme = 100 }, "-"},
		{"Habileté −1", func(sh *feeriev1.Sheet) { sh.Habilete = -1 }, ""},
		{"Puissance 101", func(sh *feeriev1.Sheet) { sh.Puissance = 101 }, ""},
		{"Taille −5", func(sh *feeriev1.Sheet) { sh.Taille = -5 }, "-"},
		{"Taille +5", func(sh *feeriev1.Sheet) { sh.Taille = 5 }, "-"},
		{"Taille −6", func(sh *feeriev1.Sheet) { sh.Taille = -6 }, "FEE-092"},
		{"Taille +6", func(sh *feeriev1.Sheet) { sh.Taille = 6 }, "FEE-092"},
		{"Essence 1000", func(sh *feeriev1.Sheet) { sh.Essence = 1000 }, "-"},
		{"Essence 1001", func(sh *feeriev1.Sheet) { sh.Essence = 1001 }, ""},
		{"Attribute −50", func(sh *feeriev1.Sheet) { sh.Attributes[0].Value = -50 }, "-"},
		{"Attribute 50", func(sh *feeriev1.Sheet) { sh.Attributes[0].Value = 50 }, "-"},
		{"Attribute −51", func(sh *feeriev1.Sheet) { sh.Attributes[0].Value = -51 }, ""},
		{"Attribute 51", func(sh *feeriev1.Sheet) { sh.Attributes[0].Value = 51 }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := vaBlank(t)
			f.do(vaGM, vaCreateCmd(nil))
			cmd := vaAddCmd(vaWith(vaLutin(), c.edit))
			if c.rule != "-" {
				f.refuse(vaGM, cmd, engine.CodeInvalid, c.rule, "Lutin")
				return
			}
			f.do(vaGM, cmd)
			require.Equal(t, vaWith(vaLutin(), c.edit).GetFeerie().GetEssence(), f.cs("lutin").GetEssence())
		})
	}
}

// FEE-001: no options are the defaults (roll 1d20-1d20); another system's options are refused.
func TestEdgeOptionsOfNoSystem(t *testing.T) {
	o, err := feerie.New(1).Options(&encounterv1.RuleOptions{})
	require.NoError(t, err)
	require.Equal(t, "1d20-1d20", o.GetFeerie().GetRoll())
	_, err = feerie.New(1).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{}}})
	require.Error(t, err)
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, engine.CodeInvalid, re.Code)
}

// legalAct is the legal action named name of id, nil when there is none.
func legalAct(t *testing.T, f *sqFight, id, name string) *rulesetv1.LegalAction {
	t.Helper()
	ls, err := f.Reg.Legal(f.St, id)
	require.NoError(t, err)
	for _, l := range ls {
		if l.GetName() == name {
			return l
		}
	}
	return nil
}

// FEE-042, FEE-050, FEE-051: at its own rank a character may act at no cost; anticipating by k
// ranks costs k, and only once someone has acted. Xavière rolls 12, Yvon 8: at rank 12
// Xavière acts for +0; Yvon may act only once she has, at −4.
func TestEdgeLegalActCostsTheAnticipation(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 2, -2)
	require.Equal(t, int32(12), f.s().GetRank())
	x := legalAct(t, f, "x", "act")
	require.NotNil(t, x)
	require.Equal(t, []any{int32(0), "at rank 12: +0", "FEE-050"}, []any{x.GetCost(), x.GetDescription(), x.GetRule()})
	require.Nil(t, legalAct(t, f, "y", "act"), "nobody has acted yet: no anticipation (FEE-051)")
	f.act("x", nil)
	y := legalAct(t, f, "y", "act")
	require.NotNil(t, y)
	require.Equal(t, []any{int32(4), "at rank 12: -4"}, []any{y.GetCost(), y.GetDescription()})
	require.Equal(t, int32(4), f.act("y", nil).GetAnticipation())
}

// FEE-060, FEE-061, FEE-050: a further activity comes 8 ranks after the previous one, at −4 per
// activity before it, less any anticipation: Xavière acts at 12; her second activity is at 4
// for −4; anticipated to 6 it costs 2 + 4 = 6.
func TestEdgeLegalActAgainCostsTheFurtherMalus(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 2, -2)
	f.act("x", nil)
	require.Nil(t, legalAct(t, f, "x", "act again"), "not at the rank of its activity")
	f.advance(6, 0)
	x := legalAct(t, f, "x", "act again")
	require.NotNil(t, x)
	require.Equal(t, []any{int32(6), "at rank 6: -6", "FEE-061"}, []any{x.GetCost(), x.GetDescription(), x.GetRule()})
	f.advance(4)
	x = legalAct(t, f, "x", "act again")
	require.NotNil(t, x)
	require.Equal(t, []any{int32(4), "at rank 4: -4"}, []any{x.GetCost(), x.GetDescription()})
	q := f.act("x", nil)
	require.Equal(t, []int32{2, 0, 4}, []int32{q.GetNth(), q.GetAnticipation(), q.GetRollPenalty()})
}

// FEE-061: the third activity is at −4 × 2: Xavière (Initiative 19) acts at 19, 11 and 3; the
// third costs 8.
func TestEdgeLegalThirdActivityCostsEight(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 9, -2)
	require.Equal(t, int32(19), f.s().GetRank())
	f.act("x", nil)
	f.advance(11, 0)
	f.act("x", nil)
	f.advance(3, 0)
	x := legalAct(t, f, "x", "act again")
	require.NotNil(t, x)
	require.Equal(t, []any{int32(8), "at rank 3: -8"}, []any{x.GetCost(), x.GetDescription()})
	require.Equal(t, int32(8), f.act("x", nil).GetRollPenalty())
}

// FEE-100, FEE-171: divisions round the magnitude down (toward zero) for a negative quantity
// too: Habileté 0 and Taille −5 (H + T = −5) walk −5/4 = −1, trot −1, run −2, sprint −5.
func TestEdgePaceOfANegativeHabilePlusTaille(t *testing.T) {
	sh := &feeriev1.Sheet{Habilete: 0, Taille: -5}
	var got []int32
	for _, p := range []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_TROT, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT} {
		got = append(got, feerie.PaceSpeed(sh, p))
	}
	require.Equal(t, []int32{-1, -1, -2, -5}, got)
}
