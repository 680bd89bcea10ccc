package engine_test

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// scheme1Log reads a log written before dice schemes existed: testdata/scheme1 holds the
// golden logs of every system's v1 as committed then (rules/systems/testdata/golden at
// e6ae9f5), with the hash of the state they fold to.
func scheme1Log(t *testing.T, system string) ([]*encounterv1.Event, []byte) {
	t.Helper()
	base := filepath.Join("testdata", "scheme1", system+"-v1")
	raw, err := os.ReadFile(base + ".jsonl")
	require.NoError(t, err)
	var events []*encounterv1.Event
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		ev := &encounterv1.Event{}
		require.NoError(t, protojson.Unmarshal([]byte(line), ev), "%s line %d", base, i+1)
		events = append(events, ev)
	}
	sum, err := os.ReadFile(base + ".sha256")
	require.NoError(t, err)
	hash, err := hex.DecodeString(strings.TrimSpace(string(sum)))
	require.NoError(t, err)
	return events, hash
}

var scheme1Systems = []string{"loss", "feerie", "ka", "d20seg"}

// An old log (no dice scheme recorded) folds to the very state it did, and audits intact
// under scheme 1: every roll re-derived from the one ChaCha8 stream of its seed.
func TestScheme1LogsFoldAndAuditAsBefore(t *testing.T) {
	reg := systems.Registry()
	for _, system := range scheme1Systems {
		t.Run(system, func(t *testing.T) {
			events, hash := scheme1Log(t, system)
			require.Zero(t, events[0].GetEncounterCreated().GetDiceScheme())
			st, err := reg.Fold(events)
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(hash), hex.EncodeToString(engine.Hash(st)), "the state an old log folds to is unchanged")
			require.Zero(t, st.GetDiceScheme())
			rep, err := reg.Audit(events)
			require.NoError(t, err)
			require.Positive(t, rep.Rolls)
			for _, ev := range events {
				for _, r := range engine.Rolls(ev) {
					require.Zero(t, r.GetScheme())
				}
			}
		})
	}
}

// A new encounter records scheme 2, the fold keeps it, and every roll of the encounter is
// drawn under it; the audit decides the creation again under the scheme recorded.
func TestNewEncountersRollUnderScheme2(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	log := recordFight(t, reg, true)
	require.Equal(t, uint32(2), log[0].GetEncounterCreated().GetDiceScheme())
	st, err := reg.Fold(log)
	require.NoError(t, err)
	require.Equal(t, uint32(2), st.GetDiceScheme())
	var rolls int
	for _, ev := range log {
		for _, r := range engine.Rolls(ev) {
			require.Equal(t, uint32(2), r.GetScheme())
			require.NoError(t, dice.Verify(log[len(log)-1].GetEncounterEnded().GetSeed(), r))
			rolls++
		}
	}
	require.Positive(t, rolls)
	rep, err := reg.Audit(log)
	require.NoError(t, err)
	require.Equal(t, rolls, rep.Rolls)

	// A creation recording an unknown scheme diverges at once; one recording scheme 1 at its
	// first roll, drawn under scheme 2.
	for scheme, at := range map[uint32]uint64{3: 1, 1: firstRoll(t, cloneLog(log), 2)} {
		forged := cloneLog(log)
		forged[0].GetEncounterCreated().DiceScheme = scheme
		_, err := reg.Audit(forged)
		var d *engine.Divergence
		require.ErrorAs(t, err, &d, "scheme %d", scheme)
		require.Equal(t, at, d.Sequence, "scheme %d: %v", scheme, d)
	}
	// A roll recorded under scheme 1 in a scheme-2 encounter.
	forged := cloneLog(log)
	seq := firstRoll(t, forged, 0)
	_, err = reg.Audit(forged)
	var d *engine.Divergence
	require.ErrorAs(t, err, &d)
	require.Equal(t, seq, d.Sequence)
	require.Contains(t, d.Reason, "recorded under dice scheme 1, the encounter's is 2")
}

func cloneLog(log []*encounterv1.Event) []*encounterv1.Event {
	c := make([]*encounterv1.Event, len(log))
	for i, ev := range log {
		c[i] = proto.CloneOf(ev)
	}
	return c
}

