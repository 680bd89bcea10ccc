package engine

// Filling a choice for a client: Submit takes a legal action's pre-filled command and the
// values of its choices as strings (SubmitRequest.choices), which the server turns into the
// fields' types here, so that no client walks descriptors to do it (issue 28).

import (
	"fmt"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// ChoiceError is a choice that cannot be filled: Choice is its key as the client gave it.
type ChoiceError struct {
	Choice string
	Msg    string
}

func (e *ChoiceError) Error() string { return fmt.Sprintf("choice %q: %s", e.Choice, e.Msg) }

// maxChoiceDepth bounds how deep a choice's last name is looked for below the command's own
// action (loss.react.spend.fursa is 4 deep).
const maxChoiceDepth = 6

// FillChoices sets in cmd, a command of one kind (a LegalCommand's), each of choices: by the
// choice's field (Choice.field, "loss.attack.target_id") or by its last name ("target_id",
// when only one field of the command's action has it), to the value written as a string:
// a number ("5"), a bool ("true"), an enum value by its name ("EXPLOIT_EFFECT_DISARM") or
// short form ("disarm", "Disarm", "extra-damage"), text as it is; a list takes its values
// separated by commas, added to those the command holds (an Assaut's command holds its
// Exploit already), a map "key=number" pairs so. Choices are filled in the order of their keys; the first that cannot be is
// returned as a *ChoiceError, and cmd is then partly filled.
func FillChoices(cmd *encounterv1.Command, choices map[string]string) error {
	keys := make([]string, 0, len(choices))
	for k := range choices {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		path, err := choicePath(cmd, key)
		if err != nil {
			return &ChoiceError{Choice: key, Msg: err.Error()}
		}
		if err := fillChoice(cmd, path, choices[key]); err != nil {
			return &ChoiceError{Choice: key, Msg: err.Error()}
		}
	}
	return nil
}

// kindOf names the command's kind and action, as a player would: "loss.attack".
func kindOf(cmd *encounterv1.Command) string {
	var names []string
	m := cmd.ProtoReflect()
	for range 2 {
		o := m.Descriptor().Oneofs().ByName("kind")
		if o == nil {
			break
		}
		fd := m.WhichOneof(o)
		if fd == nil {
			break
		}
		names = append(names, string(fd.Name()))
		if fd.Message() == nil {
			break
		}
		m = m.Get(fd).Message()
	}
	return strings.Join(names, ".")
}

// choicePath is the full path of the field key names in cmd: key itself when it is a path
// into the command's own kind, else the one path of the command's action whose last name is
// key.
func choicePath(cmd *encounterv1.Command, key string) (string, error) {
	if cmd.GetKind() == nil {
		return "", fmt.Errorf("the command has no kind: send the command of a legal action (LegalCommand.command) with its choices")
	}
	var found, plugins []string
	walkChoices(cmd.ProtoReflect(), "", 0, func(path string) {
		if path == key || strings.HasSuffix(path, "."+key) {
			found = append(found, path)
		}
	}, func(prefix string) { plugins = append(plugins, prefix) })
	for _, p := range plugins { // a plug-in's JSON: any key below it, as its choices name them
		if strings.HasPrefix(key, p) && len(key) > len(p) {
			return key, nil
		}
	}
	switch {
	case slices.Contains(found, key):
		return key, nil
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", fmt.Errorf("%d fields of a %s command are so named (%s): name one by its whole path", len(found), kindOf(cmd), strings.Join(found, ", "))
	}
	return "", fmt.Errorf("no field of a %s command is so named: a choice is named by its field (Choice.field, such as %q) or that field's last name", kindOf(cmd), firstLeaf(cmd))
}

// walkChoices calls leaf with the path of every field of m that is not a message, below m's
// fields of a oneof only the one set (a choice never changes what kind of command it is), at
// most maxChoiceDepth deep; in a plug-in's JSON (a google.protobuf.Struct), with the path of
// every key the command holds that is not an object, and plugin with the Struct's own path
// and a dot ("plugin."): its keys carry no types, so any path below it may be a choice.
func walkChoices(m protoreflect.Message, prefix string, depth int, leaf func(string), plugin func(string)) {
	if s, ok := m.Interface().(*structpb.Struct); ok {
		plugin(prefix)
		walkStruct(s, prefix, depth, leaf)
		return
	}
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() && m.WhichOneof(o) != fd {
			continue
		}
		path := prefix + string(fd.Name())
		if fd.Kind() == protoreflect.MessageKind && !fd.IsList() && !fd.IsMap() {
			if depth < maxChoiceDepth {
				walkChoices(m.Get(fd).Message(), path+".", depth+1, leaf, plugin)
			}
			continue
		}
		leaf(path)
	}
}

// walkStruct calls leaf with the path of every key of s that is not an object.
func walkStruct(s *structpb.Struct, prefix string, depth int, leaf func(string)) {
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if o := s.GetFields()[k].GetStructValue(); o != nil {
			if depth < maxChoiceDepth {
				walkStruct(o, prefix+k+".", depth+1, leaf)
			}
			continue
		}
		leaf(prefix + k)
	}
}

// firstLeaf is an example of a choice's path in cmd, for a message.
func firstLeaf(cmd *encounterv1.Command) string {
	var first string
	walkChoices(cmd.ProtoReflect(), "", 0, func(p string) {
		if first == "" && strings.Count(p, ".") >= 2 {
			first = p
		}
	}, func(string) {})
	return first
}

