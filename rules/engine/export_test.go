package engine

// ChangeCombatant is changeCombatant, for the external tests.
var ChangeCombatant = changeCombatant
