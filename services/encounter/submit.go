package encounter

import (
	"context"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/protobuf/proto"
)

// Submit gives the encounter any command: an action of a combatant, a GM's ruling, a
// combatant added (its controller of the caller's tenant). The command may leave its choices
// to choices (a legal action's command and the values chosen, as strings); with a language,
// the response narrates the command's events as the caller sees them.
func (s *Service) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	if req.GetCommand().GetKind() == nil {
		return nil, refusal.BadRequest("command", "no command given")
	}
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return nil, err
	}
	cmd := req.GetCommand()
	if len(req.GetChoices()) > 0 {
		if cmd, err = withChoices(cmd, req.GetChoices()); err != nil {
			return nil, err
		}
	}
	if add := cmd.GetAddCombatant(); add != nil {
		combatant, err := controllerOf(ctx, add.GetCombatant())
		if err != nil {
			return nil, err
		}
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: add.GetWatched()}}}
	}
	events, st, lines, err := s.runTold(ctx, req, req.GetCommandId(), req.ExpectedSequence, cmd, tell)
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: events, State: st, Narration: lines}, nil
}

// maxChoices bounds the choices of one command: no action has more than a handful.
const maxChoices = 32

// withChoices is a copy of cmd with choices filled in (engine.FillChoices); a choice that
// cannot be is InvalidArgument with a BadRequest naming it ("choices[effects]").
func withChoices(cmd *encounterv1.Command, choices map[string]string) (*encounterv1.Command, error) {
	if len(choices) > maxChoices {
		return nil, refusal.BadRequest("choices", "%d choices given; a command has at most %d", len(choices), maxChoices)
	}
	cmd = proto.CloneOf(cmd)
	if err := engine.FillChoices(cmd, choices); err != nil {
		var ce *engine.ChoiceError
		if errors.As(err, &ce) {
			return nil, refusal.BadRequest("choices["+ce.Choice+"]", "%s", err)
		}
		return nil, refusal.BadRequest("choices", "%v", err)
	}
	return cmd, nil
}
