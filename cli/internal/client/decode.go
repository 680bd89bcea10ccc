package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/structpb"
	"sigs.k8s.io/yaml"
)

// LoadCombatant reads a fray.encounter.v1.Combatant from a YAML or JSON file, in protojson
// field names (lowerCamelCase or snake_case) and enum value names.
func LoadCombatant(path string) (*encounterv1.Combatant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCombatant(path, data)
}

// ParseCombatant decodes a Combatant from data (YAML or JSON); name is the file name that
// errors mention.
func ParseCombatant(name string, data []byte) (*encounterv1.Combatant, error) {
	c := &encounterv1.Combatant{}
	if err := DecodeProto(name, data, c); err != nil {
		return nil, err
	}
	if c.GetId() == "" {
		return nil, &DecodeError{File: name, Field: "id", Msg: "missing: every combatant needs an id"}
	}
	return c, nil
}

// DecodeError is a file that does not decode: which file, which field (a path such as
// "loss.weapons[0].kind", empty when the file as a whole is wrong) and why.
type DecodeError struct {
	File  string
	Field string
	Msg   string
}

func (e *DecodeError) Error() string {
	if e.Field == "" {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s: field %s: %s", e.File, e.Field, e.Msg)
}

// DecodeProto decodes data, YAML or JSON, into m with protojson (unknown fields are errors).
// A file named *.json is read as JSON as it is; anything else goes through YAML, of which JSON
// is a subset.
func DecodeProto(name string, data []byte, m proto.Message) error {
	js, err := toJSON(name, data)
	if err != nil {
		return err
	}
	err = protojson.Unmarshal(js, m)
	if err == nil {
		return nil
	}
	field, msg := locate(m.ProtoReflect().Descriptor(), js, "")
	if msg == "" {
		msg = protoErrText(err)
	}
	return &DecodeError{File: name, Field: field, Msg: msg}
}

func toJSON(name string, data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &DecodeError{File: name, Msg: "the file is empty"}
	}
	if strings.EqualFold(filepath.Ext(name), ".json") {
		if !json.Valid(data) {
			var v any
			err := json.Unmarshal(data, &v)
			return nil, &DecodeError{File: name, Msg: "not valid JSON: " + err.Error()}
		}
		return data, nil
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, &DecodeError{File: name, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")}
	}
	if string(bytes.TrimSpace(js)) == "null" {
		return nil, &DecodeError{File: name, Msg: "the file holds no data"}
	}
	return js, nil
}

var protoErrPrefix = regexp.MustCompile(`^proto:[\s\x{00a0}]*(\(line \d+:\d+\):[\s\x{00a0}]*)?`)

// protoErrText is a protojson error without its "proto: (line 1:12): " prefix, whose
// position is in the converted JSON rather than in the user's file.
func protoErrText(err error) string {
	return protoErrPrefix.ReplaceAllString(err.Error(), "")
}

// locate finds the first field of js (a JSON object for md) that protojson refuses, trying
// one field at a time, and returns its path and the reason. It returns an empty path and
// message when it cannot tell (the caller then reports protojson's own error).
func locate(md protoreflect.MessageDescriptor, js []byte, path string) (string, string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(js, &obj); err != nil || obj == nil {
		// Not an object: the message as a whole is wrong.
		err := protojson.Unmarshal(js, dynamicpb.NewMessage(md))
		if err == nil {
			return "", ""
		}
		return pathOr(path), "expected an object with the fields of " + string(md.FullName()) + ", got " + jsonKind(js)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := obj[k]
		p := join(path, k)
		fd := md.Fields().ByJSONName(k)
		if fd == nil {
			fd = md.Fields().ByName(protoreflect.Name(k))
		}
		if fd == nil {
			return p, "unknown field; " + string(md.FullName()) + " has " + fieldList(md)
		}
		one, _ := json.Marshal(map[string]json.RawMessage{k: v})
		err := protojson.Unmarshal(one, dynamicpb.NewMessage(md))
		if err == nil {
			continue
		}
		if sub, msg := locateValue(fd, v, p); msg != "" {
			return sub, msg
		}
		return p, protoErrText(err) + enumHint(fd)
	}
	// Each field decodes alone: the trouble is between fields (a oneof set twice, a field
	// given under both of its names).
	return "", ""
}

// locateValue looks inside the value of a message, list or map field.
func locateValue(fd protoreflect.FieldDescriptor, v json.RawMessage, path string) (string, string) {
	isMsg := func(fd protoreflect.FieldDescriptor) bool {
		return fd.Message() != nil && !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf.")
	}
	switch {
	case fd.IsMap():
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return path, "expected an object (a map), got " + jsonKind(v)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		val := fd.MapValue()
		for _, k := range keys {
			p := fmt.Sprintf("%s[%q]", path, k)
			if isMsg(val) {
				if sub, msg := locate(val.Message(), m[k], p); msg != "" {
					return sub, msg
				}
				continue
			}
			if !scalarOK(fd, k, m[k]) {
				return p, fmt.Sprintf("invalid value %s: expected %s", string(m[k]), kindName(val)) + enumHint(val)
			}
		}
	case fd.IsList():
		var l []json.RawMessage
		if json.Unmarshal(v, &l) != nil {
			return path, "expected a list, got " + jsonKind(v)
		}
		for i, e := range l {
			p := fmt.Sprintf("%s[%d]", path, i)
			if isMsg(fd) {
				if sub, msg := locate(fd.Message(), e, p); msg != "" {
					return sub, msg
				}
				continue
			}
			one, _ := json.Marshal(map[string][]json.RawMessage{fd.JSONName(): {e}})
			if err := protojson.Unmarshal(one, dynamicpb.NewMessage(fd.ContainingMessage())); err != nil {
				return p, protoErrText(err) + enumHint(fd)
			}
		}
	case isMsg(fd):
		return locate(fd.Message(), v, path)
	}
	return "", ""
}

// scalarOK reports whether a map entry k: v decodes.
func scalarOK(fd protoreflect.FieldDescriptor, k string, v json.RawMessage) bool {
	one, _ := json.Marshal(map[string]map[string]json.RawMessage{fd.JSONName(): {k: v}})
	return protojson.Unmarshal(one, dynamicpb.NewMessage(fd.ContainingMessage())) == nil
}

// kindName: "an int32", "a string", "an enum".
func kindName(fd protoreflect.FieldDescriptor) string {
	k := fd.Kind().String()
	if strings.ContainsRune("aeiou", rune(k[0])) {
		return "an " + k
	}
	return "a " + k
}

func enumHint(fd protoreflect.FieldDescriptor) string {
	ed := fd.Enum()
	if ed == nil {
		return ""
	}
	var names []string
	for i := range ed.Values().Len() {
		if v := ed.Values().Get(i); v.Number() != 0 {
			names = append(names, string(v.Name()))
		}
	}
	return " (one of " + strings.Join(names, ", ") + ")"
}

func fieldList(md protoreflect.MessageDescriptor) string {
	var names []string
	for i := range md.Fields().Len() {
		names = append(names, md.Fields().Get(i).TextName())
	}
	return strings.Join(names, ", ")
}

func jsonKind(js []byte) string {
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return "something else"
	}
	switch v.(type) {
	case nil:
		return "nothing (null)"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	default:
		return "an object"
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func pathOr(path string) string {
	if path == "" {
		return "(top level)"
	}
	return path
}

// LoadOptions reads the --options file: a fray.encounter.v1.RuleOptions ("loss: {...}",
// "ka: {...}") or the bare options of the system given (fray.loss.v1.Options for loss): the
// arm of RuleOptions named after the system; for a system with no such arm (a plug-in), its
// bare options are JSON values, the plugin arm.
func LoadOptions(path, system string) (*encounterv1.RuleOptions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	js, err := toJSON(path, data)
	if err != nil {
		return nil, err
	}
	o := &encounterv1.RuleOptions{}
	var top map[string]json.RawMessage
	if arm := Arm(o, "system", system); arm != nil && json.Unmarshal(js, &top) == nil {
		if _, wrapped := top[system]; !wrapped {
			bare := o.ProtoReflect().NewField(arm)
			if err := DecodeProto(path, data, bare.Message().Interface()); err != nil {
				return nil, err
			}
			o.ProtoReflect().Set(arm, bare)
			return o, nil
		}
	}
	if Arm(o, "system", system) == nil && json.Unmarshal(js, &top) == nil && !namesAField(o, top) {
		// A system with no typed arm (a plug-in): its bare options are its JSON, the plugin arm.
		s := &structpb.Struct{}
		if err := protojson.Unmarshal(js, s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Plugin{Plugin: s}}, nil
	}
	if err := DecodeProto(path, data, o); err != nil {
		return nil, err
	}
	return o, nil
}

// namesAField reports whether a key of top names a field of m, by its name or its JSON name.
func namesAField(m proto.Message, top map[string]json.RawMessage) bool {
	fields := m.ProtoReflect().Descriptor().Fields()
	for k := range top {
		if fields.ByName(protoreflect.Name(k)) != nil || fields.ByJSONName(k) != nil {
			return true
		}
	}
	return false
}
