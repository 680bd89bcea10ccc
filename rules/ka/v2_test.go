package ka_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// The fixes of version 2 (issue 26): each test runs the same fight under version 1 and
// version 2, and the difference between their expectations is what version 2 changed.

// newFightAt is newFight for an encounter pinned to a version of the rules.
func newFightAt(t *testing.T, version uint32, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	f := blank(t)
	create := createCmd(nil)
	create.GetCreate().RulesVersion = version
	f.do(gm, create)
	require.Equal(t, version, f.St.GetRulesVersion())
	for _, c := range cs {
		f.do(gm, addCmd(c))
	}
	return f
}

// disarmedTwice: two malfrats of equal Animalité, who act at the same time (KA-014), and
// Joshua, who passes. In the first pass B attacks Joshua, then A disarms B of first, B having
// acted: no excuse. In the second pass A disarms B of then before B acts: B keeps its action
// (KA-014, KA-032).
func disarmedTwice(t *testing.T, version uint32, first, then string) *fight {
	f := newFightAt(t, version, malfrat("a", "Le malfrat A"), malfrat("b", "Le malfrat B"), joshua())
	// B: Animalité 2 + Bagarre 1 + 2 = 5, a miss; A: Humanité 3 + Bagarre 1 + 9 = 13 against
	// Humanité 3 + the weapon's skill + 3; then 3 + 1 − 1 + 10 = 13 against 3 + skill + 4.
	f.start(coupe(2), coupe(9), coupe(3), coupe(10), coupe(4))
	f.do(player, pass("joshua"))
	f.do(gm, attack("b", "joshua", "couteau", 0))
	f.do(player, takeIt("joshua"))
	dd := find(t, f.do(gm, disarm("a", "b", "Bagarre", first)), (*kav1.Event).GetDisarmDrawn)
	require.True(t, dd.GetSuccess())
	require.False(t, dd.GetStillActs(), "B has acted in this pass: nothing is excused")
	require.Equal(t, int32(2), f.ka().GetPassNumber())
	dd = find(t, f.do(gm, disarm("a", "b", "Bagarre", then)), (*kav1.Event).GetDisarmDrawn)
	require.True(t, dd.GetSuccess())
	require.True(t, dd.GetStillActs(), "disarmed at the same time as its own action, B still takes it (KA-014)")
	require.Equal(t, []string{first, then}, f.cs("b").GetWeaponsLost())
	return f
}

// attackWeapons are the weapons Legal offers combatant id to attack with.
func attackWeapons(t *testing.T, f *fight, id string) []string {
	t.Helper()
	ls, err := f.Reg.Legal(f.St, id)
	require.NoError(t, err)
	var out []string
	for _, l := range ls {
		if l.GetName() == "attack" {
			out = append(out, l.GetWeapon())
		}
	}
	return out
}

// KA-014 (v2): acting at the same time excuses only what happens at that moment. B, disarmed
// of its couteau at the same time as its own action, may still strike with the couteau; its
// revolver, lost in the pass before, stays on the ground. Version 1 excused the whole
// combatant: B could shoot the revolver it lost a pass earlier.
func TestKA014KeepsOnlyTheWeaponLostAtOnce(t *testing.T) {
	for _, c := range []struct {
		version  uint32
		weapons  []string
		revolver bool
	}{
		{version: 1, weapons: []string{"revolver", "couteau", ka.BareHands}, revolver: true},
		{version: 2, weapons: []string{"couteau", ka.BareHands}, revolver: false},
	} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			f := disarmedTwice(t, c.version, "revolver", "couteau")
			require.Equal(t, c.weapons, attackWeapons(t, f, "b"))
			// A has no action left to defend: the attack is drawn at once (KA-012).
			if c.revolver {
				evs := f.do(gm, attack("b", "a", "revolver", 0))
				require.Equal(t, "revolver", find(t, evs, (*kav1.Event).GetAttackDrawn).GetAttack().GetWeapon())
			} else {
				f.refuse(gm, attack("b", "a", "revolver", 0), engine.CodePrecondition, "KA-032", "Le malfrat B", "revolver")
				evs := f.do(gm, attack("b", "a", "couteau", 0))
				require.Equal(t, "couteau", find(t, evs, (*kav1.Event).GetAttackDrawn).GetAttack().GetWeapon())
			}
			require.Empty(t, f.cs("b").GetWeaponsLostAtOnce(), "its action taken, nothing is excused any more")
			require.False(t, f.cs("b").GetStillActs())
			f.replays()
		})
	}
}

// KA-014 (v2): "at that same moment" is the moment, not the pass. Joshua, faster, disarms B of
// its revolver before B's turn; then A, of B's Animalité, disarms B of its couteau at the same
// time as B's own action: B keeps that action with the couteau only. Version 1 let it shoot
// the revolver lost earlier in the pass.
func TestKA014KeepsOnlyTheWeaponLostAtThatMomentOfThePass(t *testing.T) {
	for _, c := range []struct {
		version  uint32
		weapons  []string
		revolver bool
	}{
		{version: 1, weapons: []string{"revolver", "couteau", ka.BareHands}, revolver: true},
		{version: 2, weapons: []string{"couteau", ka.BareHands}, revolver: false},
	} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			f := newFightAt(t, c.version, malfrat("a", "Le malfrat A"), malfrat("b", "Le malfrat B"), joshua())
			// Joshua: Humanité 3 + Arme à feu 4 + 9 = 16 against B's 3 + 2 + 3 = 8; A: 3 + 1 + 10 =
			// 14 against 3 + 1 + 4 = 8.
			f.start(coupe(9), coupe(3), coupe(10), coupe(4))
			dd := find(t, f.do(player, disarm("joshua", "b", "Arme à feu", "revolver")), (*kav1.Event).GetDisarmDrawn)
			require.True(t, dd.GetSuccess())
			require.False(t, dd.GetStillActs(), "Joshua is faster: not at the same time as B")
			dd = find(t, f.do(gm, disarm("a", "b", "Bagarre", "couteau")), (*kav1.Event).GetDisarmDrawn)
			require.True(t, dd.GetSuccess() && dd.GetStillActs())
			require.Equal(t, int32(1), f.ka().GetPassNumber())
			require.Equal(t, c.weapons, attackWeapons(t, f, "b"))
			if c.revolver {
				f.do(gm, attack("b", "joshua", "revolver", 0))
			} else {
				f.refuse(gm, attack("b", "joshua", "revolver", 0), engine.CodePrecondition, "KA-032", "revolver")
			}
			f.replays()
		})
	}
}

