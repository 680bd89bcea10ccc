package d20seg

import (
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// ApprehensionModifier of a situation (D20-001, D20-002); impaired is the light malus, which
// the GM may raise up to the medium one (Apprehension.impaired_malus).
func ApprehensionModifier(o *d20segv1.Options, s d20segv1.Situation) int32 {
	light, medium, high := o.GetApprehensionScale()[0], o.GetApprehensionScale()[1], o.GetApprehensionScale()[2]
	switch s {
	case d20segv1.Situation_SITUATION_OPEN_VIEW:
		return medium
	case d20segv1.Situation_SITUATION_CLUTTERED_VIEW, d20segv1.Situation_SITUATION_NIGHT, d20segv1.Situation_SITUATION_BUSY,
		d20segv1.Situation_SITUATION_HUBBUB, d20segv1.Situation_SITUATION_IMPAIRED:
		return -light
	case d20segv1.Situation_SITUATION_DESERTED:
		return high
	case d20segv1.Situation_SITUATION_VERY_BUSY, d20segv1.Situation_SITUATION_UNCONVENTIONAL_ATTACK:
		return -medium
	case d20segv1.Situation_SITUATION_VIGILANT:
		return light
	}
	return 0
}

// decideSurprise: the GM declares a surprise attack once, before anyone acts (D20-000,
// D20-004): its attackers, and its defenders, each with the situation of its apprehension roll
// (D20-001, D20-002); the others are bystanders (D20-003). Each defender rolls against the
// stealthiest attacker (apprehension).
func (sys System) decideSurprise(st *encounterv1.EncounterState, sp *d20segv1.Surprise, roller dice.Roller) ([]*encounterv1.Event, error) {
	s := segState(st)
	if s.GetRound() != 1 || s.GetSurpriseDeclared() {
		return nil, engine.Refused("D20-004", "a surprise attack comes once, before the first round")
	}
	for _, f := range fighters(st) {
		if f.cs.GetNextSegment() != sys.first(f, 1) || f.cs.GetAttacksThisRound() > 0 || f.cs.GetEndedTurn() {
			return nil, engine.Refused("D20-004", "a surprise attack comes before anyone acts")
		}
	}
	if len(sp.GetAttackerIds()) == 0 {
		return nil, engine.Invalid("D20-004", "name the attackers of the surprise attack")
	}
	seen := map[string]bool{}
	stealth, err := stealthiest(st, sp.GetAttackerIds(), seen)
	if err != nil {
		return nil, err
	}
	defenders, err := surpriseDefenders(st, sp, seen)
	if err != nil {
		return nil, err
	}
	ev := &d20segv1.SurpriseRoundStarted{AttackerIds: sp.GetAttackerIds()}
	for _, f := range fighters(st) {
		if !seen[f.id()] { // D20-003: neither attacker nor defender
			ev.BystanderIds = append(ev.BystanderIds, f.id())
		}
	}
	for i, ap := range sp.GetDefenders() {
		ev.Apprehension = append(ev.Apprehension, sys.apprehension(st, defenders[i], ap, stealth, roller))
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: ev}}), nil
}

// stealthiest checks the attackers of a surprise attack, each named once (marked in seen), and
// finds the opposition of the apprehension rolls: the stealthiest attacker with stealth ranks
// (D20-003); nil when none has any.
func stealthiest(st *encounterv1.EncounterState, ids []string, seen map[string]bool) (*fighter, error) {
	var stealth *fighter
	for _, id := range ids {
		f, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, engine.Invalid("D20-004", "%s is given twice as an attacker", f.name())
		}
		seen[id] = true
		if f.sh.GetStealth() > 0 && (stealth == nil || f.sh.GetStealth()+f.sh.GetAgility() > stealth.sh.GetStealth()+stealth.sh.GetAgility()) {
			stealth = &f
		}
	}
	return stealth, nil
}

// surpriseDefenders checks the defenders of a surprise attack: none an attacker, each named
// once (marked in seen), an impaired malus only for an impaired one, light to medium (D20-002).
func surpriseDefenders(st *encounterv1.EncounterState, sp *d20segv1.Surprise, seen map[string]bool) ([]fighter, error) {
	sc := options(st).GetApprehensionScale()
	var defenders []fighter
	for _, ap := range sp.GetDefenders() {
		d, err := fighterOf(st, ap.GetDefenderId())
		if err != nil {
			return nil, err
		}
		if slices.Contains(sp.GetAttackerIds(), d.id()) {
			return nil, engine.Invalid("D20-004", "%s cannot be both attacker and defender", d.name())
		}
		if seen[d.id()] {
			return nil, engine.Invalid("D20-003", "%s is given twice as a defender", d.name())
		}
		seen[d.id()] = true
		if m := ap.GetImpairedMalus(); m != 0 && (m < sc[0] || m > sc[1]) {
			return nil, engine.Invalid("D20-002", "the impaired malus of %s is light to medium, %d to %d, not %d", d.name(), sc[0], sc[1], m)
		}
		if ap.GetImpairedMalus() != 0 && !slices.Contains(ap.GetSituations(), d20segv1.Situation_SITUATION_IMPAIRED) {
			return nil, engine.Invalid("D20-002", "an impaired malus is given for %s, who is not impaired", d.name())
		}
		defenders = append(defenders, d)
	}
	return defenders, nil
}

// apprehension is d's apprehension roll: d20 + Wisdom + perception + the situation's modifiers
// (D20-001…D20-003) against the stealthiest attacker's d20 + Agility + stealth, or a fixed
// opposition when none has stealth; it fails, and d is surprised, below the opposition
// (D20-005). Where the house rules skip the roll, d is surprised.
func (sys System) apprehension(st *encounterv1.EncounterState, d fighter, ap *d20segv1.Apprehension, stealth *fighter, roller dice.Roller) *d20segv1.ApprehensionRolled {
	ar := &d20segv1.ApprehensionRolled{DefenderId: d.id(), Surprised: true}
	if options(st).GetSkipApprehension() { // D20-003
		return ar
	}
	ar.Roll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
	ar.Modifiers = d.sh.GetWisdom() + d.sh.GetPerception() + ap.GetSpellModifier()
	for _, sit := range ap.GetSituations() {
		if sit == d20segv1.Situation_SITUATION_IMPAIRED && ap.GetImpairedMalus() != 0 {
			ar.Modifiers -= ap.GetImpairedMalus()
			continue
		}
		ar.Modifiers += ApprehensionModifier(options(st), sit)
	}
	ar.Total = ar.GetRoll().GetTotal() + ar.GetModifiers()
	ar.Opposition = sys.n.NoStealth
	if stealth != nil {
		ar.StealthBy = stealth.id()
		ar.StealthRoll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
		ar.Opposition = ar.GetStealthRoll().GetTotal() + stealth.sh.GetAgility() + stealth.sh.GetStealth()
	}
	ar.Surprised = ar.GetTotal() < ar.GetOpposition()
	return ar
}
