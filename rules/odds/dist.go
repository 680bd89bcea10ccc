// Package odds holds what the exact odds of a command before it is committed are made of: the
// distributions of the dice, by convolution of exact probability vectors, and the generic
// entry point Of, which asks the encounter's rule system for its odds (engine.System.Odds;
// each system's odds.go reads the numbers its own Decide reads). An exploding die's chain of
// rerolls is truncated at a bound whose left-out mass is stated (Dist.Left) and kept below
// MaxLeft. It does no I/O.
package odds

import (
	"slices"
	"sync"

	"github.com/fray-rpg/fray/rules/dice"
)

// MaxLeft bounds the probability mass a truncated exploding die may leave out.
const MaxLeft = 1e-12

// Dist is a discrete distribution over the integers Min, Min+1, …, Min+len(P)-1: P[i] is the
// probability of Min+i. The P sum to 1 − Left, Left being the mass a truncation left out.
type Dist struct {
	Min  int
	P    []float64
	Left float64
}

// Point is the distribution of a constant.
func Point(v int) Dist { return Dist{Min: v, P: []float64{1}} }

// Die is one die of the given sides, faces 1 to sides equally likely.
func Die(sides int) Dist {
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return Dist{Min: 1, P: p}
}

// Exploding is one die that is rolled again and added while it shows its highest face, as
// dice.Roller rolls it: at most dice.MaxExplosion rerolls, the last face kept whatever it
// shows. The chain is followed for at most rerolls rerolls; when rerolls is below
// dice.MaxExplosion, the chance of a longer chain, sides^-(rerolls+1), is left out (Left).
func Exploding(sides, rerolls int) Dist {
	if sides < 2 { // a one-sided die shows 1 and rerolls to the cap, as the dice do
		return Point(dice.MaxExplosion + 1)
	}
	rerolls = min(rerolls, dice.MaxExplosion)
	p := make([]float64, sides*(rerolls+1))
	chain := 1.0 // the chance of j highest faces in a row
	face := 1 / float64(sides)
	for j := 0; j <= rerolls; j++ {
		last := sides - 1 // the chain ends on a face that does not explode
		if j == dice.MaxExplosion {
			last = sides // the dice stop rerolling: the highest face is kept too
		}
		for f := 1; f <= last; f++ {
			p[j*sides+f-1] = chain * face
		}
		chain *= face
	}
	d := Dist{Min: 1, P: p}
	if rerolls < dice.MaxExplosion {
		d.Left = chain
	}
	return d
}

// Rerolls is the fewest rerolls of an exploding die of the given sides that leave out at most
// MaxLeft.
func Rerolls(sides int) int {
	face := 1 / float64(sides)
	n, left := 0, face // computed as Exploding computes what it leaves out
	for left > MaxLeft && n < dice.MaxExplosion {
		n++
		left *= face
	}
	return n
}

// exprs keeps the distributions Expr computed: a Dist's P is never changed once made.
var exprs sync.Map // dice.Expr → Dist

// Expr is the distribution of the total of a dice expression as dice.Roller rolls it.
func Expr(e dice.Expr) Dist {
	if d, ok := exprs.Load(e); ok {
		return d.(Dist)
	}
	d := expr(e)
	exprs.Store(e, d)
	return d
}

func expr(e dice.Expr) Dist {
	one := Die(e.Sides)
	if e.Explode {
		one = Exploding(e.Sides, Rerolls(e.Sides))
	}
	d := Point(e.Modifier)
	for range e.Count {
		d = d.Add(one)
	}
	return d
}

// Max is the largest value of d.
func (d Dist) Max() int { return d.Min + len(d.P) - 1 }

// Add is the distribution of the sum of two independent variables (convolution).
func (d Dist) Add(e Dist) Dist {
	p := make([]float64, len(d.P)+len(e.P)-1)
	for i, a := range d.P {
		if a == 0 {
			continue
		}
		for j, b := range e.P {
			p[i+j] += a * b
		}
	}
	return Dist{Min: d.Min + e.Min, P: p, Left: d.Left + e.Left - d.Left*e.Left}
}

// Shift is the distribution of the variable plus k.
func (d Dist) Shift(k int) Dist { return Dist{Min: d.Min + k, P: d.P, Left: d.Left} }

// AtLeast is the probability that the variable is at least k.
func (d Dist) AtLeast(k int) float64 {
	var s float64
	for i := max(0, k-d.Min); i < len(d.P); i++ {
		s += d.P[i]
	}
	return s
}

// At is the probability of v.
func (d Dist) At(v int) float64 {
	if i := v - d.Min; i >= 0 && i < len(d.P) {
		return d.P[i]
	}
	return 0
}

// Map is the distribution of f of the variable.
func (d Dist) Map(f func(int) int) Dist {
	var out Builder
	for i, p := range d.P {
		out.Add(f(d.Min+i), p)
	}
	r := out.Dist()
	r.Left = d.Left
	return r
}

// Mean is the expected value over the mass the distribution holds.
func (d Dist) Mean() float64 {
	var m float64
	for i, p := range d.P {
		m += float64(d.Min+i) * p
	}
	return m
}

// Builder gathers probability mass by value into a Dist.
type Builder struct {
	min int
	p   []float64
}

// Add adds mass p to value v.
func (b *Builder) Add(v int, p float64) {
	switch {
	case b.p == nil:
		b.min, b.p = v, []float64{p}
		return
	case v < b.min:
		grown := make([]float64, len(b.p)+b.min-v)
		copy(grown[b.min-v:], b.p)
		b.min, b.p = v, grown
	case v >= b.min+len(b.p):
		b.p = append(b.p, make([]float64, v-b.min-len(b.p)+1)...)
	}
	b.p[v-b.min] += p
}

// Dist is the distribution gathered: empty (no value) when nothing was added.
func (b *Builder) Dist() Dist { return Dist{Min: b.min, P: b.p} }

// Neg is the distribution of minus the variable.
func (d Dist) Neg() Dist {
	p := slices.Clone(d.P)
	slices.Reverse(p)
	return Dist{Min: -d.Max(), P: p, Left: d.Left}
}
