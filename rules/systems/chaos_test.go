package systems_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var ids = []string{"a", "b", "c", "a", "b", "c", "", "nobody"}
var words = []string{"", "a", "b", "c", "épée", "arc", "sabre", "dague", "pistolet", "crosse", "bâton", "Courage", "Animalité", "Humanité", "Esquive", "Bagarre", "vigilance", "Attaque brutale", "x"}

// fill sets random values on a message, recursively, to a small depth.
func fill(r *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.ContainingOneof() != nil && !fd.ContainingOneof().IsSynthetic() {
			continue
		}
		if r.IntN(3) == 0 {
			continue
		}
		set(r, m, fd, depth)
	}
	for i := range m.Descriptor().Oneofs().Len() {
		o := m.Descriptor().Oneofs().Get(i)
		if o.IsSynthetic() || depth > 3 {
			continue
		}
		set(r, m, o.Fields().Get(r.IntN(o.Fields().Len())), depth)
	}
}

func scalar(r *rand.Rand, fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(r.IntN(30) - 5))
	case protoreflect.Int64Kind:
		return protoreflect.ValueOfInt64(int64(r.IntN(30) - 5))
	case protoreflect.Uint32Kind:
		return protoreflect.ValueOfUint32(uint32(r.IntN(30)))
	case protoreflect.Uint64Kind:
		return protoreflect.ValueOfUint64(uint64(r.IntN(30)))
	case protoreflect.StringKind:
		if r.IntN(2) == 0 {
			return protoreflect.ValueOfString(ids[r.IntN(len(ids))])
		}
		return protoreflect.ValueOfString(words[r.IntN(len(words))])
	case protoreflect.EnumKind:
		vs := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vs.Get(r.IntN(vs.Len())).Number())
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte("x"))
	}
	return protoreflect.Value{}
}

func set(r *rand.Rand, m protoreflect.Message, fd protoreflect.FieldDescriptor, depth int) {
	switch {
	case fd.IsMap():
		mp := m.Mutable(fd).Map()
		for range r.IntN(3) {
			k := scalar(r, fd.MapKey())
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v := mp.NewValue()
				fill(r, v.Message(), depth+1)
				mp.Set(k.MapKey(), v)
			} else {
				mp.Set(k.MapKey(), scalar(r, fd.MapValue()))
			}
		}
	case fd.IsList():
		l := m.Mutable(fd).List()
		for range r.IntN(4) {
			if fd.Kind() == protoreflect.MessageKind {
				if depth > 3 {
					return
				}
				v := l.NewElement()
				fill(r, v.Message(), depth+1)
				l.Append(v)
			} else {
				l.Append(scalar(r, fd))
			}
		}
	case fd.Kind() == protoreflect.MessageKind:
		if depth > 3 {
			return
		}
		fill(r, m.Mutable(fd).Message(), depth+1)
	default:
		m.Set(fd, scalar(r, fd))
	}
}

func lossSheet() *encounterv1.Combatant_Loss {
	return &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind: lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, Traits: map[string]int32{"Puissance": 6, "Agilité": 5},
		Talents: map[string]int32{"Arme de mêlée": 6, "Esquive": 5, "Athlétisme": 4}, Initiative: 8, Fursa: 2,
		Weapons: []*lossv1.Weapon{
			{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 4, Damage: 3, AssautDamage: 4, Long: true},
			{Name: "arc", Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Attack: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"}, Vitesse: 3, Damage: 2, EffectiveRange: 20, Limit: 40, Bow: true},
		},
		Parry: &lossv1.Score{Trait: "Agilité", Talent: "Arme de mêlée"}, Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Pursuit: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"}, Athletics: &lossv1.Score{Trait: "Puissance", Talent: "Athlétisme"},
		Inspiration: map[string]int32{"Courage": 1}, Shield: &lossv1.Shield{Size: lossv1.ShieldSize_SHIELD_SIZE_MEDIUM, ParryBonus: 1},
	}}
}

func feerieSheet() *encounterv1.Combatant_Feerie {
	return &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{Vigilance: 15, Habilete: 16, Puissance: 12, Resistance: 12, Taille: 0, Essence: 30,
		Attributes: []*feeriev1.Attribute{{Name: "bâton", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: 4, Combat: true}}}}
}

