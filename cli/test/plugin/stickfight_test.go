package plugin_test

// Stick fight, a rule system of one action and one event, written outside gen/: its house
// rules, sheets, state, action and event are JSON values in the plugin arms of the shared
// oneofs (docs/DESIGN.md, "A rule system that is a plug-in"). It lives in this test only: the
// test shows that such a system plays through the services, the CLI and the page with no file
// but its own naming it.

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/types/known/structpb"
)

// The system's one registry line.
func init() { systems.Register(stick{engine.NewRelease(stickID, "Stick fight", 1)}) }

const stickID = "stickfight"

// stick is Stick fight at version 1: each combatant in turn, in the order they joined, pokes
// another still standing for 1d6 damage to its hit points.
type stick struct{ engine.Release }

// stickOptions are its house rules: the hit points a sheet that gives none starts with.
type stickOptions struct {
	HitPoints int32 `json:"hit_points"`
}

// stickSheet is a combatant's sheet.
type stickSheet struct {
	HitPoints int32 `json:"hit_points"`
}

// stickState is its part of the encounter's state: whose turn it is, each one's hit points
// and what it started with.
type stickState struct {
	Acting string           `json:"acting"`
	Left   map[string]int32 `json:"left"`
	Full   map[string]int32 `json:"full"`
}

// stickAction is a command of the system: its one kind, poke.
type stickAction struct {
	Poke *poke `json:"poke"`
}

type poke struct {
	CombatantID string `json:"combatant_id"`
	TargetID    string `json:"target_id"`
}

// stickEvent is an event of the system: its one kind, poked.
type stickEvent struct {
	Poked *poked `json:"poked"`
}

type poked struct {
	CombatantID string            `json:"combatant_id"`
	TargetID    string            `json:"target_id"`
	Roll        engine.PluginRoll `json:"roll"`
	Damage      int32             `json:"damage"`
	// Next is whose turn it is after the poke: empty when one is left standing.
	Next string `json:"next"`
}

func plugin[T any](s *structpb.Struct, what string) (T, error) {
	var v T
	if err := engine.PluginOf(s, &v); err != nil {
		return v, engine.Invalid("", "Stick fight cannot read the %s: %v", what, err)
	}
	return v, nil
}

func must(s *structpb.Struct, err error) *structpb.Struct {
	if err != nil {
		panic(err) // the system's own Go values always make a JSON object
	}
	return s
}

func (stick) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	if in.GetSystem() != nil && in.GetPlugin() == nil {
		return nil, engine.Invalid("", "the options given are not Stick fight options")
	}
	o, err := plugin[stickOptions](in.GetPlugin(), "house rules")
	if err != nil {
		return nil, err
	}
	if o.HitPoints == 0 {
		o.HitPoints = 10
	}
	if o.HitPoints < 1 || o.HitPoints > 1000 {
		return nil, engine.Invalid("", "hit_points is %d: from 1 to 1000", o.HitPoints)
	}
	return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Plugin{Plugin: must(engine.PluginStruct(o))}}, nil
}

func (stick) CheckCombatant(st *encounterv1.EncounterState, c *encounterv1.Combatant) error {
	if c.GetSheet() != nil && c.GetPlugin() == nil {
		return engine.Invalid("", "%s's sheet is not a Stick fight sheet", c.GetName())
	}
	sh, err := plugin[stickSheet](c.GetPlugin(), "sheet of "+c.GetName())
	if err != nil {
		return err
	}
	if sh.HitPoints < 0 || sh.HitPoints > 1000 {
		return engine.Invalid("", "%s has %d hit points: from 1 to 1000", c.GetName(), sh.HitPoints)
	}
	return nil
}

func (stick) Start(*encounterv1.EncounterState, engine.Env) ([]*encounterv1.Event, error) {
	return nil, nil
}

// state reads the system's part of st; a state it cannot read is the engine's own, never a
// user's.
func state(st *encounterv1.EncounterState) stickState {
	var s stickState
	if err := engine.PluginOf(st.GetPlugin(), &s); err != nil {
		panic(fmt.Sprintf("Stick fight's state: %v", err))
	}
	if s.Left == nil {
		s.Left, s.Full = map[string]int32{}, map[string]int32{}
	}
	return s
}

func put(st *encounterv1.EncounterState, s stickState) {
	st.System = &encounterv1.EncounterState_Plugin{Plugin: must(engine.PluginStruct(s))}
}

