package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/refusal"
)

// Submit gives the encounter any command: an action of a combatant, a GM's ruling, a
// combatant added (its controller of the caller's tenant).
func (s *Service) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	if req.GetCommand().GetKind() == nil {
		return nil, refusal.BadRequest("command", "no command given")
	}
	cmd := req.GetCommand()
	if add := cmd.GetAddCombatant(); add != nil {
		combatant, err := controllerOf(ctx, add.GetCombatant())
		if err != nil {
			return nil, err
		}
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: add.GetWatched()}}}
	}
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence, cmd)
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: events, State: st}, nil
}
