package commands_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

func TestCreateSendsNameSystemOptionsAndPrincipal(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	opts := filepath.Join(t.TempDir(), "options.yaml")
	require.NoError(t, os.WriteFile(opts, []byte("gm_fursa: 2\nhealth_bands: [4, 4, 4]\n"), 0o600))

	code, out, errOut := clienttest.Run(t, "create", "--addr", addr, "--as", "florence", "--name", "Ruelle", "--options", opts)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out, "create prints the id and nothing else")

	calls := f.Requests()
	require.Len(t, calls, 1)
	require.Equal(t, "CreateEncounter", calls[0].Method)
	require.Equal(t, []string{"dev/florence"}, calls[0].Principal)
	req := calls[0].Req.(*encounterv1.CreateEncounterRequest)
	require.Regexp(t, clienttest.HexID, req.GetCommandId())
	clienttest.RequireProtoEqual(t, &encounterv1.CreateEncounter{
		Name: "Ruelle", RuleSystem: "loss",
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{
			GmFursa: proto.Int32(2), HealthBands: []int32{4, 4, 4},
		}}},
	}, req.GetEncounter())
}

func TestCreateUsesEnvironmentAndCommandID(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	t.Setenv("FRAY_ADDR", clienttest.Serve(t, f))
	t.Setenv("FRAY_PRINCIPAL", "david")
	opts := filepath.Join(t.TempDir(), "options.json")
	require.NoError(t, os.WriteFile(opts, []byte(`{"loss": {"explodeActionD10": false}}`), 0o600))

	code, out, errOut := clienttest.Run(t, "create", "--name", "Ruelle", "--system", "loss", "--command-id", "c-1", "--options", opts)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out)
	calls := f.Requests()
	require.Len(t, calls, 1)
	require.Equal(t, []string{"dev/david"}, calls[0].Principal)
	req := calls[0].Req.(*encounterv1.CreateEncounterRequest)
	require.Equal(t, "c-1", req.GetCommandId())
	require.False(t, req.GetEncounter().GetOptions().GetLoss().GetExplodeActionD10())
	require.NotNil(t, req.GetEncounter().GetOptions().GetLoss().ExplodeActionD10)
}

func TestAddSendsEachSheet(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "add", "enc-1", filepath.Join(clienttest.Sheets, "diego.yaml"), filepath.Join(clienttest.Sheets, "ruffian.yaml"),
		"--addr", addr, "--expected-sequence", "1")
	require.Equal(t, 0, code, errOut)
	require.Equal(t,
		"added Diego (diego): player character, side pcs, controller david (#1)\n"+
			"added Le malfrat (ruffian): adversaire, side foes, controller gm (#2)\n", out)

	calls := f.Requests()
	require.Len(t, calls, 2)
	ids := map[string]bool{}
	for i, want := range []*encounterv1.Combatant{clienttest.MustSheet(t, "diego.yaml"), clienttest.MustSheet(t, "ruffian.yaml")} {
		require.Equal(t, "AddCombatant", calls[i].Method)
		require.Equal(t, []string{"dev/gm"}, calls[i].Principal, "the default principal is gm")
		req := calls[i].Req.(*encounterv1.AddCombatantRequest)
		require.Equal(t, "enc-1", req.GetEncounterId())
		clienttest.RequireProtoEqual(t, want, req.GetCombatant())
		require.Regexp(t, clienttest.HexID, req.GetCommandId())
		ids[req.GetCommandId()] = true
	}
	require.Len(t, ids, 2, "each combatant is its own command")
	require.Equal(t, uint64(1), calls[0].Req.(*encounterv1.AddCombatantRequest).GetExpectedSequence())
	require.Nil(t, calls[1].Req.(*encounterv1.AddCombatantRequest).ExpectedSequence)
}

func TestAddDerivesCommandIDsPerFile(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	code, _, errOut := clienttest.Run(t, "add", "--addr", addr, "--command-id", "add-griffons", "enc-1",
		filepath.Join(clienttest.Sheets, "griffon-1.yaml"), filepath.Join(clienttest.Sheets, "griffon-2.yaml"))
	require.Equal(t, 0, code, errOut)
	calls := f.Requests()
	require.Len(t, calls, 2)
	require.Equal(t, "add-griffons-1", calls[0].Req.(*encounterv1.AddCombatantRequest).GetCommandId())
	require.Equal(t, "add-griffons-2", calls[1].Req.(*encounterv1.AddCombatantRequest).GetCommandId())
}

func TestAddMalformedSheetSendsNothing(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("id: x\nloss:\n  initiative: high\n"), 0o600))

	code, out, errOut := clienttest.Run(t, "add", "--addr", addr, "enc-1", filepath.Join(clienttest.Sheets, "diego.yaml"), bad)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "bad.yaml")
	require.Contains(t, errOut, "loss.initiative")
	require.Empty(t, f.Requests(), "no combatant is sent when a file is malformed")
}