func (stick) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	if cmd.GetPlugin() == nil {
		return nil, engine.Invalid("", "this encounter plays Stick fight: its one command is poke")
	}
	a, err := plugin[stickAction](cmd.GetPlugin(), "command")
	if err != nil {
		return nil, err
	}
	p := a.Poke
	if p == nil {
		return nil, engine.Invalid("", "Stick fight's one command is poke")
	}
	if err := engine.MayCommand(st, env.Actor, p.CombatantID); err != nil {
		return nil, err
	}
	s := state(st)
	if s.Acting != p.CombatantID {
		return nil, engine.Refused("", "it is not %s's turn but %s's", name(st, p.CombatantID), name(st, s.Acting))
	}
	if engine.FindCombatant(st, p.TargetID) == nil || p.TargetID == p.CombatantID || s.Left[p.TargetID] == 0 {
		return nil, engine.Invalid("", "%s may poke %s, not %q", name(st, p.CombatantID), orList(st, targets(st, s, p.CombatantID)), p.TargetID)
	}
	roll := env.Dice.Roll(dice.Expr{Count: 1, Sides: 6})
	damage := min(roll.GetTotal(), s.Left[p.TargetID])
	s.Left[p.TargetID] -= damage
	ev := stickEvent{Poked: &poked{CombatantID: p.CombatantID, TargetID: p.TargetID, Roll: engine.PluginRoll{Roll: roll}, Damage: damage, Next: next(st, s, p.CombatantID)}}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_Plugin{Plugin: must(engine.PluginStruct(ev))}}}, nil
}

// next is who acts after id: the next combatant still standing, in the order they joined; none
// when no other is standing.
func next(st *encounterv1.EncounterState, s stickState, id string) string {
	cs := st.GetCombatants()
	i := slices.IndexFunc(cs, func(c *encounterv1.Combatant) bool { return c.GetId() == id })
	for k := 1; k < len(cs); k++ {
		if c := cs[(i+k)%len(cs)]; s.Left[c.GetId()] > 0 {
			if c.GetId() == id {
				return ""
			}
			return c.GetId()
		}
	}
	return ""
}

func targets(st *encounterv1.EncounterState, s stickState, id string) []string {
	var out []string
	for _, c := range st.GetCombatants() {
		if c.GetId() != id && s.Left[c.GetId()] > 0 {
			out = append(out, c.GetId())
		}
	}
	return out
}

func name(st *encounterv1.EncounterState, id string) string {
	if c := engine.FindCombatant(st, id); c != nil {
		return c.GetName()
	}
	return id
}

func orList(st *encounterv1.EncounterState, ids []string) string {
	var names []string
	for _, id := range ids {
		names = append(names, name(st, id))
	}
	return fmt.Sprint(names)
}

func (stick) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	switch {
	case ev.GetCombatantAdded() != nil:
		c := ev.GetCombatantAdded().GetCombatant()
		sh, err := plugin[stickSheet](c.GetPlugin(), "sheet")
		if err != nil {
			return err
		}
		if sh.HitPoints == 0 {
			o, err := plugin[stickOptions](st.GetOptions().GetPlugin(), "house rules")
			if err != nil {
				return err
			}
			sh.HitPoints = o.HitPoints
		}
		s := state(st)
		s.Left[c.GetId()], s.Full[c.GetId()] = sh.HitPoints, sh.HitPoints
		put(st, s)
	case ev.GetCombatantRemoved() != nil:
		s := state(st)
		id := ev.GetCombatantRemoved().GetCombatantId()
		if s.Acting == id {
			s.Acting = next(st, s, id)
		}
		delete(s.Left, id)
		delete(s.Full, id)
		put(st, s)
	case ev.GetEncounterStarted() != nil:
		s := state(st)
		if cs := st.GetCombatants(); len(cs) > 0 {
			s.Acting = cs[0].GetId()
		}
		put(st, s)
	case ev.GetPlugin() != nil:
		e, err := plugin[stickEvent](ev.GetPlugin(), "event")
		if err != nil {
			return err
		}
		if e.Poked == nil {
			return fmt.Errorf("a Stick fight event of no kind it knows")
		}
		s := state(st)
		s.Left[e.Poked.TargetID] = max(0, s.Left[e.Poked.TargetID]-e.Poked.Damage)
		s.Acting = e.Poked.Next
		put(st, s)
	}
	return nil
}

func (stick) Describe() *rulesetv1.RulesetDescriptor {
	return &rulesetv1.RulesetDescriptor{
		Id: stickID, Name: "Stick fight", Version: 1,
		SheetFields: []*rulesetv1.FieldDescriptor{{Name: "hit_points", Description: "hit points (0: the house rule's)"}},
		Actions:     []*rulesetv1.ActionDescriptor{{Name: "poke", Description: "poke another combatant for 1d6 damage", Cost: "1 action"}},
		Options:     []*rulesetv1.OptionDescriptor{{Name: "hit_points", Description: "the hit points of a sheet that gives none", DefaultValue: "10"}},
	}
}

func (stick) CostUnit() engine.CostUnit { return engine.CostUnit{One: "action", Many: "actions"} }

func (stick) Teller() narrate.Teller { return teller{} }

func (stick) Odds(*engine.Registry, *encounterv1.EncounterState, *encounterv1.Command, string) (*oddsv1.Odds, error) {
	return nil, nil
}

func (stick) WithOdds() []string { return nil }

