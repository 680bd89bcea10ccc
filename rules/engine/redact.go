package engine

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
)

// Hidden information is the server's to keep. A GM may hide a combatant: everyone but the GM,
// the co-GMs and the combatant's controller then sees its name, side and appearance (what the
// table would see: unhurt, wounded, badly wounded, out of the fight), never its sheet or its
// numbers. Some things never leave the server whoever reads (the Ka deck's order). Reads go
// through View and ViewEvent, which return copies; the recorded events are never changed.

// Viewer says what one reader of an encounter may see.
type Viewer struct {
	// SeesAll: the GM or a co-GM sees every combatant whole.
	SeesAll bool
	// Controls holds the ids of the combatants the reader controls: seen whole even when hidden.
	Controls map[string]bool
}

// Sees reports whether the viewer sees c whole.
func (v Viewer) Sees(c *encounterv1.Combatant) bool {
	return c == nil || !c.GetHidden() || v.SeesAll || v.Controls[c.GetId()]
}

// Redactor is implemented by every rule system: it says what the table sees of a combatant
// and removes from its own part of a state or an event what a reader may not see.
type Redactor interface {
	// Appearance is what anyone sees of combatant id in st.
	Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance
	// RedactState removes from st (the caller's copy) the system's numbers of every combatant
	// for which secret(id) is true, and whatever never leaves the server, for every reader.
	RedactState(st *encounterv1.EncounterState, secret func(id string) bool)
	// RedactEvent removes from ev (the caller's copy; its recorded command included) the
	// numbers of every combatant for which secret(id) is true, and whatever never leaves the
	// server.
	RedactEvent(ev *encounterv1.Event, secret func(id string) bool)
}

// secretIn returns the predicate "id is hidden from v" over the combatants of st.
func secretIn(st *encounterv1.EncounterState, v Viewer) func(string) bool {
	return func(id string) bool {
		c := FindCombatant(st, id)
		return c != nil && !v.Sees(c)
	}
}

// View returns a copy of st as v may see it: every combatant's appearance filled in, the
// sheets and numbers of those hidden from v removed, and nothing that never leaves the server
// (a live encounter's seed, the Ka deck's order).
func (r *Registry) View(st *encounterv1.EncounterState, v Viewer) *encounterv1.EncounterState {
	out := proto.CloneOf(st)
	if out.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		out.Seed = nil
	}
	sys, err := r.system(st)
	red, _ := sys.(Redactor)
	secret := secretIn(st, v)
	for _, c := range out.GetCombatants() {
		if red != nil && err == nil {
			c.Appearance = red.Appearance(st, c.GetId())
		}
		if secret(c.GetId()) {
			c.Sheet = nil
		}
	}
	if red != nil && err == nil {
		red.RedactState(out, secret)
	}
	return out
}

// ViewEvent returns a copy of ev as v may see it. before is the encounter's state before ev:
// it says who was hidden when ev was recorded.
func (r *Registry) ViewEvent(before *encounterv1.EncounterState, ev *encounterv1.Event, v Viewer) *encounterv1.Event {
	out := proto.CloneOf(ev)
	secret := secretIn(before, v)
	if add := out.GetCombatantAdded(); add != nil && !v.Sees(add.GetCombatant()) {
		add.GetCombatant().Sheet = nil
		hidden := add.GetCombatant().GetId()
		inner := secret
		secret = func(id string) bool { return id == hidden || inner(id) }
	}
	if add := out.GetCommand().GetAddCombatant(); add != nil && !v.Sees(add.GetCombatant()) {
		add.GetCombatant().Sheet = nil
	}
	if rw := out.GetEncounterRewound(); rw != nil && rw.GetState() != nil {
		rw.State = r.View(rw.GetState(), v)
	}
	// Who is in the encounter comes from the creation event for the first event, from the
	// state before it for every other.
	sys, err := r.Lookup(ev.GetRuleSystem(), ev.GetRulesVersion())
	if err != nil {
		if sys, err = r.system(before); err != nil {
			if !proto.Equal(out.GetCommand(), ev.GetCommand()) {
				out.CommandDigest = nil
			}
			return out
		}
	}
	if red, ok := sys.(Redactor); ok {
		red.RedactEvent(out, secret)
	}
	if !proto.Equal(out.GetCommand(), ev.GetCommand()) {
		out.CommandDigest = nil // it would let a reader test guesses of what was withheld
	}
	out.Redacted = !proto.Equal(out, ev)
	return out
}

func decideSetHidden(st *encounterv1.EncounterState, k *encounterv1.SetHidden, gmOnly func(string) error) ([]*encounterv1.Event, error) {
	if err := gmOnly("hide a combatant or show it again"); err != nil {
		return nil, err
	}
	c := FindCombatant(st, k.GetCombatantId())
	if c == nil {
		return nil, NotFound("there is no combatant %q in this encounter", k.GetCombatantId())
	}
	if c.GetHidden() == k.GetHidden() {
		if c.GetHidden() {
			return nil, Refused("", "%s is already hidden", c.GetName())
		}
		return nil, Refused("", "%s is not hidden", c.GetName())
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_CombatantHidden{CombatantHidden: &encounterv1.CombatantHidden{
		CombatantId: c.GetId(), Hidden: k.GetHidden(),
	}}}}, nil
}
