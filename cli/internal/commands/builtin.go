package commands

// The client subcommands, in the order the usage lists them. `fray dev` registers itself from
// elsewhere (see cmd/fray/main.go).
func init() {
	Register("replay", "print an encounter's log in plain language, and its state as of an event (reads NATS)", runReplay)
	Register("audit", "verify an ended encounter's log, or tail every event (reads NATS)", runAudit)
	Register("export", "write an encounter's log as JSON lines (reads NATS)", runExport)
	Register("import", "load an exported log into NATS", runImport)
	Register("rewind", "return an encounter to an earlier event (GM)", runRewind)
	Register("create", "create an encounter and print its id", runCreate)
	Register("add", "add combatants from sheet files (YAML or JSON)", runAdd)
	Register("start", "start the fight", runStart)
	Register("attack", "attack with a weapon (Les Chants de Loss)", runAttack)
	Register("react", "answer an attack: parry, dodge or none", runReact)
	Register("pass", "end a combatant's actions for this Tour", runPass)
	Register("declare", "declare a combatant's intention for its first action (LOS-038)", runDeclare)
	Register("wait", "wait and act at a lower phase (LOS-040)", runWait)
	Register("aim", "aim with a ranged weapon (LOS-035, LOS-084)", runAim)
	Register("act", "speak, use a social Talent, pick up, move, stand up, recover a weapon", runAct)
	Register("dying", "save or finish off a dying combatant (LOS-023)", runDying)
	Register("pursuit", "start a pursuit (GM, LOS-100)", runPursuit)
	Register("chase", "make a pursuit action: charge, closer, farther, zigzags... (LOS-102…LOS-107)", runChase)
	Register("grant", "grant free raises to a combatant (GM, LOS-004)", runGrant)
	Register("disaster", "turn a failed Exploit into a Disaster (GM, LOS-006)", runDisaster)
	Register("submit", "submit any command given in protojson", runSubmit)
	Register("end", "end an encounter and print its revealed dice seed", runEnd)
	Register("state", "show an encounter's state", runState)
	Register("watch", "follow an encounter's events live", runWatch)
	Register("log", "print every event of an encounter so far", runLog)
	Register("list", "list the encounters", runList)
	Register("rulesets", "list the rule systems", runRulesets)
	Register("roll", "roll dice notation (3d10+4, 1d10!)", runRoll)
}
