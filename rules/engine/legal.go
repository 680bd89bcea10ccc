package engine

import (
	"fmt"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"google.golang.org/protobuf/reflect/protoreflect"
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
// field ("loss.react.spend.inspiration") takes "key=number".
func Fill(cmd *encounterv1.Command, path, value string) error {
	m := cmd.ProtoReflect()
	names := strings.Split(path, ".")
	for i, name := range names {
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
