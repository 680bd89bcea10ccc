package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Numbers are the numbers of one version of the d20 segment rules, and its behaviour
// switches. A version is a value of this package (New), never a copy of it: every rule reads
// its numbers from the System it is decided, folded, described or told under.
type Numbers struct {
	// FirstSegment and LastSegment: everyone starts the round at segment 0, the usable
	// segments are 0 to 5 (D20-013).
	FirstSegment, LastSegment int32
	// SurpriseSegments: the surprise round's segments, 0 to 2 (D20-004).
	SurpriseSegments int32
	// NoStealth: the apprehension roll's opposition when no attacker has stealth (D20-003).
	NoStealth int32
	// ApprehensionScale: the light, medium and high apprehension modifiers when the
	// encounter gives none (D20-002, option apprehension_scale).
	ApprehensionScale [3]int32
	// DownAt: down at this many hit points or fewer when the encounter says nothing
	// (D20-044, option down_at).
	DownAt int32

	// Armour, Shield and Weapon: the Initiative modifier of each piece of equipment, indexed
	// by the sheet's enum value; an unspecified one counts 0 (D20-010).
	Armour [5]int32
	Shield [4]int32
	Weapon [6]int32
	// RequireEquipment (v2): a sheet must state its armour and its weapon class, as it states
	// its size; v1 took a missing one for light, 0 (D20-010, revised 2026-12-07).
	RequireEquipment bool

	// MaxBBA: the highest base attack bonus a sheet may give (D20-017).
	MaxBBA int32
	// AttackCosts: the attack cost by BBA, lowest BBA first (D20-017).
	AttackCosts [4]AttackCostStep
	// SpellCosts: the casting time by spell category, lowest level first (D20-018); a spell
	// level runs from the first's FromLevel to the last's ToLevel.
	SpellCosts [4]SpellCostStep
	// SpecialSpell: what a damaging, summoning or special spell takes more (D20-018).
	SpecialSpell int32
	// OtherCost: an action other than an attack or a spell, unless the GM says otherwise
	// (D20-022).
	OtherCost int32

	// Reach and Space in centimetres by size, indexed by the sheet's Size (D20-030).
	Reach, Space [10]int32

	// CriticalMargin: an attack whose total exceeds the CA by this much is a critical
	// (D20-042).
	CriticalMargin int32
	// MinCriticalMultiplier: a critical multiplies the damage by the weapon's multiplier, at
	// least this (D20-042).
	MinCriticalMultiplier int32
}

// AttackCostStep: from BBA FromBBA on, the round's first attack costs First segments and each
// of the others Then (D20-017).
type AttackCostStep struct{ FromBBA, First, Then int32 }

// SpellCostStep: a spell of level FromLevel to ToLevel takes Segments to cast (D20-018).
type SpellCostStep struct{ FromLevel, ToLevel, Segments int32 }

// numbersV1 are version 1's numbers, exactly.
func numbersV1() Numbers {
	return Numbers{
		FirstSegment: 0, LastSegment: 5, SurpriseSegments: 3,
		NoStealth: 15, ApprehensionScale: [3]int32{2, 5, 10}, DownAt: 0,
		Armour: [5]int32{d20segv1.Armour_ARMOUR_NONE: +1, d20segv1.Armour_ARMOUR_LIGHT: 0,
			d20segv1.Armour_ARMOUR_MEDIUM: -1, d20segv1.Armour_ARMOUR_HEAVY: -2},
		Shield: [4]int32{d20segv1.Shield_SHIELD_NONE: 0, d20segv1.Shield_SHIELD_SHIELD: -1, d20segv1.Shield_SHIELD_PAVISE: -2},
		Weapon: [6]int32{d20segv1.WeaponClass_WEAPON_CLASS_UNARMED: +1, d20segv1.WeaponClass_WEAPON_CLASS_LIGHT: 0,
			d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED: -1, d20segv1.WeaponClass_WEAPON_CLASS_TWO_HANDED: -2,
			d20segv1.WeaponClass_WEAPON_CLASS_RANGED: -1},
		MaxBBA:       40,
		AttackCosts:  [4]AttackCostStep{{0, 4, 4}, {6, 3, 3}, {11, 2, 2}, {16, 1, 2}},
		SpellCosts:   [4]SpellCostStep{{0, 0, 1}, {1, 3, 2}, {4, 6, 3}, {7, 9, 4}},
		SpecialSpell: 1, OtherCost: 1,
		Reach: [10]int32{d20segv1.Size_SIZE_P: 150, d20segv1.Size_SIZE_M: 150, d20segv1.Size_SIZE_G: 300,
			d20segv1.Size_SIZE_TG: 450, d20segv1.Size_SIZE_GIG: 600, d20segv1.Size_SIZE_COL: 900},
		// An unspecified size (refused on a sheet) took the room of a Medium one.
		Space: [10]int32{d20segv1.Size_SIZE_UNSPECIFIED: 150, d20segv1.Size_SIZE_I: 15, d20segv1.Size_SIZE_MIN: 30,
			d20segv1.Size_SIZE_TP: 75, d20segv1.Size_SIZE_P: 150, d20segv1.Size_SIZE_M: 150, d20segv1.Size_SIZE_G: 300,
			d20segv1.Size_SIZE_TG: 450, d20segv1.Size_SIZE_GIG: 600, d20segv1.Size_SIZE_COL: 900},
		CriticalMargin: 20, MinCriticalMultiplier: 2,
	}
}

// numbersV2 are version 2's: v1's, and a sheet must state its armour and its weapon class
// (D20-010, revised 2026-12-07). A refusal of a sheet v1 accepted is a change of what v1
// decides: a v1 encounter recorded with such a sheet must still pass `fray audit verify`, so
// the check is v2's, not v1's.
func numbersV2() Numbers {
	n := numbersV1()
	n.RequireEquipment = true
	return n
}

// Latest is the newest version of the d20 segment rules; a new encounter gets it.
const Latest = 2

// Released returns the d20 segment system at every released version, oldest first (engine.Released).
func Released() []engine.System { return engine.Released(Latest, New) }

// New returns the d20 segment system at a released version. Version 0 is not one: the
// registry maps it to the latest. A version never released is a programmer's error (callers
// outside tests go through Released and the registry).
func New(version uint32) System {
	switch version {
	case 1:
		return System{Release: engine.NewRelease(ID, fullName, 1), n: numbersV1()}
	case 2:
		return System{Release: engine.NewRelease(ID, fullName, 2), n: numbersV2()}
	}
	panic(fmt.Sprintf("d20seg: version %d was never released (versions 1 to %d)", version, Latest))
}

// Numbers are the numbers of this version.
func (s System) Numbers() Numbers { return s.n }
