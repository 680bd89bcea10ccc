package client

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

const sheets = "../../testdata/sheets"

func requireProtoEqual(t *testing.T, want, got proto.Message) {
	t.Helper()
	require.True(t, proto.Equal(want, got), "want:\n%s\ngot:\n%s", prototext.Format(want), prototext.Format(got))
}

func diegoWant() *encounterv1.Combatant {
	return &encounterv1.Combatant{
		Id: "diego", Name: "Diego", Controller: "david", Side: "pcs",
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER,
			Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
			Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5, "Parade": 5},
			Initiative: 8,
			Weapons: []*lossv1.Weapon{{
				Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE,
				Attack:  &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"},
				Vitesse: 4, Damage: 3,
			}},
			Parry:       &lossv1.Score{Trait: "Agilité", Talent: "Parade"},
			Dodge:       &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			Fursa:       2,
			Inspiration: map[string]int32{"Courage": 1},
		}},
	}
}

func TestLoadCombatantYAML(t *testing.T) {
	c, err := LoadCombatant(filepath.Join(sheets, "diego.yaml"))
	require.NoError(t, err)
	requireProtoEqual(t, diegoWant(), c)

	g, err := LoadCombatant(filepath.Join(sheets, "griffon-2.yaml"))
	require.NoError(t, err)
	requireProtoEqual(t, &encounterv1.Combatant{
		Id: "griffon-2", Name: "Griffon 2", Controller: "gm", Side: "foes",
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_SBIRE,
			Traits:     map[string]int32{"Agilité": 6},
			Talents:    map[string]int32{"Combat naturel": 6, "Esquive": 4},
			Initiative: 5,
			Weapons: []*lossv1.Weapon{{
				Name: "griffes", Kind: lossv1.WeaponKind_WEAPON_KIND_NATURAL,
				Attack: &lossv1.Score{Trait: "Agilité", Talent: "Combat naturel"}, Damage: 2,
			}},
			Dodge:           &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			InitiativeGroup: "griffons",
		}},
	}, g)
}

// The same sheet as JSON, mixing lowerCamelCase and snake_case names and an enum number.
const diegoJSON = `{
  "id": "diego", "name": "Diego", "controller": "david", "side": "pcs",
  "loss": {
    "kind": 1,
    "traits": {"Puissance": 6, "Agilité": 5},
    "talents": {"Arme de mêlée": 6, "Esquive": 5, "Parade": 5},
    "initiative": 8,
    "weapons": [{"name": "épée", "kind": "WEAPON_KIND_MELEE",
                 "attack": {"trait": "Puissance", "talent": "Arme de mêlée"}, "vitesse": 4, "damage": 3}],
    "parry": {"trait": "Agilité", "talent": "Parade"},
    "dodge": {"trait": "Agilité", "talent": "Esquive"},
    "fursa": 2,
    "inspiration": {"Courage": 1},
    "shieldProtection": 0,
    "initiative_group": ""
  }
}`

func TestLoadCombatantJSON(t *testing.T) {
	for _, name := range []string{"diego.json", "diego.yml", "diego"} {
		path := filepath.Join(t.TempDir(), name)
		require.NoError(t, os.WriteFile(path, []byte(diegoJSON), 0o600))
		c, err := LoadCombatant(path)
		require.NoError(t, err, name)
		requireProtoEqual(t, diegoWant(), c)
	}
}

func TestLoadCombatantMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		want             []string // substrings of the error
	}{
		{"unknown field", "a.yaml", "id: a\nloss:\n  initiatve: 3\n",
			[]string{"a.yaml", "field loss.initiatve", "unknown field", "initiative"}},
		{"wrong type", "b.yaml", "id: b\nloss:\n  initiative: high\n",
			[]string{"b.yaml", "field loss.initiative", "int32"}},
		{"bad enum in a list", "c.yaml", "id: c\nloss:\n  weapons:\n    - name: épée\n    - name: arc\n      kind: bow\n",
			[]string{"c.yaml", "field loss.weapons[1].kind", `"bow"`, "WEAPON_KIND_RANGED"}},
		{"bad map value", "d.yaml", "id: d\nloss:\n  traits:\n    Puissance: six\n",
			[]string{"d.yaml", `field loss.traits["Puissance"]`, "six"}},
		{"top-level enum", "e.yaml", "id: e\nloss:\n  kind: pc\n",
			[]string{"e.yaml", "field loss.kind", "COMBATANT_KIND_PLAYER_CHARACTER"}},
		{"not YAML", "f.yaml", "id: f\nloss: [\n",
			[]string{"f.yaml", "not valid YAML"}},
		{"not JSON", "g.json", `{"id": "g",}`,
			[]string{"g.json", "not valid JSON"}},
		{"JSON field", "h.json", `{"id": "h", "loss": {"dodge": {"trait": 5}}}`,
			[]string{"h.json", "field loss.dodge.trait"}},
		{"missing id", "i.yaml", "name: Nobody\n",
			[]string{"i.yaml", "field id", "missing"}},
		{"empty", "j.yaml", "# nothing\n",
			[]string{"j.yaml", "no data"}},
		{"not an object", "k.yaml", "- id: k\n",
			[]string{"k.yaml", "expected an object", "a list"}},
		{"sheet not an object", "l.yaml", "id: l\nloss: 3\n",
			[]string{"l.yaml", "field loss", "a number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o600))
			_, err := LoadCombatant(path)
			require.Error(t, err)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
			require.NotContains(t, err.Error(), "(line 1:", "positions in the converted JSON would mislead")
		})
	}
	_, err := LoadCombatant(filepath.Join(t.TempDir(), "missing.yaml"))
	require.ErrorContains(t, err, "missing.yaml")
}

