package systems

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// fillFirst fills each required choice of a legal action into cmd from its first option (or,
// for a number, its least value), as a program taking the first thing offered would.
func fillFirst(t *testing.T, cmd *encounterv1.Command, a *rulesetv1.LegalAction) *encounterv1.Command {
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

// Every legal action, in every state the golden fights of all four rule systems go through,
// for every combatant: its key is an action DescribeRuleset names; every option of every
// choice fills the field the choice names; its pre-filled command, its required choices
// filled from the first option, is taken by the rules (not refused) on the state it was
// listed for; and the actions are Legal's, the same names, costs and targets.
func TestLegalCommandsAreTakenInEveryGoldenState(t *testing.T) {
	reg := Registry()
	seed := sha256.Sum256([]byte("fray legal"))
	for _, system := range []string{"loss", "feerie", "ka", "d20seg"} {
		t.Run(system, func(t *testing.T) {
			sys, err := reg.Lookup(system, 1)
			require.NoError(t, err)
			var names []string
			for _, a := range sys.Describe().GetActions() {
				names = append(names, a.GetName())
			}
			events, _ := readGolden(t, system, 1)
			st := &encounterv1.EncounterState{EncounterId: events[0].GetEncounterId()}
			keys, checked := map[string]int{}, 0
			for _, ev := range events {
				require.NoError(t, reg.Evolve(st, ev))
				for _, c := range st.GetCombatants() {
					list, err := reg.LegalCommands(st, c.GetId())
					require.NoError(t, err)
					plain, err := reg.Legal(st, c.GetId())
					require.NoError(t, err)
					require.Len(t, plain, len(list))
					for i, l := range list {
						a := l.Action
						where := fmt.Sprintf("after event %d, %s: %s (%s)", ev.GetSequence(), c.GetId(), a.GetName(), a.GetKey())
						require.True(t, proto.Equal(plain[i], a), where)
						require.Contains(t, names, a.GetKey(), where)
						keys[a.GetKey()]++
						require.NotNil(t, l.Command, where)
						for _, ch := range a.GetChoices() {
							for _, o := range ch.GetOptions() {
								require.NoError(t, engine.Fill(proto.CloneOf(l.Command), ch.GetField(), o.GetValue()), where)
							}
							if len(ch.GetOptions()) == 0 {
								require.NoError(t, engine.Fill(proto.CloneOf(l.Command), ch.GetField(), strconv.Itoa(int(ch.GetMax()))), where)
							}
						}
						cmd := fillFirst(t, l.Command, a)
						_, _, err := reg.ResolveWith(st, cmd, engine.Env{Actor: st.GetGameMaster(), Seed: seed[:]})
						require.NoError(t, err, "%s: %v", where, cmd)
						checked++
					}
				}
			}
			t.Logf("%s: %d commands taken, by key %v", system, checked, keys)
			require.NotZero(t, checked)
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range keys {
					if !yield(k) {
						return
					}
				}
			}) {
				require.Contains(t, names, k)
			}
		})
	}
}
