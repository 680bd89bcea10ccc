package engine

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Resolve decides cmd against st with the encounter's dice stream (seed, positioned at the
// state's dice offset) and returns the events and the state after them. st is not changed.
// The caller's tenant is st's: for a creation, st holds the new encounter's id and tenant.
func (r *Registry) Resolve(st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string, seed []byte, rewind *encounterv1.EncounterState) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	return r.ResolveWith(st, cmd, Env{Actor: actor, Seed: seed, RewindState: rewind})
}

// ResolveWith is Resolve with the whole Env (Actor, Tenant, Seed, RewindState); env.Dice is
// replaced by the stream of env.Seed at st's dice offset, under st's dice scheme. A state whose
// dice position is beyond its scheme's bound (dice.Scheme.MaxOffset) is refused as Invalid
// before anything is drawn.
func (r *Registry) ResolveWith(st *encounterv1.EncounterState, cmd *encounterv1.Command, env Env) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	scheme := dice.SchemeOf(st.GetDiceScheme())
	if err := dice.CheckOffset(scheme, max(st.GetDiceOffset(), st.GetDiceHighWater()), 0); err != nil {
		return nil, nil, Invalid("", "the state cannot be played: %v", err)
	}
	stream, err := dice.NewStreamScheme(scheme, env.Seed, st.GetDiceOffset())
	if err != nil {
		return nil, nil, Invalid("", "%v", err)
	}
	env.Dice = stream
	return r.decideInto(st, cmd, env, true)
}

// foldDecided folds the events decided on st into a copy of st, when fold is set or when the
// system closes its own commands (Closer; own: cmd was one), and then asks the system for the
// closing events, which it folds too. It returns every event and the copy (nil when neither).
func (r *Registry) foldDecided(sys System, st *encounterv1.EncounterState, events []*encounterv1.Event, env Env, fold, own bool) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	closes := own // every system closes its own commands (Closer)
	if !fold && !closes {
		return events, nil, nil
	}
	next := Fork(sys, st)
	for _, ev := range events {
		if err := r.Evolve(next, ev); err != nil {
			return nil, nil, fmt.Errorf("the rules produced an event they cannot fold: %w", err)
		}
	}
	if !closes {
		return events, next, nil
	}
	more, err := sys.Close(next, env, func(ev *encounterv1.Event) error {
		stamp(ev, sys, st.GetEncounterId(), next.GetSequence()+1, env.Actor)
		if err := r.Evolve(next, ev); err != nil {
			return fmt.Errorf("the rules produced an event they cannot fold: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if next.GetSequence() != st.GetSequence()+uint64(len(events)+len(more)) {
		return nil, nil, fmt.Errorf("the rules closed %s with %d events but folded %d", sys.Name(), len(more), next.GetSequence()-st.GetSequence()-uint64(len(events)))
	}
	return append(events, more...), next, nil
}

// StateCopier is implemented by a system that copies its part of the state
// (EncounterState.system) itself, faster than proto.Clone: CopyState gives dst a copy of
// src's part that the system's Evolve changes without changing src's.
type StateCopier interface {
	CopyState(dst, src *encounterv1.EncounterState)
}

// Fork is a copy of st that folding (Registry.Evolve, a system's Evolve) changes without
// changing st: the state a decision folds its events into, or a system what-if. It is written
// out field by field and shares what the engine and the rule systems never change in place: the
// combatants and their slice (the engine replaces a combatant with a changed copy in a new
// slice, changeCombatant, and adds or removes one in a new slice too), the rule options (set
// once, at creation), the pending reactions (replaced whole), the role grants (added and
// removed, never changed) and the bytes. The system's part is copied by the system
// (StateCopier), or deep.
func Fork(sys System, st *encounterv1.EncounterState) *encounterv1.EncounterState {
	next := &encounterv1.EncounterState{
		EncounterId: st.EncounterId, Name: st.Name, RuleSystem: st.RuleSystem, RulesVersion: st.RulesVersion,
		GameMaster: st.GameMaster, Status: st.Status, SeedSha256: st.SeedSha256, Seed: st.Seed,
		DiceOffset: st.DiceOffset, Sequence: st.Sequence, Combatants: st.Combatants,
		Pending: st.Pending, Options: st.Options, Tenant: st.Tenant, Roles: slices.Clone(st.Roles),
		JoiningOpen: st.JoiningOpen, DiceHighWater: st.DiceHighWater, DiceScheme: st.DiceScheme,
		SidesStanding: slices.Clone(st.SidesStanding), FightOver: st.FightOver, // filled in reads only: kept as they are
	}
	if u := st.ProtoReflect().GetUnknown(); u != nil {
		next.ProtoReflect().SetUnknown(u)
	}
	if c, ok := sys.(StateCopier); ok {
		c.CopyState(next, st)
	} else if st.System != nil {
		m := st.ProtoReflect()
		fd := m.WhichOneof(systemOneof)
		next.ProtoReflect().Set(fd, protoreflect.ValueOfMessage(proto.Clone(m.Get(fd).Message().Interface()).ProtoReflect()))
	}
	return next
}

var systemOneof = (&encounterv1.EncounterState{}).ProtoReflect().Descriptor().Oneofs().ByName("system")

// Fork is Fork with st's own rule system (none known: its part copied deep): the copy a
// service folds recorded events into, leaving st as it is for whoever reads it.
func (r *Registry) Fork(st *encounterv1.EncounterState) *encounterv1.EncounterState {
	sys, err := r.system(st)
	if err != nil {
		sys = nil
	}
	return Fork(sys, st)
}

// Share is Fork sharing the system's part of st too: a copy whose own fields and combatants
// are replaced, never its system's part (a view for a reader who sees everything, View; the
// state sent to a resolver with its sheets stripped). It costs a handful of words, where
// Fork copies the system's part.
func Share(st *encounterv1.EncounterState) *encounterv1.EncounterState {
	return Fork(sharedPart{}, st)
}

// sharedPart is the "system" Share forks with: its part is shared, not copied.
type sharedPart struct{ System }

func (sharedPart) CopyState(dst, src *encounterv1.EncounterState) { dst.System = src.System }

// shareCombatant is a copy of c sharing its sheet, which is never changed in place (a changed
// combatant is a deep copy: changeCombatant): what a view changes of a combatant is its own
// fields (its appearance).
func shareCombatant(c *encounterv1.Combatant) *encounterv1.Combatant {
	out := &encounterv1.Combatant{Id: c.Id, Name: c.Name, Controller: c.Controller, Side: c.Side, Hidden: c.Hidden,
		Appearance: c.Appearance, Sheet: c.Sheet}
	if u := c.ProtoReflect().GetUnknown(); u != nil {
		out.ProtoReflect().SetUnknown(u)
	}
	return out
}

// changeCombatant replaces the combatant id of st with a copy changed by change, in a new
// slice (the slice may be shared with the state before, Fork); nothing if there is none.
func changeCombatant(st *encounterv1.EncounterState, id string, change func(*encounterv1.Combatant)) {
	for i, c := range st.GetCombatants() {
		if c.GetId() == id {
			c = proto.CloneOf(c)
			change(c)
			st.Combatants = slices.Clone(st.Combatants)
			st.Combatants[i] = c
			return
		}
	}
}
