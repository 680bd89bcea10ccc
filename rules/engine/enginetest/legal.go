package enginetest

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// checked holds the hashes of the states checked for LegalEveryState: a state many tests go
// through is checked once.
var checked sync.Map

// checkOnce is CheckLegal on a state not checked yet.
func checkOnce(t testing.TB, reg *engine.Registry, st *encounterv1.EncounterState) {
	t.Helper()
	if _, seen := checked.LoadOrStore(string(engine.Hash(st)), true); !seen {
		CheckLegal(t, reg, st)
	}
}

// LegalEveryState, set by a rule system's tests (in an init), makes Decide first check with
// CheckLegal what every combatant may do in each state of a running fight it decides on: every
// state those tests go through.
var LegalEveryState bool

// FillFirst returns a legal action's pre-filled command with each required choice filled
// from its first option (a number, or text without options: its least value), as a program
// taking the first thing offered would send it.
func FillFirst(t testing.TB, cmd *encounterv1.Command, a *rulesetv1.LegalAction) *encounterv1.Command {
	t.Helper()
	cmd = proto.CloneOf(cmd)
	for _, c := range a.GetChoices() {
		if !c.GetRequired() {
			continue
		}
		v := strconv.Itoa(int(c.GetMin()))
		if len(c.GetOptions()) > 0 {
			v = c.GetOptions()[0].GetValue()
		}
		require.NoError(t, engine.Fill(cmd, c.GetField(), v), "%s: choice %s", a.GetKey(), c.GetField())
	}
	return cmd
}

// CheckLegal checks what every combatant of st may do now (LegalCommands): each key is an
// action the system's Describe names; each has a command for that combatant; every option of
// every choice (a number: its greatest value) fills the field the choice names; and the
// command, its required choices filled from their first option, is taken by the rules on st,
// given by the GM. It returns how many actions it checked, by key.
func CheckLegal(t testing.TB, reg *engine.Registry, st *encounterv1.EncounterState) map[string]int {
	t.Helper()
	keys := map[string]int{}
	sys, err := reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
	if err != nil {
		return keys
	}
	names := map[string]bool{}
	for _, a := range sys.Describe().GetActions() {
		names[a.GetName()] = true
	}
	seed := sha256.Sum256([]byte("fray legal"))
	for _, c := range st.GetCombatants() {
		list, err := reg.LegalCommands(st, c.GetId())
		require.NoError(t, err)
		for _, l := range list {
			a := l.Action
			where := fmt.Sprintf("at sequence %d, %s: %s (key %q)", st.GetSequence(), c.GetId(), a.GetName(), a.GetKey())
			require.True(t, names[a.GetKey()], "%s: the key is no action of %s's Describe", where, sys.ID())
			keys[a.GetKey()]++
			require.NotNil(t, l.Command, where)
			require.Equal(t, c.GetId(), commandsCombatant(l.Command), where)
			for _, ch := range a.GetChoices() {
				scratch := proto.CloneOf(l.Command)
				for _, o := range ch.GetOptions() {
					require.NoError(t, engine.Fill(scratch, ch.GetField(), o.GetValue()), where)
					checkChoice(t, l.Command, ch.GetField(), o.GetValue(), where)
				}
				if len(ch.GetOptions()) == 0 {
					require.NoError(t, engine.Fill(scratch, ch.GetField(), strconv.Itoa(int(ch.GetMax()))), where)
					checkChoice(t, l.Command, ch.GetField(), strconv.Itoa(int(ch.GetMax())), where)
				}
			}
			cmd := FillFirst(t, l.Command, a)
			stream, err := dice.NewStreamScheme(dice.SchemeOf(st.GetDiceScheme()), seed[:], st.GetDiceOffset())
			require.NoError(t, err)
			_, err = reg.Decide(st, cmd, engine.Env{Actor: st.GetGameMaster(), Seed: seed[:], Dice: stream})
			require.NoError(t, err, "%s: %v", where, cmd)
		}
	}
	return keys
}

// checkChoice checks that Submit's choices (engine.FillChoices) fill the choice field of cmd
// with value as Fill does, by the choice's field, by its last name when no other field of the
// command's action has it, and an enum value by its short form ("extra-damage").
func checkChoice(t testing.TB, cmd *encounterv1.Command, field, value, where string) {
	t.Helper()
	want := proto.CloneOf(cmd)
	require.NoError(t, engine.Fill(want, field, value), where)
	keys := []string{field}
	if short := field[strings.LastIndex(field, ".")+1:]; engine.FillChoices(proto.CloneOf(cmd), map[string]string{short: value}) == nil {
		keys = append(keys, short)
	}
	values := []string{value}
	if short := engine.ShortForm(cmd, field, value); short != value {
		values = append(values, short)
	}
	for _, k := range keys {
		for _, v := range values {
			got := proto.CloneOf(cmd)
			if strings.Contains(v, "=") || strings.Contains(v, ",") { // a map's key=n, or text holding a comma: Fill's own form
				continue
			}
			require.NoError(t, engine.FillChoices(got, map[string]string{k: v}), "%s: choice %s = %q", where, k, v)
			require.True(t, proto.Equal(want, got), "%s: choice %s = %q fills %v, Fill %v", where, k, v, got, want)
		}
	}
}

// commandsCombatant is the combatant_id of a system's command: its Action's field, or the key
// of the one kind of a plug-in's JSON ({"poke": {"combatant_id": "a"}}).
func commandsCombatant(cmd *encounterv1.Command) string {
	if p := cmd.GetPlugin(); p != nil {
		for _, kind := range p.GetFields() {
			return kind.GetStructValue().GetFields()["combatant_id"].GetStringValue()
		}
		return ""
	}
	own := cmd.ProtoReflect()
	inner := own.Get(own.WhichOneof(own.Descriptor().Oneofs().ByName("kind"))).Message()
	return inner.Get(inner.Descriptor().Fields().ByName("combatant_id")).String()
}
