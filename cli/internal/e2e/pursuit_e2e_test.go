package e2e_test

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

func score(trait, talent string) *lossv1.Score { return &lossv1.Score{Trait: trait, Talent: talent} }

func rider() *encounterv1.Combatant {
	c := diego(1, 1)
	sh := c.GetLoss()
	sh.Traits["Puissance"], sh.Traits["Agilité"] = 7, 6
	sh.Talents["Arme de mêlée"], sh.Talents["Esquive"] = 8, 9
	sh.Talents["Équitation"], sh.Talents["Athlétisme"] = 6, 6
	sh.Pursuit, sh.MountSpeed, sh.Athletics = score("Agilité", "Équitation"), 2, score("Puissance", "Athlétisme")
	sh.Armour, sh.Parry = 5, score("Agilité", "Arme de mêlée")
	return c
}

func captain() *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "capitaine", Name: "Le capitaine", Controller: "gm", Side: "villains", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
		Traits:     map[string]int32{"Agilité": 5, "Puissance": 4},
		Talents:    map[string]int32{"Esquive": 4, "Arme de mêlée": 4, "Équitation": 4},
		Initiative: 6,
		Weapons:    []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: score("Puissance", "Arme de mêlée"), Vitesse: 4, Damage: 3}},
		Dodge:      score("Agilité", "Esquive"),
		Pursuit:    score("Agilité", "Équitation"),
		Armour:     1,
	}}}
}

func sailor(n int) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: fmt.Sprint("marin-", n), Name: fmt.Sprint("Marin ", n), Controller: "gm", Side: "villains", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
		Kind:            lossv1.CombatantKind_COMBATANT_KIND_SBIRE,
		Traits:          map[string]int32{"Agilité": 4, "Puissance": 4},
		Talents:         map[string]int32{"Esquive": 4, "Arme de mêlée": 4},
		Initiative:      4,
		InitiativeGroup: "marins",
		Weapons:         []*lossv1.Weapon{{Name: "dague", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: score("Puissance", "Arme de mêlée"), Vitesse: 3, Damage: 2}},
		Dodge:           score("Agilité", "Esquive"),
	}}}
}

// legal returns what a combatant may do now, by name.
func (f *fight) legal(who string) map[string]*lossLegal {
	r, err := f.c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: f.id, LegalFor: who})
	require.NoError(f.t, err)
	out := map[string]*lossLegal{}
	for _, l := range r.GetLegal() {
		name := l.GetName()
		if strings.HasPrefix(name, "change distance") {
			name = "change distance"
		}
		out[name] = &lossLegal{weapon: l.GetWeapon(), targets: l.GetTargets(), cost: l.GetCost()}
	}
	return out
}

type lossLegal struct {
	weapon  string
	targets []string
	cost    int32
}

var controller = map[string]string{"diego": "david", "canahan": "florence"}

func ctl(id string) string {
	if c, ok := controller[id]; ok {
		return c
	}
	return "gm"
}

