package engine

import (
	"fmt"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// LegalCommand is one legal action and the command that takes it: the combatant, the kind of
// action and what the action decides (its weapon, its reaction) filled in, the fields its
// choices name left at their zero value.
type LegalCommand struct {
	Action  *rulesetv1.LegalAction
	Command *encounterv1.Command
}

// Commander is the part of a System that lists the legal actions with their commands: the
// engine's Legal is LegalCommands without the commands, written once here for every system.
type Commander interface {
	LegalCommands(st *encounterv1.EncounterState, combatant string) []LegalCommand
}

// LegalCommands lists what a combatant may do now, each action with the command that takes
// it, as Legal does.
func (r *Registry) LegalCommands(st *encounterv1.EncounterState, combatant string) ([]LegalCommand, error) {
	sys, err := r.system(st)
	if err != nil {
		return nil, err
	}
	if FindCombatant(st, combatant) == nil {
		return nil, NotFound("there is no combatant %q in this encounter", combatant)
	}
	if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
		return nil, nil
	}
	return sys.LegalCommands(st, combatant), nil
}

// Actions returns the legal actions of a list of LegalCommands.
func Actions(list []LegalCommand) []*rulesetv1.LegalAction {
	out := make([]*rulesetv1.LegalAction, 0, len(list))
	for _, l := range list {
		out = append(out, l.Action)
	}
	return out
}

// Fill sets the field of cmd that path names ("loss.attack.target_id", a Choice's field) to
// value, written as a ChoiceOption's value: a string as it is, an enum value by its name, a
// bool as "true" or "false", a number in decimal. A repeated field gets value appended; a map
// field ("loss.react.spend.inspiration") takes "key=number". In a plug-in's JSON (a plugin
// arm: "plugin.poke.target_id") the path's names are keys, and the value the pre-filled
// command holds there says how value is written (fillStruct).
func Fill(cmd *encounterv1.Command, path, value string) error {
	m := cmd.ProtoReflect()
	names := strings.Split(path, ".")
	for i, name := range names {
		if s, ok := m.Interface().(*structpb.Struct); ok { // a plug-in's JSON: the rest are keys
			return fillStruct(s, path, names[i:], value)
		}
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(name))
		if fd == nil {
			return fmt.Errorf("%s: %s has no field %q", path, m.Descriptor().FullName(), name)
		}
		if i < len(names)-1 {
			if fd.Kind() != protoreflect.MessageKind || fd.IsList() || fd.IsMap() {
				return fmt.Errorf("%s: %s is not a message", path, name)
			}
			m = m.Mutable(fd).Message()
			continue
		}
		if fd.IsMap() {
			k, n, ok := strings.Cut(value, "=")
			if !ok {
				return fmt.Errorf("%s: %q is not key=number", path, value)
			}
			v, err := scalar(fd.MapValue(), n)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			m.Mutable(fd).Map().Set(protoreflect.ValueOfString(k).MapKey(), v)
			return nil
		}
		v, err := scalar(fd, value)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if fd.IsList() {
			m.Mutable(fd).List().Append(v)
		} else {
			m.Set(fd, v)
		}
	}
	return nil
}

// scalar parses value as fd's kind: a string, an enum value's name, a bool or a number.
func scalar(fd protoreflect.FieldDescriptor, value string) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(value), nil
	case protoreflect.EnumKind:
		ev := fd.Enum().Values().ByName(protoreflect.Name(value))
		if ev == nil {
			return protoreflect.Value{}, fmt.Errorf("%q is not a value of %s", value, fd.Enum().FullName())
		}
		return protoreflect.ValueOfEnum(ev.Number()), nil
	case protoreflect.BoolKind:
		b, err := strconv.ParseBool(value)
		return protoreflect.ValueOfBool(b), err
	case protoreflect.Int32Kind:
		n, err := strconv.ParseInt(value, 10, 32)
		return protoreflect.ValueOfInt32(int32(n)), err
	}
	return protoreflect.Value{}, fmt.Errorf("a field of kind %v cannot be filled", fd.Kind())
}

// fillStruct is Fill in a plug-in's JSON, whose keys carry no types: the value the pre-filled
// command holds at the path says how value is written — a number where it holds a number, a
// bool where a bool, appended to a list (as its first entry is written), a string otherwise
// (where it holds a string, or nothing). Objects on the way are made.
func fillStruct(s *structpb.Struct, path string, keys []string, value string) error {
	for _, k := range keys[:len(keys)-1] {
		if s.Fields == nil {
			s.Fields = map[string]*structpb.Value{}
		}
		v := s.Fields[k]
		if v.GetKind() == nil {
			v = structpb.NewStructValue(&structpb.Struct{})
			s.Fields[k] = v
		}
		if v.GetStructValue() == nil {
			return fmt.Errorf("%s: %s is not an object", path, k)
		}
		s = v.GetStructValue()
	}
	if s.Fields == nil {
		s.Fields = map[string]*structpb.Value{}
	}
	last := keys[len(keys)-1]
	held := s.Fields[last]
	if l := held.GetListValue(); l != nil {
		var like *structpb.Value
		if len(l.GetValues()) > 0 {
			like = l.GetValues()[0]
		}
		v, err := jsonScalar(like, value)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		l.Values = append(l.Values, v)
		return nil
	}
	v, err := jsonScalar(held, value)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s.Fields[last] = v
	return nil
}

// jsonScalar is value written as like is: a number, a bool, else a string.
func jsonScalar(like *structpb.Value, value string) (*structpb.Value, error) {
	switch like.GetKind().(type) {
	case *structpb.Value_NumberValue:
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", value)
		}
		return structpb.NewNumberValue(n), nil
	case *structpb.Value_BoolValue:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", value)
		}
		return structpb.NewBoolValue(b), nil
	}
	return structpb.NewStringValue(value), nil
}
