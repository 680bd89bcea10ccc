package encounter_test

import (
	"bytes"
	"context"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// fakeRules is a RulesService client deciding in-process, recording the requests it is
// sent (copies, as the wire would); corrupt, when set, changes each state_sha256 it answers.
// It keeps the sheets it is sent by digest as the resolver does (trusting the digests: the
// resolver's checks are tested in services/resolver); forget drops them.
type fakeRules struct {
	rulesv1.RulesServiceClient
	local    encounter.LocalDecider
	corrupt  bool
	mismatch bool // refuse every sheet sent with a digest: SHEET_DIGEST_MISMATCH

	mu     sync.Mutex
	sent   []*rulesv1.ResolveRequest
	sheets map[string]*encounterv1.Combatant
	misses int
}

func (f *fakeRules) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sheets = nil
}

func (f *fakeRules) Resolve(ctx context.Context, req *rulesv1.ResolveRequest, _ ...grpc.CallOption) (*rulesv1.ResolveResponse, error) {
	f.mu.Lock()
	f.sent = append(f.sent, proto.CloneOf(req)) // as sent
	req = proto.CloneOf(req)                    // as decoded, then filled
	var missing []string
	for i, d := range req.GetSheetSha256() {
		c := req.GetState().GetCombatants()[i]
		switch {
		case len(d) == 0:
		case c.GetSheet() != nil && f.mismatch:
			f.mu.Unlock()
			return nil, sheets.WithReason(codes.InvalidArgument, "digested otherwise", sheets.ReasonDigestMismatch, nil)
		case c.GetSheet() != nil:
			if f.sheets == nil {
				f.sheets = map[string]*encounterv1.Combatant{}
			}
			f.sheets[string(d)] = &encounterv1.Combatant{Sheet: c.Sheet}
		case f.sheets[string(d)] != nil:
			c.Sheet = f.sheets[string(d)].Sheet
		default:
			missing = append(missing, c.GetId())
		}
	}
	if missing != nil {
		f.misses++
	}
	f.mu.Unlock()
	if missing != nil {
		return nil, sheets.WithReason(codes.FailedPrecondition, "no sheet for "+strings.Join(missing, ", "), sheets.ReasonNotCached, nil)
	}
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

// lossState is a Loss encounter of n combatants (started when start), folded in-process.
func lossState(t *testing.T, n int, start bool) *encounterv1.EncounterState {
	t.Helper()
	reg := systems.Registry()
	st := &encounterv1.EncounterState{EncounterId: "enc-sheets", Tenant: "dev"}
	do := func(cmd *encounterv1.Command) {
		t.Helper()
		events, _, err := reg.ResolveWith(st, cmd, engine.Env{Actor: "dev/gm", Tenant: "dev", Seed: make([]byte, 32)})
		require.NoError(t, err)
		for _, ev := range events {
			require.NoError(t, reg.Evolve(st, ev))
		}
	}
	do(&encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Sheets", RuleSystem: "loss"}}})
	for i := range n {
		do(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: fighter(string(rune('a'+i)), "dev/gm", int32(5+i), sword(3))}}})
	}
	if start {
		do(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	}
	return st
}

// sheetsIn is how many combatants of req's state carry their sheet.
func sheetsIn(req *rulesv1.ResolveRequest) int {
	n := 0
	for _, c := range req.GetState().GetCombatants() {
		if c.GetSheet() != nil {
			n++
		}
	}
	return n
}

// A combatant's sheet goes in full the first time the decider sees the combatant, then by
// digest only; a resolver that lacks it (it forgot) is sent every sheet again and answers as
// if it had never forgotten; a new combatant (a changed copy) goes in full once; the caller's
// state is never changed; the events are those of the rules in-process on the full state.
func TestRemoteDeciderSendsSheetsOnce(t *testing.T) {
	reg := systems.Registry()
	local := encounter.LocalDecider{Registry: reg}
	rules := &fakeRules{local: local}
	d := &encounter.RemoteDecider{Client: rules, HashEvery: 1}
	st := lossState(t, 3, false)
	before := proto.CloneOf(st)
	start := &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
	req := &rulesv1.ResolveRequest{State: st, Command: start, Actor: "dev/gm", Seed: make([]byte, 32)}
	want, err := local.Resolve(context.Background(), req)
	require.NoError(t, err)
	call := func() {
		t.Helper()
		got, err := d.Resolve(context.Background(), req)
		require.NoError(t, err)
		require.True(t, proto.Equal(want, got), "the same events and state hash as in-process")
		require.True(t, proto.Equal(before, st), "the caller's state is left alone")
	}

	call()
	require.Len(t, rules.sent, 1)
	first := rules.sent[0]
	require.Equal(t, 3, sheetsIn(first), "first sight: every sheet in full")
	require.Len(t, first.GetSheetSha256(), 3)
	for i, c := range st.GetCombatants() {
		require.Equal(t, sheets.Digest(c), first.GetSheetSha256()[i])
	}
	require.Equal(t, 3, d.KnownCombatants())

	call()
	require.Len(t, rules.sent, 2)
	require.Zero(t, sheetsIn(rules.sent[1]), "then by digest only")
	require.Equal(t, first.GetSheetSha256(), rules.sent[1].GetSheetSha256())
	require.Less(t, proto.Size(rules.sent[1]), proto.Size(first)/2)

	rules.forget()
	call()
	require.Len(t, rules.sent, 4, "a miss, then every sheet again")
	require.Zero(t, sheetsIn(rules.sent[2]))
	require.Equal(t, 3, sheetsIn(rules.sent[3]))
	require.Equal(t, first.GetSheetSha256(), rules.sent[3].GetSheetSha256())
	require.Equal(t, 1, rules.misses)
	call() // after a first miss, once more in full (the retry may have gone to another replica)
	require.Len(t, rules.sent, 5)
	require.Equal(t, 3, sheetsIn(rules.sent[4]))
	call()
	require.Zero(t, sheetsIn(rules.sent[5]))

	// A combatant replaced by a changed copy (as the engine changes one) is new: its sheet
	// goes in full once, the others' by digest.
	st.Combatants[1] = proto.CloneOf(st.Combatants[1])
	st.Combatants[1].Hidden = true
	before = proto.CloneOf(st)
	want, err = local.Resolve(context.Background(), req)
	require.NoError(t, err)
	call()
	require.Len(t, rules.sent, 7)
	require.Equal(t, 1, sheetsIn(rules.sent[6]))
	require.NotNil(t, rules.sent[6].GetState().GetCombatants()[1].GetSheet())
	call()
	require.Zero(t, sheetsIn(rules.sent[7]))
	require.Equal(t, 1, rules.misses)
}

