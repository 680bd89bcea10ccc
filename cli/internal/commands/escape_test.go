package commands_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Diego":                     "Diego",
		"Loïc l'Ébréché — 2e rang":  "Loïc l'Ébréché — 2e rang",
		"Diego\x1b[2J":              `Diego\x1b[2J`,
		"a\x00b":                    `a\x00b`,
		"line\r\n#9 GM: forged":     `line\r\n#9 GM: forged`,
		"tab\there":                 `tab\there`,
		"evil\u202egnp.exe":         `evil\u202egnp.exe`,
		"\u2066iso\u2069":           `\u2066iso\u2069`,
		"del\x7f c1\u009b":          `del\x7f c1\u009b`,
		"bad \xff utf-8":            `bad \xff utf-8`,
		"real \uFFFD replacement":   "real \uFFFD replacement",
		`a literal \x1b stays text`: `a literal \x1b stays text`,
	} {
		require.Equal(t, want, client.Printable(in), "%q", in)
	}
}

// hostile is a name, a reason and a prompt as a hostile player would write them (recorded
// before the server validated names, or sent by a server that does not): NUL, a clear-screen
// escape, a forged log line, a right-to-left override.
const hostile = "Diego\x00\x1b[2J\r\n#9 GM: forged\u202egnp.exe"

// hostileShown is how the CLI prints it.
const hostileShown = `Diego\x00\x1b[2J\r\n#9 GM: forged\u202egnp.exe`

func requirePlain(t *testing.T, out string) {
	t.Helper()
	for _, r := range out {
		require.False(t, r != '\n' && r != '\t' && client.Unprintable(r), "the output holds %U: %q", r, out)
	}
	require.NotContains(t, out, "\r")
}

type hostileServer struct {
	*clienttest.Fake
}

func (h hostileServer) ListEncounters(context.Context, *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	return &encounterv1.ListEncountersResponse{Encounters: []*encounterv1.EncounterSummary{{
		EncounterId: "enc-1", Name: hostile, RuleSystem: "loss",
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 9, Role: encounterv1.Role_ROLE_GM,
	}}}, nil
}

func (h hostileServer) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	if req.GetEncounterId() == "enc-bad" {
		return nil, status.Error(codes.NotFound, "there is no encounter "+hostile)
	}
	return h.Fake.GetEncounter(ctx, req)
}

// Everything the CLI prints from the server (names, reasons, prompts, narration, the list,
// errors) comes out as plain text, its control and bidi characters escaped; --json keeps the
// data, escaped as JSON.
func TestTheCLIEscapesWhatTheServerSends(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	st.Name = hostile
	st.Combatants[0].Name = hostile
	st.Pending[0].Prompt = hostile
	events[0].GetEncounterCreated().Name = hostile
	events[1].GetCombatantAdded().Combatant.Name = hostile
	events = append(events[:6], &encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Reason: hostile}}})
	st.Sequence = 7
	f := &clienttest.Fake{State: st, Events: events}
	addr := clienttest.ServeWith(t, func(srv *grpc.Server) {
		encounterv1.RegisterEncounterServiceServer(srv, hostileServer{f})
	})

	for _, args := range [][]string{
		{"state", "enc-1"},
		{"log", "enc-1"},
		{"watch", "enc-1"},
		{"list"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if args[0] == "watch" {
				f.HoldWatch, f.Watching = false, nil
			}
			code, out, errOut := clienttest.RunCtx(ctx, append(args, "--addr", addr)...)
			require.Equal(t, 0, code, errOut)
			requirePlain(t, out)
			require.Contains(t, out, hostileShown)
		})
	}

	t.Run("an error", func(t *testing.T) {
		code, out, errOut := clienttest.Run(t, "state", "enc-bad", "--addr", addr)
		require.Equal(t, 1, code, out)
		requirePlain(t, errOut)
		require.Contains(t, errOut, "NotFound: there is no encounter "+hostileShown)
	})

	t.Run("state --json", func(t *testing.T) {
		code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr, "--json")
		require.Equal(t, 0, code, errOut)
		requirePlain(t, out)
		var resp encounterv1.GetEncounterResponse
		require.NoError(t, protojson.Unmarshal([]byte(out), &resp))
		require.Equal(t, hostile, resp.GetState().GetName(), "JSON keeps the data")
	})

	t.Run("log --json", func(t *testing.T) {
		code, out, errOut := clienttest.Run(t, "log", "enc-1", "--addr", addr, "--json")
		require.Equal(t, 0, code, errOut)
		requirePlain(t, out)
		first := strings.SplitN(out, "\n", 2)[0]
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(first), &ev))
		require.Equal(t, hostile, ev["encounterCreated"].(map[string]any)["name"])
	})
}
