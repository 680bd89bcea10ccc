package engine_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// markingLoss is Loss with a Redactor that marks what it was asked to hide, so that the
// engine's part of redaction is tested apart from any rule system's.
type markingLoss struct{ engine.System }

func (markingLoss) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	if id == "ogre" {
		return encounterv1.Appearance_APPEARANCE_WOUNDED
	}
	return encounterv1.Appearance_APPEARANCE_FIGHTING
}

func (markingLoss) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	for _, c := range st.GetCombatants() {
		if secret(c.GetId()) {
			c.Side = "redacted by the system"
		}
	}
}

func (markingLoss) RedactEvent(ev *encounterv1.Event, secret func(string) bool) {
	if secret("ogre") {
		ev.Actor = "redacted by the system"
	}
}

func hide(id string, hidden bool) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: id, Hidden: hidden}}}
}

func hiddenFight(t *testing.T) (*engine.Registry, *encounterv1.EncounterState, []*encounterv1.Event) {
	reg := engine.NewRegistry(markingLoss{loss.New(1)})
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var log []*encounterv1.Event
	for _, c := range []struct {
		actor string
		cmd   *encounterv1.Command
	}{
		{"gm", create("Bivouac", "loss", 0)},
		{"gm", combatant("diego", "Diego", "david")},
		{"gm", func() *encounterv1.Command {
			cmd := combatant("ogre", "L'ogre", "gm")
			cmd.GetAddCombatant().GetCombatant().Hidden = true
			return cmd
		}()},
		{"gm", combatant("guet", "Le guet", "erin")},
	} {
		evs, err := apply(t, reg, st, c.cmd, env(c.actor))
		require.NoError(t, err)
		for _, ev := range evs {
			ev.Command = proto.CloneOf(c.cmd)
		}
		log = append(log, evs...)
	}
	return reg, st, log
}

func TestSetHidden(t *testing.T) {
	reg, st, _ := hiddenFight(t)
	require.True(t, engine.FindCombatant(st, "ogre").GetHidden())

	// Only the GM hides and shows; one hidden is not hidden again.
	for _, c := range []struct {
		actor string
		cmd   *encounterv1.Command
		code  engine.Code
		says  string
	}{
		{"david", hide("diego", true), engine.CodePermission, "only the GM"},
		{"gm", hide("nobody", true), engine.CodeNotFound, "nobody"},
		{"gm", hide("ogre", true), engine.CodePrecondition, "L'ogre is already hidden"},
		{"gm", hide("diego", false), engine.CodePrecondition, "Diego is not hidden"},
	} {
		before := proto.CloneOf(st)
		_, err := reg.Decide(st, c.cmd, env(c.actor))
		re := requireCode(t, err, c.code)
		require.Contains(t, re.Msg, c.says)
		require.True(t, proto.Equal(before, st))
	}
	// A player may not add a hidden combatant.
	cmd := combatant("spy", "L'espion", "david")
	cmd.GetAddCombatant().GetCombatant().Hidden = true
	_, err := reg.Decide(st, cmd, env("david"))
	require.Contains(t, requireCode(t, err, engine.CodePermission).Msg, "only the GM")
	// The appearance is never recorded, whatever the client sends.
	cmd = combatant("loup", "Le loup", "gm")
	cmd.GetAddCombatant().GetCombatant().Appearance = encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	evs, err := apply(t, reg, st, cmd, env("gm"))
	require.NoError(t, err)
	require.Equal(t, encounterv1.Appearance_APPEARANCE_UNSPECIFIED, evs[0].GetCombatantAdded().GetCombatant().GetAppearance())

	evs, err = apply(t, reg, st, hide("ogre", false), env("gm"))
	require.NoError(t, err)
	require.Equal(t, "ogre", evs[0].GetCombatantHidden().GetCombatantId())
	require.False(t, engine.FindCombatant(st, "ogre").GetHidden())
	_, err = apply(t, reg, st, hide("diego", true), env("gm"))
	require.NoError(t, err)
	require.True(t, engine.FindCombatant(st, "diego").GetHidden())
}

