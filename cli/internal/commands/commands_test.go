package commands

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

const sheets = "../../testdata/sheets"

var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func requireProtoEqual(t *testing.T, want, got proto.Message) {
	t.Helper()
	require.True(t, proto.Equal(want, got), "want:\n%s\ngot:\n%s", prototext.Format(want), prototext.Format(got))
}

func mustSheet(t *testing.T, name string) *encounterv1.Combatant {
	t.Helper()
	c, err := client.LoadCombatant(filepath.Join(sheets, name))
	require.NoError(t, err)
	return c
}

func d10(faces ...int32) *dicev1.Roll {
	r := &dicev1.Roll{Expression: "1d10!", Faces: faces}
	for _, f := range faces {
		r.Total += f
	}
	return r
}

func lossEv(seq uint64, e *lossv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_Loss{Loss: e}}
}

// ruelle is the LOS-T01 fight: Diego has attacked the ruffian, who must now react.
func ruelle(t *testing.T) (*encounterv1.EncounterState, []*encounterv1.Event) {
	diego, ruffian := mustSheet(t, "diego.yaml"), mustSheet(t, "ruffian.yaml")
	st := &encounterv1.EncounterState{
		EncounterId: "enc-1", Name: "Ruelle", RuleSystem: "loss", RulesVersion: 1, GameMaster: "gm",
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 6,
		Combatants: []*encounterv1.Combatant{diego, ruffian},
		Pending: []*encounterv1.PendingReaction{{
			CombatantId: "ruffian", Controller: "gm",
			Prompt: "Diego attacks Le malfrat with épée (total 20 against 15): parry, dodge or take the blow",
		}},
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{HealthBands: []int32{5, 5, 5}}}},
		System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{
			Tour: 1, Sequence: 1,
			Combatants: map[string]*lossv1.CombatantState{
				"diego":   {ActionPoints: 11, InitiativeTotal: 15, Light: 5, Grave: 5, Fatal: 5, Fursa: 2, Inspiration: map[string]int32{"Courage": 1}},
				"ruffian": {ActionPoints: 12, InitiativeTotal: 12, Light: 3, Grave: 5, Fatal: 5},
			},
			Pending: &lossv1.PendingAttack{AttackerId: "diego", DefenderId: "ruffian", Weapon: "épée", Difficulty: 15, AttackTotal: 20},
		}},
	}
	events := []*encounterv1.Event{
		{Sequence: 1, Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{Name: "Ruelle", GameMaster: "gm"}}},
		{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: diego}}},
		{Sequence: 3, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: ruffian}}},
		{Sequence: 4, Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}},
		lossEv(5, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 1, Sequence: 1, Initiative: []*lossv1.InitiativeRoll{
			{CombatantIds: []string{"diego"}, Initiative: 8, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{7}, Total: 7}, ActionPoints: 15},
			{CombatantIds: []string{"ruffian"}, Initiative: 6, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{6}, Total: 6}, ActionPoints: 12},
		}}}}),
		lossEv(6, &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Test:            &lossv1.TestResult{Roll: d10(8), Trait: 6, Talent: 6, Total: 20, Difficulty: 15, Success: true},
			DefencePossible: true,
		}}}),
		// Recorded after the state above was read: `fray log` must not wait for it.
		lossEv(7, &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "ruffian", ActionPointsLeft: 12}}}),
	}
	return st, events
}

func TestCreateSendsNameSystemOptionsAndPrincipal(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)
	opts := filepath.Join(t.TempDir(), "options.yaml")
	require.NoError(t, os.WriteFile(opts, []byte("gm_fursa: 2\nhealth_bands: [4, 4, 4]\n"), 0o600))

	code, out, errOut := run(t, "create", "--addr", addr, "--as", "florence", "--name", "Ruelle", "--options", opts)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out, "create prints the id and nothing else")

	calls := f.requests()
	require.Len(t, calls, 1)
	require.Equal(t, "CreateEncounter", calls[0].method)
	require.Equal(t, []string{"dev/florence"}, calls[0].principal)
	req := calls[0].req.(*encounterv1.CreateEncounterRequest)
	require.Regexp(t, hexID, req.GetCommandId())
	requireProtoEqual(t, &encounterv1.CreateEncounter{
		Name: "Ruelle", RuleSystem: "loss",
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{
			GmFursa: proto.Int32(2), HealthBands: []int32{4, 4, 4},
		}}},
	}, req.GetEncounter())
}

