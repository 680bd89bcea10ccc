package engine_test

import (
	"fmt"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func seed() []byte { return make([]byte, dice.SeedSize) }

func env(actor string) engine.Env {
	return engine.Env{Actor: actor, Dice: dice.NewFixed(5, 5, 5, 5), Seed: seed()}
}

func create(name, system string, version uint32) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: name, RuleSystem: system, RulesVersion: version,
	}}}
}

func combatant(id, name, controller string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{
		Combatant: &encounterv1.Combatant{Id: id, Name: name, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:   lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
			Traits: map[string]int32{"Puissance": 5}, Talents: map[string]int32{"Arme de mêlée": 5},
			Initiative: 5,
		}}},
	}}}
}

var start = &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}

// apply decides and folds; it returns the error of the decision.
func apply(t *testing.T, reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, e engine.Env) ([]*encounterv1.Event, error) {
	t.Helper()
	evs, err := reg.Decide(st, cmd, e)
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		require.NoError(t, reg.Evolve(st, ev))
	}
	return evs, nil
}

func requireCode(t *testing.T, err error, code engine.Code) *engine.RuleError {
	t.Helper()
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, code, re.Code, re.Msg)
	return re
}

func TestCreate(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}

	_, err := reg.Decide(st, create("", "loss", 0), env("gm"))
	requireCode(t, err, engine.CodeInvalid)
	_, err = reg.Decide(st, create(string(make([]byte, engine.MaxNameLength+1)), "loss", 0), env("gm"))
	requireCode(t, err, engine.CodeInvalid)
	_, err = reg.Decide(st, create("x", "loss", 0), engine.Env{Actor: "gm", Seed: make([]byte, 8)})
	requireCode(t, err, engine.CodeInvalid)
	_, err = reg.Decide(st, create("x", "gurps", 0), env("gm"))
	re := requireCode(t, err, engine.CodeNotFound)
	require.Contains(t, re.Msg, "gurps")
	_, err = reg.Decide(st, create("x", "loss", 7), env("gm"))
	requireCode(t, err, engine.CodePrecondition)
	_, err = reg.Decide(st, start, env("gm"))
	requireCode(t, err, engine.CodeNotFound)

	evs, err := apply(t, reg, st, create("Bivouac", "loss", 0), env("gm"))
	require.NoError(t, err)
	require.Len(t, evs, 1)
	ev := evs[0]
	require.Equal(t, uint64(1), ev.GetSequence())
	require.Equal(t, "e1", ev.GetEncounterId())
	require.Equal(t, "gm", ev.GetActor())
	require.Equal(t, "loss", ev.GetRuleSystem())
	require.Equal(t, uint32(1), ev.GetRulesVersion())
	require.Equal(t, dice.Commitment(seed()), ev.GetEncounterCreated().GetSeedSha256())
	require.Equal(t, "Bivouac", st.GetName())
	require.Equal(t, "gm", st.GetGameMaster())
	require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP, st.GetStatus())
	require.Nil(t, st.GetSeed(), "the seed stays secret until the end")

	_, err = reg.Decide(st, create("Bivouac", "loss", 0), env("gm"))
	requireCode(t, err, engine.CodePrecondition)
}

