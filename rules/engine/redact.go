package engine

import (
	"sync"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// Hidden information is the server's to keep. A GM may hide a combatant: everyone but the GM,
// the co-GMs and the combatant's controller then sees its name, side and appearance (what the
// table would see: unhurt, wounded, badly wounded, out of the fight), never its sheet or its
// numbers. Some things never leave the server whoever reads (the Ka deck's order). Reads go
// through View and ViewEvent, which return copies; the recorded events are never changed.
//
// Where a die sits in the encounter's dice stream is the GM's alone (WithholdDicePositions):
// every reader who does not see everything gets no dice position, hidden combatant or not.

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
	// With nothing secret it changes nothing: ViewShared does not ask it then, and shares the
	// system's part with the state (enginetest.Conformance checks both).
	RedactState(st *encounterv1.EncounterState, secret func(id string) bool)
	// RedactEvent removes from ev (the caller's copy; its recorded command included) the
	// numbers of every combatant for which secret(id) is true, and whatever never leaves the
	// server. With nothing secret it changes nothing: ViewEvent does not ask it then
	// (enginetest.Conformance checks it).
	RedactEvent(ev *encounterv1.Event, secret func(id string) bool)
}

// secretIn returns the predicate "id is hidden from v" over the combatants of st.
func secretIn(st *encounterv1.EncounterState, v Viewer) func(string) bool {
	return func(id string) bool {
		c := FindCombatant(st, id)
		return c != nil && !v.Sees(c)
	}
}

// View returns a copy of st as v may see it: every combatant's appearance filled in, who
// still stands (sides_standing, fight_over: over.go), the sheets and numbers of those hidden
// from v removed, and nothing that never leaves the server (a live encounter's seed).
func (r *Registry) View(st *encounterv1.EncounterState, v Viewer) *encounterv1.EncounterState {
	out := r.view(st, v)
	r.fillStanding(out, st)
	return out
}

// ViewShared is View of a state that is never changed in place (an encounter's state as the
// encounter service holds it: each command folds into a fork that replaces it), for a reader
// who sends the view, never changes it: when no combatant is hidden from v, the view shares
// all of st but its seed, its combatants and its dice positions (openView), where View copies
// the state and its sheets whole.
func (r *Registry) ViewShared(st *encounterv1.EncounterState, v Viewer) *encounterv1.EncounterState {
	if !seesEveryone(st, v) || !v.SeesAll && holdsPluginJSON(st) {
		return r.View(st, v)
	}
	out := r.openView(st, v)
	r.fillStanding(out, st)
	return out
}

// view is View without who still stands: a rewind's state is the one restored, as recorded,
// not a read of the encounter.
func (r *Registry) view(st *encounterv1.EncounterState, v Viewer) *encounterv1.EncounterState {
	out := proto.CloneOf(st)
	if out.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		out.Seed = nil
	}
	sys, err := r.system(st)
	secret := secretIn(st, v)
	for _, c := range out.GetCombatants() {
		if err == nil {
			c.Appearance = sys.Appearance(st, c.GetId())
		}
		if secret(c.GetId()) {
			c.Sheet = nil
		}
	}
	if err == nil {
		sys.RedactState(out, secret)
	}
	if !v.SeesAll {
		WithholdDicePositions(out)
	}
	return out
}

// seesEveryone reports whether v sees every combatant of st whole: nothing of st is secret
// to it.
func seesEveryone(st *encounterv1.EncounterState, v Viewer) bool {
	if v.SeesAll {
		return true
	}
	for _, c := range st.GetCombatants() {
		if !v.Sees(c) {
			return false
		}
	}
	return true
}

// holdsPluginJSON reports whether st holds a plug-in's JSON (a plugin arm), where rolls, and
// so dice positions, may be (WithholdDicePositions): a reader's view of such a state withholds
// them from a copy of it, never from a part shared with st. No other part of a state holds a
// roll (TestAStateHoldsNoRollButInAPlugin).
func holdsPluginJSON(st *encounterv1.EncounterState) bool {
	if st.GetPlugin() != nil || st.GetOptions().GetPlugin() != nil {
		return true
	}
	for _, c := range st.GetCombatants() {
		if c.GetPlugin() != nil {
			return true
		}
	}
	return false
}

// openView is ViewShared for a reader from whom no combatant is hidden (the GM, a co-GM; anyone
// while nobody is hidden), without who still stands: no system's RedactState changes anything
// then. It is a fork of st sharing what the view does not change: without the seed of a live
// encounter, each combatant whose appearance is not the one it shows replaced by a copy
// sharing its sheet, and for a reader who does not see everything without the state's dice
// positions, which are then its own fields only (st holds no plug-in's JSON:
// holdsPluginJSON). No deep copy of the state and its sheets for every answer.
func (r *Registry) openView(st *encounterv1.EncounterState, v Viewer) *encounterv1.EncounterState {
	out := Share(st)
	if out.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		out.Seed = nil
	}
	if sys, err := r.system(st); err == nil && len(st.GetCombatants()) > 0 {
		out.Combatants = make([]*encounterv1.Combatant, len(st.GetCombatants())) // st's slice is st's
		for i, c := range st.GetCombatants() {
			out.Combatants[i] = c
			if a := sys.Appearance(st, c.GetId()); a != c.GetAppearance() {
				out.Combatants[i] = shareCombatant(c)
				out.Combatants[i].Appearance = a
			}
		}
	}
	if !v.SeesAll {
		WithholdDicePositions(out)
	}
	return out
}

