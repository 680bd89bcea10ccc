package ka_test

// Edges of the narration: each test kills a mutant that lived in a mutation run of this
// package (a comparison moved by one or turned around), with the numbers at the edge.

import (
	"testing"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// A sheet names Animalité and Humanité first, then the other spheres by name, even one whose
// name sorts before them.
func TestNarrateKaSpheresOrder(t *testing.T) {
	c := who("x", "X", false, 4, 3, 2, nil, 1, 1, 1)
	c.GetKa().Spheres["Abysses"] = 1
	c.GetKa().Spheres["Zénith"] = 5
	s, ok := ka.Teller{}.Sheet(ntNarrator(narrate.English), c)
	require.True(t, ok)
	require.Contains(t, s, "Animalité 4, Humanité 3, Abysses 1, Spiritualité 2, Zénith 5, encaissement 1")
}

// KA-022, KA-023: a blow whose damage equals the soak (4 against 4) loses no Ka die, and says
// so.
func TestNarrateKaDamageEqualToSoak(t *testing.T) {
	s := en(7, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 0, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, Soak: 4, KaLeft: 2, RealityLeft: 10}}})
	require.Contains(t, s, "damage 1 + weapon 3 = 4 − soak 4: no Ka die lost (KA-022, KA-023)")
}

// KA-030, KA-031: the stun of a hidden attacker that costs no Ka die does not mention one.
func TestNarrateKaStunWithoutAKaDie(t *testing.T) {
	n := ntNarrator(narrate.English, "gargouille")
	n.Narrate(ntAsPlayer(ntEv(10, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gargouille", TargetId: "joshua",
		Attack: &kav1.Attack{TargetId: "joshua", Stun: true}, Draw: ntDraw(ka.Animalite, 19, "Griffes-de-Basalte", 16, 5, nil, ntBaton4)}}})))
	s := n.Text(ntAsPlayer(ntEv(11, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gargouille", TargetId: "joshua",
		Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, RealityLeft: 11, KaLeft: 5}}})))
	require.Contains(t, s, ": 4 points de réalité lost, no soak (KA-030)")
	require.NotContains(t, s, "KA-031")
}

// KA-032: a disarm of total 10 that is not above the resistance (11) fails for that reason,
// not for being below 10.
func TestNarrateKaDisarmAtTen(t *testing.T) {
	s := en(7, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "chien",
		Draw:       ntDraw(ka.Humanite, 3, "Bagarre", 2, 0, nil, ntDenier5),
		Resistance: ntDraw(ka.Humanite, 1, "Bagarre", 3, 1, nil, ntCard(kav1.Suit_SUIT_COUPE, 7))}}})
	require.Contains(t, s, "fails: not strictly higher (KA-032)")
	require.NotContains(t, s, "below 10")
}

// KA-033, KA-020: a burst on a single target that cannot defend says "no defence", not "no
// defence for" one of several.
func TestNarrateKaBurstOnOneWithoutDefence(t *testing.T) {
	s := en(7, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet-mitrailleur", Burst: true},
		Draw:   ntDraw(ka.Animalite, 4, "Arme à feu", 4, 0, []string{"-1 burst targets (KA-033)"}, ntEpee6)}}})
	require.Contains(t, s, "; no defence")
	require.NotContains(t, s, "no defence for")
}
