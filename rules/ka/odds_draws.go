package ka

// The odds of the draws that are not attacks: a Terror draw (KA-034) and a disarm (KA-032),
// over the cards the reader has not seen, with the numbers the real Decide reads.

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
)

// drawScore is a DrawResult's total less the cards: sphere + skill + modifiers (KA-004).
func drawScore(total, cards int32) int32 { return total - cards }

// terrorOdds is the odds of the Terror draw cmd calls for on st (KA-034): a failure below
// SimpleThreshold, and Abysse below it and below Animalité × TerrorFactor.
func (rules System) terrorOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	evs, _, err := odds.Decide(reg, st, cmd, actor, &odds.Probe{First: 1, Rest: 1})
	if err != nil {
		return nil, err
	}
	td := evs[0].GetKa().GetTerrorDrawn()
	who := engine.FindCombatant(st, td.GetCombatantId())
	o := &oddsv1.Odds{Summary: fmt.Sprintf("a Terror draw of %s", who.GetName()),
		Assumptions: []string{"the cards come from those you have not seen: the deck less the discard you see (KA-003)"}}
	s := &oddsv1.OddsSection{Key: "terror", Title: "the Terror draw (KA-034)"}
	if who.GetKa() == nil {
		s.Unavailable = odds.HiddenTarget
		o.Sections = append(o.Sections, s)
		return o, nil
	}
	score := drawScore(td.GetDraw().GetTotal(), td.GetDraw().GetDraw().GetValue())
	limit := who.GetKa().GetSpheres()[Animalite] * rules.n.TerrorFactor
	var fail, abysse float64
	for _, x := range PoolOf(rules, st.GetKa(), st.GetOptions().GetKa()).Draws() {
		total := score + x.value
		if total < rules.n.SimpleThreshold {
			fail += x.p
			if total < limit {
				abysse += x.p
			}
		}
	}
	s.Chances = append(s.Chances,
		odds.Chance("fail", fmt.Sprintf("the draw fails: below %d", rules.n.SimpleThreshold), "KA-005", fail),
		odds.Chance("abysse", fmt.Sprintf("Abysse: below %d and below Animalité × %d = %d", rules.n.SimpleThreshold, rules.n.TerrorFactor, limit), "KA-034", abysse))
	o.Sections = append(o.Sections, s)
	return o, nil
}

// disarmOdds is the odds of the disarm cmd gives on st (KA-032): the disarmer's draw against
// the target's resistance, drawn after it from the cards left; strictly higher, and at least
// SimpleThreshold, disarms.
func (rules System) disarmOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	evs, _, err := odds.Decide(reg, st, cmd, actor, &odds.Probe{First: 1, Rest: 1})
	if err != nil {
		return nil, err
	}
	dd := evs[0].GetKa().GetDisarmDrawn()
	target := engine.FindCombatant(st, dd.GetTargetId())
	o := &oddsv1.Odds{Summary: fmt.Sprintf("disarming %s of %s", target.GetName(), dd.GetWeapon()),
		Assumptions: []string{"the cards come from those you have not seen: the deck less the discard you see (KA-003)"}}
	s := &oddsv1.OddsSection{Key: "disarm", Title: "the disarm: an opposed draw (KA-032)"}
	if target.GetKa() == nil {
		s.Unavailable = odds.HiddenTarget
		o.Sections = append(o.Sections, s)
		return o, nil
	}
	a := drawScore(dd.GetDraw().GetTotal(), dd.GetDraw().GetDraw().GetValue())
	b := drawScore(dd.GetResistance().GetTotal(), dd.GetResistance().GetDraw().GetValue())
	var win float64
	for _, x := range PoolOf(rules, st.GetKa(), st.GetOptions().GetKa()).Draws() {
		if a+x.value < rules.n.SimpleThreshold {
			continue
		}
		for _, y := range x.pool.Draws() {
			if a+x.value > b+y.value {
				win += x.p * y.p
			}
		}
	}
	s.Chances = append(s.Chances, odds.Chance("disarm", fmt.Sprintf("%s loses its %s", target.GetName(), dd.GetWeapon()), "KA-032", win))
	o.Sections = append(o.Sections, s)
	return o, nil
}
