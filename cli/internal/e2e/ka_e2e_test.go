package e2e_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// kaSeed finds, from a known start, the seed whose dice draw the cards of the seed's example
// from the cards left, one card a roll (KA-003): 6, 10, a face card and 9, any pip card (the
// death draw), 4, 5.
func kaSeed(t *testing.T) []byte {
	want := []func(rank int32) bool{
		func(r int32) bool { return r == 6 }, func(r int32) bool { return r == 10 }, func(r int32) bool { return r > 10 },
		func(r int32) bool { return r == 9 }, func(r int32) bool { return r <= 10 }, func(r int32) bool { return r == 4 },
		func(r int32) bool { return r == 5 },
	}
	for i := 618374; i < 622000; i++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "fray-e2e-ka-%d", i))
		s, err := dice.NewStreamScheme(dice.Latest, sum[:], 0) // a new encounter's scheme
		require.NoError(t, err)
		var drawn []*kav1.Card
		for _, w := range want {
			c, _ := ka.Take(ka.Left(drawn), s)
			if !w(c.GetRank()) {
				break
			}
			drawn = append(drawn, c)
		}
		if len(drawn) == len(want) {
			return sum[:]
		}
	}
	t.Fatal("no seed gives the example's cards")
	return nil
}

func kaSheet(id, name, ctl string, spheres, skills map[string]int32, enc, kaDice, reality int32, pc bool, weapons ...*kav1.Weapon) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Controller: ctl, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres: spheres, Skills: skills, Encaissement: enc, KaDice: kaDice, RealityPoints: reality, PlayerCharacter: pc, Weapons: weapons,
	}}}
}

func (f *fight) ka(who, actor string, a *kav1.Action) []*kav1.Event {
	f.t.Helper()
	a.CombatantId = who
	r, err := f.c.Submit(as(actor), &encounterv1.SubmitRequest{EncounterId: f.id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}})
	require.NoError(f.t, err)
	f.record(actor, r.GetEvents())
	var out []*kav1.Event
	for _, ev := range r.GetEvents() {
		out = append(out, ev.GetKa())
	}
	return out
}

// KA-T01…KA-T05: Joshua and the dog over gRPC, the dog's reactions answered by its own
// client, rebuilt from JetStream to an identical state, cards included.
func TestKaJoshuaAndTheDogOverGRPC(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	seed := kaSeed(t)
	c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
	f := watchedFight(t, c, "Le cul-de-sac", "ka")
	joshua := kaSheet("joshua", "Joshua", "player", map[string]int32{"Animalité": 4, "Humanité": 3, "Spiritualité": 2},
		map[string]int32{"Arme à feu": 4, "Bagarre": 2, "Esquive": 2}, 3, 4, 12, true,
		&kav1.Weapon{Name: "pistolet", Sphere: "Humanité", Skill: "Arme à feu", Damage: 8},
		&kav1.Weapon{Name: "crosse", Sphere: "Animalité", Skill: "Bagarre", Damage: 3})
	dog := kaSheet("chien", "le chien", "dog-keeper", map[string]int32{"Animalité": 3, "Humanité": 1, "Spiritualité": 1},
		map[string]int32{"Esquive": 4, "Morsure": 3}, 3, 2, 12, false,
		&kav1.Weapon{Name: "crocs", Sphere: "Animalité", Skill: "Morsure", Damage: 2})
	for _, p := range []*encounterv1.Combatant{joshua, dog} {
		r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: p})
		require.NoError(t, err)
		f.events = append(f.events, r.GetEvents()...)
	}
	r, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	f.events = append(f.events, r.GetEvents()...)

	// KA-T01: Joshua (Animalité 4) acts first; 2 actions for him, 1 for the dog.
	rs := r.GetEvents()[2].GetKa().GetRoundStarted()
	require.Equal(t, map[string]int32{"joshua": 2, "chien": 1}, rs.GetActions())
	_, err = c.Submit(as("dog-keeper"), &encounterv1.SubmitRequest{EncounterId: f.id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{
		CombatantId: "chien", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "joshua"}}}}}})
	require.ErrorContains(t, err, "KA-014")

	// KA-T02 (KA-020): Joshua declares his shot; the dog announces its dodge through its own
	// client before any card is drawn; then 3 + 4 − 2 + the 6 = 11 against 1 + 4 + the 10 = 15.
	evs := f.ka("joshua", "player", &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}}})
	require.Equal(t, []string{"chien"}, evs[0].GetAttackDeclared().GetPendingIds())
	require.Equal(t, "chien", f.state().GetState().GetPending()[0].GetCombatantId())
	evs = f.ka("chien", "dog-keeper", &kav1.Action{Kind: &kav1.Action_React{React: &kav1.React{Defend: true}}})
	require.True(t, evs[0].GetDefenceAnnounced().GetReact().GetDefend())
	shot := evs[1].GetAttackDrawn()
	require.Equal(t, int32(6), shot.GetDraw().GetDraw().GetCards()[0].GetRank())
	require.Equal(t, "1d56", shot.GetDraw().GetDraw().GetRolls()[0].GetExpression(), "a card is drawn at random from the 56 (KA-003)")
	require.Equal(t, int32(11), shot.GetDraw().GetTotal())
	require.True(t, shot.GetDefencePossible())
	require.Equal(t, int32(15), evs[2].GetDefenceDrawn().GetDraw().GetTotal())
	require.False(t, evs[3].GetAttackResolved().GetSuccess(), "the dog wins: no damage")
	require.Equal(t, int32(0), f.state().GetState().GetKa().GetCombatants()["chien"].GetActionsLeft())

	// KA-T03: 3 + 4 − 1 − 2 + valet + 9 = 23, a great success; no defence; 5 + 8 − 4 = 9 → 2 Ka dice.
	evs = f.ka("joshua", "player", &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}}})
	shot = evs[0].GetAttackDrawn()
	require.Equal(t, int32(23), shot.GetDraw().GetTotal())
	require.False(t, shot.GetDefencePossible())
	res := evs[1].GetAttackResolved()
	require.Equal(t, []int32{2, 5, 13, 4, 2, 0}, []int32{res.GetLevel(), res.GetBonus(), res.GetDamage(), res.GetSoak(), res.GetKaLost(), res.GetKaLeft()})
	require.True(t, res.GetDying())
	require.NotNil(t, res.GetDeathDraw(), "the death draw is recorded (KA-025)")

	// KA-T04: a new round; the stun: 4 + 2 + 3 + the 4 = 13; 1 + 3 = 4 points de réalité; seuil 12.
	evs = f.ka("joshua", "player", &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}}})
	require.Equal(t, int32(13), evs[0].GetAttackDrawn().GetDraw().GetTotal())
	res = evs[1].GetAttackResolved()
	require.Equal(t, int32(4), res.GetRealityLost())
	require.False(t, res.GetUnconscious())
	require.Equal(t, int32(2), f.state().GetState().GetKa().GetRound())

	// KA-T05: terror, called by the Maître de Ka: 4 + 3 + the 5 − 3 = 9 → Abysse.
	evs = f.ka("joshua", "gm", &kav1.Action{Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: -3}}})
	require.Equal(t, int32(9), evs[0].GetTerrorDrawn().GetDraw().GetTotal())
	require.True(t, evs[0].GetTerrorDrawn().GetAbysse())
	require.True(t, f.state().GetState().GetKa().GetCombatants()["joshua"].GetAbysse())
	f.finish(seed, ns.ClientURL(), resolverAddr)
}
