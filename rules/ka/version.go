package ka

import (
	"fmt"
	"slices"

	"github.com/fray-rpg/fray/rules/engine"
)

// Numbers are the numbers of one version of the rules, and the switches of its behaviour.
// Every rule that states a number reads it from here, through the System of the version an
// encounter pinned: a version is a value, never a copied package.
type Numbers struct {
	FaceValue       int32 // KA-002: a face card (valet, cavalier, dame, roi) counts 10, and another card is drawn
	SimpleThreshold int32 // KA-005, KA-007: a draw succeeds from 10; the winner of an opposed draw needs it too
	// SuccessLevels and SuccessBonus are the defaults of the options success_levels and
	// success_bonus (KA-006): the margins where the great and exceptional successes start, and
	// the damage bonus of a normal, great and exceptional success.
	SuccessLevels []int32 // KA-006
	SuccessBonus  []int32 // KA-006
	ActionMalus   int32   // KA-011: −1 on a draw per action already taken this round
	// KaTable is the default of the option ka_table (KA-024): upper bounds of the damage after
	// soak, one per Ka die lost.
	KaTable         []int32 // KA-024
	SeuilFactor     int32   // KA-026: the seuil d'encaissement is (lowest sphere + encaissement) × 3
	StunKaLoss      int32   // KA-031: the Ka dice a stun takes with the last point de réalité
	BurstPerBullet  int32   // KA-033: each of several targets hit takes one bullet, +6 damage
	BurstSingle     int32   // KA-033: the whole burst on one target, +12 damage
	MaxBurstTargets int32   // KA-033: a burst reaches up to 5 targets
	BurstMalus      int32   // KA-033: −1 on the draw per target of a burst (−1 for a single one)
	TerrorFactor    int32   // KA-034: below 10 and below Animalité × 3, Abysse

	// ExcuseOnlyLostAtOnce (KA-014, v2): a combatant that keeps its action in a pass, being
	// put out or disarmed at the same time as its own action, may use for that action only the
	// weapons it lost at that same moment (to attack, attack back, or disarm with a weapon's
	// skill), never one lost in an earlier pass. Version 1 excused the whole combatant: it could
	// shoot a weapon lost in an earlier pass, yet not disarm with the skill of the weapon it was
	// losing at that very moment.
	ExcuseOnlyLostAtOnce bool
	// EndedWaitsOnNoOne (KA-020, KA-014, v2): an ended encounter waits on no one: the attack
	// declared and unanswered when it ended falls, and no one is up next. Version 1's Evolve
	// brought the reaction back as pending after EncounterEnded.
	EndedWaitsOnNoOne bool
}

// numbersV1 are the numbers of version 1, exactly as released.
func numbersV1() Numbers {
	return Numbers{
		FaceValue:       10,
		SimpleThreshold: 10,
		SuccessLevels:   []int32{10, 20},
		SuccessBonus:    []int32{1, 5, 10},
		ActionMalus:     1,
		KaTable:         []int32{5, 10, 15, 20},
		SeuilFactor:     3,
		StunKaLoss:      1,
		BurstPerBullet:  6,
		BurstSingle:     12,
		MaxBurstTargets: 5,
		BurstMalus:      1,
		TerrorFactor:    3,
	}
}

// numbersV2 are version 1's numbers with the fixes of version 2 (issue 26).
func numbersV2() Numbers {
	n := numbersV1()
	n.ExcuseOnlyLostAtOnce = true
	n.EndedWaitsOnNoOne = true
	return n
}

// numbersOf are the numbers of a released version; false for a version never released.
func numbersOf(version uint32) (Numbers, bool) {
	switch version {
	case 1:
		return numbersV1(), true
	case 2:
		return numbersV2(), true
	}
	return Numbers{}, false
}

// Latest is the newest released version: new encounters get it.
const Latest = 2

// Released returns Ka at every released version, oldest first (engine.Released).
func Released() []engine.System { return engine.Released(Latest, New) }

// New returns the rules of a released version. A version never released is a programmer's
// error (callers outside tests take Released()); 0 is not a version here (the registry reads
// 0 as the latest).
func New(version uint32) System {
	n, ok := numbersOf(version)
	if !ok {
		panic(fmt.Sprintf("ka.New(%d): Ka has released versions 1 to %d", version, Latest))
	}
	return System{Release: engine.NewRelease(ID, fullName, version), n: n}
}

// Numbers are this version's numbers, a copy.
func (s System) Numbers() Numbers { return s.n.clone() }

func (n Numbers) clone() Numbers {
	n.SuccessLevels = slices.Clone(n.SuccessLevels)
	n.SuccessBonus = slices.Clone(n.SuccessBonus)
	n.KaTable = slices.Clone(n.KaTable)
	return n
}
