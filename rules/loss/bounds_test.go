package loss_test

import (
	"fmt"
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The bounds of a sheet and of the house rules, on both sides: each value at its bound is
// accepted and kept, one step beyond is refused (mutants of sheet.go that lived in a real
// mutation run: a refusal tested on one side only lets `>` become `>=`).

// A sheet at every bound is accepted, and what it holds is what the state holds.
func TestSheetBoundsAccepted(t *testing.T) {
	for _, c := range []struct {
		name  string
		rule  string
		edit  func(*lossv1.Sheet)
		check func(*testing.T, *lossv1.CombatantState)
	}{
		{"traits and talents of 0 and 30", "LOS-001", func(s *lossv1.Sheet) {
			s.Traits["Puissance"], s.Traits["Agilité"] = 30, 0
			s.Talents["Arme de mêlée"], s.Talents["Esquive"] = 0, 30
		}, nil},
		{"Initiative 0", "LOS-030", func(s *lossv1.Sheet) { s.Initiative = 0 }, nil},
		{"Initiative 30", "LOS-030", func(s *lossv1.Sheet) { s.Initiative = 30 }, nil},
		{"16 weapons", "", func(s *lossv1.Sheet) {
			for i := len(s.Weapons); i < 16; i++ {
				s.Weapons = append(s.Weapons, weapon(fmt.Sprintf("lame %d", i), lossv1.WeaponKind_WEAPON_KIND_MELEE, 1, 0))
			}
		}, nil},
		{"Vitesse 1 and 20, damage 0 and 30", "LOS-035", func(s *lossv1.Sheet) {
			s.Weapons[0].Vitesse, s.Weapons[0].Damage = 20, 30
			s.Weapons = append(s.Weapons, weapon("stylet", lossv1.WeaponKind_WEAPON_KIND_MELEE, 1, 0))
		}, nil},
		{"armour and shield of 30", "LOS-021", func(s *lossv1.Sheet) { s.Armour, s.ShieldProtection = 30, 30 }, nil},
		{"armour and shield of 0", "LOS-021", func(s *lossv1.Sheet) { s.Armour, s.ShieldProtection = 0, 0 }, nil},
		{"20 Fursa and 20 Inspiration", "LOS-005", func(s *lossv1.Sheet) {
			s.Fursa, s.Inspiration = 20, map[string]int32{"Courage": 20, "Honneur": 0}
		}, func(t *testing.T, cs *lossv1.CombatantState) {
			require.Equal(t, int32(20), cs.GetFursa())
			require.Equal(t, map[string]int32{"Courage": 20, "Honneur": 0}, cs.GetInspiration())
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil)
			f.do(gm, addCmd(with(diego(), c.edit)))
			if c.check != nil {
				c.check(t, f.cs("diego"))
			}
		})
	}
}

// One step beyond a bound is refused, naming the combatant and the rule.
func TestSheetBoundsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		rule string
		edit func(*lossv1.Sheet)
	}{
		{"negative trait", "LOS-001", func(s *lossv1.Sheet) { s.Traits["Agilité"] = -1 }},
		{"talent of 31", "LOS-001", func(s *lossv1.Sheet) { s.Talents["Esquive"] = 31 }},
		{"negative Initiative", "LOS-030", func(s *lossv1.Sheet) { s.Initiative = -1 }},
		{"17 weapons", "", func(s *lossv1.Sheet) {
			for i := len(s.Weapons); i < 17; i++ {
				s.Weapons = append(s.Weapons, weapon(fmt.Sprintf("lame %d", i), lossv1.WeaponKind_WEAPON_KIND_MELEE, 1, 0))
			}
		}},
		{"damage of 31", "LOS-020", func(s *lossv1.Sheet) { s.Weapons[0].Damage = 31 }},
		{"armour of 31", "LOS-021", func(s *lossv1.Sheet) { s.Armour = 31 }},
		{"negative shield", "LOS-021", func(s *lossv1.Sheet) { s.ShieldProtection = -1 }},
		{"21 Fursa", "LOS-005", func(s *lossv1.Sheet) { s.Fursa = 21 }},
		{"21 Inspiration", "LOS-005", func(s *lossv1.Sheet) { s.Inspiration = map[string]int32{"Sagesse": 21} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil)
			re := f.refuse(gm, addCmd(with(diego(), c.edit)), engine.CodeInvalid, c.rule, "Diego")
			require.Contains(t, re.Msg, "malformed sheet")
		})
	}
	// A Sbire with 0 Inspiration of a Vertu has none: accepted (LOS-024).
	f := newFight(t, nil)
	f.do(gm, addCmd(with(who("marin", "Marin", sbire, 3, 5, 4, 5, 4, claws(0)), func(s *lossv1.Sheet) {
		s.Inspiration = map[string]int32{"Courage": 0}
	})))
}

