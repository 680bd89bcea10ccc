package engine

import (
	"fmt"
	"reflect"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
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
	closer, closes := sys.(Closer)
	closes = closes && own
	if !fold && !closes {
		return events, nil, nil
	}
	next := cloneSharingCombatants(st)
	for _, ev := range events {
		if err := r.Evolve(next, ev); err != nil {
			return nil, nil, fmt.Errorf("the rules produced an event they cannot fold: %w", err)
		}
	}
	if !closes {
		return events, next, nil
	}
	more, err := closer.Close(next, env, func(ev *encounterv1.Event) error {
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

// cloneSharingCombatants is a deep copy of st except its combatants (their sheets above all),
// which the copy shares with st in a slice of its own, and its rule options, which it shares.
// States may share them because neither is ever changed in place: the engine replaces a
// combatant with a changed copy (changeCombatant) and sets the options once, at creation; the
// rule systems only read them.
func cloneSharingCombatants(st *encounterv1.EncounterState) *encounterv1.EncounterState {
	// A shallow copy of every field (reflect, not protoreflect: no value boxed), deep-copied
	// but for the combatants.
	shallow := &encounterv1.EncounterState{}
	src, dst := reflect.ValueOf(st).Elem(), reflect.ValueOf(shallow).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	shallow.Combatants, shallow.Options = nil, nil
	shallow.ProtoReflect().SetUnknown(st.ProtoReflect().GetUnknown())
	next := proto.CloneOf(shallow)
	next.Combatants = slices.Clone(st.GetCombatants())
	next.Options = st.GetOptions()
	return next
}

// changeCombatant replaces the combatant id of st with a copy changed by change; nothing if
// there is none.
func changeCombatant(st *encounterv1.EncounterState, id string, change func(*encounterv1.Combatant)) {
	for i, c := range st.GetCombatants() {
		if c.GetId() == id {
			c = proto.CloneOf(c)
			change(c)
			st.Combatants[i] = c
			return
		}
	}
}
