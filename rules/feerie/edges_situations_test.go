package feerie_test

// Edges of situations (angles, exposed proportions) and of Defense at one rank: each test
// kills a mutant that lived in a mutation run of this package, with the numbers at the edge.

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// FEE-090: a defender offers 1 to 6 angles: 6 is allowed, 7 refused.
func TestEdgeSixAnglesOffered(t *testing.T) {
	f := siNew(t, siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)), siWho("a1", "Assaillant 1", siSheet(20, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siMelee("d")})
	f.refuse(siAct("a1", &feeriev1.Circumstances{AnglesOffered: 7}), engine.CodeInvalid, "FEE-090", "Assaillant 1")
	f.act("a1", &feeriev1.Circumstances{AnglesOffered: 6})
	require.Len(t, f.state().GetQueue(), 1)
}

// FEE-110: an exposed proportion runs from 1 to 1000 thousandths: 1000 (the whole defender)
// is allowed and weighs nothing; 1001 is refused.
func TestEdgeExposedWhole(t *testing.T) {
	f := siNew(t, siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)), siWho("a1", "Assaillant 1", siSheet(20, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siRanged("d")})
	f.refuse(siAct("a1", &feeriev1.Circumstances{ExposedPermille: 1001}), engine.CodeInvalid, "FEE-110", "Assaillant 1")
	f.act("a1", &feeriev1.Circumstances{ExposedPermille: 1000})
	r := f.resolve()[0]
	require.False(t, siHas(r.GetAttack().GetModifiers(), "FEE-110"))
}

// FEE-092, FEE-093: in a single angle of surface 4 a second attacker of surface 4 finds no room
// (FEE-092); it does not fill all the angles by itself (FEE-093 is for one larger than them).
func TestEdgeNoRoomIsNotTooLarge(t *testing.T) {
	f := siNew(t,
		siWho("d", "Défenseur", siSheet(5, 10, 5, 10, 0)),
		siWho("a1", "Assaillant 1", siSheet(20, 10, 5, 10, 0)),
		siWho("a2", "Assaillant 2", siSheet(19, 10, 5, 10, 0)))
	f.declare(map[string]*feeriev1.Intent{"a1": siMelee("d"), "a2": siMelee("d")})
	f.at(19)
	one := &feeriev1.Circumstances{AnglesOffered: 1}
	f.act("a1", one)
	f.refuse(siAct("a2", one), engine.CodePrecondition, "FEE-092", "Assaillant 2", "Défenseur")
}

// FEE-110, FEE-185: an exposed proportion on a row of the table takes that row whatever the
// option between rows: a quarter (250‰) is +4 even when ties go to the harder row; a tenth
// (100‰) is +12 even when they go to the easier one.
func TestEdgeExposedOnARow(t *testing.T) {
	for _, c := range []struct {
		rounding string
		permille int32
		want     int32
	}{{"harder", 250, -4}, {"easier", 100, -12}, {"harder", 251, -4}, {"easier", 101, -4}} {
		_, r := vaDuel(t, &feeriev1.Options{ExposedRounding: proto.String(c.rounding)}, vaLutin(), vaKobold(), vaRanged("kobold", vaAtt("fronde")), nil,
			&feeriev1.Act{Circumstances: &feeriev1.Circumstances{ExposedPermille: c.permille}}, 10, 10)
		vaRequireMod(t, r.GetAttack().GetModifiers(), "exposed proportion", "FEE-110", c.want)
	}
}

// FEE-050, FEE-044: a first activity queued at a rank, not anticipated, gives its performer no
// Defense penalty against an attack resolved before it at that rank: Yvon (V12) waits for rank
// 12 where Xavière (V14) also acts; she is resolved first and meets his plain Defense 10.
func TestEdgeFirstActivityQueuedGivesNoDefensePenalty(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 14), sqPlain("y", "Yvon", 12))
	f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, -2, 0)
	require.Equal(t, int32(12), f.s().GetRank())
	f.act("y", nil)
	f.act("x", nil)
	rs := f.advance(0, 0, 0)
	require.Equal(t, []string{"x", "y"}, sqWho(rs))
	require.False(t, sqHas(rs[0].GetDefenseModifiers(), "FEE-050"))
	require.Equal(t, int32(10), rs[0].GetDefense())
}

// FEE-094, FEE-095, FEE-175: a melee sweep engages each further defender it strikes with the
// striker; a blunt projectile's sweep at range engages no one.
func TestEdgeSweepEngagesOnlyInMelee(t *testing.T) {
	for _, c := range []struct {
		name    string
		in      *feeriev1.Intent
		engaged []string
	}{
		{"melee", siMelee("l1", "l2"), []string{"ogre"}},
		{"ranged", siWith(siRanged("l1", "l2"), func(in *feeriev1.Intent) { in.Projectile = feeriev1.Projectile_PROJECTILE_BLUNT }), nil},
	} {
		f := siNew(t, siWho("ogre", "Ogre", siSheet(20, 12, 10, 10, 2)),
			siWho("l1", "Lutin 1", siSheet(5, 10, 3, 5, -2)), siWho("l2", "Lutin 2", siSheet(5, 10, 3, 5, -2)))
		f.declare(map[string]*feeriev1.Intent{"ogre": c.in})
		f.act("ogre", nil)
		r := f.resolveWith(10, 10)[0]
		require.Len(t, r.GetAlso(), 1, c.name)
		require.Equal(t, c.engaged, f.state().GetCombatants()["l2"].GetEngagedBy(), c.name)
	}
}
