package engine

// Fork and ChangeCombatant are fork and changeCombatant, for the external tests.
var (
	Fork            = fork
	ChangeCombatant = changeCombatant
)
