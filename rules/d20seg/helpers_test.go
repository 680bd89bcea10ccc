package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const (
	gm     = "gm"
	player = "joueuse" // controls the player characters
)

// d20seg answers the GM's removal of a combatant mid-round (D20-016).
var _ engine.FollowUp = d20seg.System{}

// fight is a d20seg encounter driven through the registry (enginetest.Fight), command by
// command, with fixed dice.
type fight struct{ *enginetest.Fight }

// newFight creates a d20seg encounter (opts nil for the defaults) and adds cs in order.
func newFight(t *testing.T, opts *d20segv1.Options, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	return newFightAt(t, 1, opts, cs...)
}

// newFightAt is newFight under a version of the rules.
func newFightAt(t *testing.T, version uint32, opts *d20segv1.Options, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	f := blankAt(t, version)
	f.Setup(gm, createCmd(opts), cs...)
	return f
}

// blank is a fight whose encounter is not created yet, under version 1.
func blank(t *testing.T) *fight { return blankAt(t, 1) }

// blankAt is a fight under a version of the rules whose encounter is not created yet.
func blankAt(t *testing.T, version uint32) *fight {
	return &fight{enginetest.NewFight(t, engine.NewRegistry(d20seg.New(version)))}
}

// decide, do, refuse and replay are enginetest.Fight's Decide, Do, Refuse and Replays.
func (f *fight) decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	return f.Decide(actor, cmd, faces...)
}

func (f *fight) do(actor string, cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	return f.Do(actor, cmd, faces...)
}

// start starts the fight; faces are the d20s of the Initiative roll-offs (D20-011).
func (f *fight) start(faces ...int32) *d20segv1.CombatStarted {
	f.T.Helper()
	evs := f.do(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, faces...)
	require.Equal(f.T, int32(1), find(f.T, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	return find(f.T, evs, (*d20segv1.Event).GetCombatStarted)
}

func (f *fight) refuse(actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	f.T.Helper()
	return f.Refuse(actor, cmd, code, rule, names...)
}

func (f *fight) replay() {
	f.T.Helper()
	f.Replays()
}

func (f *fight) seg() *d20segv1.State { return f.St.GetD20Seg() }

func (f *fight) round() int32 { return f.seg().GetRound() }

func (f *fight) cs(id string) *d20segv1.CombatantState {
	f.T.Helper()
	cs := f.seg().GetCombatants()[id]
	require.NotNil(f.T, cs, "no state for %s", id)
	return cs
}

// next returns the segment each id will act at next.
func (f *fight) next(ids ...string) []int32 {
	var out []int32
	for _, id := range ids {
		out = append(out, f.cs(id).GetNextSegment())
	}
	return out
}

// upNext is the combatant whose turn it is, by the legal actions the rules list.
func (f *fight) upNext() string {
	f.T.Helper()
	var who []string
	for _, c := range f.St.GetCombatants() {
		legal, err := f.Reg.Legal(f.St, c.GetId())
		require.NoError(f.T, err)
		if len(legal) > 0 {
			who = append(who, c.GetId())
		}
	}
	require.Len(f.T, who, 1, "exactly one combatant acts next")
	return who[0]
}

// legal lists the names of what id may do now.
func (f *fight) legal(id string) []string {
	f.T.Helper()
	legal, err := f.Reg.Legal(f.St, id)
	require.NoError(f.T, err)
	var out []string
	for _, l := range legal {
		out = append(out, l.GetName())
	}
	return out
}

// find returns the one event of evs that get picks out.
func find[T any](t *testing.T, evs []*encounterv1.Event, get func(*d20segv1.Event) *T) *T {
	t.Helper()
	return enginetest.Find(t, evs, (*encounterv1.Event).GetD20Seg, get)
}

// all returns the events of evs that get picks out, in order.
func all[T any](evs []*encounterv1.Event, get func(*d20segv1.Event) *T) []*T {
	return enginetest.All(evs, (*encounterv1.Event).GetD20Seg, get)
}

// none checks that no event of evs is of the kind get picks out.
func none[T any](t *testing.T, evs []*encounterv1.Event, get func(*d20segv1.Event) *T) {
	t.Helper()
	enginetest.None(t, evs, (*encounterv1.Event).GetD20Seg, get)
}

// Commands.

func createCmd(opts *d20segv1.Options) *encounterv1.Command {
	return enginetest.CreateCmd("L'embuscade du gué", "d20seg", opts)
}

func addCmd(c *encounterv1.Combatant) *encounterv1.Command { return enginetest.AddCmd(c) }

func removeCmd(id string) *encounterv1.Command { return enginetest.RemoveCmd(id) }

func action(a *d20segv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}
}

func attackCmd(id string, a *d20segv1.Attack) *encounterv1.Command {
	return action(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Attack{Attack: a}})
}

