package feerie_test

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// FEE-T01: the Wichtln's combat values.
func TestWichtlnValues(t *testing.T) {
	w := &feeriev1.Sheet{Vigilance: 15, Habilete: 20, Puissance: 10, Resistance: 15, Taille: -2, Attributes: []*feeriev1.Attribute{
		{Name: "marteau", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, Value: 3, Combat: true},
		{Name: "tablier de cuir", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, Value: 2},
		{Name: "force surnaturelle", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, Value: 4},
		{Name: "voix tonnante", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, Value: 3},
	}}
	melee := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, Physical: true, Applied: &feeriev1.Applied{
		Attack: []string{"marteau"}, Defense: []string{"marteau"}, Damage: []string{"force surnaturelle"}, Soak: []string{"tablier de cuir"},
	}}
	v, err := feerie.New(1).ComputeValues(w, melee)
	require.NoError(t, err)
	require.Equal(t, []int32{15, 23, 25, 12, 15}, []int32{v.Initiative.Sum(), v.Attack.Sum(), v.Defense.Sum(), v.Damage.Sum(), v.Soak.Sum()})
	ranged := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, Physical: true, Applied: &feeriev1.Applied{Damage: []string{"voix tonnante"}}}
	v, err = feerie.New(1).ComputeValues(w, ranged)
	require.NoError(t, err)
	require.Equal(t, []int32{15, 7}, []int32{v.Attack.Sum(), v.Damage.Sum()})
}