// The example sheets are valid Les Chants de Loss combatants, and can join one encounter.
func TestExampleSheetsPassTheRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sheets, "*.yaml"))
	require.NoError(t, err)
	files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "options.yaml" }) // house rules, not a sheet
	require.Len(t, files, 7)                                                                            // mateo.yaml: a mounted crossbowman, for aiming and pursuits
	st := &encounterv1.EncounterState{}
	seen := map[string]bool{}
	for _, f := range files {
		c, err := LoadCombatant(f)
		require.NoError(t, err, f)
		require.NoError(t, loss.New(loss.Latest).CheckCombatant(st, c), f)
		require.False(t, seen[c.GetId()], "duplicate id %s", c.GetId())
		seen[c.GetId()] = true
		st.Combatants = append(st.Combatants, c)
	}

	// The quay of the README's tour: one encounter, one Initiative group.
	quai, err := filepath.Glob(filepath.Join(sheets, "quai", "*.yaml"))
	require.NoError(t, err)
	require.Len(t, quai, 6)
	st = &encounterv1.EncounterState{}
	for _, f := range quai {
		c, err := LoadCombatant(f)
		require.NoError(t, err, f)
		require.NoError(t, loss.New(loss.Latest).CheckCombatant(st, c), f)
		require.Equal(t, "quai", c.GetLoss().GetInitiativeGroup(), f)
		st.Combatants = append(st.Combatants, c)
	}
}

func TestLoadOptions(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.yaml")
	require.NoError(t, os.WriteFile(bare, []byte("gm_fursa: 3\n"), 0o600))
	o, err := LoadOptions(bare, "loss")
	require.NoError(t, err)
	require.Equal(t, int32(3), o.GetLoss().GetGmFursa())

	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("loss:\n  gm_fursa: lots\n"), 0o600))
	_, err = LoadOptions(bad, "loss")
	require.ErrorContains(t, err, "bad.yaml: field loss.gm_fursa")
}

// Every arm of RuleOptions loads bare or wrapped, by the system's name: no list of systems.
func TestLoadOptionsChoosesTheArmByName(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	for system, bare := range map[string]string{
		"loss": "gm_fursa: 2", "feerie": "roll: 2d10-11", "ka": "reshuffle: every_draw", "d20seg": "carry_over: true",
	} {
		got, err := LoadOptions(write(system+"-bare.yaml", bare+"\n"), system)
		require.NoError(t, err, system)
		wrapped, err := LoadOptions(write(system+"-wrapped.yaml", system+":\n  "+bare+"\n"), system)
		require.NoError(t, err, system)
		requireProtoEqual(t, wrapped, got)
		m := got.ProtoReflect()
		require.Equal(t, system, string(m.WhichOneof(m.Descriptor().Oneofs().ByName("system")).Name()))
	}
	// The bare options of another system are refused with the fields of the one named.
	_, err := LoadOptions(write("wrong.yaml", "roll: 2d10-11\n"), "loss")
	require.ErrorContains(t, err, "wrong.yaml: field roll: unknown field; fray.loss.v1.Options has")
	// A system with no typed arm (a plug-in): its bare options are its JSON, in the plugin arm;
	// a whole RuleOptions is taken as it is.
	o, err := LoadOptions(write("plugin.yaml", "hit_points: 12\nstyle: {sticks: 2}\n"), "chess")
	require.NoError(t, err)
	require.Equal(t, map[string]any{"hit_points": 12.0, "style": map[string]any{"sticks": 2.0}}, o.GetPlugin().AsMap())
	o, err = LoadOptions(write("whole.yaml", "ka:\n  deck: standard\n"), "chess")
	require.NoError(t, err)
	require.Equal(t, "standard", o.GetKa().GetDeck())
}