func TestCreateUsesEnvironmentAndCommandID(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	t.Setenv("FRAY_ADDR", serve(t, f))
	t.Setenv("FRAY_PRINCIPAL", "david")
	opts := filepath.Join(t.TempDir(), "options.json")
	require.NoError(t, os.WriteFile(opts, []byte(`{"loss": {"explodeActionD10": false}}`), 0o600))

	code, out, errOut := run(t, "create", "--name", "Ruelle", "--system", "loss", "--command-id", "c-1", "--options", opts)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out)
	calls := f.requests()
	require.Len(t, calls, 1)
	require.Equal(t, []string{"dev/david"}, calls[0].principal)
	req := calls[0].req.(*encounterv1.CreateEncounterRequest)
	require.Equal(t, "c-1", req.GetCommandId())
	require.False(t, req.GetEncounter().GetOptions().GetLoss().GetExplodeActionD10())
	require.NotNil(t, req.GetEncounter().GetOptions().GetLoss().ExplodeActionD10)
}

func TestAddSendsEachSheet(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)

	code, out, errOut := run(t, "add", "enc-1", filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"),
		"--addr", addr, "--expected-sequence", "1")
	require.Equal(t, 0, code, errOut)
	require.Equal(t,
		"added Diego (diego): player character, side pcs, controller david (#1)\n"+
			"added Le malfrat (ruffian): adversaire, side foes, controller gm (#2)\n", out)

	calls := f.requests()
	require.Len(t, calls, 2)
	ids := map[string]bool{}
	for i, want := range []*encounterv1.Combatant{mustSheet(t, "diego.yaml"), mustSheet(t, "ruffian.yaml")} {
		require.Equal(t, "AddCombatant", calls[i].method)
		require.Equal(t, []string{"dev/gm"}, calls[i].principal, "the default principal is gm")
		req := calls[i].req.(*encounterv1.AddCombatantRequest)
		require.Equal(t, "enc-1", req.GetEncounterId())
		requireProtoEqual(t, want, req.GetCombatant())
		require.Regexp(t, hexID, req.GetCommandId())
		ids[req.GetCommandId()] = true
	}
	require.Len(t, ids, 2, "each combatant is its own command")
	require.Equal(t, uint64(1), calls[0].req.(*encounterv1.AddCombatantRequest).GetExpectedSequence())
	require.Nil(t, calls[1].req.(*encounterv1.AddCombatantRequest).ExpectedSequence)
}

func TestAddDerivesCommandIDsPerFile(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)
	code, _, errOut := run(t, "add", "--addr", addr, "--command-id", "add-griffons", "enc-1",
		filepath.Join(sheets, "griffon-1.yaml"), filepath.Join(sheets, "griffon-2.yaml"))
	require.Equal(t, 0, code, errOut)
	calls := f.requests()
	require.Len(t, calls, 2)
	require.Equal(t, "add-griffons-1", calls[0].req.(*encounterv1.AddCombatantRequest).GetCommandId())
	require.Equal(t, "add-griffons-2", calls[1].req.(*encounterv1.AddCombatantRequest).GetCommandId())
}

func TestAddMalformedSheetSendsNothing(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("id: x\nloss:\n  initiative: high\n"), 0o600))

	code, out, errOut := run(t, "add", "--addr", addr, "enc-1", filepath.Join(sheets, "diego.yaml"), bad)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "bad.yaml")
	require.Contains(t, errOut, "loss.initiative")
	require.Empty(t, f.requests(), "no combatant is sent when a file is malformed")
}

func TestAttackSendsTheAction(t *testing.T) {
	clearEnv(t)
	st, events := ruelle(t)
	f := &fake{state: st, submitEvents: events[5:6]}
	addr := serve(t, f)

	code, out, errOut := run(t, "attack", "enc-1", "diego", "ruffian", "--addr", addr, "--as", "david",
		"--weapon", "épée", "--exploits", "2", "--fursa", "1", "--inspiration", "courage=1", "--unseen",
		"--expected-sequence", "5", "--command-id", "atk-1")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"waiting for ruffian (gm): Diego attacks Le malfrat with épée (total 20 against 15): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as gm\n", out)

	calls := f.requests()
	require.Len(t, calls, 1)
	require.Equal(t, "Submit", calls[0].method)
	require.Equal(t, []string{"dev/david"}, calls[0].principal)
	extra := lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	requireProtoEqual(t, &encounterv1.SubmitRequest{
		EncounterId: "enc-1", CommandId: "atk-1", ExpectedSequence: proto.Uint64(5),
		Command: client.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
			TargetId: "ruffian", Weapon: "épée", Exploits: []lossv1.ExploitEffect{extra, extra},
			Spend:  &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Courage": 1}},
			Unseen: true,
		}}}),
	}, calls[0].req)
}