func kaSheet() *encounterv1.Combatant_Ka {
	return &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{Spheres: map[string]int32{"Animalité": 3, "Humanité": 3, "Spiritualité": 2},
		Skills: map[string]int32{"Esquive": 3, "Bagarre": 2, "Arme à feu": 3}, Encaissement: 2, KaDice: 5, RealityPoints: 12,
		Weapons: []*kav1.Weapon{{Name: "pistolet", Sphere: "Humanité", Skill: "Arme à feu", Damage: 8, Burst: true}, {Name: "crosse", Sphere: "Animalité", Skill: "Bagarre", Damage: 3}}}}
}

func d20Sheet() *encounterv1.Combatant_D20Seg {
	return &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{Rapidite: 3, Armour: d20segv1.Armour_ARMOUR_LIGHT, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_LIGHT, Bba: 6, Agility: 2, Strength: 2, Ca: 15, HitPoints: 40, Size: d20segv1.Size_SIZE_M,
		Weapons: []*d20segv1.Weapon{{Name: "épée", Dice: "1d8", Critical: 2}}}}
}

// Random commands, well formed or not, never panic a rule system: each is decided or refused
// with a rule error, what is decided always folds, and the log replays to the same state.
func TestRandomCommandsNeverBreakARuleSystem(t *testing.T) {
	reg := systems.Registry()
	sheets := map[string]func(c *encounterv1.Combatant){
		"loss":   func(c *encounterv1.Combatant) { c.Sheet = lossSheet() },
		"feerie": func(c *encounterv1.Combatant) { c.Sheet = feerieSheet() },
		"ka":     func(c *encounterv1.Combatant) { c.Sheet = kaSheet() },
		"d20seg": func(c *encounterv1.Combatant) { c.Sheet = d20Sheet() },
	}
	for _, system := range systems.IDs() {
		t.Run(system, func(t *testing.T) {
			require.Contains(t, sheets, system, "a sheet of %s for its random combatants (sheets above)", system)
			generated := map[protoreflect.Name]int{} // by kind of the system's Action
			var action protoreflect.MessageDescriptor
			for run := range 8 {
				r := rand.New(rand.NewPCG(uint64(run), 7))
				seed := dice.Commitment([]byte(fmt.Sprint(system, run)))
				st := &encounterv1.EncounterState{EncounterId: "chaos"}
				var log []*encounterv1.Event
				apply := func(actor string, cmd *encounterv1.Command) error {
					evs, next, err := func() (evs []*encounterv1.Event, next *encounterv1.EncounterState, err error) {
						defer func() {
							if p := recover(); p != nil {
								t.Fatalf("%s panicked on %v: %v", system, cmd, p)
							}
						}()
						return reg.Resolve(st, cmd, actor, seed, nil)
					}()
					if err != nil {
						_, ok := engine.AsRuleError(err)
						require.True(t, ok, "%s: %v is not a rule error (command %v)", system, err, cmd)
						return err
					}
					log = append(log, evs...)
					st = next
					return nil
				}
				require.NoError(t, apply("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "chaos", RuleSystem: system}}}))
				for _, id := range []string{"a", "b", "c"} {
					c := &encounterv1.Combatant{Id: id, Name: id, Controller: "gm"}
					sheets[system](c)
					require.NoError(t, apply("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}))
				}
				require.NoError(t, apply("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}))
				accepted := 0
				for range 3000 {
					cmd := &encounterv1.Command{}
					m := cmd.ProtoReflect()
					fd := m.Descriptor().Fields().ByName(protoreflect.Name(system))
					a := m.Mutable(fd).Message()
					fill(r, a, 0)
					action = a.Descriptor()
					for i := range action.Oneofs().Len() {
						if k := a.WhichOneof(action.Oneofs().Get(i)); k != nil {
							generated[k.Name()]++
						}
					}
					if apply([]string{"gm", "gm", "player"}[r.IntN(3)], cmd) == nil {
						accepted++
					}
				}
				t.Logf("%s run %d: %d of 3000 random commands accepted, %d events", system, run, accepted, len(log))
				require.Positive(t, accepted, "some random commands are legal")
				folded, err := reg.Fold(log)
				require.NoError(t, err)
				require.True(t, proto.Equal(st, folded), "the log replays to the same state")
			}
			// Every kind of command is generated, the newest too (Ka's PickUp, Contes de
			// Fées' Helpless…): the generator reads them from the proto, not from a list.
			for i := range action.Oneofs().Len() {
				if o := action.Oneofs().Get(i); !o.IsSynthetic() {
					for j := range o.Fields().Len() {
						require.Positive(t, generated[o.Fields().Get(j).Name()], "%s: no random %s command", system, o.Fields().Get(j).Name())
					}
				}
			}
		})
	}
}
