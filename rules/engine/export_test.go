package engine

// ChangeCombatant is changeCombatant, for the external tests.
var ChangeCombatant = changeCombatant

// ShareCombatant is shareCombatant, for the external tests.
var ShareCombatant = shareCombatant
