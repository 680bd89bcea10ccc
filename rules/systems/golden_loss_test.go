package systems

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func init() {
	goldenFights["loss/v1"] = goldenLoss
	goldenFights["loss/v2"] = func(g *goldenFight) { goldenLossAt(g, 2) }
}

// goldenLoss: a night in an alley of Armanth, under the rules as revised for issue 10. A dog
// is added and sent home before the start. The GM grants Diego a free raise; Diego declares
// his intention. In the first Tour the archer aims for the whole Tour, as her first action,
// with the bow of her Visée (+15 on her next shot with it, LOS-084, LOS-090); Diego waits two
// phases (LOS-040), the ruffian moves, and the GM rewinds that move to have him move again.
// Then everyone fights: Diego strikes with an Exploit (his failed one becomes a Disaster,
// LOS-006), the defenders dodge, the archer's aimed arrow (+15) and the next fell the Sbire.
// From the second Tour the ruffian flees: the GM opens a pursuit and Diego closes the distance
// (LOS-104). Whoever goes down to 0 fatal boxes is finished off or cared for (LOS-023): the
// archer finishes the ruffian off.
func goldenLoss(g *goldenFight) { goldenLossAt(g, 1) }

// goldenLossAt plays the golden fight under a version of the rules. Version 2's fight is
// version 1's with what version 2 changes: the ruffian dodges Diego with a Counter-attack and
// Diego, a better dodger there, counters the counter blow (LOS-062), which owes no one its
// action (LOS-110); Diego, who has Athletics there, trips the ruffian before he attacks, and
// the trip throws the ruffian down (LOS-035), who must stand up.
func goldenLossAt(g *goldenFight, version uint32) {
	if g.SeedPhrase == "" { // a search for another phrase sets its own
		g.SeedPhrase = goldenLossPhrase
		if version >= 2 {
			g.SeedPhrase = goldenLossV2Phrase
		}
	}
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "Une ruelle d'Armanth", RuleSystem: loss.ID, RulesVersion: version,
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{
			HealthBands: []int32{2, 2, 2}, GmFursa: proto.Int32(1),
		}}},
	}}})
	for _, c := range goldenLossCombatants(version) {
		g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	g.Table("chien")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "chien"}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	g.Do("gm", goldenLossAction(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{
		Count: 1, Reason: "il connaît la ruelle"}}}))
	g.Do("alice", goldenLossAction(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Declare{Declare: &lossv1.Declare{
		Intention: "attendre le malfrat au coin de la ruelle"}}}))

	controller := map[string]string{"diego": "alice", "archere": "bob", "malfrat": "gm", "marin": "gm"}
	order := []string{"diego", "archere", "malfrat", "marin"}
	waited, moved, rewound, disaster, trips := false, false, false, false, 0
	counters := map[string]int{} // Counter-attacks tried, by who (v2)
	for step := 0; step < 400; step++ {
		st := g.State()
		ls := st.GetLoss()
		cs := ls.GetCombatants()
		if ls.GetTour() > 8 || (goldenLossSeenAll(g) && ls.GetPending() == nil) {
			break
		}
		// A Disaster follows the failed Exploit at once (LOS-006).
		if by := ls.GetFailedExploitBy(); by != "" && !disaster {
			disaster = true
			g.Do("gm", goldenLossAction(&lossv1.Action{CombatantId: by, Kind: &lossv1.Action_Disaster{Disaster: &lossv1.Disaster{
				Description: "la lame se fiche dans une poutre"}}}))
			continue
		}
		// The dying: the one who felled it finishes it off, or it is cared for (LOS-023).
		if id := goldenLossDying(st); id != "" {
			by := cs[id].GetFelledBy()
			a := &lossv1.Action{CombatantId: by, Kind: &lossv1.Action_Dying{Dying: &lossv1.Dying{TargetId: id, Choice: lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF}}}
			if id == "diego" || id == "archere" || by == "" {
				a = &lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Dying{Dying: &lossv1.Dying{TargetId: id, Choice: lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE}}}
			}
			g.Do(controller[a.GetCombatantId()], goldenLossAction(a))
			continue
		}
		if p := ls.GetPending(); p != nil {
			d := p.GetDefenderId()
			r := lossv1.Reaction_REACTION_NONE
			if slices.ContainsFunc(goldenLossLegal(g, d), func(n string) bool { return n == "dodge" }) {
				r = lossv1.Reaction_REACTION_DODGE
			}
			// Version 2: the ruffian dodges Diego with a Counter-attack (up to 4 times, until one
			// strikes), and Diego answers the counter blow with one of his own (LOS-062); refused,
			// they dodge plainly.
			counter := map[string]string{"malfrat": "dague", "diego": "sabre"}[d]
			if version >= 2 && r == lossv1.Reaction_REACTION_DODGE && counter != "" && counters[d] < 4 && !goldenLossCountered(g, d) &&
				(d == "malfrat" && p.GetAttackerId() == "diego" || d == "diego" && p.GetCounter()) {
				counters[d]++
				if _, err := g.Try(controller[d], goldenLossAction(&lossv1.Action{CombatantId: d, Kind: &lossv1.Action_React{React: &lossv1.React{
					Reaction: r, Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK}, CounterWeapon: counter}}})); err == nil {
					continue
				}
			}
			g.Do(controller[d], goldenLossAction(&lossv1.Action{CombatantId: d, Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: r}}}))
			continue
		}
		// From the second Tour the ruffian flees and Diego runs after him (LOS-100).
		if ls.GetTour() >= 2 && ls.GetPursuit() == nil && !cs["malfrat"].GetOut() && !cs["diego"].GetOut() && !goldenLossSeen(g, "loss.pursuit_started") {
			g.Do("gm", goldenLossAction(&lossv1.Action{Kind: &lossv1.Action_StartPursuit{StartPursuit: &lossv1.StartPursuit{
				PursuerIds: []string{"diego"}, PursuedIds: []string{"malfrat"}, Distance: 3}}}))
			continue
		}
		id := ""
		for _, c := range order {
			if slices.Contains(goldenLossLegal(g, c), "pass") {
				id = c
				break
			}
		}
		require.NotEmpty(g.t, id, "someone can act in Tour %d", ls.GetTour())
		me := cs[id]
		legal := goldenLossLegal(g, id)
		can := func(name string) bool { return slices.Contains(legal, name) }
		foe := "malfrat"
		if id == "malfrat" || id == "marin" {
			foe = "diego"
		} else if !cs["marin"].GetOut() {
			foe = "marin"
		}
		var a *lossv1.Action
		switch {
		case id == "archere" && ls.GetTour() == 1 && can("aim a whole Tour"): // LOS-084
			a = &lossv1.Action{Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: "arc", WholeTour: true}}}
		case id == "diego" && !waited && me.GetActionPoints() > 6: // LOS-040
			waited = true
			a = &lossv1.Action{Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: me.GetActionPoints() - 2}}}
		case version >= 2 && id == "diego" && waited && trips < 3 && !goldenLossTripped(g) && can("grab or trip") && !cs["malfrat"].GetOut(): // LOS-035 (v2)
			trips++
			a = &lossv1.Action{Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP}}}
		case id == "malfrat" && cs["malfrat"].GetProne() && can("stand up"): // thrown down by the trip (LOS-072)
			a = &lossv1.Action{Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: lossv1.SimpleKind_SIMPLE_KIND_STAND_UP}}}
		case id == "malfrat" && !moved && can("moving"):
			a = &lossv1.Action{Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: lossv1.SimpleKind_SIMPLE_KIND_MOVE, Description: "recule vers la fontaine"}}}
		case ls.GetPursuit() != nil && (id == "diego" || id == "malfrat"):
			a = &lossv1.Action{Kind: &lossv1.Action_Pursuit{Pursuit: &lossv1.PursuitAction{
				Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, Closer: id == "diego"}}}
		case can("attack") && !cs[foe].GetOut():
			at := &lossv1.Attack{TargetId: foe}
			switch {
			case id == "archere":
				at.Weapon, at.Situation = "arc", &lossv1.Situation{Distance: 12}
			case id == "diego" && (foe == "marin" || !disaster): // an Exploit: fells a Sbire (LOS-025), or fails
				at.Exploits = []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE}
			}
			a = &lossv1.Action{Kind: &lossv1.Action_Attack{Attack: at}}
		}
		if a == nil {
			a = &lossv1.Action{Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}
		}
		a.CombatantId = id
		evs, err := g.Try(controller[id], goldenLossAction(a))
		if err != nil { // what the policy tried is not allowed now: pass
			g.Do(controller[id], goldenLossAction(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}))
			continue
		}
		if a.GetSimple() != nil && id == "malfrat" && !moved {
			if !rewound { // the GM takes the move back: the ruffian had his back to a wall
				rewound = true
				g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{
					ToSequence: evs[0].GetSequence() - 1, Reason: "il est dos au mur"}}})
				continue
			}
			moved = true
		}
	}
	require.True(g.t, goldenLossSeenAll(g), "the golden fight holds every kind of Loss event")
	if version >= 2 {
		require.True(g.t, goldenLossTripped(g), "the golden fight of version 2 holds a trip that lands (LOS-035)")
		require.True(g.t, goldenLossCounteredCounter(g), "the golden fight of version 2 holds a counter-attack on a counter-attack (LOS-062)")
	}
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "la garde arrive"}}})
}

