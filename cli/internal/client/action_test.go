package client

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// SystemCommand finds an action's place by the message's type: every system's Action has at
// most one arm of each type, or the type would not say which arm.
func TestActionArmsAreOnePerType(t *testing.T) {
	kind := (&encounterv1.Command{}).ProtoReflect().Descriptor().Oneofs().ByName("kind")
	systems := 0
	for i := range kind.Fields().Len() {
		action := kind.Fields().Get(i).Message()
		if action == nil || action.Fields().ByName("combatant_id") == nil || action.Oneofs().Len() == 0 {
			continue // not a system's Action
		}
		systems++
		seen := map[protoreflect.FullName]string{}
		for j := range action.Oneofs().Len() {
			arms := action.Oneofs().Get(j).Fields()
			for k := range arms.Len() {
				f := arms.Get(k)
				require.NotNil(t, f.Message(), "%s", f.FullName())
				require.Empty(t, seen[f.Message().FullName()], "%s and %s are both %s", seen[f.Message().FullName()], f.Name(), f.Message().FullName())
				seen[f.Message().FullName()] = string(f.Name())
			}
		}
	}
	require.GreaterOrEqual(t, systems, 4)
}

func TestSystemCommandPutsTheActionInItsArms(t *testing.T) {
	got, err := SystemCommand("ka", "joshua", &kav1.Attack{TargetId: "chien", Weapon: "pistolet"})
	require.NoError(t, err)
	requireProtoEqual(t, &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "joshua",
		Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet"}}}}}, got)

	got, err = SystemCommand("loss", "", &lossv1.StartPursuit{PursuerIds: []string{"a"}, PursuedIds: []string{"b"}, Distance: 3})
	require.NoError(t, err)
	requireProtoEqual(t, &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{
		Kind: &lossv1.Action_StartPursuit{StartPursuit: &lossv1.StartPursuit{PursuerIds: []string{"a"}, PursuedIds: []string{"b"}, Distance: 3}}}}}, got)

	_, err = SystemCommand("chess", "a", &kav1.Attack{})
	require.ErrorContains(t, err, `fray.encounter.v1.Command has no arm "chess"`)
	_, err = SystemCommand("loss", "a", &kav1.Attack{})
	require.ErrorContains(t, err, "fray.loss.v1.Action has no arm of type fray.ka.v1.Attack")
	_, err = SystemCommand("create", "a", &kav1.Attack{})
	require.Error(t, err, "not a system's arm")
}
