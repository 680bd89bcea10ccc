package engine

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

// IdleActor is the actor of an end for idleness: the encounter service itself, ending an
// encounter that has recorded no event for its idle end time (or an operator's). A caller's
// principal is always "tenant/subject", so no token names it.
const IdleActor = "fray:idle"

// decideEnd decides an EndEncounter: by the GM, or, with idle set, by IdleActor only. Either
// way the end reveals the seed and takes no more commands. Whether the encounter has been
// idle that long is the service's to check (the rules have no clock): the log shows it, the
// time of the end against the time of the event before it.
func decideEnd(st *encounterv1.EncounterState, end *encounterv1.EndEncounter, env Env) ([]*encounterv1.Event, error) {
	idle := end.GetIdle()
	switch {
	case idle != nil && env.Actor != IdleActor:
		return nil, Forbidden("%s may not end %s for idleness: only the encounter service does, once it has recorded no event for its idle end time; the GM (%s) ends it with EndEncounter",
			orAnon(env.Actor), st.GetName(), st.GetGameMaster())
	case idle != nil && (idle.CheckValid() != nil || idle.AsDuration() <= 0):
		return nil, Invalid("", "an end for idleness gives how long the encounter was idle, more than zero")
	case idle == nil && RoleOf(st, env.Actor) != RoleGM:
		// A co-GM does not end: an end reveals the seed and takes no more commands, the one
		// decision a rewind cannot undo.
		return nil, Forbidden("%s; only the GM (%s) may end it, which no rewind undoes", who(st, env.Actor), st.GetGameMaster())
	}
	if len(env.Seed) != dice.SeedSize {
		return nil, Invalid("", "ending an encounter reveals its %d-byte seed; none was given", dice.SeedSize)
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{
		Reason: end.GetReason(), Seed: env.Seed, Idle: proto.CloneOf(idle),
	}}}}, nil
}
