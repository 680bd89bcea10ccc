package loss_test

import (
	"strconv"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
)

// scripted rolls the faces of its script in order; a face past it panics with the die's
// sides, for enumerate to branch on.
type scripted struct {
	script []int32
	at     int
}

type needFace struct{ sides int }

func (s *scripted) face(sides int) int32 {
	if s.at >= len(s.script) {
		panic(needFace{sides})
	}
	s.at++
	return s.script[s.at-1]
}

func (s *scripted) Roll(e dice.Expr) *dicev1.Roll {
	r := &dicev1.Roll{Expression: e.String(), Modifier: int32(e.Modifier)}
	total := int32(e.Modifier)
	for range e.Count {
		for {
			f := s.face(e.Sides)
			r.Faces = append(r.Faces, f)
			total += f
			if !e.Explode || int(f) != e.Sides {
				break
			}
		}
	}
	r.Total = total
	return r
}

// enumerate decides cmd on st for every sequence of faces its dice may show, each with its
// probability (a chain of explosions cut below 1e-9), and calls see with its events.
func enumerate(t *testing.T, st *encounterv1.EncounterState, actor string, cmd *encounterv1.Command, see func(evs []*encounterv1.Event, p float64)) {
	var walk func(script []int32, p float64)
	walk = func(script []int32, p float64) {
		var need *needFace
		var evs []*encounterv1.Event
		func() {
			defer func() {
				if r := recover(); r != nil {
					n, ok := r.(needFace)
					if !ok {
						panic(r)
					}
					need = &n
				}
			}()
			var err error
			evs, err = oddstest.Reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: &scripted{script: script}})
			require.NoError(t, err)
		}()
		if need == nil {
			see(evs, p)
			return
		}
		if p < 1e-9 {
			return
		}
		for f := 1; f <= need.sides; f++ {
			walk(append(append([]int32(nil), script...), int32(f)), p/float64(need.sides))
		}
	}
	walk(nil, 1)
}

// boxes is what the defender has left: its NS boxes, a Sbire's Health.
func boxes(st *encounterv1.EncounterState, id string) int32 {
	cs := st.GetLoss().GetCombatants()[id]
	return cs.GetLight() + cs.GetGrave() + cs.GetFatal() + cs.GetHealth()
}

// The odds of each answer to an attack awaiting its defender — parry, dodge, take the blow —
// are those of the real Decide of that answer over every face its dice may show: the chance
// the defence makes the attack miss (LOS-013), the Exploits standing (LOS-014), the NS lost
// and the chance the defender is out of the fight (LOS-022) (issue 28, item 5).
func TestLossReactOddsAreThoseOfEveryFace(t *testing.T) {
	st := lossFight(t, nil, malfrat())
	// Diego's attack with one extra damage (Difficulty 20) reaches 6+6+9 = 21: it waits for the
	// malfrat's answer.
	st = oddstest.Apply(t, st, "david", lossAttack(extras(1)...), dice.NewFixed(9))
	require.NotNil(t, st.GetLoss().GetPending())
	for _, r := range []lossv1.Reaction{lossv1.Reaction_REACTION_PARRY, lossv1.Reaction_REACTION_DODGE, lossv1.Reaction_REACTION_NONE} {
		t.Run(r.String(), func(t *testing.T) {
			cmd := lossCmd(&lossv1.Action{CombatantId: "malfrat", Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: r}}})
			o, err := odds.Of(oddstest.Reg, st, cmd, oddstest.GM)
			require.NoError(t, err)
			key := map[lossv1.Reaction]string{lossv1.Reaction_REACTION_PARRY: "parry", lossv1.Reaction_REACTION_DODGE: "dodge", lossv1.Reaction_REACTION_NONE: "none"}[r]
			s := oddstest.Section(t, o, key)
			t.Logf("%s: %s", o.GetSummary(), s)

			var miss, out float64
			standing := map[int32]float64{}
			lost := map[int64]float64{}
			before := boxes(st, "malfrat")
			enumerate(t, st, oddstest.GM, cmd, func(evs []*encounterv1.Event, p float64) {
				next, err := oddstest.FoldInto(st, evs)
				require.NoError(t, err)
				hit := false
				for _, ev := range evs {
					if d := ev.GetLoss().GetDefenceRolled(); d != nil && d.GetTest().GetSuccess() {
						miss += p
					}
					if h := ev.GetLoss().GetAttackResolved(); h.GetHit() {
						hit = true
						standing[h.GetExploitsStanding()] += p
					}
				}
				lost[int64(before-boxes(next, "malfrat"))] += p
				if hit && loss.New(1).Out(next, "malfrat") {
					out += p
				}
			})
			if r != lossv1.Reaction_REACTION_NONE {
				require.InDelta(t, miss, oddstest.ChanceOf(t, s, "miss"), 1e-6, "the defence makes it miss")
				require.Positive(t, miss)
			}
			for n, p := range standing {
				require.InDelta(t, p, oddstest.ChanceOf(t, s, "standing."+strconv.Itoa(int(n))), 1e-6, "%d Exploits standing", n)
			}
			require.InDelta(t, out, oddstest.ChanceOf(t, s, "out"), 1e-6, "out of the fight")
			levels := oddstest.DistOf(t, s, "levels")
			for v, p := range lost {
				require.InDelta(t, p, oddstest.ProbOf(levels, v), 1e-6, "%d NS lost", v)
			}
		})
	}
}
