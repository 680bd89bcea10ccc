package engine

import (
	"sync"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var rollName = (&dicev1.Roll{}).ProtoReflect().Descriptor().FullName()

// advanceDice moves the state's dice offset, and its high-water mark, past every roll
// recorded in m.
func advanceDice(st *encounterv1.EncounterState, m protoreflect.Message) {
	eachRoll(m, func(r *dicev1.Roll) {
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
// aside). It visits only the fields that may hold a roll (rollFields).
func eachRoll(m protoreflect.Message, visit func(*dicev1.Roll)) {
	md := m.Descriptor()
	if md.FullName() == rollName {
		visit(m.Interface().(*dicev1.Roll))
		return
	}
	for _, fd := range rollFields(md) {
		if fd.IsList() {
			l := m.Get(fd).List()
			for i := range l.Len() {
				eachRoll(l.Get(i).Message(), visit)
			}
		} else if m.Has(fd) {
			eachRoll(m.Get(fd).Message(), visit)
		}
	}
}

// rollFieldsOf caches rollFields by message type.
var rollFieldsOf sync.Map // protoreflect.FullName → []protoreflect.FieldDescriptor

// rollFields lists, in field order, the message fields (lists included, maps not) of a message
// of type md that may hold a dice roll, directly or deeper.
func rollFields(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	if fs, ok := rollFieldsOf.Load(md.FullName()); ok {
		return fs.([]protoreflect.FieldDescriptor)
	}
	var fs []protoreflect.FieldDescriptor
	seen := map[protoreflect.FullName]bool{md.FullName(): true}
	for i := range md.Fields().Len() {
		if fd := md.Fields().Get(i); fd.Message() != nil && !fd.IsMap() && mayHoldRoll(fd.Message(), seen) {
			fs = append(fs, fd)
		}
	}
	rollFieldsOf.Store(md.FullName(), fs)
	return fs
}

// mayHoldRoll reports whether a message of type md may hold a dice roll. A type already being
// looked into (seen, a recursive type) is taken to hold one: at worst a field is visited in
// vain.
func mayHoldRoll(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if md.FullName() == rollName || seen[md.FullName()] {
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