// ViewEvent returns a copy of ev as v may see it. before is the encounter's state before ev:
// it says who was hidden when ev was recorded. Event.redacted tells of what the rules withheld
// (a hidden combatant's sheet or numbers), not of the dice positions, which no reader but the
// GM and the co-GMs ever gets.
//
// A viewer who sees everything (the GM, a co-GM) is withheld nothing of an event but a
// rewind's state (what never leaves the server): it gets ev itself, no copy, not to be
// changed (recorded events never are).
//
// A reader from whom no combatant is hidden, before ev or by it, is withheld nothing by the
// rules (a system's RedactEvent changes nothing with nothing secret): it gets a copy without
// the dice positions, not compared with ev.
func (r *Registry) ViewEvent(before *encounterv1.EncounterState, ev *encounterv1.Event, v Viewer) *encounterv1.Event {
	if v.SeesAll && ev.GetEncounterRewound() == nil {
		return ev
	}
	if ev.GetEncounterRewound() == nil && v.Sees(ev.GetCombatantAdded().GetCombatant()) &&
		v.Sees(ev.GetCommand().GetAddCombatant().GetCombatant()) && seesEveryone(before, v) {
		out := proto.CloneOf(ev)
		out.Redacted = false
		WithholdDicePositions(out)
		return out
	}
	out := r.viewEvent(before, ev, v)
	if !v.SeesAll {
		WithholdDicePositions(out)
	}
	return out
}

func (r *Registry) viewEvent(before *encounterv1.EncounterState, ev *encounterv1.Event, v Viewer) *encounterv1.Event {
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
		rw.State = r.view(rw.GetState(), v)
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
	sys.RedactEvent(out, secret)
	if !proto.Equal(out.GetCommand(), ev.GetCommand()) {
		out.CommandDigest = nil // it would let a reader test guesses of what was withheld
	}
	out.Redacted = !proto.Equal(out, ev)
	return out
}

// WithholdDicePositions removes from m (a reader's copy of a state or an event) every position
// in the encounter's dice stream: the state's dice_offset and dice_high_water, a rewind's
// dice_offset, and each roll's offset and draws, wherever they are (in lists, maps, a rewind's
// state). A roll's faces are its own, but where it starts is not: it counts every word drawn
// before it, the hidden combatants' included, so a reader comparing positions would learn
// what it may not see (that a hidden d10 exploded: one word more; that a d20seg Initiative
// roll-off was rolled: a tie with a hidden combatant). No position at all, to every reader
// who does not see everything, whether or not someone is hidden now: a position shown only
// while no one is hidden would still count the draws made while someone was. The GM and the
// co-GMs, and the log itself (fray export, fray audit verify), keep them all, so the dice are
// verified from the full log once the end reveals the seed (docs/event-log.md).
func WithholdDicePositions(m proto.Message) { withholdDicePositions(m.ProtoReflect()) }

func withholdDicePositions(m protoreflect.Message) {
	switch x := m.Interface().(type) {
	case *dicev1.Roll:
		x.Offset, x.Draws = 0, 0
		return
	case *encounterv1.EncounterState:
		x.DiceOffset, x.DiceHighWater = 0, 0
	case *encounterv1.EncounterRewound:
		x.DiceOffset = 0
	case *structpb.Struct: // a plug-in's JSON: its rolls are under RollKey (plugin.go)
		withholdStructPositions(x)
		return
	}
	for _, fd := range positionFieldsOf(m.Descriptor()) {
		if !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		switch {
		case fd.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				withholdDicePositions(mv.Message())
				return true
			})
		case fd.IsList():
			for i := range v.List().Len() {
				withholdDicePositions(v.List().Get(i).Message())
			}
		default:
			withholdDicePositions(v.Message())
		}
	}
}

// positionTypes are the messages that hold a dice position themselves.
var positionTypes = map[protoreflect.FullName]bool{
	rollName: true,
	(&encounterv1.EncounterState{}).ProtoReflect().Descriptor().FullName():   true,
	(&encounterv1.EncounterRewound{}).ProtoReflect().Descriptor().FullName(): true,
	pluginName: true,
}

// positionFields caches positionFieldsOf by message type.
var positionFields sync.Map // protoreflect.MessageDescriptor → []protoreflect.FieldDescriptor

// positionFieldsOf lists the fields of a message of type md (lists and maps included, a
// oneof's members each) whose messages may hold a dice position, directly or deeper: a view
// walks only those, not a sheet's or a state's every field.
func positionFieldsOf(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	if fs, ok := positionFields.Load(md); ok {
		return fs.([]protoreflect.FieldDescriptor)
	}
	var fs []protoreflect.FieldDescriptor
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		held := fd.Message()
		if fd.IsMap() {
			held = fd.MapValue().Message()
		}
		if held != nil && mayHoldPosition(held, map[protoreflect.FullName]bool{md.FullName(): true}) {
			fs = append(fs, fd)
		}
	}
	positionFields.Store(md, fs)
	return fs
}

// mayHoldPosition reports whether a message of type md may hold a dice position. A type
// already being looked into (seen, a recursive type) is taken to hold one: at worst a field
// is visited in vain.
func mayHoldPosition(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if positionTypes[md.FullName()] || seen[md.FullName()] {
		return true
	}
	seen[md.FullName()] = true
	defer delete(seen, md.FullName())
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		held := fd.Message()
		if fd.IsMap() {
			held = fd.MapValue().Message()
		}
		if held != nil && mayHoldPosition(held, seen) {
			return true
		}
	}
	return false
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