func TestReactSendsTheReaction(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)

	code, _, errOut := run(t, "react", "enc-1", "ruffian", "dodge", "--addr", addr, "--exploits", "1", "--inspiration", "Honneur=1,Sagesse=2")
	require.Equal(t, 0, code, errOut)
	code, _, errOut = run(t, "react", "--addr", addr, "--as", "gm", "enc-1", "ruffian", "NONE")
	require.Equal(t, 0, code, errOut)

	calls := f.requests()
	require.Len(t, calls, 2)
	for _, c := range calls {
		require.Equal(t, "Submit", c.method)
		require.Equal(t, []string{"dev/gm"}, c.principal)
		require.Regexp(t, hexID, c.req.(*encounterv1.SubmitRequest).GetCommandId())
		require.Equal(t, "enc-1", c.req.(*encounterv1.SubmitRequest).GetEncounterId())
		require.Nil(t, c.req.(*encounterv1.SubmitRequest).ExpectedSequence)
	}
	requireProtoEqual(t, client.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_DODGE, Exploits: 1,
		Spend: &lossv1.Spend{Inspiration: map[string]int32{"Honneur": 1, "Sagesse": 2}},
	}}}), calls[0].req.(*encounterv1.SubmitRequest).GetCommand())
	requireProtoEqual(t, client.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_NONE,
	}}}), calls[1].req.(*encounterv1.SubmitRequest).GetCommand())
}

func TestPassSubmitStartAndEnd(t *testing.T) {
	clearEnv(t)
	st, events := ruelle(t)
	st.Pending = nil
	f := &fake{state: st, submitEvents: events[3:5]}
	addr := serve(t, f)

	code, out, errOut := run(t, "start", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#4 The fight starts\n#5 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA\n", out)

	code, _, errOut = run(t, "pass", "enc-1", "ruffian", "--addr", addr)
	require.Equal(t, 0, code, errOut)

	code, _, errOut = run(t, "submit", "enc-1", "--addr", addr, "--json", `{"loss": {"combatant_id": "diego", "pass": {}}}`)
	require.Equal(t, 0, code, errOut)

	cmdFile := filepath.Join(t.TempDir(), "cmd.yaml")
	require.NoError(t, os.WriteFile(cmdFile, []byte("removeCombatant:\n  combatantId: ruffian\n"), 0o600))
	code, _, errOut = run(t, "submit", "enc-1", "--addr", addr, "--file", cmdFile)
	require.Equal(t, 0, code, errOut)

	code, out, errOut = run(t, "end", "enc-1", "--addr", addr, "--reason", "the ruffian flees")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "deadbeef\n", out)

	calls := f.requests()
	require.Len(t, calls, 5)
	require.Equal(t, "StartEncounter", calls[0].method)
	require.Equal(t, "enc-1", calls[0].req.(*encounterv1.StartEncounterRequest).GetEncounterId())
	requireProtoEqual(t, client.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}),
		calls[1].req.(*encounterv1.SubmitRequest).GetCommand())
	requireProtoEqual(t, client.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}),
		calls[2].req.(*encounterv1.SubmitRequest).GetCommand())
	requireProtoEqual(t, &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "ruffian"}}},
		calls[3].req.(*encounterv1.SubmitRequest).GetCommand())
	require.Equal(t, "EndEncounter", calls[4].method)
	require.Equal(t, "the ruffian flees", calls[4].req.(*encounterv1.EndEncounterRequest).GetReason())
}

func TestServerErrorPrintsStatus(t *testing.T) {
	clearEnv(t)
	f := &fake{submitErr: status.Error(codes.FailedPrecondition, "it is not Le malfrat's turn (LOS-031)")}
	addr := serve(t, f)
	code, out, errOut := run(t, "pass", "enc-1", "ruffian", "--addr", addr)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, "fray pass: FailedPrecondition: it is not Le malfrat's turn (LOS-031)\n", errOut)
}

func TestStateSummary(t *testing.T) {
	clearEnv(t)
	st, _ := ruelle(t)
	f := &fake{state: st, legal: &encounterv1.GetEncounterResponse{Legal: []*rulesetv1.LegalAction{
		{Name: "dodge", Cost: 1, Rule: "LOS-036"},
		{Name: "take the blow", Rule: "LOS-009"},
	}}}
	addr := serve(t, f)

	code, out, errOut := run(t, "state", "enc-1", "--addr", addr, "--for", "ruffian", "--at", "6")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"Ruelle (enc-1): active, loss v1, GM gm, at event #6",
		"Tour 1 (Séquence 1); GM Fursa 0",
		"light 5/5, grave 5/5, fatal 5/5",
		"light 3/5, grave 5/5, fatal 5/5",
		"Fursa 2, Courage 1",
		"waiting for ruffian (gm): Diego attacks Le malfrat",
		"Le malfrat may:\n  dodge: 1 PA (LOS-036)\n  take the blow (LOS-009)\n",
	} {
		require.Contains(t, out, want)
	}
	require.Regexp(t, `diego\s+Diego\s+pcs\s+david\s+11\s`, out)
	require.NotRegexp(t, `(?m) +$`, out, "no trailing spaces")
	req := f.requests()[0].req.(*encounterv1.GetEncounterRequest)
	require.Equal(t, uint64(6), req.GetAtSequence())
	require.Equal(t, "ruffian", req.GetLegalFor())

	code, out, errOut = run(t, "state", "enc-1", "--addr", addr, "--json")
	require.Equal(t, 0, code, errOut)
	got := &encounterv1.GetEncounterResponse{}
	require.NoError(t, client.DecodeProto("state.json", []byte(out), got))
	requireProtoEqual(t, st, got.GetState())
}

