package engine

// A rule system with no generated code of its own — a plug-in (docs/DESIGN.md, "A rule system
// that is a plug-in") — keeps its house rules, sheets, state, actions and events in the plugin
// arm of the shared oneofs, a google.protobuf.Struct: JSON values. These helpers read and write
// those arms as the system's own Go values, and carry its dice rolls where the engine finds a
// typed system's (Rolls, the audit, WithholdDicePositions).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// RollKey is the key under which a plug-in's JSON holds a dice roll: the value of a "roll"
// key, at any depth of a plugin arm, is a fray.dice.v1.Roll in protojson (PluginRoll), which
// the engine reads as it reads a typed system's rolls.
const RollKey = "roll"

// PluginRoll is a dice roll in a plug-in's Go value, written as the roll's protojson: a field
// field Roll engine.PluginRoll, tagged json:"roll", of an event records the roll where the
// engine finds it.
type PluginRoll struct{ *dicev1.Roll }

// MarshalJSON writes the roll as protojson.
func (r PluginRoll) MarshalJSON() ([]byte, error) {
	if r.Roll == nil {
		return []byte("null"), nil
	}
	return protojson.Marshal(r.Roll)
}

// UnmarshalJSON reads the roll from protojson.
func (r *PluginRoll) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		r.Roll = nil
		return nil
	}
	r.Roll = &dicev1.Roll{}
	return protojson.Unmarshal(b, r.Roll)
}

// PluginStruct is v (a struct with json tags, a map) as a plugin arm: v's JSON object.
func PluginStruct(v any) (*structpb.Struct, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := &structpb.Struct{}
	if err := protojson.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("%T is not a JSON object: %w", v, err)
	}
	return s, nil
}

// PluginOf reads the plugin arm s into v (a pointer), by encoding/json, refusing a key v has
// no field for: a system's Options, CheckCombatant and Decide return the error to the user,
// whose JSON the wire did not check. A nil s reads as an empty object.
func PluginOf(s *structpb.Struct, v any) error {
	b := []byte("{}")
	if s != nil {
		var err error
		if b, err = protojson.Marshal(s); err != nil {
			return err
		}
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// structRolls calls visit with every roll a plug-in's JSON holds (under RollKey, at any
// depth), each read into a new message: Rolls gives copies of them.
func structRolls(s *structpb.Struct, visit func(*dicev1.Roll)) {
	eachRollObject(s, func(o *structpb.Struct) {
		b, err := protojson.Marshal(o)
		if err != nil {
			return
		}
		r := &dicev1.Roll{}
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, r); err == nil {
			visit(r)
		}
	})
}

// withholdStructPositions removes the dice positions (offset, draws) of every roll a plug-in's
// JSON holds, as WithholdDicePositions does of a typed roll.
func withholdStructPositions(s *structpb.Struct) {
	eachRollObject(s, func(o *structpb.Struct) {
		delete(o.GetFields(), "offset")
		delete(o.GetFields(), "draws")
	})
}

// eachRollObject calls visit with every object under RollKey in s, at any depth, an object's
// keys in sorted order: the same rolls in the same order every time.
func eachRollObject(s *structpb.Struct, visit func(*structpb.Struct)) {
	for _, k := range slices.Sorted(maps.Keys(s.GetFields())) {
		v := s.GetFields()[k]
		if o := v.GetStructValue(); o != nil && k == RollKey {
			visit(o)
			continue
		}
		eachRollValue(v, visit)
	}
}

func eachRollValue(v *structpb.Value, visit func(*structpb.Struct)) {
	switch {
	case v.GetStructValue() != nil:
		eachRollObject(v.GetStructValue(), visit)
	case v.GetListValue() != nil:
		for _, x := range v.GetListValue().GetValues() {
			eachRollValue(x, visit)
		}
	}
}
