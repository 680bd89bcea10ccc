package commands_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// With --json, a command that writes prints the server's response in protojson, one object,
// instead of its events in words.
func TestWriteCommandsPrintTheirResponseWithJSON(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t)
	waited := clienttest.LossEv(7, &lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{CombatantId: "diego", FromPhase: 11, UntilPhase: 4, Discount: 7}}})
	f := &clienttest.Fake{State: st, SubmitEvents: []*encounterv1.Event{waited}}
	addr := clienttest.Serve(t, f)
	for _, tc := range []struct {
		args []string
		resp proto.Message
		want func(t *testing.T, m proto.Message)
	}{
		{[]string{"create", "--name", "Ruelle", "--json"}, &encounterv1.CreateEncounterResponse{}, func(t *testing.T, m proto.Message) {
			require.Equal(t, "enc-1", m.(*encounterv1.CreateEncounterResponse).GetEncounterId())
		}},
		{[]string{"add", "enc-1", filepath.Join(clienttest.Sheets, "canahan.yaml"), "--json"}, &encounterv1.AddCombatantResponse{}, func(t *testing.T, m proto.Message) {
			require.Equal(t, "canahan", m.(*encounterv1.AddCombatantResponse).GetEvents()[0].GetCombatantAdded().GetCombatant().GetId())
		}},
		{[]string{"start", "enc-1", "--json"}, &encounterv1.StartEncounterResponse{}, func(t *testing.T, m proto.Message) {
			require.True(t, proto.Equal(st, m.(*encounterv1.StartEncounterResponse).GetState()))
		}},
		{[]string{"wait", "--json", "enc-1", "diego", "4"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
			require.True(t, proto.Equal(waited, m.(*encounterv1.SubmitResponse).GetEvents()[0]))
		}},
		{[]string{"grant", "enc-1", "diego", "-1", "--json"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
			require.Len(t, m.(*encounterv1.SubmitResponse).GetEvents(), 1)
		}},
		{[]string{"submit", "enc-1", "--json", `{"loss": {"combatantId": "diego", "pass": {}}}`, "--json-response"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
			require.Equal(t, "enc-1", m.(*encounterv1.SubmitResponse).GetState().GetEncounterId())
		}},
		{[]string{"end", "enc-1", "--json"}, &encounterv1.EndEncounterResponse{}, func(t *testing.T, m proto.Message) {
			require.Equal(t, []byte{0xde, 0xad, 0xbe, 0xef}, m.(*encounterv1.EndEncounterResponse).GetEvents()[0].GetEncounterEnded().GetSeed())
		}},
	} {
		code, out, errOut := clienttest.Run(t, append(tc.args, "--addr", addr)...)
		require.Equal(t, 0, code, "%v: %s", tc.args, errOut)
		dec := json.NewDecoder(bytes.NewBufferString(out))
		var one json.RawMessage
		require.NoError(t, dec.Decode(&one), tc.args)
		require.False(t, dec.More(), "%v: one object: %s", tc.args, out)
		require.NoError(t, protojson.Unmarshal(one, tc.resp), tc.args)
		tc.want(t, tc.resp)
	}
}

// Every command that writes (it takes --command-id) has --json, or --json-response where
// --json is what it sends.
func TestEveryWriteCommandHasJSON(t *testing.T) {
	var walk func(c *cobra.Command)
	writes := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		fs := c.Flags()
		if fs.Lookup("command-id") == nil {
			return
		}
		writes++
		flag := fs.Lookup("json")
		if c.Name() == "submit" {
			flag = fs.Lookup("json-response")
		}
		require.NotNil(t, flag, c.CommandPath())
		require.Equal(t, "bool", flag.Value.Type(), c.CommandPath())
	}
	walk(commands.Root())
	require.GreaterOrEqual(t, writes, 45)
}