// goldenLossPhrase seeds a fight in which every kind of event happens; goldenLossV2Phrase,
// version 2's.
const (
	goldenLossPhrase   = "ruelle 25"
	goldenLossV2Phrase = "ruelle 428"
)

// goldenLossCounteredCounter: a counter blow has been answered by a counter-attack (LOS-062).
func goldenLossCounteredCounter(g *goldenFight) bool { return goldenLossCountered(g, "diego") }

// goldenLossCountered: id has struck a counter blow.
func goldenLossCountered(g *goldenFight, id string) bool {
	return slices.ContainsFunc(g.events, func(ev *encounterv1.Event) bool {
		a := ev.GetLoss().GetAttackRolled()
		return a.GetCounter() && a.GetAttackerId() == id
	})
}

// goldenLossTripped: a trip has landed (LOS-035).
func goldenLossTripped(g *goldenFight) bool {
	return slices.ContainsFunc(g.events, func(ev *encounterv1.Event) bool {
		r := ev.GetLoss().GetAttackResolved()
		return r.GetHit() && r.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_TRIP
	})
}

func goldenLossAction(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

// goldenLossLegal names what id may do now.
func goldenLossLegal(g *goldenFight, id string) []string {
	legal, err := g.reg.Legal(g.State(), id)
	require.NoError(g.t, err)
	var names []string
	for _, l := range legal {
		names = append(names, l.GetName())
	}
	return names
}

// goldenLossDying is a dying combatant, "" if none.
func goldenLossDying(st *encounterv1.EncounterState) string {
	for _, id := range []string{"diego", "archere", "malfrat"} {
		if st.GetLoss().GetCombatants()[id].GetDying() {
			return id
		}
	}
	return ""
}

func goldenLossSeen(g *goldenFight, kind string) bool {
	return slices.ContainsFunc(g.events, func(ev *encounterv1.Event) bool { return enginetest.KindOf(ev) == kind })
}

// goldenLossSeenAll: every kind of event but the end has happened.
func goldenLossSeenAll(g *goldenFight) bool {
	for _, k := range enginetest.EventKinds(loss.ID) {
		if k != "encounter_ended" && !goldenLossSeen(g, k) {
			return false
		}
	}
	return true
}

func goldenLossCombatants(version uint32) []*encounterv1.Combatant {
	score := func(trait, talent string) *lossv1.Score { return &lossv1.Score{Trait: trait, Talent: talent} }
	sheet := func(id, name, controller string, kind lossv1.CombatantKind, init int32, weapons ...*lossv1.Weapon) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: name, Controller: controller,
			Side: map[string]string{"gm": "malfrats", "alice": "héros", "bob": "héros"}[controller],
			Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
				Kind:       kind,
				Traits:     map[string]int32{"Puissance": 6, "Agilité": 5, "Instinct": 5},
				Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5, "Course": 6, "Archerie": 12},
				Initiative: init, Weapons: weapons,
				Dodge: score("Agilité", "Esquive"), Parry: score("Puissance", "Arme de mêlée"),
				Pursuit: score("Agilité", "Course"),
			}}}
	}
	melee := func(name string, vitesse, damage int32) *lossv1.Weapon {
		return &lossv1.Weapon{Name: name, Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: vitesse, Damage: damage,
			Attack: score("Puissance", "Arme de mêlée")}
	}
	bow := &lossv1.Weapon{Name: "arc", WeaponType: "arc long", Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Vitesse: 4, Damage: 3,
		EffectiveRange: 20, Limit: 60, Bow: true, Attack: score("Instinct", "Archerie")}
	diego := sheet("diego", "Diego", "alice", lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, 8, melee("sabre", 4, 3))
	diego.GetLoss().Inspiration = map[string]int32{"Courage": 1}
	if version >= 2 { // to trip with (LOS-035), and a dodge to counter a counter blow (LOS-062)
		diego.GetLoss().Athletics = score("Puissance", "Course")
		diego.GetLoss().Talents["Esquive"] = 9
	}
	archere := sheet("archere", "Archère", "bob", lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, 6, bow, melee("dague", 3, 2))
	archere.GetLoss().Specialisations = []*lossv1.Specialisation{{Kind: lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, WeaponType: "arc long"}}
	malfrat := sheet("malfrat", "Le malfrat", "gm", lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, 5, melee("dague", 3, 2))
	marin := sheet("marin", "Marin", "gm", lossv1.CombatantKind_COMBATANT_KIND_SBIRE, 4, melee("gourdin", 3, 2))
	chien := sheet("chien", "Chien", "gm", lossv1.CombatantKind_COMBATANT_KIND_SBIRE, 3,
		&lossv1.Weapon{Name: "crocs", Kind: lossv1.WeaponKind_WEAPON_KIND_NATURAL, Damage: 1, Attack: score("Agilité", "Esquive")})
	return []*encounterv1.Combatant{diego, archere, malfrat, marin, chien}
}