func TestViewHidesAHiddenCombatantFromOthers(t *testing.T) {
	reg, st, _ := hiddenFight(t)
	st.Seed = []byte("a live seed never leaves the server")
	for _, c := range []struct {
		name string
		v    engine.Viewer
		sees bool
	}{
		{"the GM", engine.Viewer{SeesAll: true}, true},
		{"the ogre's controller", engine.Viewer{Controls: map[string]bool{"ogre": true}}, true},
		{"Diego's player", engine.Viewer{Controls: map[string]bool{"diego": true}}, false},
		{"an observer", engine.Viewer{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := proto.CloneOf(st)
			view := reg.View(st, c.v)
			require.True(t, proto.Equal(before, st), "View changes nothing in the state it reads")
			require.Nil(t, view.GetSeed())
			ogre := engine.FindCombatant(view, "ogre")
			require.Equal(t, "L'ogre", ogre.GetName(), "a hidden combatant's name is seen")
			require.Equal(t, encounterv1.Appearance_APPEARANCE_WOUNDED, ogre.GetAppearance())
			require.Equal(t, encounterv1.Appearance_APPEARANCE_FIGHTING, engine.FindCombatant(view, "diego").GetAppearance())
			require.NotNil(t, engine.FindCombatant(view, "diego").GetLoss(), "a combatant not hidden is seen whole")
			require.Equal(t, c.sees, ogre.GetLoss() != nil, "the hidden sheet")
			require.Equal(t, c.sees, ogre.GetSide() != "redacted by the system", "the system's redaction")
		})
	}
	st.Status = encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED
	require.NotNil(t, reg.View(st, engine.Viewer{}).GetSeed(), "an ended encounter's seed is revealed")
}

func TestViewEventHidesAHiddenCombatantFromOthers(t *testing.T) {
	reg, _, log := hiddenFight(t)
	before, err := reg.Fold(log[:2])
	require.NoError(t, err)
	added := log[2]
	require.NotNil(t, added.GetCombatantAdded().GetCombatant().GetLoss())

	player := engine.Viewer{Controls: map[string]bool{"diego": true}}
	seen := reg.ViewEvent(before, added, player)
	require.NotNil(t, added.GetCombatantAdded().GetCombatant().GetLoss(), "the recorded event is not changed")
	require.Equal(t, "L'ogre", seen.GetCombatantAdded().GetCombatant().GetName())
	require.Nil(t, seen.GetCombatantAdded().GetCombatant().GetLoss(), "the hidden sheet in the event")
	require.Nil(t, seen.GetCommand().GetAddCombatant().GetCombatant().GetLoss(), "the hidden sheet in the recorded command")
	require.Equal(t, "redacted by the system", seen.GetActor(), "the system redacts its part, with the newcomer hidden")
	require.True(t, seen.GetRedacted(), "the reader is told that part of the event was withheld")

	gm := reg.ViewEvent(before, added, engine.Viewer{SeesAll: true})
	require.True(t, proto.Equal(added, gm), "the GM sees the event whole")
	require.False(t, gm.GetRedacted())

	// A rewind carries a whole state: it is viewed like one.
	rewound := &encounterv1.Event{Sequence: 5, RuleSystem: "loss", RulesVersion: 1,
		Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 4, State: proto.CloneOf(before)}}}
	full, err := reg.Fold(log)
	require.NoError(t, err)
	rewound.GetEncounterRewound().State = proto.CloneOf(full)
	seen = reg.ViewEvent(full, rewound, player)
	require.Nil(t, engine.FindCombatant(seen.GetEncounterRewound().GetState(), "ogre").GetLoss())
	require.NotNil(t, engine.FindCombatant(rewound.GetEncounterRewound().GetState(), "ogre").GetLoss())
}

