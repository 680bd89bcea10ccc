package engine

import encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

// Worn is what the table sees of a track a hidden combatant has left of full (Redactor's
// Appearance): badly wounded from half of it lost, wounded with any lost, fighting with none.
// The rules give no such scale: the half is this engine's choice, the same in every system.
// Of two tracks, the worse shows: max(Worn(a, fa), Worn(b, fb)), the appearances running from
// fighting to out of the fight.
func Worn(left, full int32) encounterv1.Appearance {
	switch {
	case full > 0 && 2*left <= full:
		return encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED
	case left < full:
		return encounterv1.Appearance_APPEARANCE_WOUNDED
	}
	return encounterv1.Appearance_APPEARANCE_FIGHTING
}
