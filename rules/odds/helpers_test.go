package odds_test

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
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// samples is the Monte Carlo sample count of each agreement test. CI runs the default (2000),
// which keeps the package's tests under 30 s with -race; the 1e6 is
//
//	cd rules && go test ./odds/ -run Agree -odds.samples=1000000
//
// FRAY_ODDS_SAMPLES, when set, replaces the default (a mutation-testing run, which cannot pass
// test flags, sets it lower).
var samples = flag.Int("odds.samples", defaultSamples(), "Monte Carlo samples of each agreement test (1e6 for the full check)")

func defaultSamples() int {
	if n, err := strconv.Atoi(os.Getenv("FRAY_ODDS_SAMPLES")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// agreement marks a Monte Carlo agreement test (odds against the real Decide): one of the
// suite's slow families (README, "Testing"), skipped by `go test -short`.
func agreement(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a Monte Carlo agreement with Decide: a slow family, skipped under -short")
	}
}

const gm = "gm"

var reg = systems.Registry()

// play decides cmds in order on a fresh state with fixed dice, each with its actor and faces.
type step struct {
	actor string
	cmd   *encounterv1.Command
	faces []int32
}

func play(t testing.TB, steps ...step) *encounterv1.EncounterState {
	t.Helper()
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, s := range steps {
		st = apply(t, st, s.actor, s.cmd, dice.NewFixed(s.faces...))
	}
	return st
}

// apply decides cmd on st with roller and returns the state the events lead to.
func apply(t testing.TB, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, roller dice.Roller) *encounterv1.EncounterState {
	t.Helper()
	_, next := applyEvents(t, st, actor, cmd, roller)
	return next
}

func applyEvents(t testing.TB, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, roller dice.Roller) ([]*encounterv1.Event, *encounterv1.EncounterState) {
	t.Helper()
	evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: roller, Seed: make([]byte, 32)})
	require.NoError(t, err)
	next, err := foldInto(st, evs)
	require.NoError(t, err)
	return evs, next
}

func foldInto(st *encounterv1.EncounterState, evs []*encounterv1.Event) (*encounterv1.EncounterState, error) {
	events := append([]*encounterv1.Event(nil), evs...)
	next := proto.CloneOf(st)
	for _, ev := range events {
		if err := reg.Evolve(next, ev); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// stream is the system's own dice stream of the i-th sample's seed.
func stream(t testing.TB, i int) *dice.Stream {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(i))
	seed := sha256.Sum256(b[:])
	s, err := dice.NewStream(seed[:], 0)
	require.NoError(t, err)
	return s
}

// tally counts how often each observed event occurs over the samples.
type tally struct {
	name   string
	n      int
	counts map[string]int
	// sums and squares of observed numbers (for means), by key.
	sum, sq map[string]float64
}

func newTally() *tally {
	return &tally{counts: map[string]int{}, sum: map[string]float64{}, sq: map[string]float64{}}
}

func (c *tally) see(key string) { c.counts[key]++ }

func (c *tally) value(key string, v float64) {
	c.sum[key] += v
	c.sq[key] += v * v
}

// agree checks that the exact probability p of key agrees with the frequency seen within 4
// standard errors, the standard error taken at the larger of p and the frequency seen (a rare
// event over few samples is a small count: its spread is that of what was seen as much as of
// what was expected), plus half a count of continuity correction; an impossible event must
// never be seen, a sure one always.
func (c *tally) agree(t *testing.T, key string, p float64) {
	t.Helper()
	seen := float64(c.counts[key]) / float64(c.n)
	q := math.Max(p, seen)
	if p > 0.5 {
		q = math.Min(p, seen)
	}
	se := math.Sqrt(q * (1 - q) / float64(c.n))
	tolerance := 4 * se
	if p > 0 && p < 1 {
		tolerance += 0.5 / float64(c.n)
	}
	require.InDelta(t, p, seen, tolerance+1e-12, "%s %s: exact %.6f, seen %.6f over %d samples (4 SE = %.6f)", c.name, key, p, seen, c.n, 4*se)
}

// agreeMean checks an exact mean against the sample mean within 4 standard errors, taken from
// the larger of the exact variance and the sample's (a rare value may not be seen at all).
func (c *tally) agreeMean(t *testing.T, key string, mean, variance float64) {
	t.Helper()
	n := float64(c.n)
	m := c.sum[key] / n
	v := math.Max(variance, c.sq[key]/n-m*m)
	require.InDelta(t, mean, m, 4*math.Sqrt(v/n)+1e-9, "%s %s: exact mean %.6f, seen %.6f", c.name, key, mean, m)
}

// agreeDist checks every value of an exact distribution against the frequencies seen of
// key.value, and that no value the distribution rules out was seen.
func (c *tally) agreeDist(t *testing.T, key string, d *oddsv1.Distribution) {
	t.Helper()
	var total float64
	values := map[string]bool{}
	for _, o := range d.GetOutcomes() {
		k := key + "=" + itoa(o.GetValue())
		values[k] = true
		c.agree(t, k, o.GetProbability())
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
	c.agreeMean(t, key, d.GetMean(), variance)
}

func itoa(v int64) string {
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

func section(t *testing.T, o *oddsv1.Odds, key string) *oddsv1.OddsSection {
	t.Helper()
	for _, s := range o.GetSections() {
		if s.GetKey() == key {
			return s
		}
	}
	require.Failf(t, "no section", "odds have no section %q", key)
	return nil
}

func chanceOf(t *testing.T, s *oddsv1.OddsSection, key string) float64 {
	t.Helper()
	for _, c := range s.GetChances() {
		if c.GetKey() == key {
			return c.GetProbability()
		}
	}
	require.Failf(t, "no chance", "section %q has no chance %q", s.GetKey(), key)
	return 0
}

func distOf(t *testing.T, s *oddsv1.OddsSection, key string) *oddsv1.Distribution {
	t.Helper()
	for _, d := range s.GetDistributions() {
		if d.GetKey() == key {
			return d
		}
	}
	require.Failf(t, "no distribution", "section %q has no distribution %q", s.GetKey(), key)
	return nil
}

func probOf(d *oddsv1.Distribution, v int64) float64 {
	for _, o := range d.GetOutcomes() {
		if o.GetValue() == v {
			return o.GetProbability()
		}
	}
	return 0
}