// TestDicePositionsAreTheGMs: where a die sits in the dice stream counts every word drawn
// before it, the hidden combatants' included, so no reader but the GM and the co-GMs gets a
// position, whoever it controls and whether or not anyone is hidden: not the state's dice
// offset or high-water mark, not a roll's offset or draws, not a rewind's dice offset or its
// state's. The faces stay, and Event.redacted does not count the positions.
func TestDicePositionsAreTheGMs(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Bivouac", "loss", 0), combatant("diego", "Diego", "david"), combatant("guet", "Le guet", "erin")} {
		_, err := apply(t, reg, st, cmd, env("gm"))
		require.NoError(t, err)
	}
	st.DiceOffset, st.DiceHighWater = 12, 19
	roll := &dicev1.Roll{Expression: "1d10!", Faces: []int32{10, 4}, Total: 14, Offset: 10, Draws: 2, Scheme: 2}
	rolled := &encounterv1.Event{Sequence: 4, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{
		Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{AttackerId: "diego", TargetId: "guet", Test: &lossv1.TestResult{Roll: roll, Total: 30}}}}}}
	rewound := &encounterv1.Event{Sequence: 5, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_EncounterRewound{
		EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 3, DiceOffset: 19, State: proto.CloneOf(st)}}}
	unknown := proto.CloneOf(rolled) // rules this registry does not know: viewed by the engine alone
	unknown.RuleSystem = "bogus"

	for _, c := range []struct {
		name string
		v    engine.Viewer
	}{
		{"a player of every combatant", engine.Viewer{Controls: map[string]bool{"diego": true, "guet": true}}},
		{"an observer", engine.Viewer{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			view := reg.View(st, c.v)
			require.Zero(t, view.GetDiceOffset()+view.GetDiceHighWater())
			require.EqualValues(t, 12, st.GetDiceOffset(), "the state read is not changed")
			seen := reg.ViewEvent(st, rolled, c.v)
			r := seen.GetLoss().GetAttackRolled().GetTest().GetRoll()
			require.Equal(t, []int32{10, 4}, r.GetFaces(), "its faces are seen")
			require.Equal(t, []uint64{0, 0}, []uint64{r.GetOffset(), r.GetDraws()})
			require.EqualValues(t, 2, r.GetScheme())
			require.EqualValues(t, 10, roll.GetOffset(), "the recorded event is not changed")
			require.False(t, seen.GetRedacted(), "nothing of a hidden combatant was withheld")
			rw := reg.ViewEvent(st, rewound, c.v).GetEncounterRewound()
			require.Zero(t, rw.GetDiceOffset()+rw.GetState().GetDiceOffset()+rw.GetState().GetDiceHighWater())
			require.Zero(t, reg.ViewEvent(st, unknown, c.v).GetLoss().GetAttackRolled().GetTest().GetRoll().GetOffset())
			for _, m := range []proto.Message{view, seen, reg.ViewEvent(st, rewound, c.v)} {
				require.Empty(t, enginetest.DicePositions(m), "no position left anywhere")
			}
		})
	}
	gm := engine.Viewer{SeesAll: true}
	require.EqualValues(t, []uint64{12, 19}, []uint64{reg.View(st, gm).GetDiceOffset(), reg.View(st, gm).GetDiceHighWater()})
	require.True(t, proto.Equal(rolled, reg.ViewEvent(st, rolled, gm)), "the GM reads the positions")
	require.Equal(t, []string{"dice_offset = 12", "dice_high_water = 19"}, enginetest.DicePositions(reg.View(st, gm)))
	rw := reg.ViewEvent(st, rewound, gm).GetEncounterRewound()
	require.EqualValues(t, []uint64{19, 12, 19}, []uint64{rw.GetDiceOffset(), rw.GetState().GetDiceOffset(), rw.GetState().GetDiceHighWater()})
}

// An event that does not name a system and version the registry knows (not stamped, or
// stamped with a version it does not keep) is still redacted, by the system of the state
// before it: what a reader may not see never shows because of how an event was stamped.
func TestViewEventOfAnUnknownStampRedactsByTheState(t *testing.T) {
	reg, _, log := hiddenFight(t)
	st, err := reg.Fold(log)
	require.NoError(t, err)
	player := engine.Viewer{Controls: map[string]bool{"diego": true}}
	for name, stamp := range map[string]func(*encounterv1.Event){
		"not stamped":     func(ev *encounterv1.Event) { ev.RuleSystem, ev.RulesVersion = "", 0 },
		"unknown version": func(ev *encounterv1.Event) { ev.RulesVersion = 9 },
		"unknown system":  func(ev *encounterv1.Event) { ev.RuleSystem = "chess" },
	} {
		ev := &encounterv1.Event{Sequence: st.GetSequence() + 1, Actor: "gm", RuleSystem: "loss", RulesVersion: 1,
			Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}}
		stamp(ev)
		seen := reg.ViewEvent(st, ev, player)
		require.Equal(t, "redacted by the system", seen.GetActor(), name)
		require.True(t, seen.GetRedacted(), name)
		require.Equal(t, "gm", ev.GetActor(), "%s: the recorded event is not changed", name)
	}
}
