package ka

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
)

// Pool is what a draw may take: the cards not seen by the reader, counted by value (Pool[v]
// cards of value v for v in 1…10, Pool[0] face cards), and Left, how many are still in the
// deck (the others lie face down in the discard). The deck holds no order (KA-003): each card
// is taken at random from the cards left, so that, to a reader who does not see some of the
// discard, the next card is any unseen card with the same chance.
type Pool struct {
	Cards [11]int32
	Left  int32
	// EveryDraw: the discard returns to the deck before each draw (KA-003 option).
	EveryDraw bool
	// Rules: the version whose cards these are (the value of a face card, KA-002).
	Rules System
}

// FullPool is the 56 cards of the minor arcana (KA-001) under a version of the rules.
func FullPool(rules System) Pool {
	p := Pool{Rules: rules}
	for v := 1; v <= 10; v++ {
		p.Cards[v] = 4
	}
	p.Cards[0] = 16
	p.Left = DeckSize
	return p
}

// PoolOf is the pool of a state's deck as its reader sees it: the cards not in the discard,
// a card lying face down counting as unseen.
func PoolOf(rules System, s *kav1.State, o *kav1.Options) Pool {
	p := FullPool(rules)
	for _, c := range s.GetDiscard() {
		switch r := c.GetRank(); {
		case r == 0: // face down: unseen
		case r > 10:
			p.Cards[0]--
		default:
			p.Cards[r]--
		}
	}
	p.Left = DeckSize - int32(len(s.GetDiscard()))
	p.EveryDraw = o.GetReshuffle() == "every_draw"
	return p
}

func (p Pool) size() int32 {
	var n int32
	for _, c := range p.Cards {
		n += c
	}
	return n
}

// faceCard stands for the face cards of a pool (KA-002).
var faceCard = &kav1.Card{Rank: 11}

// drawn is one way a draw goes: the value it adds, its chance, the pool it leaves.
type drawn struct {
	value int32
	p     float64
	pool  Pool
}

// Draws is every way a draw from the pool goes (KA-002, KA-003): a card, and another after
// each face card; the discard returns to the deck when no card is left (or, with every_draw,
// before the draw when some were drawn).
func (p Pool) Draws() []drawn {
	if p.EveryDraw { // the discard returns first (a whole deck stays whole)
		p = FullPool(p.Rules)
		p.EveryDraw = true
	}
	var out []drawn
	var walk func(p Pool, value int32, prob float64)
	walk = func(p Pool, value int32, prob float64) {
		if p.Left == 0 {
			every := p.EveryDraw
			p = FullPool(p.Rules)
			p.EveryDraw = every
		}
		n := float64(p.size())
		for v, c := range p.Cards {
			if c == 0 {
				continue
			}
			q := p
			q.Cards[v]--
			q.Left--
			pr := prob * float64(c) / n
			if v == 0 {
				walk(q, value+p.Rules.Value(faceCard), pr)
				continue
			}
			out = append(out, drawn{value: value + int32(v), p: pr, pool: q})
		}
	}
	walk(p, 0, 1)
	return out
}

// AttackOdds is what the odds of a Ka attack are computed from: the attacker's draw score
// (sphere + skill + modifiers, KA-004), the defender's if it dodges, the damage and soak, the
// target's tracks, the deck.
type AttackOdds struct {
	Attack      int32
	Defence     int32
	Defends     bool
	NoDefence   string
	Damage      int32
	Soak        int32
	Stun        bool
	KaDice      int32
	Reality     int32
	Pool        Pool
	Options     *kav1.Options
	Hidden      bool
	Target      string
	Seuil       int32
	RealityLeft int32
	// Rules is the version of the rules the encounter pinned: its formulas give the outcome.
	Rules System
}

// WithOdds: an attack (KA-020).
func (System) WithOdds() []string {
	return []string{"attack", "dodge", "parry", "take it", "disarm", "terror"}
}

// Odds is the odds of an attack (KA-020), read from the real Decide with a probe's dice; nil
// for any other command (engine.System; rules/odds.Of asks it).
func (rules System) Odds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	switch {
	case cmd.GetKa().GetAttack() != nil:
		return odds.Read(rules.ReadAttackOdds(reg, st, cmd, actor))
	case cmd.GetKa().GetTerror() != nil:
		return rules.terrorOdds(reg, st, cmd, actor)
	case cmd.GetKa().GetDisarm() != nil:
		return rules.disarmOdds(reg, st, cmd, actor)
	case cmd.GetKa().GetReact() != nil && !cmd.GetKa().GetReact().GetAttackBack():
		a, err := rules.ReadReactOdds(reg, st, cmd, actor)
		if err != nil || a == nil {
			return nil, err
		}
		return a.ReactOdds(), nil
	}
	return nil, nil
}

