package encounter_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
)

// fakeRules is a RulesService client deciding in-process, recording the requests it is
// sent; corrupt, when set, changes each state_sha256 it answers.
type fakeRules struct {
	rulesv1.RulesServiceClient
	local   encounter.LocalDecider
	corrupt bool

	mu   sync.Mutex
	sent []*rulesv1.ResolveRequest
}

func (f *fakeRules) Resolve(ctx context.Context, req *rulesv1.ResolveRequest, _ ...grpc.CallOption) (*rulesv1.ResolveResponse, error) {
	f.mu.Lock()
	f.sent = append(f.sent, req)
	f.mu.Unlock()
	resp, err := f.local.Resolve(ctx, req)
	if err == nil && f.corrupt && len(resp.GetStateSha256()) > 0 {
		resp.StateSha256[0] ^= 1
	}
	return resp, err
}

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// RemoteDecider asks for the state's hash on the first call and then one in HashEvery; the
// other requests omit it (and the resolver then hashes nothing). The caller's request is
// never changed.
func TestRemoteDeciderAsksForTheHashOnASample(t *testing.T) {
	rules := &fakeRules{local: encounter.LocalDecider{Registry: systems.Registry()}}
	d := &encounter.RemoteDecider{Client: rules, HashEvery: 4}
	req := &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "enc-1", Tenant: "dev"}, Actor: "dev/gm", Seed: make([]byte, 32),
		Command: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "loss"}}}}
	var hashed []int
	for i := range 10 {
		resp, err := d.Resolve(context.Background(), req)
		require.NoError(t, err)
		require.False(t, req.GetOmitStateSha256(), "the caller's request is left alone")
		require.Equal(t, !rules.sent[i].GetOmitStateSha256(), len(resp.GetStateSha256()) == 32)
		if !rules.sent[i].GetOmitStateSha256() {
			hashed = append(hashed, i)
		}
	}
	require.Equal(t, []int{0, 4, 8}, hashed)
	require.NotSame(t, req, rules.sent[0])

	every := &encounter.RemoteDecider{Client: rules, HashEvery: 1}
	for range 3 {
		resp, err := every.Resolve(context.Background(), req)
		require.NoError(t, err)
		require.Len(t, resp.GetStateSha256(), 32)
	}
	byDefault := &encounter.RemoteDecider{Client: rules}
	n := len(rules.sent)
	for range 2 * encounter.DefaultHashEvery {
		_, err := byDefault.Resolve(context.Background(), req)
		require.NoError(t, err)
	}
	asked := 0
	for _, r := range rules.sent[n:] {
		if !r.GetOmitStateSha256() {
			asked++
		}
	}
	require.Equal(t, 2, asked)
}

// A resolver folding to another state than the service's is seen and logged on the sampled
// commands (every one here, then one in three), and never when they agree; the commands
// succeed either way (the log is the truth).
func TestDivergenceIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name      string
		corrupt   bool
		every     int
		commands  int
		wantWarns int
	}{
		{"agreeing, every command", false, 1, 4, 0},
		{"diverging, every command", true, 1, 4, 4},
		// Calls: the create (not compared), then 6 commands; asked on calls 1, 4 and 7.
		{"diverging, one in three", true, 3, 6, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			b := store.NewMemory()
			reg := systems.Registry()
			rules := &fakeRules{local: encounter.LocalDecider{Registry: reg}, corrupt: tc.corrupt}
			svc := encounter.New(b, b, &encounter.RemoteDecider{Client: rules, HashEvery: tc.every}, reg, encounter.Options{
				Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
			})
			ctx := authtest.Identity("gm")
			r, err := svc.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Divergence", RuleSystem: "loss"}})
			require.NoError(t, err)
			for i := range tc.commands {
				_, err := svc.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: r.GetEncounterId(), Combatant: fighter(string(rune('a'+i)), "gm", int32(5+i), sword(3))})
				require.NoError(t, err)
			}
			warns := strings.Count(logs.String(), "the resolver and this service fold to different states")
			require.Equal(t, tc.wantWarns, warns, "%s", logs.String())
			if tc.wantWarns > 0 {
				require.Contains(t, logs.String(), "encounter="+r.GetEncounterId())
			}
		})
	}
}
