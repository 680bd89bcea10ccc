package narrate

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	"github.com/stretchr/testify/require"
)

func init() {
	Plural("%d test Exploits", "%d test Exploit", "%d test Exploits", "%d Exploit d'essai", "%d Exploits d'essai")
}

func TestHelpers(t *testing.T) {
	en, fr := New(English), New(French)
	require.Equal(t, "+5", Signed(5))
	require.Equal(t, "+0", Signed(0))
	require.Equal(t, "−2", Signed(-2))
	require.Equal(t, "+5", PlusMinus(5))
	require.Equal(t, "+0", PlusMinus(0))
	require.Equal(t, "-2", PlusMinus(-2))
	require.Equal(t, "?", OrUnknown(""))
	require.Equal(t, "x", OrUnknown("x"))

	for _, c := range []struct {
		roll   *dicev1.Roll
		en, fr string
	}{
		{nil, "?", "?"},
		{&dicev1.Roll{Expression: "1d10", Faces: []int32{8}}, "d10[8]", "d10[8]"},
		{&dicev1.Roll{Expression: "1d10!", Faces: []int32{10, 4}}, "d10[10,4]", "d10[10,4]"},
		{&dicev1.Roll{Expression: "3d10+4", Faces: []int32{3, 7, 9}, Modifier: 4}, "3d10[3,7,9]+4", "3d10[3,7,9]+4"},
		{&dicev1.Roll{Expression: "d6-1", Faces: []int32{2}, Modifier: -1}, "d6[2]-1", "d6[2]-1"},
		{&dicev1.Roll{Expression: "20", Faces: []int32{5}}, "d20[5]", "d20[5]"},
		{&dicev1.Roll{Expression: "1d10!", Faces: []int32{10, 10, 3}}, "d10[10,10,3]", "d10[10,10,3]"},
		{&dicev1.Roll{Expression: "2d6-1", Faces: []int32{1, 2}, Modifier: -1}, "2d6[1,2]-1", "2d6[1,2]-1"},
		{&dicev1.Roll{Expression: "d20", Faces: []int32{17}}, "d20[17]", "d20[17]"},
		{&dicev1.Roll{Expression: "10d10", Faces: []int32{1}}, "10d10[1]", "10d10[1]"},
		{&dicev1.Roll{Expression: "-1", Faces: []int32{3}, Modifier: -1}, "dice[3]-1", "dés[3]-1"},
		{&dicev1.Roll{Faces: []int32{5}}, "dice[5]", "dés[5]"},
	} {
		require.Equal(t, c.en, en.Roll(c.roll))
		require.Equal(t, c.fr, fr.Roll(c.roll))
	}

	require.Equal(t, "?", en.And(nil))
	require.Equal(t, "a", en.And([]string{"a"}))
	require.Equal(t, "a and b", en.And([]string{"a", "b"}))
	require.Equal(t, "a, b and c", en.And([]string{"a", "b", "c"}))
	require.Equal(t, "a, b et c", fr.And([]string{"a", "b", "c"}))
	en.SetName("diego", "Diego")
	require.Equal(t, "Diego and ruffian", en.AndNames([]string{"diego", "ruffian"}))
	require.Equal(t, []string{"Diego", "?"}, en.Names([]string{"diego", ""}))

	require.Equal(t, `"À moi !"`, en.Quote("À moi !"))
	require.Equal(t, `"a \"b\""`, en.Quote(`a "b"`))
	require.Equal(t, "« À moi ! »", fr.Quote("À moi !"))

	require.Equal(t, "dice", en.Term("dice"))
	require.Equal(t, "dés", fr.Term("dice"))
	require.Equal(t, "", fr.Term(""))
	require.Equal(t, "100% dice", fr.Term("100% dice"))
	require.Equal(t, "not in the catalogue", fr.Term("not in the catalogue"))

	require.Equal(t, "1 test Exploit", en.Sprintf("%d test Exploits", 1))
	require.Equal(t, "0 test Exploits", en.Sprintf("%d test Exploits", 0))
	require.Equal(t, "2 test Exploits", en.Sprintf("%d test Exploits", int32(2)))
	require.Equal(t, "0 Exploit d'essai", fr.Sprintf("%d test Exploits", 0))
	require.Equal(t, "1 Exploit d'essai", fr.Sprintf("%d test Exploits", 1))
	require.Equal(t, "3 Exploits d'essai", fr.Sprintf("%d test Exploits", 3))
}

func TestOfAndTo(t *testing.T) {
	en, fr := New(English), New(French)
	for _, c := range []struct{ name, of, to string }{
		{"Le malfrat", "du malfrat", "au malfrat"},
		{"Les griffons", "des griffons", "aux griffons"},
		{"La capitaine", "de la capitaine", "à la capitaine"},
		{"L'ogre", "de l'ogre", "à l'ogre"},
		{"L’archère", "de l'archère", "à l'archère"},
		{"Archère", "d'Archère", "à Archère"},
		{"élan", "d'élan", "à élan"},
		{"Diego", "de Diego", "à Diego"},
		{"Le", "de Le", "à Le"},
		{"griffon-1", "de griffon-1", "à griffon-1"},
	} {
		require.Equal(t, c.of, fr.Of(c.name), c.name)
		require.Equal(t, c.to, fr.To(c.name), c.name)
		require.Equal(t, "of "+c.name, en.Of(c.name))
		require.Equal(t, "to "+c.name, en.To(c.name))
	}
}
