package losscmd_test

import (
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func TestAttackSendsTheAction(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st, SubmitEvents: events[5:6]}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "attack", "enc-1", "diego", "ruffian", "--addr", addr, "--as", "david",
		"--weapon", "épée", "--exploits", "2", "--fursa", "1", "--inspiration", "courage=1", "--unseen",
		"--expected-sequence", "5", "--command-id", "atk-1")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"waiting for ruffian (gm): Diego attacks Le malfrat with épée (total 20 against 15): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as gm\n", out)

	calls := f.Requests()
	require.Len(t, calls, 1)
	require.Equal(t, "Submit", calls[0].Method)
	require.Equal(t, []string{"dev/david"}, calls[0].Principal)
	extra := lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	clienttest.RequireProtoEqual(t, &encounterv1.SubmitRequest{
		EncounterId: "enc-1", CommandId: "atk-1", ExpectedSequence: proto.Uint64(5),
		Command: clienttest.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
			TargetId: "ruffian", Weapon: "épée", Exploits: []lossv1.ExploitEffect{extra, extra},
			Spend:  &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Courage": 1}},
			Unseen: true,
		}}}),
	}, calls[0].Req)
}

func TestReactSendsTheReaction(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)

	code, _, errOut := clienttest.Run(t, "react", "enc-1", "ruffian", "dodge", "--addr", addr, "--exploits", "1", "--inspiration", "Honneur=1,Sagesse=2")
	require.Equal(t, 0, code, errOut)
	code, _, errOut = clienttest.Run(t, "react", "--addr", addr, "--as", "gm", "enc-1", "ruffian", "NONE")
	require.Equal(t, 0, code, errOut)

	calls := f.Requests()
	require.Len(t, calls, 2)
	for _, c := range calls {
		require.Equal(t, "Submit", c.Method)
		require.Equal(t, []string{"dev/gm"}, c.Principal)
		require.Regexp(t, clienttest.HexID, c.Req.(*encounterv1.SubmitRequest).GetCommandId())
		require.Equal(t, "enc-1", c.Req.(*encounterv1.SubmitRequest).GetEncounterId())
		require.Nil(t, c.Req.(*encounterv1.SubmitRequest).ExpectedSequence)
	}
	clienttest.RequireProtoEqual(t, clienttest.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_DODGE, Exploits: 1,
		Spend: &lossv1.Spend{Inspiration: map[string]int32{"Honneur": 1, "Sagesse": 2}},
	}}}), calls[0].Req.(*encounterv1.SubmitRequest).GetCommand())
	clienttest.RequireProtoEqual(t, clienttest.LossCommand(&lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_NONE,
	}}}), calls[1].Req.(*encounterv1.SubmitRequest).GetCommand())
}

func TestStateSummary(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st, Legal: &encounterv1.GetEncounterResponse{Legal: []*rulesetv1.LegalAction{
		{Name: "dodge", Cost: 1, Rule: "LOS-036"},
		{Name: "take the blow", Rule: "LOS-009"},
	}}}
	addr := clienttest.Serve(t, f)

	code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr, "--for", "ruffian", "--at", "6")
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
	req := f.Requests()[0].Req.(*encounterv1.GetEncounterRequest)
	require.Equal(t, uint64(6), req.GetAtSequence())
	require.Equal(t, "ruffian", req.GetLegalFor())

	code, out, errOut = clienttest.Run(t, "state", "enc-1", "--addr", addr, "--json")
	require.Equal(t, 0, code, errOut)
	got := &encounterv1.GetEncounterResponse{}
	require.NoError(t, client.DecodeProto("state.json", []byte(out), got))
	clienttest.RequireProtoEqual(t, st, got.GetState())
}