// attack: id attacks target with its only weapon, at 150 cm.
func attack(id, target string) *encounterv1.Command {
	return attackCmd(id, &d20segv1.Attack{TargetId: target, DistanceCm: 150})
}

func freeAttack(id, target string) *encounterv1.Command {
	return attackCmd(id, &d20segv1.Attack{TargetId: target, DistanceCm: 150, Free: true})
}

func cast(id string, c *d20segv1.Cast) *encounterv1.Command {
	return action(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Cast{Cast: c}})
}

func other(id, what string, segments int32) *encounterv1.Command {
	return action(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: what, Segments: segments}}})
}

func endTurn(id string) *encounterv1.Command {
	return action(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}})
}

func surprise(attackers []string, defenders ...*d20segv1.Apprehension) *encounterv1.Command {
	return action(&d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{AttackerIds: attackers, Defenders: defenders}}})
}

func defender(id string, sits ...d20segv1.Situation) *d20segv1.Apprehension {
	return &d20segv1.Apprehension{DefenderId: id, Situations: sits}
}

// Sheets.

// sheet is a combatant of the GM: Rapidité 3, light armour, no shield, a one-handed longsword
// (1d8, ×2): Initiative 2; BBA 0, no modifiers, CA 10, 100 hit points, size M (reach 150 cm).
func sheet(id, name string, edit ...func(*d20segv1.Sheet)) *encounterv1.Combatant {
	sh := &d20segv1.Sheet{
		Rapidite: 3, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE,
		WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED, Ca: 10, HitPoints: 100, Size: d20segv1.Size_SIZE_M,
		Weapons: []*d20segv1.Weapon{longsword()},
	}
	for _, e := range edit {
		e(sh)
	}
	return &encounterv1.Combatant{Id: id, Name: name, Controller: gm, Sheet: &encounterv1.Combatant_D20Seg{D20Seg: sh}}
}

// pc is a sheet controlled by the player.
func pc(c *encounterv1.Combatant) *encounterv1.Combatant {
	c = proto.CloneOf(c)
	c.Controller = player
	return c
}

func longsword() *d20segv1.Weapon {
	return &d20segv1.Weapon{Name: "épée longue", Dice: "1d8", Critical: 2}
}

func bba(n int32) func(*d20segv1.Sheet) { return func(s *d20segv1.Sheet) { s.Bba = n } }

// rapidite sets Rapidité so that the default equipment (−1) gives Initiative init.
func initiative(init int32) func(*d20segv1.Sheet) {
	return func(s *d20segv1.Sheet) { s.Rapidite = init + 1 }
}

func ca(n int32) func(*d20segv1.Sheet) { return func(s *d20segv1.Sheet) { s.Ca = n } }

func hp(n int32) func(*d20segv1.Sheet) { return func(s *d20segv1.Sheet) { s.HitPoints = n } }

func extra(segs ...int32) func(*d20segv1.Sheet) {
	return func(s *d20segv1.Sheet) { s.ExtraSegments = segs }
}

// pell is a training post: Initiative −10, CA 100 (every attack misses), 1000 hit points.
func pell() *encounterv1.Combatant {
	return sheet("pell", "Mannequin", initiative(-10), ca(100), hp(1000))
}
