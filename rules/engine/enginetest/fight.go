package enginetest

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Fight is an encounter driven through a registry, command by command, with fixed dice: the
// one fight helper of every rule system's tests. A system's tests embed it in their own fight
// type for what only that system needs (a Ka deck stacked, a sheet looked up by id).
type Fight struct {
	T   *testing.T
	Reg *engine.Registry
	// St is the state after the last event decided; Log every event so far.
	St  *encounterv1.EncounterState
	Log []*encounterv1.Event
	// edited: the test changed the state by hand (EditState): its log no longer replays to it.
	edited bool
}

// NewFight is a fight played with reg whose encounter (id e1) is not created yet. When the
// test ends, its log must replay to the state it reached (Replays): every fight of every
// system's tests checks so.
func NewFight(t *testing.T, reg *engine.Registry) *Fight {
	f := &Fight{T: t, Reg: reg, St: &encounterv1.EncounterState{EncounterId: "e1"}}
	t.Cleanup(func() {
		if len(f.Log) > 0 && !f.edited && !t.Failed() {
			f.Replays()
		}
	})
	return f
}

// EditState changes the state by hand (edit), as no event could: an old state, a field no
// version writes any more. The fight's log is then no longer checked to replay to its state.
func (f *Fight) EditState(edit func(*encounterv1.EncounterState)) {
	edit(f.St)
	f.edited = true
}

// Setup creates the encounter with create, as the GM gm, and adds cs in order.
func (f *Fight) Setup(gm string, create *encounterv1.Command, cs ...*encounterv1.Combatant) *Fight {
	f.T.Helper()
	f.Do(gm, create)
	for _, c := range cs {
		f.Do(gm, AddCmd(c))
	}
	return f
}

// Decide decides cmd as actor with dice.NewFixed(faces...) and folds its events (Decide, the
// function). On success every face must have been used: a command rolls exactly the dice its
// rules call for.
func (f *Fight) Decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	evs, err := Decide(f.T, f.Reg, f.St, actor, cmd, faces...)
	if err == nil {
		f.Log = append(f.Log, evs...)
	}
	return evs, err
}

// Do is Decide that fails the test on a refusal.
func (f *Fight) Do(actor string, cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	evs, err := f.Decide(actor, cmd, faces...)
	require.NoError(f.T, err)
	return evs
}

// Refuse checks that cmd is refused with code and rule, that the message names each of
// names, that no die is rolled and that the state is untouched (Refuse, the function).
func (f *Fight) Refuse(actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	f.T.Helper()
	return Refuse(f.T, f.Reg, f.St, actor, cmd, code, rule, names...)
}

// Replays checks that folding the log from scratch gives the very state the fight reached.
func (f *Fight) Replays() {
	f.T.Helper()
	Replays(f.T, f.Reg, f.St, f.Log)
}

// CreateCmd is the GM's command creating an encounter named name under system, with opts (a
// message of the system's package: its RuleOptions arm, found by the system's id) or nil for
// the defaults.
func CreateCmd[O proto.Message](name, system string, opts O) *encounterv1.Command {
	create := &encounterv1.CreateEncounter{Name: name, RuleSystem: system}
	if m := opts.ProtoReflect(); m.IsValid() {
		ro := &encounterv1.RuleOptions{}
		arm := ro.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(system))
		if arm == nil {
			panic(fmt.Sprintf("enginetest.CreateCmd: RuleOptions has no arm named %q", system))
		}
		ro.ProtoReflect().Set(arm, protoreflect.ValueOfMessage(m))
		create.Options = ro
	}
	return &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: create}}
}

// AddCmd is the command adding combatant c.
func AddCmd(c *encounterv1.Combatant) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}
}

// RemoveCmd is the command removing combatant id.
func RemoveCmd(id string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}}
}