// ReadReactOdds reads the numbers of the answer cmd gives on st to the attack declared and
// awaiting it (KA-020: the cards are drawn once it is answered): the attacker's draw score
// and, for a dodge or a parry, the defender's, from the real Decide of the answer with a
// probe's dice; the damage, soak and tracks as for the attack. nil, and no error, when the
// answer does not draw the cards yet (a burst's next target answers first).
func (rules System) ReadReactOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*AttackOdds, error) {
	evs, _, err := odds.Decide(reg, st, cmd, actor, &odds.Probe{First: 1, Rest: 1})
	if err != nil {
		return nil, err
	}
	p := st.GetKa().GetPending()
	target := engine.FindCombatant(st, p.GetDefenderId())
	at := p.GetAttack()
	a := &AttackOdds{Stun: at.GetStun(), Pool: PoolOf(rules, st.GetKa(), st.GetOptions().GetKa()), Options: st.GetOptions().GetKa(),
		Hidden: target.GetKa() == nil || engine.FindCombatant(st, p.GetAttackerId()).GetKa() == nil, Target: target.GetName(), Rules: rules}
	cs := st.GetKa().GetCombatants()[target.GetId()]
	a.KaDice, a.Reality, a.Seuil = cs.GetKaDice(), cs.GetRealityPoints(), rules.Seuil(target.GetKa())
	if !a.Hidden {
		if a.Damage, a.Soak, err = rules.HitNumbers(st, p.GetAttackerId(), at); err != nil {
			return nil, err
		}
	}
	drew := false
	for _, ev := range evs {
		if d := ev.GetKa().GetAttackDrawn(); d != nil {
			a.Attack = d.GetDraw().GetTotal() - d.GetDraw().GetDraw().GetValue()
			a.NoDefence = d.GetNoDefenceReason()
			drew = true
		}
		if d := ev.GetKa().GetDefenceDrawn(); d != nil {
			a.Defence = d.GetDraw().GetTotal() - d.GetDraw().GetDraw().GetValue()
			a.Defends = true
		}
	}
	if !drew {
		return nil, nil
	}
	return a, nil
}

// ReactOdds is the odds of the answer: the attack taken (a simple draw) or defended (an
// opposed draw), its success levels, the Ka dice (or points de réalité) the defender loses and
// the chance it is out of the fight — the section of the attack's odds for that answer.
func (a *AttackOdds) ReactOdds() *oddsv1.Odds {
	o := &oddsv1.Odds{Summary: fmt.Sprintf("%s answers an attack of %d + the cards", a.Target, a.Attack),
		Assumptions: []string{"the cards come from those you have not seen: the deck less the discard you see (KA-003)"}}
	key, title := "none", "taken: a simple draw (KA-005, KA-020)"
	if a.Defends {
		key, title = "defended", "defended: an opposed draw (KA-007, KA-009)"
	}
	if a.Hidden {
		o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: key, Title: title, Unavailable: "the attacker's or the defender's numbers are hidden from you"})
		return o
	}
	s := a.section(key, title, a.Defends)
	miss := odds.Chance("miss", "the attack fails: no harm done", "KA-005", oddsChanceOf(s, "level.0"))
	s.Chances = append([]*oddsv1.Chance{miss}, s.Chances...)
	o.Sections = append(o.Sections, s)
	return o
}

// oddsChanceOf is the probability of the chance key of s; 0 when it has none.
func oddsChanceOf(s *oddsv1.OddsSection, key string) float64 {
	for _, c := range s.GetChances() {
		if c.GetKey() == key {
			return c.GetProbability()
		}
	}
	return 0
}

