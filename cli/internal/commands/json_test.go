package commands_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
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
		{[]string{"start", "enc-1", "--json"}, &encounterv1.StartEncounterResponse{}, func(t *testing.T, m proto.Message) {
			require.True(t, proto.Equal(st, m.(*encounterv1.StartEncounterResponse).GetState()))
		}},
		{[]string{"wait", "--json", "enc-1", "diego", "4"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
			require.True(t, proto.Equal(waited, m.(*encounterv1.SubmitResponse).GetEvents()[0]))
		}},
		{[]string{"grant", "enc-1", "diego", "-1", "--json"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
			require.Len(t, m.(*encounterv1.SubmitResponse).GetEvents(), 1)
		}},
		{[]string{"submit", "enc-1", "--command", `{"loss": {"combatantId": "diego", "pass": {}}}`, "--json"}, &encounterv1.SubmitResponse{}, func(t *testing.T, m proto.Message) {
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

// Every command that writes (it takes --command-id) has --json, which prints what the server
// answers (submit's included: its command is --command).
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
		require.NotNil(t, flag, c.CommandPath())
		require.Equal(t, "bool", flag.Value.Type(), c.CommandPath())
	}
	walk(commands.Root())
	require.GreaterOrEqual(t, writes, 45)
}

// Issue 28, item 10: fray add --json prints one JSON array, an AddCombatantResponse per file in
// their order, for one file too (it printed one object per file, concatenated); fray submit
// takes its command with --command and --json prints the response, as everywhere; the old
// `--json '{...}'` is still taken as the command, with a note saying to use --command.
func TestAddAndSubmitPrintOneJSONDocument(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	for _, files := range [][]string{{"canahan.yaml", "diego.yaml", "ruffian.yaml"}, {"canahan.yaml"}} {
		args := []string{"add", "enc-1", "--json", "--addr", addr}
		for _, n := range files {
			args = append(args, filepath.Join(clienttest.Sheets, n))
		}
		code, out, errOut := clienttest.Run(t, args...)
		require.Equal(t, 0, code, errOut)
		var all []json.RawMessage
		dec := json.NewDecoder(bytes.NewBufferString(out))
		require.NoError(t, dec.Decode(&all), "one JSON array: %s", out)
		require.False(t, dec.More(), "one document: %s", out)
		require.Len(t, all, len(files))
		for i, raw := range all {
			resp := &encounterv1.AddCombatantResponse{}
			require.NoError(t, protojson.Unmarshal(raw, resp))
			require.Equal(t, strings.TrimSuffix(files[i], ".yaml"), resp.GetEvents()[0].GetCombatantAdded().GetCombatant().GetId())
		}
	}

	pass := `{"loss": {"combatantId": "diego", "pass": {}}}`
	code, out, errOut := clienttest.Run(t, "submit", "enc-1", "--command", pass, "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut)
	require.False(t, json.Valid([]byte(out)), "in words without --json: %s", out)
	for _, args := range [][]string{{"submit", "enc-1", "--json", pass}, {"submit", "--json", pass, "enc-1"}} {
		code, out, errOut = clienttest.Run(t, append(args, "--addr", addr)...)
		require.Equal(t, 0, code, errOut)
		require.Contains(t, errOut, "--json COMMAND is deprecated: give the command with --command")
		require.False(t, json.Valid([]byte(out)), "the old --json printed words: %s", out)
	}
	before := len(f.Requests())
	clienttest.RequireUsageError(t, []string{"submit", "enc-1", "extra", "--command", pass, "--addr", addr}, "too many arguments: extra")
	clienttest.RequireUsageError(t, []string{"submit", "enc-1", "--addr", addr}, "exactly one of --command and --file")
	require.Len(t, f.Requests(), before, "nothing sent")
}