func TestSetupStartAndEnd(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	_, err := apply(t, reg, st, create("Bivouac", "loss", 0), env("gm"))
	require.NoError(t, err)

	for _, c := range []struct {
		cmd   *encounterv1.Command
		actor string
		code  engine.Code
	}{
		{&encounterv1.Command{}, "gm", engine.CodeInvalid},
		{&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{}}}, "gm", engine.CodeInvalid},
		{combatant("bad id!", "X", "gm"), "gm", engine.CodeInvalid},
		{combatant("a", "", "gm"), "gm", engine.CodeInvalid},
		{combatant("a", "A", "florence"), "david", engine.CodePermission},
		{start, "gm", engine.CodePrecondition}, // no combatants
	} {
		_, err := reg.Decide(st, c.cmd, env(c.actor))
		requireCode(t, err, c.code)
	}

	// A player adds a combatant for themselves once the GM opens joining; its controller
	// defaults to them.
	_, err = reg.Decide(st, combatant("a", "A", ""), env("david"))
	requireCode(t, err, engine.CodePrecondition)
	_, err = apply(t, reg, st, joining(true), env("gm"))
	require.NoError(t, err)
	_, err = apply(t, reg, st, combatant("a", "A", ""), env("david"))
	require.NoError(t, err)
	require.Equal(t, "david", st.GetCombatants()[0].GetController())
	_, err = reg.Decide(st, combatant("a", "A again", "gm"), env("gm"))
	requireCode(t, err, engine.CodePrecondition)
	_, err = reg.Decide(st, start, env("gm"))
	requireCode(t, err, engine.CodePrecondition) // one combatant only
	_, err = apply(t, reg, st, combatant("b", "B", "gm"), env("gm"))
	require.NoError(t, err)
	_, err = apply(t, reg, st, combatant("c", "C", "gm"), env("gm"))
	require.NoError(t, err)

	rm := &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "c"}}}
	_, err = reg.Decide(st, rm, env("david"))
	requireCode(t, err, engine.CodePermission)
	_, err = apply(t, reg, st, rm, env("gm"))
	require.NoError(t, err)
	require.Len(t, st.GetCombatants(), 2)
	require.NotContains(t, st.GetLoss().GetCombatants(), "c")
	_, err = reg.Decide(st, rm, env("gm"))
	requireCode(t, err, engine.CodeNotFound)

	_, err = reg.Decide(st, start, env("david"))
	requireCode(t, err, engine.CodePermission)
	evs, err := apply(t, reg, st, start, engine.Env{Actor: "gm", Dice: dice.NewFixed(3, 4), Seed: seed()})
	require.NoError(t, err)
	require.Len(t, evs, 2)
	require.NotNil(t, evs[0].GetEncounterStarted())
	require.NotNil(t, evs[1].GetLoss().GetTourStarted())
	require.Equal(t, []uint64{7, 8}, []uint64{evs[0].GetSequence(), evs[1].GetSequence()})
	require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, st.GetStatus())
	require.Equal(t, uint64(2), st.GetDiceOffset())
	_, err = reg.Decide(st, start, env("gm"))
	requireCode(t, err, engine.CodePrecondition)
	// Loss lets a newcomer join a fight in progress (engine.Joiner, LOS-039).
	joined, err := reg.Decide(st, combatant("d", "D", "gm"), env("gm"))
	require.NoError(t, err)
	require.True(t, joined[0].GetCombatantAdded().GetInProgress())

	end := &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "fuite"}}}
	_, err = reg.Decide(st, end, env("david"))
	requireCode(t, err, engine.CodePermission)
	_, err = reg.Decide(st, end, engine.Env{Actor: "gm"})
	requireCode(t, err, engine.CodeInvalid)
	_, err = apply(t, reg, st, end, env("gm"))
	require.NoError(t, err)
	require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, st.GetStatus())
	require.Equal(t, seed(), st.GetSeed())
	_, err = reg.Decide(st, end, env("gm"))
	requireCode(t, err, engine.CodePrecondition)
}

func TestEvolveRefusesGaps(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	evs, err := reg.Decide(st, create("x", "loss", 0), env("gm"))
	require.NoError(t, err)
	ev := proto.CloneOf(evs[0])
	ev.Sequence = 2
	require.Error(t, reg.Evolve(st, ev))
	require.NoError(t, reg.Evolve(st, evs[0]))
	require.Error(t, reg.Evolve(st, evs[0]), "an event folded twice is a gap too")

	// An event of a system the registry does not know cannot be folded.
	unknown := proto.CloneOf(evs[0])
	unknown.RuleSystem = "gurps"
	_, err = reg.Fold([]*encounterv1.Event{unknown})
	require.Error(t, err)
}

