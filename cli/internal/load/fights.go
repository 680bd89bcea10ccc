package load

import (
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
)

// Systems are the rule systems a load plays, in the order encounters are dealt to them: those
// of the registry (systems.IDs) that have a fight here, each added from its own file
// (fights_<system>.go), so that a new one is a file and no list.
func Systems() []string {
	var out []string
	for _, id := range systems.IDs() {
		if _, ok := scripts[id]; ok {
			out = append(out, id)
		}
	}
	return out
}

// withoutFight are the systems of the registry that have no fight here, which a load cannot
// play: they are said, not silently left out.
func withoutFight() []string {
	var out []string
	for _, id := range systems.IDs() {
		if _, ok := scripts[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// The subjects of the load's two identities, of one tenant.
const (
	GMSubject     = "load-gm"
	PlayerSubject = "load-player"
)

// Who sends a command: the GM (the encounter's creator) or the player, a second subject of the
// same tenant that controls the heroes and so answers the attacks on them.
type who int

const (
	gm who = iota
	player
)

// script is one rule system's fight: its combatants (given the player's subject) and, from the state the last command returned, the next
// command and who sends it; ok false when nobody can act any more (the fight is over).
type script struct {
	combatants func(playerSubject string) []*encounterv1.Combatant
	next       func(reg *engine.Registry, st *encounterv1.EncounterState) (cmd *encounterv1.Command, by who, ok bool)
}

// scripts are the fights, by rule system, each added by its file's init (fight).
var scripts = map[string]script{}

// fight adds the fight of the rule system id.
func fight(id string, s script) { scripts[id] = s }

var registry = systems.Registry()

// controllerOf is who sends the commands of combatant id.
func controllerOf(st *encounterv1.EncounterState, id string) who {
	for _, c := range st.GetCombatants() {
		if c.GetId() == id && (c.GetController() == PlayerSubject || strings.HasSuffix(c.GetController(), "/"+PlayerSubject)) {
			return player
		}
	}
	return gm
}

// firstLegal walks the combatants in order and returns the first one with something legal to
// do, and what.
func firstLegal(reg *engine.Registry, st *encounterv1.EncounterState, ids []string) (string, []string, *encounterv1.EncounterState) {
	for _, id := range ids {
		legal, err := reg.Legal(st, id)
		if err != nil || len(legal) == 0 {
			continue
		}
		names := make([]string, len(legal))
		for i, l := range legal {
			names[i] = l.GetName()
		}
		return id, names, st
	}
	return "", nil, st
}

func legalOf(reg *engine.Registry, st *encounterv1.EncounterState, id, name string) (targets []string, weapon string) {
	legal, _ := reg.Legal(st, id)
	for _, l := range legal {
		if l.GetName() == name {
			return l.GetTargets(), l.GetWeapon()
		}
	}
	return nil, ""
}