// roundRobin sends calls to its resolvers in turn, as a round-robin balancer does.
type roundRobin struct {
	rulesv1.RulesServiceClient
	mu    sync.Mutex
	to    []*fakeRules
	calls int
}

func (r *roundRobin) Resolve(ctx context.Context, req *rulesv1.ResolveRequest, opts ...grpc.CallOption) (*rulesv1.ResolveResponse, error) {
	r.mu.Lock()
	f := r.to[r.calls%len(r.to)]
	r.calls++
	r.mu.Unlock()
	return f.Resolve(ctx, req, opts...)
}

// Replicas taking calls strictly in turn, a retry included: the replica that lacked the
// sheets may never be the one sent the retry, yet every replica has them after at most R-1
// misses each (the sheets go in full on the k calls after a k-th miss), and then no call
// misses.
func TestRemoteDeciderRoundRobin(t *testing.T) {
	local := encounter.LocalDecider{Registry: systems.Registry()}
	for _, replicas := range []int{2, 3, 5} {
		rr := &roundRobin{}
		for range replicas {
			rr.to = append(rr.to, &fakeRules{local: local})
		}
		d := &encounter.RemoteDecider{Client: rr, HashEvery: 1}
		st := lossState(t, 3, true)
		req := &rulesv1.ResolveRequest{State: st, Actor: "dev/gm", Seed: make([]byte, 32),
			Command: &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}}
		want, err := local.Resolve(context.Background(), req)
		require.NoError(t, err)
		for range 20 * replicas {
			got, err := d.Resolve(context.Background(), req)
			require.NoError(t, err)
			require.True(t, proto.Equal(want, got))
		}
		misses := 0
		for _, f := range rr.to {
			require.Len(t, f.sheets, 3, "every replica has every sheet (%d replicas)", replicas)
			misses += f.misses
		}
		require.LessOrEqual(t, misses, replicas-1, "%d replicas", replicas)
		calls := rr.calls
		for range 2 * replicas {
			_, err := d.Resolve(context.Background(), req)
			require.NoError(t, err)
		}
		require.Equal(t, calls+2*replicas, rr.calls, "then no call misses")
	}
}

// A resolver that digests sheets otherwise (SHEET_DIGEST_MISMATCH) is sent the state as it
// is, without digests, and answers right.
func TestRemoteDeciderWithoutDigests(t *testing.T) {
	local := encounter.LocalDecider{Registry: systems.Registry()}
	rules := &fakeRules{local: local, mismatch: true}
	d := &encounter.RemoteDecider{Client: rules, HashEvery: 1}
	st := lossState(t, 2, true)
	req := &rulesv1.ResolveRequest{State: st, Actor: "dev/gm", Seed: make([]byte, 32),
		Command: &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}}
	want, err := local.Resolve(context.Background(), req)
	require.NoError(t, err)
	for _, sent := range []int{2, 5} { // digests refused; then a miss, digests refused
		got, err := d.Resolve(context.Background(), req)
		require.NoError(t, err)
		require.True(t, proto.Equal(want, got))
		require.Len(t, rules.sent, sent)
		last := rules.sent[len(rules.sent)-1]
		require.Empty(t, last.GetSheetSha256())
		require.Equal(t, 2, sheetsIn(last))
	}
}

// What the decider knows of a combatant goes when the combatant is collected.
func TestRemoteDeciderForgetsCombatantsGone(t *testing.T) {
	rules := &fakeRules{local: encounter.LocalDecider{Registry: systems.Registry()}}
	d := &encounter.RemoteDecider{Client: rules, HashEvery: 1}
	func() {
		st := lossState(t, 4, true)
		_, err := d.Resolve(context.Background(), &rulesv1.ResolveRequest{State: st, Actor: "dev/gm", Seed: make([]byte, 32),
			Command: &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}})
		require.NoError(t, err)
	}()
	require.Equal(t, 4, d.KnownCombatants())
	rules.sent = nil // the fake's copies hold no combatant of the state, but let go anyway
	for i := 0; i < 1000 && d.KnownCombatants() > 0; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	require.Zero(t, d.KnownCombatants())
}
