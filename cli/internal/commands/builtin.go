package commands

// The client subcommands, in the order the usage lists them. `fray dev` registers itself from
// elsewhere (see cmd/fray/main.go).
func init() {
	Register("create", "create an encounter and print its id", runCreate)
	Register("add", "add combatants from sheet files (YAML or JSON)", runAdd)
	Register("start", "start the fight", runStart)
	Register("attack", "attack with a weapon (Les Chants de Loss)", runAttack)
	Register("react", "answer an attack: parry, dodge or none", runReact)
	Register("pass", "end a combatant's actions for this Tour", runPass)
	Register("submit", "submit any command given in protojson", runSubmit)
	Register("end", "end an encounter and print its revealed dice seed", runEnd)
	Register("state", "show an encounter's state", runState)
	Register("watch", "follow an encounter's events live", runWatch)
	Register("log", "print every event of an encounter so far", runLog)
	Register("list", "list the encounters", runList)
	Register("rulesets", "list the rule systems", runRulesets)
	Register("roll", "roll dice notation (3d10+4, 1d10!)", runRoll)
}
