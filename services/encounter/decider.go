package encounter

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"google.golang.org/protobuf/proto"
)

// Decider decides commands: the resolver, over gRPC or in-process. A response carries
// state_sha256 unless the request set omit_state_sha256; the service compares it with the
// hash of its own fold of the events whenever it is there.
type Decider interface {
	Resolve(context.Context, *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error)
}

// DefaultHashEvery is how often RemoteDecider asks the resolver for the hash of the state
// a command leads to: one call in 64.
const DefaultHashEvery = 64

// RemoteDecider asks a RulesService over gRPC. Use it by pointer (&RemoteDecider{...}).
//
// Hashing a state (its deterministic encoding, then sha256) costs about as much as deciding
// a command, and the check needs it twice: the resolver's hash of the state it reached, and
// the service's of its own fold of the events. So the resolver is asked for it on one call in
// HashEvery only (and on the first), and the service compares only then: a resolver that
// folds otherwise than this service (another version of the rules, a bug) is still seen and
// logged within HashEvery commands, while the other calls hash nothing. The log is the truth
// either way: what is recorded is the events, never the resolver's state.
//
// Sheets are sent once: the first time this decider sees a combatant, its sheet goes in full
// with its digest (ResolveRequest.sheet_sha256), which the resolver checks and keeps; after
// that only the digest goes. A resolver that lacks one (another replica, a restart, its cache
// full) answers FailedPrecondition with reason sheets.ReasonNotCached, and the call is
// sent again with every sheet in full: any replica answers any call. The retry may well go
// to another replica than the one that lacked them (round robin), so after its k-th miss a
// combatant's sheet also goes in full on the next k calls: with R replicas taking calls in
// turn, every one has it after at most R-1 misses. One that digests a sheet
// otherwise (sheets.ReasonDigestMismatch: another version) is sent the state as it
// is, without digests. A combatant is recognised by its address: the engine never changes a
// combatant in place, it replaces it (engine.Fork), and what is known of one is forgotten when
// it is collected (a weak pointer), so the decider holds nothing of encounters gone.
type RemoteDecider struct {
	Client rulesv1.RulesServiceClient
	// HashEvery: one call in HashEvery asks for state_sha256 (default DefaultHashEvery; 1:
	// every call).
	HashEvery int
	calls     atomic.Uint64
	sheets    sheetDigests
}

func (d *RemoteDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	every := uint64(d.HashEvery)
	if d.HashEvery <= 0 {
		every = DefaultHashEvery
	}
	sent := resend(req)
	if (d.calls.Add(1)-1)%every != 0 {
		sent.OmitStateSha256 = true
	}
	st := req.GetState()
	digested := len(req.GetSheetSha256()) == 0 && len(st.GetCombatants()) > 0
	if digested {
		sent.State, sent.SheetSha256 = d.sheets.strip(engine.Share(st), st)
	}
	resp, err := d.Client.Resolve(ctx, sent)
	if digested && sheets.Reason(err) == sheets.ReasonNotCached {
		d.sheets.missed(st)
		sent.State, sent.SheetSha256 = st, d.sheets.all(st)
		resp, err = d.Client.Resolve(ctx, sent)
	}
	if digested && sheets.Reason(err) == sheets.ReasonDigestMismatch {
		sent.State, sent.SheetSha256 = st, nil
		resp, err = d.Client.Resolve(ctx, sent)
	}
	return resp, err
}

// resend is a new request holding req's fields (not copies of them), for the decider to
// change without changing the caller's.
func resend(req *rulesv1.ResolveRequest) *rulesv1.ResolveRequest {
	return &rulesv1.ResolveRequest{State: req.GetState(), Command: req.GetCommand(), Actor: req.GetActor(), Seed: req.GetSeed(),
		RewindState: req.GetRewindState(), OmitStateSha256: req.GetOmitStateSha256(), SheetSha256: req.GetSheetSha256()}
}

// sheetDigests is what a RemoteDecider knows of the combatants it has sent: each one's sheet
// digest and a copy of it without its sheet, by the combatant's address (weak: an entry goes
// when its combatant is collected).
type sheetDigests struct {
	mu sync.Mutex
	by map[weak.Pointer[encounterv1.Combatant]]*digested
}

