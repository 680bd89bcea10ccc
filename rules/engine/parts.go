package engine

// What every rule system's package would otherwise write again at the door of its Options and
// its DiceEnd: its own part of a message shared by all systems (RuleOptions, Event), read by
// the generated getter of its oneof arm (RuleOptions.GetKa, Event.GetKa).

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// OptionsOf is a copy of the system's options in in, read by get, for its Options to fill in
// the defaults: new ones when in gives none, an Invalid error a user reads when in gives
// another system's (name is the system's, as a user knows it).
func OptionsOf[O interface {
	*M
	proto.Message
}, M any](in *encounterv1.RuleOptions, get func(*encounterv1.RuleOptions) O, name string) (O, error) {
	o := get(in)
	if o == nil && in.GetSystem() != nil {
		return nil, Invalid("", "the options given are not %s options", name)
	}
	if o == nil {
		return new(M), nil
	}
	return proto.CloneOf(o), nil
}

// DiceEndOf is a system's DiceEnd (DiceEnder) of its own event e, read from the shared one by
// its getter (Event.GetKa): end(e), and true; 0 and false when the event is not the system's.
func DiceEndOf[E comparable](e E, end func(E) uint64) (uint64, bool) {
	var none E
	if e == none {
		return 0, false
	}
	return end(e), true
}

// SetKind puts kind into the arm of msg's oneof "kind" that holds kind's message type (a
// system's Action: Attack into attack, Pass into pass_turn), where each system's legal list
// would otherwise switch from every kind to its generated wrapper. False, msg unchanged, when
// no arm holds it.
func SetKind(msg, kind proto.Message) bool {
	m, want := msg.ProtoReflect(), kind.ProtoReflect()
	fields := m.Descriptor().Oneofs().ByName("kind").Fields()
	for i := range fields.Len() {
		if fd := fields.Get(i); fd.Message() != nil && fd.Message().FullName() == want.Descriptor().FullName() {
			m.Set(fd, protoreflect.ValueOfMessage(want))
			return true
		}
	}
	return false
}

// CopyUnknown gives dst the fields of src this build does not know (a state written by a
// later one), shared: nothing changes them. For a system's CopyState (StateCopier), which
// writes its own fields out one by one.
func CopyUnknown(dst, src proto.Message) {
	if u := src.ProtoReflect().GetUnknown(); u != nil {
		dst.ProtoReflect().SetUnknown(u)
	}
}
