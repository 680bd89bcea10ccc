package feerie

import (
	"fmt"

	"github.com/fray-rpg/fray/rules/engine"
)

// Numbers are the numbers of one version of the rules, and the switches of its behaviour: a
// version of Contes de Fées is a value, never a copied package. Every rule that states a
// number reads it here, through the System that carries it.
type Numbers struct {
	RangedDamageMalus  int32 // FEE-014: a ranged attack's Damage, −4
	SupplementaryRanks int32 // FEE-060: a further activity comes 8 ranks after the previous one
	SupplementaryMalus int32 // FEE-061, FEE-062: −4 per further activity, on the roll, the Defense and the next Action
	ChangeMalus        int32 // FEE-070, FEE-073: a change of intention (changement d'intention), −4
	SurpriseInitiative int32 // FEE-080: a surprised character's Initiative, −8
	SurpriseDefense    int32 // FEE-080: and its Defense, −4
	GroundAngles       int32 // FEE-090: the attack angles on the ground (front, back, left, right)
	MaxAngles          int32 // FEE-090: and at most, with above and below
	AngleMalus         int32 // FEE-091: Defense −2 per occupied angle beyond the first
	MinTaille          int32 // FEE-092: the least Taille of the surface table
	MaxTaille          int32 // FEE-092: and the greatest
	MaxAim             int32 // FEE-132: aiming gives +1 per rank waited, at most +8
	TripMalus          int32 // FEE-151: one tripped (à terre) takes −4 to its activities
	GuardMalus         int32 // FEE-154, FEE-159: Keep at bay (tenir à distance), Enter the guard: −8 Attack
	RelentlessDefense  int32 // FEE-156: a Relentless (acharnement) striker's Defense, −8

	// IntimidationSpendsAll: FEE-181 (v2): an intimidation, targeted or not, spends every
	// frightening-blow bonus (« pour sa prochaine activité d'intimidation »); v1 spends only
	// the targeted witness's.
	IntimidationSpendsAll bool
	// CrippleNeedsARank: FEE-155 (v2): a Cripple whose duration (the Damage before Soak) is
	// below 1 rank records no condition; v1 records it (« crippled for −2 ranks »).
	CrippleNeedsARank bool
	// SweepShare: FEE-094 (v2): a swept defender counts only its share of the sweeper's
	// surface toward its angle malus (« chaque adversaire de Taille inférieure ne monopolisera
	// qu'une partie de l'Attaque »); v1 counts the sweeper's whole surface against each.
	SweepShare bool
}

// numbersV1 are the numbers of version 1, as released.
func numbersV1() Numbers {
	return Numbers{
		RangedDamageMalus:  4,
		SupplementaryRanks: 8,
		SupplementaryMalus: 4,
		ChangeMalus:        4,
		SurpriseInitiative: 8,
		SurpriseDefense:    4,
		GroundAngles:       4,
		MaxAngles:          6,
		AngleMalus:         2,
		MinTaille:          -5,
		MaxTaille:          5,
		MaxAim:             8,
		TripMalus:          4,
		GuardMalus:         8,
		RelentlessDefense:  8,
	}
}

// numbersV2 are version 1's, with the fixes of the third reading of the seed (issue 26).
func numbersV2() Numbers {
	n := numbersV1()
	n.IntimidationSpendsAll = true // FEE-181
	n.CrippleNeedsARank = true     // FEE-155
	n.SweepShare = true            // FEE-094, FEE-175
	return n
}

// Latest is the newest version of Contes de Fées; a new encounter gets it.
const Latest = 2

// numbersOf are the numbers of each released version, oldest first.
var numbersOf = []func() Numbers{1: numbersV1, 2: numbersV2}

// Released returns Contes de Fées at every released version, oldest first (engine.Released).
func Released() []engine.System { return engine.Released(Latest, New) }

// New returns version of Contes de Fées. A version never released is a programmer's error:
// callers outside tests take Released().
func New(version uint32) System {
	if version < 1 || int(version) >= len(numbersOf) {
		panic(fmt.Sprintf("Contes de Fées has no version %d (released: 1 to %d)", version, Latest))
	}
	return System{Release: engine.NewRelease(ID, fullName, version), n: numbersOf[version]()}
}