func TestRuleError(t *testing.T) {
	err := engine.Refused("LOS-035", "%s has %d PA", "Diego", 3)
	require.Equal(t, "Diego has 3 PA (LOS-035)", err.Error())
	re, ok := engine.AsRuleError(fmt.Errorf("wrapped: %w", err))
	require.True(t, ok)
	require.Equal(t, engine.CodePrecondition, re.Code)
	require.Equal(t, "LOS-035", re.Rule)
	require.Equal(t, "Diego has 3 PA", re.Msg)

	require.Equal(t, "no rule", engine.Invalid("", "no rule").Error())
	for _, c := range []struct {
		err  error
		code engine.Code
	}{
		{engine.Invalid("", "x"), engine.CodeInvalid},
		{engine.NotFound("x"), engine.CodeNotFound},
		{engine.Forbidden("x"), engine.CodePermission},
		{engine.Unimplemented("x"), engine.CodeUnimplemented},
	} {
		requireCode(t, c.err, c.code)
	}
	_, ok = engine.AsRuleError(fmt.Errorf("plain"))
	require.False(t, ok)
}

func TestLookupAndHash(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	s, err := reg.Lookup("loss", 0)
	require.NoError(t, err)
	require.Equal(t, "loss", s.ID())
	s, err = reg.Lookup("loss", 1)
	require.NoError(t, err)
	require.Equal(t, uint32(1), s.Version())

	a := &encounterv1.EncounterState{EncounterId: "e1", Sequence: 3}
	b := proto.CloneOf(a)
	require.Equal(t, engine.Hash(a), engine.Hash(b))
	require.Len(t, engine.Hash(a), 32)
	b.Sequence++
	require.NotEqual(t, engine.Hash(a), engine.Hash(b))
}

func TestResolveAndRolls(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	sd := make([]byte, dice.SeedSize)
	sd[0] = 9
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, c := range []struct {
		cmd   *encounterv1.Command
		actor string
	}{
		{create("Bivouac", "loss", 0), "gm"},
		{combatant("a", "A", "gm"), "gm"},
		{combatant("b", "B", "gm"), "gm"},
	} {
		before := proto.CloneOf(st)
		evs, next, err := reg.Resolve(st, c.cmd, c.actor, sd, nil)
		require.NoError(t, err)
		require.True(t, proto.Equal(before, st), "Resolve leaves st alone")
		require.Len(t, evs, 1)
		st = next
	}
	evs, next, err := reg.Resolve(st, start, "gm", sd, nil)
	require.NoError(t, err)
	var rolls []*dicev1.Roll
	for _, ev := range evs {
		rolls = append(rolls, engine.Rolls(ev)...)
	}
	require.Len(t, rolls, 2, "one Initiative roll per combatant")
	require.Equal(t, []uint64{0, 1}, []uint64{rolls[0].GetOffset(), rolls[1].GetOffset()})
	for _, r := range rolls {
		require.NoError(t, dice.Verify(sd, r))
	}
	require.Equal(t, uint64(2), next.GetDiceOffset())
	require.Equal(t, rolls, engine.Rolls(&encounterv1.EventBatch{Events: evs}))

	_, _, err = reg.Resolve(next, start, "gm", sd[:5], nil)
	requireCode(t, err, engine.CodeInvalid)
	_, _, err = reg.Resolve(next, start, "gm", sd, nil)
	requireCode(t, err, engine.CodePrecondition)
}

// TestResolveSharesNoChange: the state Resolve returns shares its combatants with the state it
// was given, so a command that changes a combatant (hidden, given to a player) leaves the
// given state's combatant as it was.
func TestResolveSharesNoChange(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	sd := make([]byte, dice.SeedSize)
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Bivouac", "loss", 0), combatant("a", "A", "gm"), combatant("b", "B", "gm")} {
		_, next, err := reg.Resolve(st, cmd, "gm", sd, nil)
		require.NoError(t, err)
		st = next
	}
	for _, cmd := range []*encounterv1.Command{
		{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "a", Hidden: true}}},
		{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "david", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"b"}}}},
	} {
		before := proto.CloneOf(st)
		_, next, err := reg.Resolve(st, cmd, "gm", sd, nil)
		require.NoError(t, err)
		require.True(t, proto.Equal(before, st), "Resolve leaves st alone: %v", st)
		require.False(t, proto.Equal(before, next), "the command changed a combatant")
		st = next
	}
	require.True(t, st.GetCombatants()[0].GetHidden())
	require.Equal(t, "david", st.GetCombatants()[1].GetController())
}
