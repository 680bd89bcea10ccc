package engine

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestAStateHoldsNoRollButInAPlugin: of a state, only a plug-in's JSON (a plugin arm: the
// state's, its options', a combatant's sheet) may hold a roll, a message that carries a dice
// position; besides, its only positions are its own dice_offset and dice_high_water.
// ViewShared shares the parts of a state with a reader's view and withholds the positions of
// its own fields, unless it holds a plug-in's JSON (holdsPluginJSON): a field added that may
// hold a roll fails here (its positions would be withheld from the state itself).
func TestAStateHoldsNoRollButInAPlugin(t *testing.T) {
	plugins := map[protoreflect.FullName]bool{}
	for _, m := range []proto.Message{&encounterv1.EncounterState{}, &encounterv1.RuleOptions{}, &encounterv1.Combatant{}} {
		fd := m.ProtoReflect().Descriptor().Fields().ByName("plugin")
		require.NotNil(t, fd, "%T's plugin arm", m)
		require.Equal(t, pluginName, fd.Message().FullName())
		plugins[fd.FullName()] = true
	}
	var walk func(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool)
	walk = func(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			held := fd.Message()
			if fd.IsMap() {
				held = fd.MapValue().Message()
			}
			if held == nil || plugins[fd.FullName()] {
				continue
			}
			require.False(t, positionTypes[held.FullName()], "%s may hold a dice position", fd.FullName())
			walk(held, seen)
		}
	}
	walk((&encounterv1.EncounterState{}).ProtoReflect().Descriptor(), map[protoreflect.FullName]bool{})
	require.True(t, reaches((&encounterv1.Event{}).ProtoReflect().Descriptor(), map[protoreflect.FullName]bool{}), "the check finds one in an event")
}

// reaches reports whether a message of type md holds, at any depth, a message of a type that
// carries a dice position (positionTypes), each type looked into once.
func reaches(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if positionTypes[md.FullName()] {
		return true
	}
	if seen[md.FullName()] {
		return false
	}
	seen[md.FullName()] = true
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		held := fd.Message()
		if fd.IsMap() {
			held = fd.MapValue().Message()
		}
		if held != nil && reaches(held, seen) {
			return true
		}
	}
	return false
}

// TestAPlayersSharedViewOfAPluginStateLeavesItsRolls: a state holding a plug-in's JSON with a
// roll in it (its part, a combatant's sheet) is viewed by a player as a copy: the view has
// no dice position, the state keeps all of them.
func TestAPlayersSharedViewOfAPluginStateLeavesItsRolls(t *testing.T) {
	withRoll := func() *structpb.Struct {
		s, err := PluginStruct(map[string]any{"last": map[string]any{"roll": PluginRoll{&dicev1.Roll{Total: 4, Offset: 7, Draws: 1}}}})
		require.NoError(t, err)
		return s
	}
	for name, st := range map[string]*encounterv1.EncounterState{
		"the system's part": {EncounterId: "e", DiceOffset: 9, System: &encounterv1.EncounterState_Plugin{Plugin: withRoll()}},
		"a sheet": {EncounterId: "e", DiceOffset: 9, Combatants: []*encounterv1.Combatant{
			{Id: "a", Controller: "p", Sheet: &encounterv1.Combatant_Plugin{Plugin: withRoll()}}}},
	} {
		was := proto.CloneOf(st)
		view := NewRegistry().ViewShared(st, Viewer{Controls: map[string]bool{"a": true}})
		require.True(t, proto.Equal(was, st), "%s: the state keeps its dice positions", name)
		bare := proto.CloneOf(view)
		WithholdDicePositions(bare)
		require.True(t, proto.Equal(bare, view), "%s: the view has none: %v", name, view)
		require.Zero(t, view.GetDiceOffset())
		require.True(t, view.GetPlugin() != nil || view.GetCombatants()[0].GetPlugin() != nil, "%s: the view holds the JSON", name)
	}
}