func TestLogStopsAtTheCurrentSequence(t *testing.T) {
	clearEnv(t)
	st, events := ruelle(t)
	f := &fake{state: st, events: events, holdWatch: true}
	addr := serve(t, f)

	code, out, errOut := run(t, "log", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6, out)
	require.Equal(t, `#1 Encounter "Ruelle" created by gm`, lines[0])
	require.Equal(t, "#2 joins: Diego (diego): player character, side pcs, controller david", lines[1])
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge", lines[5])
	calls := f.requests()
	require.Equal(t, "GetEncounter", calls[0].method)
	require.Equal(t, "WatchEncounter", calls[1].method)
	require.Equal(t, uint64(1), calls[1].req.(*encounterv1.WatchEncounterRequest).GetFromSequence())

	code, out, errOut = run(t, "log", "enc-1", "--addr", addr, "--json")
	require.Equal(t, 0, code, errOut)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6)
	ev := &encounterv1.Event{}
	require.NoError(t, client.DecodeProto("line.json", []byte(lines[5]), ev))
	requireProtoEqual(t, events[5], ev)
}

func TestWatchPrintsUntilTheStreamEnds(t *testing.T) {
	clearEnv(t)
	st, events := ruelle(t)
	f := &fake{state: st, events: events}
	addr := serve(t, f)

	code, out, errOut := run(t, "watch", "enc-1", "--addr", addr, "--from", "6", "--as", "florence")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"#7 Le malfrat passes, keeping 12 PA to parry or dodge\n", out)
	calls := f.requests()
	require.Equal(t, "WatchEncounter", calls[len(calls)-1].method)
	require.Equal(t, []string{"dev/florence"}, calls[len(calls)-1].principal)
	require.Equal(t, uint64(6), calls[len(calls)-1].req.(*encounterv1.WatchEncounterRequest).GetFromSequence())
}

func TestWatchEndsCleanlyWhenInterrupted(t *testing.T) {
	clearEnv(t)
	_, events := ruelle(t)
	f := &fake{events: events, holdWatch: true, watching: make(chan struct{})}
	addr := serve(t, f)

	ctx, cancel := context.WithCancel(t.Context())
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCtx(ctx, "watch", "enc-1", "--addr", addr, "--json")
		done <- result{code, out, errOut}
	}()
	<-f.watching // the server has sent the log and waits for more
	cancel()     // as SIGINT does through signal.NotifyContext
	r := <-done
	require.Equal(t, 0, r.code, r.errOut)
	require.Empty(t, r.errOut)
}

func TestListRulesetsAndRoll(t *testing.T) {
	clearEnv(t)
	f := &fake{}
	addr := serve(t, f)

	code, out, errOut := run(t, "list", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `enc-1\s+Ruelle\s+loss\s+active\s+9`, out)

	code, out, errOut = run(t, "rulesets", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `loss\s+Les Chants de Loss\s+1`, out)

	t.Setenv("FRAY_RULES_ADDR", addr)
	code, out, errOut = run(t, "roll", "3d10+4", "--addr", "127.0.0.1:1", "--seed", "0a0b", "--offset", "2")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "3d10+4: 3d10[3,7,9]+4 = 23\nseed 0a0b offset 2 (3 draws)\n", out)
	calls := f.requests()
	requireProtoEqual(t, &rulesv1.RollRequest{Expression: "3d10+4", Seed: []byte{0x0a, 0x0b}, Offset: 2}, calls[len(calls)-1].req)

	code, _, errOut = run(t, "roll", "d20", "--addr", addr, "--seed", "xyz")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--seed: not hex")
}

func TestUnreachableServerIsAnError(t *testing.T) {
	clearEnv(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	require.NoError(t, lis.Close()) // nothing listens there now
	code, out, errOut := run(t, "list", "--addr", addr)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "fray list: Unavailable: ")
}
