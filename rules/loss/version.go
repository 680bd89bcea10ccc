package loss

import (
	"fmt"

	"github.com/fray-rpg/fray/rules/engine"
)

// Numbers are the numbers of one version of the rules: every cost, cap, Difficulty and bonus
// Decide, Evolve, Legal, Describe and the odds read. A fix that changes one is a new version
// (numbersV2 and after); a released version's numbers never change.
type Numbers struct {
	BaseDifficulty    int32 // LOS-010: the Difficulty of an action Test (Seuil de réussite)
	ExploitStep       int32 // LOS-010, LOS-112: what each Exploit adds to the Difficulty
	MaxExploits       int32 // LOS-010, LOS-012: Exploits declared on one Test
	SpendBonus        int32 // LOS-004: each Fursa, Inspiration or free raise (Augmentation Gratuite) spent
	PartialDefenceMin int32 // LOS-014: the defence total from which a failed defence cancels Exploits
	DefenceCost       int32 // LOS-035, LOS-036: a parry or a dodge
	BareCost          int32 // LOS-035: natural and unarmed attacks
	ManoeuvreCost     int32 // LOS-035: grab, bear-hug, trip (agripper, ceinturer, faire chuter)
	AssautCost        int32 // LOS-035, LOS-061
	StandUpCost       int32 // LOS-035, LOS-072: stand up or regain one's balance
	PickUpCost        int32 // LOS-035: pick up an object (a weapon after a Disarm, LOS-074)
	MoveCost          int32 // LOS-035: move at least 3 m
	MinWaitedCost     int32 // LOS-040: a wait never lowers a cost below it
	QuickReloadCut    int32 // LOS-090: Quick reload (Rechargement rapide)
	QuickReloadMin    int32 // LOS-090
	ToursPerSequence  int32 // LOS-034
	GravePenalty      int32 // LOS-022: Difficulty in the grave band
	FatalPenalty      int32 // LOS-022: Difficulty in the fatal band
	MaxAim            int32 // LOS-035: aiming with PA, +1 per PA
	AimTourBonus      int32 // LOS-084: aiming for a whole Tour
	AimTourVisee      int32 // LOS-090: aiming for a Tour with the Visée specialisation
	AimLongBonus      int32 // LOS-084: aiming for a Séquence or out of combat
	FeintBonus        int32 // LOS-064
	ProtectBonus      int32 // LOS-068
	MaxAdvantage      int32 // LOS-067: Take the advantage, PA per Tour
	JoinWatchBonus    int32 // LOS-039: a newcomer who watched the last Tour
	PointBlankBonus   int32 // LOS-084
	SpecBonus         int32 // LOS-004: a specialisation's +2
	DefenceBonus      int32 // LOS-016 [default]: a successful defensive Exploit's bonus (option default)
	MaxMeleeAttackers int32 // LOS-051

	// Pursuit (LOS-100…LOS-107).
	MaxDistance           int32 // LOS-100: beyond, the pursuit ends
	PursuitActionCost     int32 // LOS-103…LOS-107
	ChargeCost            int32 // LOS-102
	ChargeDifficulty      int32 // LOS-102
	ChargeDodgeDifficulty int32 // LOS-102: the dodge against a Charge, flat
	AthleticsDiff         int32 // LOS-103, LOS-105
	KeepPaceDifficulty    int32 // LOS-106, LOS-107
	LegsShotDifficulty    int32 // LOS-106
	LegsShotMaxRange      int32 // LOS-106

	// What a version does differently, each a switch named for what it does (version 2: the
	// fixes of issue 26).
	CounterBlowOwesNothing bool // LOS-110 (v2): a counter blow or a defender's Exploit hits one who has just acted: it is owed nothing
	PursuitDownOwes        bool // LOS-110 (v2): a pursuit knock-down at a phase the target shares with the pursuer leaves it its action there
	TripFells              bool // LOS-035 (v2): a successful trip (« faire chuter ») makes the target fall, as Overthrow does
	WaitForfeitsBonus      bool // LOS-016 (v2): a wait forfeits a defensive Exploit's bonus (« Action suivante Immédiate »)
	ChargeTakesNoExploits  bool // LOS-102 (v2): Exploits declared on a Charge are refused: its dodge is a flat Difficulty
	AimNeedsUsableWeapon   bool // LOS-090, LOS-074 (v2): no aiming with a heavy weapon mounted, nor while disarmed
	CounterOfCounter       bool // LOS-062 (v2): a counter-attack may itself be countered, once per opponent per Tour
	MeleeAttackersAtOnce   bool // LOS-051 (v2): the cap counts those attacking now (« à la fois »): one felled or removed frees its place
}

