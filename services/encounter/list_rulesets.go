package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// ListRulesets lists the rule systems this service folds encounters of, each with its
// versions and its latest version's descriptor: what a client offers for a new encounter and
// which actions it asks odds of, without a copy of either.
func (s *Service) ListRulesets(context.Context, *encounterv1.ListRulesetsRequest) (*encounterv1.ListRulesetsResponse, error) {
	out := &encounterv1.ListRulesetsResponse{}
	for _, d := range s.reg.Rulesets() {
		out.Rulesets = append(out.Rulesets, &encounterv1.Ruleset{Latest: d, Versions: s.reg.Versions(d.GetId())})
	}
	return out, nil
}