// KA-014 (v2) with KA-032: the weapon lost at that same moment still serves the action kept,
// its skill to disarm with included; one lost in an earlier pass does not. B, disarmed of its
// revolver (Arme à feu) at the same time as its own action, may still disarm A with Arme à
// feu, but not stab with the couteau it lost a pass earlier. Version 1 refused the skill of the
// weapon lost at that very moment, and let B use the couteau.
func TestKA014DisarmsWithTheSkillOfTheWeaponLostAtOnce(t *testing.T) {
	for _, c := range []struct {
		version uint32
		skills  []string
		weapons []string
		disarms bool
	}{
		{version: 1, skills: []string{"Bagarre"}, weapons: []string{"revolver", "couteau", ka.BareHands}, disarms: false},
		{version: 2, skills: []string{"Bagarre", "Arme à feu"}, weapons: []string{"revolver", ka.BareHands}, disarms: true},
	} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			f := disarmedTwice(t, c.version, "couteau", "revolver")
			ls, err := f.Reg.Legal(f.St, "b")
			require.NoError(t, err)
			var skills []string
			for _, l := range ls {
				for _, ch := range l.GetChoices() {
					if l.GetName() == "disarm" && ch.GetField() == "ka.disarm.skill" {
						for _, o := range ch.GetOptions() {
							skills = append(skills, o.GetValue())
						}
					}
				}
			}
			require.Equal(t, c.skills, skills)
			require.Equal(t, c.weapons, attackWeapons(t, f, "b"))
			if !c.disarms {
				f.refuse(gm, disarm("b", "a", "Arme à feu", "revolver"), engine.CodeInvalid, "KA-032", "Le malfrat B", "Arme à feu")
				return
			}
			dd := find(t, f.do(gm, disarm("b", "a", "Arme à feu", "revolver")), (*kav1.Event).GetDisarmDrawn)
			require.Equal(t, []any{"Arme à feu", int32(2)}, []any{dd.GetDraw().GetSkill(), dd.GetDraw().GetSkillValue()})
			require.Empty(t, f.cs("b").GetWeaponsLostAtOnce(), "its action taken, nothing is excused any more")
			f.replays()
		})
	}
}

// KA-020 (v2): an ended encounter waits on no one. Joshua declares an attack on the dog, and
// the GM ends the fight before the dog answers: version 1 folded the end and then brought the
// dog's answer back as awaited, with someone up next in the pass; version 2's ended encounter
// awaits no answer, and no one is up next.
func TestKA020AnEndedEncounterWaitsOnNoOne(t *testing.T) {
	for _, c := range []struct {
		version uint32
		waits   bool
	}{
		{version: 1, waits: true},
		{version: 2, waits: false},
	} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			f := newFightAt(t, c.version, joshua(), dog())
			f.start()
			f.do(player, attack("joshua", "chien", "pistolet", 0))
			require.Len(t, f.St.GetPending(), 1, "the dog answers before any card is drawn")
			f.do(gm, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "la police arrive"}}})
			require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, f.St.GetStatus())
			require.Equal(t, c.waits, len(f.St.GetPending()) > 0, "an answer awaited: %v", f.St.GetPending())
			require.Equal(t, c.waits, f.ka().GetPending() != nil)
			require.Equal(t, c.waits, len(f.ka().GetUpNext()) > 0, "up next: %v", f.ka().GetUpNext())
			f.replays()
		})
	}
}

// KA-014 (v2) with hidden combatants: the names of the weapons a hidden combatant lost at the
// same moment as its action are withheld, as those of every weapon it lost; how many it lost
// stays seen.
func TestKA014WeaponsLostAtOnceOfAHiddenCombatantAreWithheld(t *testing.T) {
	st := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{Combatants: map[string]*kav1.CombatantState{
		"gargouille": {StillActs: true, WeaponsLost: []string{"griffes", "dague"}, WeaponsLostAtOnce: []string{"dague"}},
		"joshua":     {StillActs: true, WeaponsLost: []string{"pistolet"}, WeaponsLostAtOnce: []string{"pistolet"}},
	}}}}
	ka.New(2).RedactState(st, func(id string) bool { return id == "gargouille" })
	g, j := st.GetKa().GetCombatants()["gargouille"], st.GetKa().GetCombatants()["joshua"]
	require.Equal(t, []string{"", ""}, g.GetWeaponsLost())
	require.Equal(t, []string{""}, g.GetWeaponsLostAtOnce())
	require.True(t, g.GetStillActs())
	require.Equal(t, []string{"pistolet"}, j.GetWeaponsLostAtOnce(), "a combatant seen keeps its names")
}