// firstRoll sets the scheme of the log's first roll and returns its event's sequence.
func firstRoll(t *testing.T, log []*encounterv1.Event, scheme uint32) uint64 {
	t.Helper()
	for _, ev := range log {
		if rs := engine.Rolls(ev); len(rs) > 0 {
			rs[0].Scheme = scheme
			return ev.GetSequence()
		}
	}
	t.Fatal("no roll in the log")
	return 0
}

// A forged roll claiming dice position 2^36 (a scheme-1 stream would draw for about four
// minutes to get there) stops the audit at once with a Divergence naming its event, in an old
// log and a new one, wherever the roll is; so do a roll that starts beyond what the rolls
// before it reached, and one that claims to draw past the scheme's bound. The test would not
// finish if any of them were drawn.
func TestForgedDiceOffsetsAuditAtOnce(t *testing.T) {
	reg := systems.Registry()
	old, _ := scheme1Log(t, "loss")
	logs := map[string][]*encounterv1.Event{"scheme1": old, "scheme2": recordFight(t, engine.NewRegistry(loss.New(1)), true)}
	for name, log := range logs {
		var withRolls []int
		for i, ev := range log {
			if len(engine.Rolls(ev)) > 0 {
				withRolls = append(withRolls, i)
			}
		}
		require.GreaterOrEqual(t, len(withRolls), 2)
		for _, tc := range []struct {
			name   string
			at     int
			forge  func(r *encounterv1.Event)
			reason string
		}{
			{"first roll at 2^36", withRolls[0], func(ev *encounterv1.Event) { engine.Rolls(ev)[0].Offset = 1 << 36 }, "impossible roll"},
			{"last roll at 2^36", withRolls[len(withRolls)-1], func(ev *encounterv1.Event) { engine.Rolls(ev)[0].Offset = 1 << 36 }, "impossible roll"},
			{"a roll skipping ahead", withRolls[1], func(ev *encounterv1.Event) { engine.Rolls(ev)[0].Offset += 1000 }, "impossible roll"},
			{"a roll drawing 2^40 words", withRolls[0], func(ev *encounterv1.Event) { engine.Rolls(ev)[0].Draws = 1 << 40 }, "out of bounds"},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				forged := cloneLog(log)
				tc.forge(forged[tc.at])
				_, err := reg.Audit(forged)
				var d *engine.Divergence
				require.True(t, errors.As(err, &d), "%v", err)
				require.Equal(t, forged[tc.at].GetSequence(), d.Sequence)
				require.Contains(t, d.Reason, tc.reason)
			})
		}
	}
}

// Resolve refuses a state whose dice position is beyond its scheme's bound, before drawing
// (a scheme-1 stream at 2^62 would never be reached), as an invalid request.
func TestResolveRefusesDicePositionsBeyondTheBound(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	log := recordFight(t, reg, false)
	st, err := reg.Fold(log)
	require.NoError(t, err)
	pass := &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}
	sd := make([]byte, dice.SeedSize)
	for _, tc := range []struct {
		scheme       uint32
		offset, high uint64
	}{
		{2, 1 << 62, 0}, {2, 1<<32 + 1, 0}, {2, 0, 1 << 40}, {0, 1<<24 + 1, 0}, {0, 1 << 62, 0}, {7, 0, 0},
	} {
		s := proto.CloneOf(st)
		s.DiceScheme, s.DiceOffset, s.DiceHighWater = tc.scheme, tc.offset, tc.high
		_, _, err := reg.Resolve(s, pass, "gm", sd, nil)
		re, ok := engine.AsRuleError(err)
		require.True(t, ok, "%+v: %v", tc, err)
		require.Equal(t, engine.CodeInvalid, re.Code, "%+v", tc)
		require.Contains(t, re.Msg, "dice", "%+v", tc)
	}
	// At the bound itself a scheme-2 encounter plays on (a position costs the same anywhere).
	s := proto.CloneOf(st)
	s.DiceOffset = dice.Scheme2.MaxOffset()
	_, _, err = reg.Resolve(s, pass, "gm", sd, nil)
	require.NoError(t, err)
}
