package engine

import (
	"sync"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

var (
	rollName   = (&dicev1.Roll{}).ProtoReflect().Descriptor().FullName()
	pluginName = (&structpb.Struct{}).ProtoReflect().Descriptor().FullName()
)

// DiceEnder is implemented by a system that finds the dice rolls of its own events itself,
// faster than the engine's walk (Rolls): DiceEnd returns the furthest position of the dice
// stream a roll of ev reaches (offset + draws, the most of them; 0 without a roll), and false
// for an event that is not one of the system's own.
type DiceEnder interface {
	DiceEnd(ev *encounterv1.Event) (uint64, bool)
}

// DiceEnd is the furthest position of the dice stream the rolls reach (offset + draws, the
// most of them; 0 without a roll, a nil roll counting as none), for a DiceEnder.
func DiceEnd(rolls ...*dicev1.Roll) uint64 {
	var end uint64
	for _, r := range rolls {
		end = max(end, r.GetOffset()+r.GetDraws())
	}
	return end
}

// advanceDice moves the state's dice offset, and its high-water mark, past every roll
// recorded in ev.
func advanceDice(sys System, st *encounterv1.EncounterState, ev *encounterv1.Event) {
	if end, own := sys.DiceEnd(ev); own {
		st.DiceOffset = max(st.DiceOffset, end)
		st.DiceHighWater = max(st.DiceHighWater, st.DiceOffset)
		return
	}
	eachRoll(ev.ProtoReflect(), func(r *dicev1.Roll) {
		if end := r.GetOffset() + r.GetDraws(); end > st.DiceOffset {
			st.DiceOffset = end
		}
	})
	st.DiceHighWater = max(st.DiceHighWater, st.DiceOffset)
}

// Rolls returns every dice roll recorded anywhere in m (an event, a batch…), in field order.
func Rolls(m proto.Message) []*dicev1.Roll {
	var out []*dicev1.Roll
	eachRoll(m.ProtoReflect(), func(r *dicev1.Roll) { out = append(out, r) })
	return out
}

// eachRoll calls visit with every dice roll recorded anywhere in m, in field order (map values
// aside). It visits only the fields that may hold a roll (rollPlanOf), and of a oneof only
// the member set.
func eachRoll(m protoreflect.Message, visit func(*dicev1.Roll)) {
	p := rollPlanOf(m.Descriptor())
	if p.roll {
		visit(m.Interface().(*dicev1.Roll))
		return
	}
	if p.plugin { // a plug-in's JSON: its rolls are under RollKey (plugin.go)
		if s, ok := m.Interface().(*structpb.Struct); ok {
			structRolls(s, visit)
		}
		return
	}
	for _, s := range p.steps {
		fd := s.fd
		if s.oneof != nil {
			if fd = m.WhichOneof(s.oneof); fd == nil || !s.holds[fd.Index()] {
				continue
			}
		}
		if fd.IsList() {
			l := m.Get(fd).List()
			for i := range l.Len() {
				eachRoll(l.Get(i).Message(), visit)
			}
		} else if v := m.Get(fd).Message(); v.IsValid() {
			eachRoll(v, visit)
		}
	}
}

// rollPlan is where the rolls of a message of one type may be: the type is a roll, or its
// fields (lists included, maps not) that may hold a roll, directly or deeper, in field order;
// the members of a oneof are one step, at its first member's place.
type rollPlan struct {
	roll bool
	// plugin: the type is a plug-in's JSON (google.protobuf.Struct), whose rolls are found by
	// key, not by type.
	plugin bool
	steps  []rollStep
}

// rollStep is one field, or one oneof with holds[i] true for each member that may hold a
// roll (i: its index among the message's fields).
type rollStep struct {
	fd    protoreflect.FieldDescriptor
	oneof protoreflect.OneofDescriptor
	holds []bool
}

// rollPlans caches rollPlanOf by message type.
var rollPlans sync.Map // protoreflect.MessageDescriptor → *rollPlan

func rollPlanOf(md protoreflect.MessageDescriptor) *rollPlan {
	if p, ok := rollPlans.Load(md); ok {
		return p.(*rollPlan)
	}
	p := &rollPlan{roll: md.FullName() == rollName, plugin: md.FullName() == pluginName}
	if !p.roll && !p.plugin {
		at := map[protoreflect.OneofDescriptor]int{} // the step of each oneof
		for _, fd := range rollFields(md) {
			od := fd.ContainingOneof()
			if od == nil {
				p.steps = append(p.steps, rollStep{fd: fd})
				continue
			}
			i, ok := at[od]
			if !ok {
				i, at[od] = len(p.steps), len(p.steps)
				p.steps = append(p.steps, rollStep{oneof: od, holds: make([]bool, md.Fields().Len())})
			}
			p.steps[i].holds[fd.Index()] = true
		}
	}
	rollPlans.Store(md, p)
	return p
}

// rollFields lists, in field order, the message fields (lists included, maps not) of a message
// of type md that may hold a dice roll, directly or deeper.
func rollFields(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	var fs []protoreflect.FieldDescriptor
	seen := map[protoreflect.FullName]bool{md.FullName(): true}
	for i := range md.Fields().Len() {
		if fd := md.Fields().Get(i); fd.Message() != nil && !fd.IsMap() && mayHoldRoll(fd.Message(), seen) {
			fs = append(fs, fd)
		}
	}
	return fs
}

// mayHoldRoll reports whether a message of type md may hold a dice roll. A type already being
// looked into (seen, a recursive type) is taken to hold one: at worst a field is visited in
// vain.
func mayHoldRoll(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if md.FullName() == rollName || md.FullName() == pluginName || seen[md.FullName()] {
		return true
	}
	seen[md.FullName()] = true
	defer delete(seen, md.FullName())
	for i := range md.Fields().Len() {
		if fd := md.Fields().Get(i); fd.Message() != nil && !fd.IsMap() && mayHoldRoll(fd.Message(), seen) {
			return true
		}
	}
	return false
}