// numbersV1 are the numbers of version 1, as released.
func numbersV1() Numbers {
	return Numbers{
		BaseDifficulty: 15, ExploitStep: 5, MaxExploits: 5, SpendBonus: 5, PartialDefenceMin: 20,
		DefenceCost: 1, BareCost: 2, ManoeuvreCost: 3, AssautCost: 4, StandUpCost: 4, PickUpCost: 2,
		MoveCost: 2, MinWaitedCost: 2, QuickReloadCut: 2, QuickReloadMin: 2, ToursPerSequence: 10,
		GravePenalty: 5, FatalPenalty: 10, MaxAim: 5, AimTourBonus: 10, AimTourVisee: 15,
		AimLongBonus: 15, FeintBonus: 2, ProtectBonus: 5, MaxAdvantage: 5, JoinWatchBonus: 2,
		PointBlankBonus: 5, SpecBonus: 2, DefenceBonus: 5, MaxMeleeAttackers: 5,

		MaxDistance: 6, PursuitActionCost: 2, ChargeCost: 3, ChargeDifficulty: 20, ChargeDodgeDifficulty: 20,
		AthleticsDiff: 15, KeepPaceDifficulty: 15, LegsShotDifficulty: 20, LegsShotMaxRange: 3,
	}
}

// numbersV2 are version 2's: version 1's numbers with the fixes of issue 26.
func numbersV2() Numbers {
	n := numbersV1()
	n.CounterBlowOwesNothing, n.PursuitDownOwes = true, true
	n.TripFells = true
	n.WaitForfeitsBonus = true
	n.ChargeTakesNoExploits = true
	n.AimNeedsUsableWeapon = true
	n.CounterOfCounter = true
	n.MeleeAttackersAtOnce = true
	return n
}

// Latest is the newest released version: a new encounter gets it.
const Latest = 2

// numbersOf are the numbers of each released version, by version.
var numbersOf = map[uint32]func() Numbers{1: numbersV1, 2: numbersV2}

// Released returns Les Chants de Loss at every released version, oldest first (engine.Released).
func Released() []engine.System { return engine.Released(Latest, New) }

// New returns Les Chants de Loss at a released version. A version never released is a
// programmer's error (callers outside tests take Released()): it panics.
func New(version uint32) System {
	numbers, ok := numbersOf[version]
	if !ok || version > Latest {
		panic(fmt.Sprintf("loss: version %d of Les Chants de Loss was never released (1 to %d are)", version, Latest))
	}
	return System{Release: engine.NewRelease(ID, fullName, version), Numbers: numbers()}
}

// ExploitsDifficulty is what exploits Exploits add to a Test's Difficulty (LOS-010, LOS-112).
func (n Numbers) ExploitsDifficulty(exploits int32) int32 { return n.ExploitStep * exploits }

// PartialDefence is the number of Exploits a failed defence of the given total cancels, of the
// attack's exploits: one from PartialDefenceMin, one more every ExploitStep (LOS-014).
func (n Numbers) PartialDefence(total, exploits int32) int32 {
	if total < n.PartialDefenceMin {
		return 0
	}
	return min(exploits, (total-n.PartialDefenceMin)/n.ExploitStep+1)
}
