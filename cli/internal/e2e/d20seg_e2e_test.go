package e2e_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

func warrior(id string, bba int32) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: id, Controller: "gm", Sheet: &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{
		Rapidite: 3 + bba/4, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED,
		Bba: bba, Agility: 2, Strength: 2, Wisdom: 1, Perception: 2, Stealth: 3, Ca: 14 + bba, HitPoints: 500, Size: d20segv1.Size_SIZE_M,
		Weapons: []*d20segv1.Weapon{{Name: "épée longue", Dice: "1d8", Critical: 2}},
	}}}
}

func (f *fight) seg(who string, a *d20segv1.Action) []*d20segv1.Event {
	f.t.Helper()
	a.CombatantId = who
	r, err := f.c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: f.id, Command: &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}})
	require.NoError(f.t, err)
	f.events = append(f.events, r.GetEvents()...)
	var out []*d20segv1.Event
	for _, ev := range r.GetEvents() {
		out = append(out, ev.GetD20Seg())
	}
	return out
}

// A surprise attack, then two full rounds between four combatants of BBA 0, 6, 11 and 16,
// over gRPC, rebuilt from JetStream to an identical state.
func TestD20SegSurpriseAndTwoRoundsOverGRPC(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	sum := sha256.Sum256([]byte("fray-e2e-d20seg"))
	seed := sum[:]
	c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
	f := watchedFight(t, c, "L'embuscade", "d20seg")
	bbas := map[string]int32{"novice": 0, "soldat": 6, "veteran": 11, "maitre": 16}
	foe := map[string]string{"novice": "veteran", "soldat": "maitre", "veteran": "novice", "maitre": "soldat"}
	for _, id := range []string{"novice", "soldat", "veteran", "maitre"} {
		r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: warrior(id, bbas[id])})
		require.NoError(t, err)
		f.events = append(f.events, r.GetEvents()...)
	}
	r, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	f.events = append(f.events, r.GetEvents()...)

	// The veteran and the master ambush the others in a forest at night.
	evs := f.seg("", &d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{
		AttackerIds: []string{"veteran", "maitre"},
		Defenders: []*d20segv1.Apprehension{
			{DefenderId: "novice", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_CLUTTERED_VIEW, d20segv1.Situation_SITUATION_NIGHT}},
			{DefenderId: "soldat", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_CLUTTERED_VIEW, d20segv1.Situation_SITUATION_NIGHT}},
		},
	}}})
	sr := evs[0].GetSurpriseRoundStarted()
	require.Len(t, sr.GetApprehension(), 2)
	for _, ap := range sr.GetApprehension() {
		require.Equal(t, int32(1+2-2-2), ap.GetModifiers(), "Wisdom + perception + two light maluses (D20-003)")
		require.Equal(t, ap.GetTotal() < ap.GetOpposition(), ap.GetSurprised())
	}
	require.Equal(t, int32(0), f.state().GetState().GetD20Seg().GetRound(), "the surprise round")

	// Play: whoever is next attacks its foe while the action fits, else ends its turn.
	attacks := map[int32]map[string]int{}
	free := 0
	var first []string // who acts first in the surprise round
	for step := 0; step < 200 && f.state().GetState().GetD20Seg().GetRound() <= 2; step++ {
		st := f.state().GetState()
		round := st.GetD20Seg().GetRound()
		acted := false
		for _, id := range []string{"novice", "soldat", "veteran", "maitre"} {
			legal, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: f.id, LegalFor: id})
			require.NoError(t, err)
			if len(legal.GetLegal()) == 0 {
				continue
			}
			cs := st.GetD20Seg().GetCombatants()[id]
			var a *d20segv1.Action
			if cs.GetFreeActionLeft() {
				a = &d20segv1.Action{Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: foe[id], Free: true}}}
				free++
			} else if legal.GetLegal()[0].GetName() == "attack" {
				a = &d20segv1.Action{Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: foe[id]}}}
				if attacks[round] == nil {
					attacks[round] = map[string]int{}
				}
				attacks[round][id]++
			} else {
				a = &d20segv1.Action{Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}
			}
			if round == 0 && len(first) < 3 {
				first = append(first, id)
			}
			f.seg(id, a)
			acted = true
			break
		}
		require.True(t, acted, "someone acts in %s", fmt.Sprint(round))
	}
	require.Equal(t, 2, free, "each ambusher's free action")
	// D20-004: the free actions first, in Initiative order (the master 6, the veteran 4), before
	// anyone acts in a segment; then, at segment 0, the master again.
	require.Equal(t, []string{"maitre", "veteran", "maitre"}, first)
	for _, round := range []int32{1, 2} {
		// D20-017 / D20-T02: in segments 0–5, BBA 0 attacks once, 6 twice, 11 and 16 three times.
		require.Equal(t, map[string]int{"novice": 1, "soldat": 2, "veteran": 3, "maitre": 3}, attacks[round], "round %d", round)
	}
	require.Equal(t, int32(3), f.state().GetState().GetD20Seg().GetRound())
	f.finish(seed, ns.ClientURL(), resolverAddr)
}
