// Package oddstest is what the odds tests of every rule system share (each system's
// odds_test.go): fights played with fixed dice, the system's own dice Stream for Monte Carlo
// samples, tallies that check exact odds against the frequencies the real Decide gives, and
// the check that odds use only what the caller sees.
package oddstest

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"strconv"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// samples is the Monte Carlo sample count of each agreement test. CI runs the default (2000),
// which keeps each system's odds tests under 30 s with -race; the 1e6 is
//
//	cd rules && go test ./loss/ ./ka/ ./feerie/ ./d20seg/ -run OddsAgree -odds.samples=1000000
//
// FRAY_ODDS_SAMPLES, when set, replaces the default (a mutation-testing run, which cannot pass
// test flags, sets it lower).
var samples = flag.Int("odds.samples", defaultSamples(), "Monte Carlo samples of each agreement test (1e6 for the full check)")

// Samples is the Monte Carlo sample count of each agreement test (-odds.samples).
func Samples() int { return *samples }

func defaultSamples() int {
	if n, err := strconv.Atoi(os.Getenv("FRAY_ODDS_SAMPLES")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// Agreement marks a Monte Carlo agreement test (odds against the real Decide): one of the
// suite's slow families (docs/testing.md), skipped by `go test -short`.
func Agreement(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a Monte Carlo agreement with Decide: a slow family, skipped under -short")
	}
}

// GM is the game master of the fights the tests play.
const GM = "gm"

// Reg is the registry of every rule system.
var Reg = systems.Registry()

// Step is one command of a fight Play plays: its actor and the faces its dice show.
type Step struct {
	Actor string
	Cmd   *encounterv1.Command
	Faces []int32
}

// Play decides the steps in order on a fresh state with fixed dice.
func Play(t testing.TB, steps ...Step) *encounterv1.EncounterState {
	t.Helper()
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, s := range steps {
		st = Apply(t, st, s.Actor, s.Cmd, dice.NewFixed(s.Faces...))
	}
	return st
}

// Apply decides cmd on st with roller and returns the state the events lead to.
func Apply(t testing.TB, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, roller dice.Roller) *encounterv1.EncounterState {
	t.Helper()
	_, next := ApplyEvents(t, st, actor, cmd, roller)
	return next
}

func ApplyEvents(t testing.TB, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, roller dice.Roller) ([]*encounterv1.Event, *encounterv1.EncounterState) {
	t.Helper()
	evs, err := Reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: roller, Seed: make([]byte, 32)})
	require.NoError(t, err)
	next, err := FoldInto(st, evs)
	require.NoError(t, err)
	return evs, next
}

