package e2e_test

import (
	"crypto/sha256"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

func fey(id, name, ctl string, v, h, p, r, t, essence int32, attr string, value int32) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Controller: ctl, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Taille: t, Essence: essence,
		Attributes: []*feeriev1.Attribute{{Name: attr, Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: value, Combat: true}},
	}}}
}

func melee(target, attr string, init, att, def int32) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{attr}, Defense: []string{attr}},
		Tactic:  &feeriev1.Tactic{Initiative: init, Attack: att, Defense: def}}
}

func (f *fight) fey(who string, a *feeriev1.Action) []*feeriev1.Event {
	f.t.Helper()
	a.CombatantId = who
	r, err := f.c.Submit(as(ctl(who)), &encounterv1.SubmitRequest{EncounterId: f.id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}})
	require.NoError(f.t, err)
	f.record(ctl(who), r.GetEvents())
	var out []*feeriev1.Event
	for _, ev := range r.GetEvents() {
		out = append(out, ev.GetFeerie())
	}
	return out
}

// Two full Actions of Contes de Fées between three combatants over gRPC — an anticipation,
// a change of intention with a new tactic, a further activity — then the encounter rebuilt
// from JetStream to an identical state.
func TestFeerieTwoActionsOverGRPC(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	// A seed under which the fight holds each move below (chosen again for dice scheme 2).
	sum := sha256.Sum256([]byte("fray-e2e-feerie-1"))
	seed := sum[:]
	c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
	f := watchedFight(t, c, "La clairière", "feerie")
	controller["rubezahl"], controller["serpent"], controller["lutin"] = "rita", "gm", "luc"
	for _, p := range []*encounterv1.Combatant{
		fey("rubezahl", "Rübezahl", "rita", 20, 18, 16, 16, 1, 40, "bâton", 4),
		fey("serpent", "Serpent à Sornettes", "gm", 17, 15, 12, 12, 0, 40, "morsure", 4),
		fey("lutin", "Lutin", "luc", 14, 16, 8, 10, -2, 40, "esquive", 4),
	} {
		r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: p})
		require.NoError(t, err)
		f.events = append(f.events, r.GetEvents()...)
	}
	r, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	f.events = append(f.events, r.GetEvents()...)

	everyone := []string{"rubezahl", "serpent", "lutin"}
	intents := map[string]*feeriev1.Intent{
		"rubezahl": melee("serpent", "bâton", 0, 2, -2),
		"serpent":  melee("rubezahl", "morsure", 2, 0, -2),
		"lutin":    melee("serpent", "esquive", -2, -2, 4),
	}
	var anticipated, changed, further bool
	for action := int32(1); action <= 2; action++ {
		for _, who := range everyone {
			f.fey(who, &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: intents[who]}}})
		}
		st := f.state().GetState().GetFeerie()
		require.Equal(t, feeriev1.Step_STEP_COUNTDOWN, st.GetStep(), "Initiative is rolled once all have declared")
		require.Equal(t, action, st.GetAction())
		// Who acts first, who last.
		order := slices.Clone(everyone)
		slices.SortFunc(order, func(a, b string) int {
			return int(st.GetCombatants()[b].GetInitiative() - st.GetCombatants()[a].GetInitiative())
		})
		first, middle, last := order[0], order[1], order[2]
		top := st.GetTopRank()
		for st.GetRank() > 0 {
			rank := st.GetRank()
			for _, who := range everyone {
				cs := st.GetCombatants()[who]
				switch {
				case action == 1 && who == last && rank == top && cs.GetActivities() == 0 && cs.GetInitiative() < top:
					// The slowest anticipates to act at the top rank (FEE-050).
					evs := f.fey(who, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})
					require.Equal(t, top-cs.GetInitiative(), evs[0].GetActivityQueued().GetQueued().GetAnticipation())
					anticipated = true
				case action == 1 && who == middle && rank == top-1 && !changed && cs.GetActivities() == 0:
					// The middle one changes its intention and tactic before acting (FEE-070, FEE-071).
					in := melee(intents[who].GetTargetId(), intents[who].GetApplied().GetAttack()[0], 0, 4, -4)
					evs := f.fey(who, &feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: in}}})
					require.NotNil(t, evs[0].GetIntentionChanged())
					changed = true
				case action == 1 && who == first && cs.GetActivities() == 1 && rank == cs.GetLastRank()-1:
					// The first acts again one rank later: a further activity, anticipated (FEE-060).
					evs := f.fey(who, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})
					q := evs[0].GetActivityQueued().GetQueued()
					require.Equal(t, int32(2), q.GetNth())
					require.Equal(t, int32(7), q.GetAnticipation(), "8 ranks later is normal; one rank later anticipates 7")
					further = true
				case cs.GetActivities() == 0 && cs.GetCanAct() && cs.GetActingRank() == rank:
					f.fey(who, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})
				}
			}
			f.fey("gm", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}})
			st = f.state().GetState().GetFeerie()
		}
		f.fey("gm", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}}) // rank 0 → the next Action
	}
	require.True(t, anticipated && changed && further, "anticipation %v, change %v, further activity %v", anticipated, changed, further)

	// Everything that happened is in the log: resolved attacks, and the penalties carried into
	// the second Action by the further activity and the change (FEE-062, FEE-073).
	var resolved, carried int
	for _, ev := range f.events {
		if ev.GetFeerie().GetActivityResolved() != nil {
			resolved++
		}
		for _, ir := range ev.GetFeerie().GetCountdownStarted().GetInitiative() {
			for _, m := range ir.GetResult().GetModifiers() {
				if m.GetRule() == "FEE-062" && m.GetValue() == -4 {
					carried++
				}
			}
		}
	}
	require.GreaterOrEqual(t, resolved, 6, "two Actions of three combatants")
	require.Equal(t, 2, carried, "the further activity and the change each weigh −4 on the next Action's Initiative")
	require.Equal(t, int32(3), f.state().GetState().GetFeerie().GetAction())
	f.finish(seed, ns.ClientURL(), resolverAddr)
}