// ReadAttackOdds declares the attack cmd gives on st and answers it, dodging and taking it,
// with a probe's dice, to read its numbers.
func (rules System) ReadAttackOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*AttackOdds, error) {
	pr := &odds.Probe{First: 1, Rest: 1}
	evs, next, err := odds.Decide(reg, st, cmd, actor, pr)
	if err != nil {
		return nil, err
	}
	at := cmd.GetKa().GetAttack()
	target := engine.FindCombatant(st, at.GetTargetId())
	a := &AttackOdds{Stun: at.GetStun(), Pool: PoolOf(rules, st.GetKa(), st.GetOptions().GetKa()), Options: st.GetOptions().GetKa(),
		Hidden: target.GetKa() == nil, Target: target.GetName(), Rules: rules}
	cs := st.GetKa().GetCombatants()[target.GetId()]
	a.KaDice, a.Reality, a.Seuil = cs.GetKaDice(), cs.GetRealityPoints(), rules.Seuil(target.GetKa())
	a.Damage, a.Soak, _ = rules.HitNumbers(st, cmd.GetKa().GetCombatantId(), at)
	drawnScore := func(evs []*encounterv1.Event) {
		for _, ev := range evs {
			if d := ev.GetKa().GetAttackDrawn(); d != nil {
				a.Attack = d.GetDraw().GetTotal() - d.GetDraw().GetDraw().GetValue()
				a.NoDefence = d.GetNoDefenceReason()
			}
			if d := ev.GetKa().GetDefenceDrawn(); d != nil {
				a.Defence = d.GetDraw().GetTotal() - d.GetDraw().GetDraw().GetValue()
				a.Defends = true
			}
		}
	}
	if evs[0].GetKa().GetAttackDeclared() == nil {
		drawnScore(evs)
		return a, nil
	}
	gm := st.GetGameMaster()
	answer := func(re *kav1.React) ([]*encounterv1.Event, error) {
		return reg.Decide(next, &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: target.GetId(),
			Kind: &kav1.Action_React{React: re}}}}, engine.Env{Actor: gm, Dice: &odds.Probe{First: 1, Rest: 1}})
	}
	taken, err := answer(&kav1.React{})
	if err != nil {
		return nil, err
	}
	drawnScore(taken)
	if dodged, err := answer(&kav1.React{Defend: true}); err != nil {
		a.NoDefence = err.Error()
	} else {
		drawnScore(dodged)
	}
	return a, nil
}

// Odds is, taken and dodged, the chance of each success level and the Ka dice lost (the
// points de réalité for a stun).
func (a *AttackOdds) Odds() *oddsv1.Odds {
	o := &oddsv1.Odds{Summary: fmt.Sprintf("an attack on %s: %d + the cards", a.Target, a.Attack),
		Assumptions: []string{"the cards come from those you have not seen: the deck less the discard you see (KA-003)"}}
	if a.Hidden {
		o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: "none", Title: "taken", Unavailable: odds.HiddenTarget})
		return o
	}
	o.Sections = append(o.Sections, a.section("none", "taken: a simple draw (KA-005, KA-020)", false))
	d := &oddsv1.OddsSection{Key: "defended", Title: "dodged: an opposed draw (KA-007, KA-009)"}
	if a.Defends {
		d = a.section("defended", d.GetTitle(), true)
	} else {
		d.Unavailable = a.NoDefence
	}
	o.Sections = append(o.Sections, d)
	return o
}

var levelNames = []string{"failure", "normal success", "great success", "exceptional success"}

func (a *AttackOdds) section(key, title string, defended bool) *oddsv1.OddsSection {
	s := &oddsv1.OddsSection{Key: key, Title: title}
	levels := map[int32]float64{}
	var lost, reality odds.Builder
	var out float64
	for _, x := range a.Pool.Draws() {
		total := a.Attack + x.value
		outcome := func(margin int32, p float64) {
			b := a.Rules.Blow(a.Options, margin, a.Damage, a.Stun, Target{Soak: a.Soak, Seuil: a.Seuil, KaDice: a.KaDice, Reality: a.Reality})
			levels[b.Level] += p
			lost.Add(int(b.KaLost), p)
			reality.Add(int(b.RealityLost), p)
			if b.Out() {
				out += p
			}
		}
		if !defended {
			outcome(a.Rules.Margin(total, 0, false), x.p)
			continue
		}
		for _, y := range x.pool.Draws() {
			outcome(a.Rules.Margin(total, a.Defence+y.value, true), x.p*y.p)
		}
	}
	for lvl := int32(0); lvl < int32(len(a.Options.GetSuccessLevels())+2); lvl++ { // failure, then each success level (KA-006)
		name := fmt.Sprintf("level %d", lvl)
		if int(lvl) < len(levelNames) {
			name = levelNames[lvl]
		}
		s.Chances = append(s.Chances, odds.Chance(fmt.Sprintf("level.%d", lvl), name, "KA-006", levels[lvl]))
	}
	s.Chances = append(s.Chances, odds.Chance("out", "the target is out of the fight", "KA-025", out))
	s.Distributions = append(s.Distributions, odds.Distribution("ka", "Ka dice lost", lost.Dist()))
	if a.Stun {
		s.Distributions = append(s.Distributions, odds.Distribution("reality", "points de réalité lost", reality.Dist()))
	}
	return s
}
