package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// The house rules of an encounter: the per-encounter options that replace a [default] rule of
// the catalogue with another reading. An unset option (an encounter recorded before it
// existed) reads as the catalogue's choice.

// Values of the string options.
const (
	RoundDown    = "down"    // FEE-003, FEE-171
	RoundUp      = "up"      // FEE-003, FEE-171
	RoundNearest = "nearest" // FEE-171 (halves up), FEE-185

	StunLoss       = "loss"        // FEE-153
	StunBeforeSoak = "before_soak" // FEE-153
	StunDamage     = "damage"      // FEE-153

	BeforeSoakMarginAndDamage = "margin_and_damage" // FEE-176
	BeforeSoakDamage          = "damage"            // FEE-176

	StunAdd = "add" // FEE-179
	StunMax = "max" // FEE-179

	ExposedHarder = "harder" // FEE-185
	ExposedEasier = "easier" // FEE-185
)

// stringOption is one string option: its rule, its allowed values (the default first), and
// where it sits in Options.
type stringOption struct {
	rule   string
	name   string
	values []string
	field  func(*feeriev1.Options) **string
}

var stringOptions = []stringOption{
	{"FEE-003", "half_margin_rounding", []string{RoundDown, RoundUp}, func(o *feeriev1.Options) **string { return &o.HalfMarginRounding }},
	{"FEE-153", "stun_malus", []string{StunLoss, StunBeforeSoak, StunDamage}, func(o *feeriev1.Options) **string { return &o.StunMalus }},
	{"FEE-171", "division_rounding", []string{RoundDown, RoundUp, RoundNearest}, func(o *feeriev1.Options) **string { return &o.DivisionRounding }},
	{"FEE-176", "damage_before_soak", []string{BeforeSoakMarginAndDamage, BeforeSoakDamage}, func(o *feeriev1.Options) **string { return &o.DamageBeforeSoak }},
	{"FEE-179", "stun_stacking", []string{StunAdd, StunMax}, func(o *feeriev1.Options) **string { return &o.StunStacking }},
	{"FEE-185", "exposed_rounding", []string{RoundNearest, ExposedHarder, ExposedEasier}, func(o *feeriev1.Options) **string { return &o.ExposedRounding }},
}

// boolDefaults are the defaults of the bool options.
func boolDefaults(o *feeriev1.Options) []struct {
	field **bool
	value bool
} {
	return []struct {
		field **bool
		value bool
	}{
		{&o.TieSucceeds, true},
		{&o.CombineRangedDifficulty, false},
		{&o.LightingOnDefense, false},
		{&o.HelplessImmobileAtRange, false},
		{&o.AnglesWholeFight, false},
		{&o.RelentlessEndsWithAction, false},
		{&o.ActivityMalusOnDefense, false},
		{&o.ActivityMalusOnInitiative, false},
		{&o.GuardMalusAllAttacks, false},
		{&o.StrikesAtRoll, false},
		{&o.TargetChangeIsChange, false},
		{&o.DisarmKeepsWeaponBonus, false},
		{&o.RiderPaceMalus, false},
		{&o.DissimulationOpposedRoll, false},
	}
}

// fillHouseRules validates the house rules and records their defaults.
func fillHouseRules(o *feeriev1.Options) error {
	for _, so := range stringOptions {
		f := so.field(o)
		if *f == nil || **f == "" {
			*f = proto.String(so.values[0])
		}
		if !slices.Contains(so.values, **f) {
			return engine.Invalid(so.rule, "the option %s is one of %q, not %q", so.name, so.values, **f)
		}
	}
	for _, b := range boolDefaults(o) {
		if *b.field == nil {
			*b.field = proto.Bool(b.value)
		}
	}
	return nil
}

// house is an encounter's house rules.
func house(st *encounterv1.EncounterState) *feeriev1.Options {
	if o := options(st); o != nil {
		return o
	}
	return &feeriev1.Options{}
}

// tieSucceeds: a roll equal to its opposition succeeds (FEE-002).
func tieSucceeds(o *feeriev1.Options) bool { return o.TieSucceeds == nil || o.GetTieSucceeds() }

// succeeds: a margin is a success (FEE-002).
func succeeds(o *feeriev1.Options, margin int32) bool {
	if tieSucceeds(o) {
		return margin >= 0
	}
	return margin > 0
}

// divide divides a by b > 0, rounding its magnitude down (as Go does, toward zero), up or to
// the nearest (halves up).
func divide(a, b int32, rounding string) int32 {
	if a < 0 {
		return -divide(-a, b, rounding)
	}
	switch rounding {
	case RoundUp:
		return (a + b - 1) / b
	case RoundNearest:
		return (2*a + b) / (2 * b)
	}
	return a / b
}

// halfMargin is half a margin, rounded as FEE-003's option says.
func halfMargin(o *feeriev1.Options, margin int32) int32 {
	return divide(margin, 2, o.GetHalfMarginRounding())
}

// div is one of FEE-171's divisions, rounded as its option says.
func div(o *feeriev1.Options, a, b int32) int32 {
	return divide(a, b, o.GetDivisionRounding())
}
