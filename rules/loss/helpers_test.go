package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const gm = "gm"

// Loss answers the GM's removal of a combatant mid-Tour (LOS-033).
var _ engine.FollowUp = loss.System{}

// fight is a Loss encounter driven through the registry (enginetest.Fight), command by
// command, with fixed dice.
type fight struct{ *enginetest.Fight }

// newFight creates a Loss encounter under version 1 (with opts, nil for the defaults) and adds
// cs in order.
func newFight(t *testing.T, opts *lossv1.Options, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	return newFightAt(t, 1, opts, cs...)
}

// newFightAt is newFight under the given version of the rules.
func newFightAt(t *testing.T, version uint32, opts *lossv1.Options, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	f := blankAt(t, version)
	f.Setup(gm, createCmd(opts), cs...)
	return f
}

// decide, do and refuse are enginetest.Fight's Decide, Do and Refuse.
func (f *fight) decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	return f.Decide(actor, cmd, faces...)
}

func (f *fight) do(actor string, cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	return f.Do(actor, cmd, faces...)
}

// start starts the fight; faces are the Initiative d10s in the order the combatants (or
// their groups) joined.
func (f *fight) start(faces ...int32) *lossv1.TourStarted {
	f.T.Helper()
	evs := f.do(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, faces...)
	return find(f.T, evs, (*lossv1.Event).GetTourStarted)
}

func (f *fight) refuse(actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	f.T.Helper()
	return f.Refuse(actor, cmd, code, rule, names...)
}

func (f *fight) cs(id string) *lossv1.CombatantState {
	f.T.Helper()
	cs := f.St.GetLoss().GetCombatants()[id]
	require.NotNil(f.T, cs, "no state for %s", id)
	return cs
}

// ap returns the PA (the phase) of each id.
func (f *fight) ap(ids ...string) []int32 {
	var out []int32
	for _, id := range ids {
		out = append(out, f.cs(id).GetActionPoints())
	}
	return out
}

// find returns the one event of evs that get picks out.
func find[T any](t *testing.T, evs []*encounterv1.Event, get func(*lossv1.Event) *T) *T {
	t.Helper()
	return enginetest.Find(t, evs, (*encounterv1.Event).GetLoss, get)
}

// none checks that no event of evs is of the kind get picks out.
func none[T any](t *testing.T, evs []*encounterv1.Event, get func(*lossv1.Event) *T) {
	t.Helper()
	enginetest.None(t, evs, (*encounterv1.Event).GetLoss, get)
}

// Commands.

func createCmd(opts *lossv1.Options) *encounterv1.Command {
	return enginetest.CreateCmd("Une ruelle d'Armanth", "loss", opts)
}

func addCmd(c *encounterv1.Combatant) *encounterv1.Command { return enginetest.AddCmd(c) }

func action(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

// attack is an attack with the combatant's only (or named) weapon.
func attack(id, target string, exploits int, sp *lossv1.Spend) *encounterv1.Command {
	return attackWith(id, target, "", exploits, sp, false)
}

func attackWith(id, target, weapon string, exploits int, sp *lossv1.Spend, unseen bool) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: target, Weapon: weapon, Exploits: extraDamage(exploits), Spend: sp, Unseen: unseen,
	}}})
}

func unseen(id, target string, exploits int) *encounterv1.Command {
	return attackWith(id, target, "", exploits, nil, true)
}

func extraDamage(n int) []lossv1.ExploitEffect {
	var out []lossv1.ExploitEffect
	for range n {
		out = append(out, lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE)
	}
	return out
}

func react(id string, r lossv1.Reaction, exploits int32, sp *lossv1.Spend) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: r, Exploits: exploits, Spend: sp,
	}}})
}

func dodge(id string, exploits int32, sp *lossv1.Spend) *encounterv1.Command {
	return react(id, lossv1.Reaction_REACTION_DODGE, exploits, sp)
}

func takeBlow(id string) *encounterv1.Command {
	return react(id, lossv1.Reaction_REACTION_NONE, 0, nil)
}

func pass(id string) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})
}

func fursa(n int32) *lossv1.Spend { return &lossv1.Spend{Fursa: n} }

func inspiration(vertu string, n int32) *lossv1.Spend {
	return &lossv1.Spend{Inspiration: map[string]int32{vertu: n}}
}

// Sheets.

const (
	pc    = lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER
	adv   = lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE
	sbire = lossv1.CombatantKind_COMBATANT_KIND_SBIRE
)

func weapon(name string, kind lossv1.WeaponKind, vitesse, damage int32) *lossv1.Weapon {
	return &lossv1.Weapon{
		Name: name, Kind: kind, Vitesse: vitesse, Damage: damage,
		Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"},
	}
}

func sword(vitesse, damage int32) *lossv1.Weapon {
	return weapon("sabre", lossv1.WeaponKind_WEAPON_KIND_MELEE, vitesse, damage)
}

func claws(damage int32) *lossv1.Weapon {
	return weapon("griffes", lossv1.WeaponKind_WEAPON_KIND_NATURAL, 0, damage)
}

// who is a combatant attacking with Puissance p + Arme de mêlée m, dodging with Agilité a +
// Esquive e, with Initiative init; an NPC belongs to the GM, a PC to the player "david".
func who(id, name string, kind lossv1.CombatantKind, init, p, m, a, e int32, ws ...*lossv1.Weapon) *encounterv1.Combatant {
	controller := gm
	if kind == pc {
		controller = "david"
	}
	return &encounterv1.Combatant{Id: id, Name: name, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:       kind,
		Traits:     map[string]int32{"Puissance": p, "Agilité": a},
		Talents:    map[string]int32{"Arme de mêlée": m, "Esquive": e},
		Initiative: init,
		Weapons:    ws,
		Dodge:      &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		Parry:      &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"},
	}}}
}

// diego: Puissance 6, Arme de mêlée 6 (LOS-T01), Initiative 8 (LOS-T03), a sabre of Vitesse
// 4 and damage 3; dodge Agilité 5 + Esquive 5.
func diego() *encounterv1.Combatant { return who("diego", "Diego", pc, 8, 6, 6, 5, 5, sword(4, 3)) }

// ruffian: the malfrat of LOS-T01/T02, an Adversaire with Agilité 5 and Esquive 7 (dodge
// total 12), Initiative 5, a dagger of Vitesse 3 and damage 2.
func ruffian() *encounterv1.Combatant {
	return who("malfrat", "Malfrat", adv, 5, 5, 5, 5, 7, weapon("dague", lossv1.WeaponKind_WEAPON_KIND_MELEE, 3, 2))
}

func with(c *encounterv1.Combatant, edit func(*lossv1.Sheet)) *encounterv1.Combatant {
	c = proto.CloneOf(c)
	edit(c.GetLoss())
	return c
}

// blank is a fight whose encounter is not created yet, under version 1.
func blank(t *testing.T) *fight { return blankAt(t, 1) }

// blankAt is a fight under version of the rules whose encounter is not created yet.
func blankAt(t *testing.T, version uint32) *fight {
	return &fight{enginetest.NewFight(t, engine.NewRegistry(loss.New(version)))}
}