func TestPassSubmitStartAndEnd(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	st.Pending = nil
	f := &clienttest.Fake{State: st, SubmitEvents: events[3:5]}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "start", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#4 The fight starts\n#5 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA\n", out)

	code, _, errOut = clienttest.Run(t, "pass", "enc-1", "ruffian", "--addr", addr)
	require.Equal(t, 0, code, errOut)

	code, _, errOut = clienttest.Run(t, "submit", "enc-1", "--addr", addr, "--command", `{"loss": {"combatant_id": "diego", "pass": {}}}`)
	require.Equal(t, 0, code, errOut)

	cmdFile := filepath.Join(t.TempDir(), "cmd.yaml")
	require.NoError(t, os.WriteFile(cmdFile, []byte("removeCombatant:\n  combatantId: ruffian\n"), 0o600))
	code, _, errOut = clienttest.Run(t, "submit", "enc-1", "--addr", addr, "--file", cmdFile)
	require.Equal(t, 0, code, errOut)

	code, out, errOut = clienttest.Run(t, "end", "enc-1", "--addr", addr, "--reason", "the ruffian flees")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "deadbeef\n", out)

	calls := f.Requests()
	require.Len(t, calls, 5)
	require.Equal(t, "StartEncounter", calls[0].Method)
	require.Equal(t, "enc-1", calls[0].Req.(*encounterv1.StartEncounterRequest).GetEncounterId())
	clienttest.RequireProtoEqual(t, clienttest.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}),
		calls[1].Req.(*encounterv1.SubmitRequest).GetCommand())
	clienttest.RequireProtoEqual(t, clienttest.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}),
		calls[2].Req.(*encounterv1.SubmitRequest).GetCommand())
	clienttest.RequireProtoEqual(t, &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "ruffian"}}},
		calls[3].Req.(*encounterv1.SubmitRequest).GetCommand())
	require.Equal(t, "EndEncounter", calls[4].Method)
	require.Equal(t, "the ruffian flees", calls[4].Req.(*encounterv1.EndEncounterRequest).GetReason())
}

func TestServerErrorPrintsStatus(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{SubmitErr: status.Error(codes.FailedPrecondition, "it is not Le malfrat's turn (LOS-031)")}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "pass", "enc-1", "ruffian", "--addr", addr)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, "fray pass: FailedPrecondition: it is not Le malfrat's turn (LOS-031)\n", errOut)
}

func TestLogStopsAtTheCurrentSequence(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st, Events: events, HoldWatch: true}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "log", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6, out)
	require.Equal(t, `#1 Encounter "Ruelle" created by gm`, lines[0])
	require.Equal(t, "#2 joins: Diego (diego): player character, side pcs, controller david", lines[1])
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge", lines[5])
	calls := f.Requests()
	require.Equal(t, "GetEncounter", calls[0].Method)
	require.Equal(t, "WatchEncounter", calls[1].Method)
	require.Equal(t, uint64(1), calls[1].Req.(*encounterv1.WatchEncounterRequest).GetFromSequence())

	code, out, errOut = clienttest.Run(t, "log", "enc-1", "--addr", addr, "--json")
	require.Equal(t, 0, code, errOut)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6)
	ev := &encounterv1.Event{}
	require.NoError(t, client.DecodeProto("line.json", []byte(lines[5]), ev))
	clienttest.RequireProtoEqual(t, events[5], ev)
}

func TestWatchPrintsUntilTheStreamEnds(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st, Events: events}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "watch", "enc-1", "--addr", addr, "--from", "6", "--as", "florence")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"#7 Le malfrat passes, keeping 12 PA to parry or dodge\n", out)
	calls := f.Requests()
	require.Equal(t, "WatchEncounter", calls[len(calls)-1].Method)
	require.Equal(t, []string{"dev/florence"}, calls[len(calls)-1].Principal)
	require.Equal(t, uint64(6), calls[len(calls)-1].Req.(*encounterv1.WatchEncounterRequest).GetFromSequence())
}

func TestWatchEndsCleanlyWhenInterrupted(t *testing.T) {
	clienttest.ClearEnv(t)
	_, events := clienttest.Ruelle(t)
	f := &clienttest.Fake{Events: events, HoldWatch: true, Watching: make(chan struct{})}
	addr := clienttest.Serve(t, f)

	ctx, cancel := context.WithCancel(t.Context())
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := clienttest.RunCtx(ctx, "watch", "enc-1", "--addr", addr, "--json")
		done <- result{code, out, errOut}
	}()
	<-f.Watching // the server has sent the log and waits for more
	cancel()     // as SIGINT does through signal.NotifyContext
	r := <-done
	require.Equal(t, 0, r.code, r.errOut)
	require.Empty(t, r.errOut)
}

func TestListRulesetsAndRoll(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "list", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `enc-1\s+Ruelle\s+loss\s+active\s+9`, out)

	code, out, errOut = clienttest.Run(t, "rulesets", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `loss\s+Les Chants de Loss\s+1`, out)

	t.Setenv("FRAY_RULES_ADDR", addr)
	code, out, errOut = clienttest.Run(t, "roll", "3d10+4", "--addr", "127.0.0.1:1", "--seed", "0a0b", "--offset", "2")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "3d10+4: 3d10[3,7,9]+4 = 23\nseed 0a0b offset 2 (3 draws)\n", out)
	calls := f.Requests()
	clienttest.RequireProtoEqual(t, &rulesv1.RollRequest{Expression: "3d10+4", Seed: []byte{0x0a, 0x0b}, Offset: 2}, calls[len(calls)-1].Req)

	code, _, errOut = clienttest.Run(t, "roll", "d20", "--addr", addr, "--seed", "xyz")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--seed: not hex")
}

func TestUnreachableServerIsAnError(t *testing.T) {
	clienttest.ClearEnv(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	require.NoError(t, lis.Close()) // nothing listens there now
	code, out, errOut := clienttest.Run(t, "list", "--addr", addr)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "fray list: Unavailable: ")
}
