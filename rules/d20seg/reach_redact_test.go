package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/stretchr/testify/require"
)

// D20-031, D20-030: the legal attack offers a distance up to the weapon's reach when it gives
// one, else the reach of the attacker's size: a pike of 300 cm, a longsword at size M 150,
// at size G 300; a ranged weapon asks no distance (D20-045).
func TestD20_031_LegalAttackDistanceUpToReach(t *testing.T) {
	pike := &d20segv1.Weapon{Name: "pique", Dice: "1d8", Critical: 2, ReachCm: 300}
	bow := &d20segv1.Weapon{Name: "arc", Dice: "1d8", Critical: 3, Ranged: true}
	f := newFight(t, nil,
		sheet("aldric", "Aldric", initiative(9), func(s *d20segv1.Sheet) { s.Weapons = append(s.Weapons, pike, bow) }),
		sheet("ogre", "Ogre", initiative(1), func(s *d20segv1.Sheet) { s.Size = d20segv1.Size_SIZE_G }))
	f.start()
	maxDistance := func(id string) map[string]int32 {
		legal, err := f.Reg.Legal(f.St, id)
		require.NoError(t, err)
		out := map[string]int32{}
		for _, l := range legal {
			if l.GetName() != "attack" {
				continue
			}
			out[l.GetWeapon()] = -1 // no distance asked
			for _, c := range l.GetChoices() {
				if c.GetField() == "d20seg.attack.distance_cm" {
					out[l.GetWeapon()] = c.GetMax()
				}
			}
		}
		return out
	}
	require.Equal(t, map[string]int32{"épée longue": 150, "pique": 300, "arc": -1}, maxDistance("aldric"))
	f.do(gm, endTurn("aldric"))
	require.Equal(t, map[string]int32{"épée longue": 300}, maxDistance("ogre"))
}

// Redacting an Initiative whose roll-off lost a roll keeps the rolls there are, without
// failing on the missing one (D20-011).
func TestRedactARollOffThatLostARoll(t *testing.T) {
	roll := &dicev1.Roll{Expression: "1d20", Faces: []int32{4}, Total: 4}
	ev := &encounterv1.Event{Payload: &encounterv1.Event_D20Seg{D20Seg: &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{
		RollOffs: []*d20segv1.RollOff{{CombatantIds: []string{"aldric", "garde", "ogre"}, Rolls: []*dicev1.Roll{roll, roll}}},
	}}}}}
	d20seg.New(1).RedactEvent(ev, func(id string) bool { return id == "ogre" })
	ro := ev.GetD20Seg().GetCombatStarted().GetRollOffs()
	require.Len(t, ro, 1)
	require.Equal(t, []string{"aldric", "garde"}, ro[0].GetCombatantIds())
	require.Len(t, ro[0].GetRolls(), 2)

	ev.GetD20Seg().GetCombatStarted().RollOffs = []*d20segv1.RollOff{{CombatantIds: []string{"aldric", "garde", "sergent"}, Rolls: []*dicev1.Roll{roll, roll}}}
	d20seg.New(1).RedactEvent(ev, func(id string) bool { return id == "garde" })
	ro = ev.GetD20Seg().GetCombatStarted().GetRollOffs()
	require.Equal(t, []string{"aldric", "sergent"}, ro[0].GetCombatantIds())
	require.Len(t, ro[0].GetRolls(), 1, "the sergent's roll was lost")
}