func (stick) Tracker(view *encounterv1.EncounterState, _ engine.Viewer, lang language.Tag) *rulesetv1.Tracker {
	s := state(view)
	t := &rulesetv1.Tracker{Header: []string{engine.Word(lang, "hit points", "points de vie")}}
	if s.Acting != "" {
		t.Turn = engine.Word(lang, "Turn of ", "Au tour de ") + name(view, s.Acting)
	}
	for _, c := range view.GetCombatants() {
		full, ok := s.Full[c.GetId()]
		if !ok || c.GetSheet() == nil { // withheld from the reader, or not folded yet
			t.Rows = append(t.Rows, engine.TrackerRow(t.Header, c.GetId(), nil))
			continue
		}
		var conditions []string
		if s.Left[c.GetId()] == 0 {
			conditions = append(conditions, engine.Word(lang, "down", "à terre"))
		}
		t.Rows = append(t.Rows, engine.TrackerRow(t.Header, c.GetId(), []string{fmt.Sprintf("%d/%d", s.Left[c.GetId()], full)}, conditions...))
	}
	return t
}

func (stick) Close(*encounterv1.EncounterState, engine.Env, func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	return nil, nil
}

func (stick) LegalCommands(st *encounterv1.EncounterState, id string) []engine.LegalCommand {
	s := state(st)
	if s.Acting != id {
		return nil
	}
	ts := targets(st, s, id)
	choice := &rulesetv1.Choice{Field: "plugin.poke.target_id", Description: "whom to poke", Required: true}
	for _, t := range ts {
		choice.Options = append(choice.Options, &rulesetv1.ChoiceOption{Value: t, Label: name(st, t)})
	}
	cmd := must(engine.PluginStruct(stickAction{Poke: &poke{CombatantID: id}}))
	return []engine.LegalCommand{{
		Action:  &rulesetv1.LegalAction{Name: "poke", Key: "poke", Description: "1d6 damage", Cost: 1, Targets: ts, Choices: []*rulesetv1.Choice{choice}},
		Command: &encounterv1.Command{Kind: &encounterv1.Command_Plugin{Plugin: cmd}},
	}}
}

// Out: a stick fighter is out of the fight with no points left.
func (stick) Out(st *encounterv1.EncounterState, id string) bool {
	s := state(st)
	full, ok := s.Full[id]
	return ok && s.Left[id] == 0 && full > 0
}

func (sys stick) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	if sys.Out(st, id) {
		return encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	}
	s := state(st)
	return engine.Worn(s.Left[id], s.Full[id])
}

func (stick) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	s := state(st)
	for id := range s.Full {
		if secret(id) {
			delete(s.Left, id)
			delete(s.Full, id)
		}
	}
	put(st, s)
}

// RedactEvent withholds nothing: a poke's damage is seen by the table.
func (stick) RedactEvent(*encounterv1.Event, func(string) bool) {}

func (stick) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	return engine.DiceEndOf(ev.GetPlugin(), func(s *structpb.Struct) uint64 { return engine.DiceEnd(engine.Rolls(s)...) })
}

// teller narrates Stick fight in English and French.
type teller struct{}

func (teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	if ev.GetPlugin() == nil || ev.GetRuleSystem() != stickID {
		return "", false
	}
	e, err := plugin[stickEvent](ev.GetPlugin(), "event")
	if err != nil || e.Poked == nil {
		return "", false
	}
	p := e.Poked
	faces := p.Roll.GetFaces()
	if n.French() {
		return fmt.Sprintf("%s frappe %s du bâton : 1d6 %v = %d dégâts", n.Name(p.CombatantID), n.Name(p.TargetID), faces, p.Damage), true
	}
	return fmt.Sprintf("%s pokes %s: 1d6 %v = %d damage", n.Name(p.CombatantID), n.Name(p.TargetID), faces, p.Damage), true
}

// mine reports whether the event narrated is of an encounter of Stick fight: another plug-in's
// JSON is not its to read.
func mine(n *narrate.Narrator) bool { return n.Current().GetRuleSystem() == stickID }

func (teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	if c.GetPlugin() == nil || !mine(n) {
		return "", false
	}
	sh, err := plugin[stickSheet](c.GetPlugin(), "sheet")
	if err != nil || sh.HitPoints == 0 {
		return "", false
	}
	return fmt.Sprintf("%d %s", sh.HitPoints, engine.Word(n.Language(), "hit points", "points de vie")), true
}

func (teller) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	if o.GetPlugin() == nil || !mine(n) {
		return "", false
	}
	opts, err := plugin[stickOptions](o.GetPlugin(), "house rules")
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%d %s", opts.HitPoints, engine.Word(n.Language(), "hit points", "points de vie")), true
}

func (teller) Learn(*narrate.Narrator, *encounterv1.Event)               {}
func (teller) LearnState(*narrate.Narrator, *encounterv1.EncounterState) {}
