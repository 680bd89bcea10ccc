package faults

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
)

// registry decides the refused commands again, as a service reading the stream's leader
// would have.
var registry = systems.Registry()

// commandOf is the command a refused request asked for, as the service builds it; nil for a
// request the replay does not judge (an AddCombatant, whose controller the service rewrites).
func commandOf(req any) *encounterv1.Command {
	switch r := req.(type) {
	case *encounterv1.SubmitRequest:
		if r.GetCommand().GetAddCombatant() != nil {
			return nil
		}
		return r.GetCommand()
	case *encounterv1.StartEncounterRequest:
		return &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
	case *encounterv1.EndEncounterRequest:
		return &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: r.GetReason()}}}
	}
	return nil
}

// decideOnLog decides cmd, given by subject, on the state of the encounter's first k records
// of the log — what a read of the stream's leader held when the command was sent — with the
// encounter's dice (its seed revealed at its end). It returns nil when the rules accept it
// there, the rules' refusal otherwise, or judged false when it cannot be decided again (no
// seed revealed, a state that does not fold).
func decideOnLog(recs []Record, k int, cmd *encounterv1.Command, subject string) (refusal error, judged bool) {
	if cmd == nil || k <= 0 || k > len(recs) {
		return nil, false
	}
	var all, before []*encounterv1.Event
	for i, r := range recs {
		all = append(all, r.Batch.GetEvents()...)
		if i < k {
			before = append(before, r.Batch.GetEvents()...)
		}
	}
	created := all[0].GetEncounterCreated()
	var seed []byte
	for _, ev := range all {
		if e := ev.GetEncounterEnded(); e != nil {
			seed = e.GetSeed()
		}
	}
	if created == nil || seed == nil {
		return nil, false
	}
	st, err := registry.Fold(before)
	if err != nil {
		return nil, false
	}
	scheme := dice.SchemeOf(created.GetDiceScheme())
	stream, err := dice.NewStreamScheme(scheme, seed, st.GetDiceOffset())
	if err != nil {
		return nil, false
	}
	actor := created.GetTenant() + "/" + subject
	env := engine.Env{Actor: actor, Tenant: created.GetTenant(), Seed: seed, DiceScheme: scheme, Dice: stream}
	_, err = registry.Decide(st, cmd, env)
	return err, true
}