// A scripted fight over gRPC: Diego rides down the fleeing captain (a pursuit, LOS-100…),
// tackles him into a standard fight, the captain's sailors join it in progress (LOS-039, a
// group of Sbires, LOS-037), and Diego and Canahan fight them all. The script reacts to
// whatever the dice give; the seed is fixed, so the fight is the same on every run.
func TestLossPursuitIntoMeleeOverGRPC(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	sum := sha256.Sum256([]byte("fray-e2e-pursuit"))
	seed := sum[:]
	c := startEncounter(t, ns.ClientURL(), resolverAddr, seed)
	heroine := canahan()
	heroine.GetLoss().Armour, heroine.GetLoss().Talents["Esquive"] = 4, 8
	f := newFight(t, c, "La poursuite", rider(), heroine, captain())

	// The GM opens the pursuit: Diego after the captain, 3 units apart (in range).
	f.submit("gm", &lossv1.Action{Kind: &lossv1.Action_StartPursuit{StartPursuit: &lossv1.StartPursuit{
		PursuerIds: []string{"diego"}, PursuedIds: []string{"capitaine"}, Distance: 3,
	}}})
	require.Equal(t, int32(3), f.state().GetState().GetLoss().GetPursuit().GetDistance())

	everyone := []string{"diego", "canahan", "capitaine"}
	var distances []int32
	tackled, joined := false, false
	for step := 0; step < 600; step++ {
		st := f.state().GetState()
		ls := st.GetLoss()
		if p := ls.GetPursuit(); p != nil {
			distances = append(distances, p.GetDistance())
		} else if !joined {
			// The pursuit became a fight: the sailors, who watched the last Tour, join it.
			require.True(t, tackled, "the pursuit ended with the tackle, not with the captain out of sight")
			for i := 1; i <= 3; i++ {
				r, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: sailor(i), Watched: true})
				require.NoError(t, err)
				require.True(t, r.GetEvents()[0].GetCombatantAdded().GetInProgress())
				f.events = append(f.events, r.GetEvents()...)
				everyone = append(everyone, sailor(i).GetId())
			}
			joined = true
			continue
		}
		villainsDown := ls.GetCombatants()["capitaine"].GetOut()
		for i := 1; i <= 3 && joined; i++ {
			villainsDown = villainsDown && ls.GetCombatants()[fmt.Sprint("marin-", i)].GetOut()
		}
		if joined && villainsDown {
			break
		}
		require.False(t, ls.GetCombatants()["diego"].GetOut() && ls.GetCombatants()["canahan"].GetOut(), "the heroes lost (step %d)", step)
		if pend := st.GetPending(); len(pend) > 0 {
			who := pend[0].GetCombatantId()
			opts := f.legal(who)
			reaction := lossv1.Reaction_REACTION_NONE
			switch {
			case strings.Contains(pend[0].GetPrompt(), "Tackle"):
				// The captain takes the tackle: the pursuit ends in a fight.
			case opts["dodge"] != nil:
				reaction = lossv1.Reaction_REACTION_DODGE
			case opts["parry"] != nil:
				reaction = lossv1.Reaction_REACTION_PARRY
			}
			for _, ev := range f.submit(ctl(who), react(who, reaction, 0, nil)) {
				if pa := ev.GetPursuitActed(); pa.GetResolves() && pa.GetKind() == lossv1.PursuitKind_PURSUIT_KIND_TACKLE && pa.GetEnded() {
					tackled = true
				}
			}
			continue
		}
		acted := false
		for _, who := range everyone {
			opts := f.legal(who)
			if opts["pass"] == nil {
				continue // not its turn
			}
			var a *lossv1.Action
			switch {
			case opts["stand up"] != nil:
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: lossv1.SimpleKind_SIMPLE_KIND_STAND_UP}}}
			case opts["recover weapon"] != nil:
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON}}}
			case who == "diego" && opts["tackle"] != nil:
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Pursuit{Pursuit: &lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_TACKLE, TargetId: "capitaine"}}}
			case who == "diego" && opts["change distance"] != nil:
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Pursuit{Pursuit: &lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, Closer: true}}}
			case who == "capitaine" && opts["change distance"] != nil && len(distances) < 4:
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Pursuit{Pursuit: &lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE}}}
			case opts["attack"] != nil && ls.GetPursuit() == nil:
				target, exploits := "", 0
				for _, id := range opts["attack"].targets {
					foe := (who == "diego" || who == "canahan") != (id == "diego" || id == "canahan")
					if !foe {
						continue
					}
					if target == "" || strings.HasPrefix(id, "marin") {
						target = id
					}
				}
				if target != "" {
					if strings.HasPrefix(target, "marin") {
						exploits = 1 // a standing Exploit fells a Sbire without a damage roll (LOS-025)
					}
					a = attack(who, target, opts["attack"].weapon, exploits, nil)
				}
			}
			if a == nil {
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}
			}
			f.submit(ctl(who), a)
			acted = true
			break
		}
		require.True(t, acted, "someone can always act or react (step %d)", step)
	}

	st := f.state().GetState()
	ls := st.GetLoss()
	require.True(t, tackled)
	require.Nil(t, ls.GetPursuit(), "the tackle turned the pursuit into a fight (LOS-105)")
	require.Equal(t, int32(3), distances[0])
	require.Contains(t, distances, int32(1), "Diego closed to contact before the tackle (LOS-104)")
	for i := 1; i <= 3; i++ {
		m := ls.GetCombatants()[fmt.Sprint("marin-", i)]
		require.True(t, m.GetOut(), "marin %d is out", i)
	}
	require.True(t, ls.GetCombatants()["capitaine"].GetOut())
	require.False(t, ls.GetCombatants()["diego"].GetOut())
	require.Greater(t, ls.GetTour(), int32(1))

	// Every kind of step happened and was recorded.
	var kinds []string
	felledSbires := 0
	for _, ev := range f.events {
		l := ev.GetLoss()
		switch {
		case l.GetPursuitStarted() != nil:
			kinds = append(kinds, "pursuit")
		case l.GetPursuitActed() != nil:
			kinds = append(kinds, "chase")
		case ev.GetCombatantAdded().GetInProgress():
			kinds = append(kinds, "joined")
		case l.GetAttackResolved().GetHit():
			kinds = append(kinds, "hit")
			if strings.Contains(l.GetAttackResolved().GetNote(), "LOS-025") {
				felledSbires++
			}
		}
	}
	for _, k := range []string{"pursuit", "chase", "joined", "hit"} {
		require.True(t, slices.Contains(kinds, k), "no %s in the log", k)
	}
	require.Positive(t, felledSbires, "at least one Sbire felled by an Exploit, without damage")

	// The sailors joined after watching: +2 on their first Initiative (LOS-039).
	for _, ev := range f.events {
		if ts := ev.GetLoss().GetTourStarted(); ts != nil {
			for _, r := range ts.GetInitiative() {
				if slices.Contains(r.GetCombatantIds(), "marin-1") {
					require.Equal(t, int32(2), r.GetBonus()["marin-1"])
					require.GreaterOrEqual(t, len(r.GetCombatantIds()), 2, "one roll for the sailors still standing (LOS-037)")
					goto joinedChecked
				}
			}
		}
	}
	t.Fatal("the sailors never rolled Initiative")
joinedChecked:
	f.finish(seed, ns.ClientURL(), resolverAddr)
}