// FoldInto is st with evs folded in, st unchanged.
func FoldInto(st *encounterv1.EncounterState, evs []*encounterv1.Event) (*encounterv1.EncounterState, error) {
	events := append([]*encounterv1.Event(nil), evs...)
	next := proto.CloneOf(st)
	for _, ev := range events {
		if err := Reg.Evolve(next, ev); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// Stream is the system's own dice Stream of the i-th sample's seed.
func Stream(t testing.TB, i int) *dice.Stream {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(i))
	seed := sha256.Sum256(b[:])
	s, err := dice.NewStream(seed[:], 0)
	require.NoError(t, err)
	return s
}

// Tally counts how often each observed event occurs over the samples.
type Tally struct {
	Name   string
	N      int
	counts map[string]int
	// sums and squares of observed numbers (for means), by key.
	sum, sq map[string]float64
}

func NewTally() *Tally {
	return &Tally{counts: map[string]int{}, sum: map[string]float64{}, sq: map[string]float64{}}
}

func (c *Tally) See(key string) { c.counts[key]++ }

func (c *Tally) Value(key string, v float64) {
	c.sum[key] += v
	c.sq[key] += v * v
}

// agree checks that the exact probability p of key agrees with the frequency seen within 4
// standard errors, the standard error taken at the larger of p and the frequency seen (a rare
// event over few samples is a small count: its spread is that of what was seen as much as of
// what was expected), plus half a count of continuity correction; an impossible event must
// never be seen, a sure one always.
func (c *Tally) Agree(t *testing.T, key string, p float64) {
	t.Helper()
	seen := float64(c.counts[key]) / float64(c.N)
	q := math.Max(p, seen)
	if p > 0.5 {
		q = math.Min(p, seen)
	}
	se := math.Sqrt(q * (1 - q) / float64(c.N))
	tolerance := 4 * se
	if p > 0 && p < 1 {
		tolerance += 0.5 / float64(c.N)
	}
	require.InDelta(t, p, seen, tolerance+1e-12, "%s %s: exact %.6f, seen %.6f over %d samples (4 SE = %.6f)", c.Name, key, p, seen, c.N, 4*se)
}

// agreeMean checks an exact mean against the sample mean within 4 standard errors, taken from
// the larger of the exact variance and the sample's (a rare value may not be seen at all).
func (c *Tally) AgreeMean(t *testing.T, key string, mean, variance float64) {
	t.Helper()
	n := float64(c.N)
	m := c.sum[key] / n
	v := math.Max(variance, c.sq[key]/n-m*m)
	require.InDelta(t, mean, m, 4*math.Sqrt(v/n)+1e-9, "%s %s: exact mean %.6f, seen %.6f", c.Name, key, mean, m)
}

// agreeDist checks every value of an exact distribution against the frequencies seen of
// key.value, and that no value the distribution rules out was seen.
func (c *Tally) AgreeDist(t *testing.T, key string, d *oddsv1.Distribution) {
	t.Helper()
	var total float64
	values := map[string]bool{}
	for _, o := range d.GetOutcomes() {
		k := key + "=" + Itoa(o.GetValue())
		values[k] = true
		c.Agree(t, k, o.GetProbability())
		total += o.GetProbability()
	}
	require.InDelta(t, 1, total, 1e-9, "%s: the distribution sums to %v", key, total)
	for k, n := range c.counts {
		if len(k) > len(key) && k[:len(key)+1] == key+"=" {
			require.True(t, values[k], "%s seen %d times, never in the exact distribution", k, n)
		}
	}
	var variance float64
	for _, o := range d.GetOutcomes() {
		dv := float64(o.GetValue()) - d.GetMean()
		variance += o.GetProbability() * dv * dv
	}
	c.AgreeMean(t, key, d.GetMean(), variance)
}

// Itoa writes v in decimal (a tally's key of a value).
func Itoa(v int64) string {
	return string(appendInt(nil, v))
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	if v >= 10 {
		b = appendInt(b, v/10)
	}
	return append(b, byte('0'+v%10))
}

func Section(t *testing.T, o *oddsv1.Odds, key string) *oddsv1.OddsSection {
	t.Helper()
	for _, s := range o.GetSections() {
		if s.GetKey() == key {
			return s
		}
	}
	require.Failf(t, "no section", "odds have no Section %q", key)
	return nil
}

func ChanceOf(t *testing.T, s *oddsv1.OddsSection, key string) float64 {
	t.Helper()
	for _, c := range s.GetChances() {
		if c.GetKey() == key {
			return c.GetProbability()
		}
	}
	require.Failf(t, "no chance", "section %q has no chance %q", s.GetKey(), key)
	return 0
}

func DistOf(t *testing.T, s *oddsv1.OddsSection, key string) *oddsv1.Distribution {
	t.Helper()
	for _, d := range s.GetDistributions() {
		if d.GetKey() == key {
			return d
		}
	}
	require.Failf(t, "no distribution", "section %q has no distribution %q", s.GetKey(), key)
	return nil
}

func ProbOf(d *oddsv1.Distribution, v int64) float64 {
	for _, o := range d.GetOutcomes() {
		if o.GetValue() == v {
			return o.GetProbability()
		}
	}
	return 0
}

// Hidden checks that the odds of cmd, given by a player controlling attacker, use only what
// the player sees: with target hidden, the odds on the player's view are the same whatever
// target's numbers (change alters them), and say its numbers are hidden; the GM, who sees
// all, gets odds that change with them.
func Hidden(t *testing.T, st *encounterv1.EncounterState, cmd *encounterv1.Command, attacker, target string, change func(*encounterv1.Combatant)) {
	t.Helper()
	engine.FindCombatant(st, target).Hidden = true
	other := proto.CloneOf(st)
	change(engine.FindCombatant(other, target))
	player := engine.Viewer{Controls: map[string]bool{attacker: true}}
	gmView := engine.Viewer{SeesAll: true}

	mine, err := odds.Of(Reg, Reg.View(st, player), cmd, "david")
	require.NoError(t, err)
	theirs, err := odds.Of(Reg, Reg.View(other, player), cmd, "david")
	require.NoError(t, err)
	require.True(t, proto.Equal(mine, theirs), "a player's odds must not depend on a hidden target's numbers")
	hidden := 0
	for _, s := range mine.GetSections() {
		if s.GetUnavailable() != "" {
			require.Contains(t, s.GetUnavailable(), "hidden from you")
			hidden++
		}
		for _, d := range s.GetDistributions() {
			require.Empty(t, d, "no distribution is computed from hidden numbers")
		}
	}
	require.Positive(t, hidden)

	all, err := odds.Of(Reg, Reg.View(st, gmView), cmd, "david")
	require.NoError(t, err)
	allOther, err := odds.Of(Reg, Reg.View(other, gmView), cmd, "david")
	require.NoError(t, err)
	require.False(t, proto.Equal(all, allOther), "the GM's odds use every number")
	for _, s := range all.GetSections() {
		require.NotContains(t, s.GetUnavailable(), "hidden")
	}
}