// fillChoice sets the field of cmd at path (one walkChoices found) to value; in a plug-in's
// JSON as Fill writes it there (fillStruct: as the value the command holds is written).
func fillChoice(cmd *encounterv1.Command, path, value string) error {
	m := cmd.ProtoReflect()
	names := strings.Split(path, ".")
	for i, name := range names[:len(names)-1] {
		if s, ok := m.Interface().(*structpb.Struct); ok {
			return fillStruct(s, path, names[i:], value)
		}
		m = m.Mutable(m.Descriptor().Fields().ByName(protoreflect.Name(name))).Message()
	}
	if s, ok := m.Interface().(*structpb.Struct); ok {
		return fillStruct(s, path, names[len(names)-1:], value)
	}
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(names[len(names)-1]))
	if fd == nil {
		return fmt.Errorf("%s has no field %q", m.Descriptor().FullName(), names[len(names)-1])
	}
	switch {
	case fd.IsMap():
		mp := m.Mutable(fd).Map()
		for _, pair := range listOf(value) {
			k, n, ok := strings.Cut(pair, "=")
			if !ok {
				return fmt.Errorf("%q is not key=number: this field takes pairs such as %q, separated by commas", pair, "Courage=1")
			}
			v, err := choiceValue(fd.MapValue(), strings.TrimSpace(n))
			if err != nil {
				return err
			}
			mp.Set(protoreflect.ValueOfString(strings.TrimSpace(k)).MapKey(), v)
		}
	case fd.IsList():
		l := m.Mutable(fd).List()
		for _, item := range listOf(value) {
			v, err := choiceValue(fd, item)
			if err != nil {
				return err
			}
			l.Append(v)
		}
	default:
		v, err := choiceValue(fd, strings.TrimSpace(value))
		if err != nil {
			return err
		}
		m.Set(fd, v)
	}
	return nil
}

// listOf splits a list's value at its commas; "" is the empty list.
func listOf(value string) []string {
	var out []string
	for _, s := range strings.Split(value, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// choiceValue parses value as fd's kind, as scalar does, and an enum value by its short form
// too: its name without the enum's prefix, in any case, with '-' or ' ' for '_'.
func choiceValue(fd protoreflect.FieldDescriptor, value string) (protoreflect.Value, error) {
	if fd.Kind() == protoreflect.EnumKind {
		if ev := enumValue(fd.Enum(), value); ev != nil {
			return protoreflect.ValueOfEnum(ev.Number()), nil
		}
		return protoreflect.Value{}, fmt.Errorf("%q is not one of %s", value, strings.Join(enumShortNames(fd.Enum()), ", "))
	}
	v, err := scalar(fd, value)
	if err != nil {
		switch fd.Kind() {
		case protoreflect.BoolKind:
			return v, fmt.Errorf("%q is not true or false", value)
		case protoreflect.Int32Kind:
			return v, fmt.Errorf("%q is not a whole number", value)
		}
	}
	return v, err
}

// enumPrefix is what every value of e's names starts with: "EXPLOIT_EFFECT_".
func enumPrefix(e protoreflect.EnumDescriptor) string {
	return strings.ToUpper(camelToSnake(string(e.Name()))) + "_"
}

func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// enumValue is e's value named name, or by its short form; nil for none, and for the zero
// value (UNSPECIFIED), which no choice takes.
func enumValue(e protoreflect.EnumDescriptor, name string) protoreflect.EnumValueDescriptor {
	if ev := e.Values().ByName(protoreflect.Name(name)); ev != nil && ev.Number() != 0 {
		return ev
	}
	short := strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(strings.TrimSpace(name)))
	if ev := e.Values().ByName(protoreflect.Name(enumPrefix(e) + short)); ev != nil && ev.Number() != 0 {
		return ev
	}
	if ev := e.Values().ByName(protoreflect.Name(short)); ev != nil && ev.Number() != 0 {
		return ev
	}
	return nil
}

// enumShortNames lists e's values but the zero one by their short forms: "disarm, extra-damage".
func enumShortNames(e protoreflect.EnumDescriptor) []string {
	var out []string
	prefix := enumPrefix(e)
	for i := range e.Values().Len() {
		ev := e.Values().Get(i)
		if ev.Number() == 0 {
			continue
		}
		out = append(out, strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(ev.Name()), prefix)), "_", "-"))
	}
	return out
}

// ShortForm is the short form of value for the field of cmd at path when the field is an
// enum ("EXPLOIT_EFFECT_EXTRA_DAMAGE" is "extra-damage"), as a choice may give it; value as it
// is for any other field, or a path it does not find.
func ShortForm(cmd *encounterv1.Command, path, value string) string {
	m := cmd.ProtoReflect()
	names := strings.Split(path, ".")
	for i, name := range names {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(name))
		switch {
		case fd == nil:
			return value
		case i < len(names)-1:
			if fd.Message() == nil || fd.IsList() || fd.IsMap() {
				return value
			}
			m = m.Get(fd).Message()
		case fd.Enum() != nil:
			if ev := fd.Enum().Values().ByName(protoreflect.Name(value)); ev != nil {
				return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(value, enumPrefix(fd.Enum()))), "_", "-")
			}
		}
	}
	return value
}