type digested struct {
	digest   []byte
	stripped *encounterv1.Combatant // the combatant without its sheet
	// misses is how many times a resolver lacked the sheet; full, how many of the next
	// calls send it in full still (under sheetDigests.mu).
	misses, full int
}

// maxFullAfterMiss bounds the calls that send a sheet in full after a miss.
const maxFullAfterMiss = 64

// of is what is known of c, and whether c is new to the decider (then known from now on).
func (s *sheetDigests) of(c *encounterv1.Combatant) (*digested, bool) {
	k := weak.Make(c)
	s.mu.Lock()
	d, ok := s.by[k]
	s.mu.Unlock()
	if ok {
		return d, false
	}
	d = &digested{digest: sheets.Digest(c), stripped: proto.CloneOf(c)}
	d.stripped.Sheet = nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if known, ok := s.by[k]; ok {
		return known, false
	}
	if s.by == nil {
		s.by = map[weak.Pointer[encounterv1.Combatant]]*digested{}
	}
	s.by[k] = d
	runtime.AddCleanup(c, s.forget, k)
	return d, true
}

func (s *sheetDigests) forget(k weak.Pointer[encounterv1.Combatant]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.by, k)
}

// known is how many combatants the decider knows (for tests).
func (s *sheetDigests) known() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.by)
}

// strip is st as sent to the resolver: out (a fork of st) whose combatants known before carry
// no sheet, and the digest of each combatant's sheet (new ones go in full, to be kept).
func (s *sheetDigests) strip(out, st *encounterv1.EncounterState) (*encounterv1.EncounterState, [][]byte) {
	out.Combatants = make([]*encounterv1.Combatant, len(st.GetCombatants()))
	digests := make([][]byte, len(out.Combatants))
	for i, c := range st.GetCombatants() {
		out.Combatants[i] = c
		if c.GetSheet() == nil {
			continue
		}
		d, fresh := s.of(c)
		digests[i] = d.digest
		if !fresh && d.digest != nil && !s.sendFull(d) {
			out.Combatants[i] = d.stripped
		}
	}
	return out, digests
}

// sendFull reports whether d's sheet goes in full on this call, after a miss.
func (s *sheetDigests) sendFull(d *digested) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.full == 0 {
		return false
	}
	d.full--
	return true
}

// missed notes that a resolver lacked some sheet of st: each combatant's sheet goes in full on
// as many of the next calls as it has missed.
func (s *sheetDigests) missed(st *encounterv1.EncounterState) {
	for _, c := range st.GetCombatants() {
		if c.GetSheet() == nil {
			continue
		}
		d, _ := s.of(c)
		s.mu.Lock()
		d.misses++
		d.full = min(d.misses, maxFullAfterMiss)
		s.mu.Unlock()
	}
}

// all is the digest of every combatant's sheet of st, for st sent in full.
func (s *sheetDigests) all(st *encounterv1.EncounterState) [][]byte {
	digests := make([][]byte, len(st.GetCombatants()))
	for i, c := range st.GetCombatants() {
		if c.GetSheet() != nil {
			d, _ := s.of(c)
			digests[i] = d.digest
		}
	}
	return digests
}

// LocalDecider decides in-process with a registry. It hashes the state it reaches unless
// the request omits it, so that a service deciding in-process (tests, benchmarks) compares
// its fold with Resolve's on every command.
type LocalDecider struct{ Registry *engine.Registry }

func (d LocalDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	// In-process, the caller's tenant goes into the decision too (over gRPC the resolver
	// takes it from the state, which the service checked against the caller's first).
	events, next, err := d.Registry.ResolveWith(req.GetState(), req.GetCommand(), engine.Env{
		Actor: req.GetActor(), Tenant: identity.Tenant(ctx), Seed: req.GetSeed(), RewindState: req.GetRewindState(),
	})
	if err != nil {
		return nil, refusal.Status(err)
	}
	out := &rulesv1.ResolveResponse{Events: events}
	if !req.GetOmitStateSha256() {
		out.StateSha256 = engine.Hash(next)
	}
	return out, nil
}