// The house rules at their bounds are accepted and recorded; one step beyond is refused
// (LOS-022 health bands 1…20, LOS-005 the GM's reserve and the PCs' starting Fursa 0…20,
// LOS-016 the bonus of a defensive Exploit 0…30).
func TestOptionBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		opts *lossv1.Options
		ok   bool
		rule string
	}{
		{"bands of 1 and 20", &lossv1.Options{HealthBands: []int32{1, 20, 1}}, true, ""},
		{"band of 0", &lossv1.Options{HealthBands: []int32{5, 0, 5}}, false, "LOS-022"},
		{"band of 21", &lossv1.Options{HealthBands: []int32{21, 5, 5}}, false, "LOS-022"},
		{"GM reserve 0", &lossv1.Options{GmFursa: proto.Int32(0)}, true, ""},
		{"GM reserve 20", &lossv1.Options{GmFursa: proto.Int32(20)}, true, ""},
		{"GM reserve 21", &lossv1.Options{GmFursa: proto.Int32(21)}, false, "LOS-005"},
		{"PCs start with 0 Fursa", &lossv1.Options{PcStartingFursa: proto.Int32(0)}, true, ""},
		{"PCs start with 20 Fursa", &lossv1.Options{PcStartingFursa: proto.Int32(20)}, true, ""},
		{"PCs start with -1 Fursa", &lossv1.Options{PcStartingFursa: proto.Int32(-1)}, false, "LOS-005"},
		{"PCs start with 21 Fursa", &lossv1.Options{PcStartingFursa: proto.Int32(21)}, false, "LOS-005"},
		{"defence bonus 0", &lossv1.Options{DefenceExploitBonus: proto.Int32(0)}, true, ""},
		{"defence bonus 30", &lossv1.Options{DefenceExploitBonus: proto.Int32(30)}, true, ""},
		{"defence bonus -1", &lossv1.Options{DefenceExploitBonus: proto.Int32(-1)}, false, "LOS-016"},
		{"defence bonus 31", &lossv1.Options{DefenceExploitBonus: proto.Int32(31)}, false, "LOS-016"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				blank(t).refuse(gm, createCmd(c.opts), engine.CodeInvalid, c.rule)
				return
			}
			f := newFight(t, c.opts, diego())
			got := f.Log[0].GetEncounterCreated().GetOptions().GetLoss()
			if len(c.opts.GetHealthBands()) > 0 {
				require.Equal(t, c.opts.GetHealthBands(), got.GetHealthBands())
				cs := f.cs("diego")
				require.Equal(t, []int32{1, 20, 1}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
			}
			if c.opts.GmFursa != nil {
				require.Equal(t, c.opts.GetGmFursa(), f.St.GetLoss().GetGmFursa())
			}
			if c.opts.PcStartingFursa != nil {
				require.Equal(t, c.opts.GetPcStartingFursa(), f.cs("diego").GetFursa())
			}
			if c.opts.DefenceExploitBonus != nil {
				require.Equal(t, c.opts.GetDefenceExploitBonus(), got.GetDefenceExploitBonus())
			}
		})
	}
}
