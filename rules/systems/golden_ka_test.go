package systems

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

func init() { goldenFights["ka/v1"] = goldenKa }

// goldenKa: the warehouse, parries allowed. A passer-by is added and sent home before the
// start. The Maître de Ka calls a terror draw on Joshua. Then, pass after pass, from the highest
// Animalité (KA-014): in round 1 Joshua disarms the malfrat of its revolver with a power
// (Télékinésie), takes the dog's bite and passes, keeping his last action; the malfrat picks its
// revolver up (KA-032) and goes for him with its knife, which Joshua parries with Bagarre
// (KA-013). Then Joshua stuns the dog, which takes it (KA-030), and shoots the malfrat, which
// dodges; Joshua dodges the dog's bites, and the malfrat's shots find him with no action left
// (KA-012). Every attack is declared, answered before any card is drawn, then drawn in one step
// (KA-020). The GM rewinds a bite declared at the wrong target,
// and ends the fight after round 3.
func goldenKa(g *goldenFight) {
	g.SeedPhrase = goldenKaPhrase
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "L'entrepôt", RuleSystem: ka.ID, RulesVersion: 1,
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{Parry: true}}},
	}}})
	for _, c := range goldenKaCombatants() {
		g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	g.Table("passant")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "passant"}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	g.Do("gm", goldenKaAction("joshua", &kav1.Action{Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: -2}}}))

	controller := map[string]string{"joshua": "alice", "chien": "gm", "malfrat": "gm"}
	legal := func(id string) []string {
		ls, err := g.reg.Legal(g.State(), id)
		require.NoError(g.t, err)
		var names []string
		for _, l := range ls {
			names = append(names, l.GetName())
		}
		return names
	}
	disarmed, rewound, stunned := false, false, false
	for step := 0; step < 200; step++ {
		st := g.State()
		ks := st.GetKa()
		if ks.GetRound() > 3 {
			break
		}
		// An attack declared: its target answers (KA-020).
		if p := ks.GetPending(); p != nil {
			id := p.GetDefenderId()
			r := &kav1.React{}
			can := legal(id)
			switch {
			case id == "joshua" && slices.Contains(can, "parry") && p.GetAttack().GetWeapon() == "couteau":
				r = &kav1.React{Defend: true, Skill: "Bagarre"}
			case id == "joshua" && p.GetAttackerId() == "chien" && ks.GetRound() == 1:
				// Joshua keeps his action for the malfrat's knife: he takes the bite.
			case id != "chien" && slices.Contains(can, "dodge"):
				r = &kav1.React{Defend: true}
			}
			g.Do(controller[id], goldenKaAction(id, &kav1.Action{Kind: &kav1.Action_React{React: r}}))
			continue
		}
		var id string
		for _, c := range st.GetCombatants() {
			if slices.Contains(legal(c.GetId()), "pass") {
				id = c.GetId()
				break
			}
		}
		require.NotEmpty(g.t, id, "someone acts in round %d, pass %d", ks.GetRound(), ks.GetPassNumber())
		cs := ks.GetCombatants()[id]
		var a *kav1.Action
		switch {
		case id == "joshua" && !disarmed && !slices.Contains(ks.GetCombatants()["malfrat"].GetWeaponsLost(), "revolver"):
			a = &kav1.Action{Kind: &kav1.Action_Disarm{Disarm: &kav1.Disarm{TargetId: "malfrat", Skill: "Télékinésie", Weapon: "revolver", Modifier: 3}}}
		case id == "joshua" && ks.GetRound() == 1 && cs.GetActionsTaken() > 0:
			a = &kav1.Action{Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}} // he keeps his last action to parry
		case id == "joshua" && disarmed && !stunned && len(ks.GetCombatants()["malfrat"].GetWeaponsLost()) == 0 && goldenKaUp(st, "chien"):
			a = &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true}}}
			stunned = true
		case id == "joshua" && goldenKaUp(st, "malfrat"):
			a = &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "malfrat", Weapon: "pistolet"}}}
		case id == "malfrat" && len(cs.GetWeaponsLost()) > 0:
			disarmed = true
			a = &kav1.Action{Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{}}}
		case id == "malfrat" && goldenKaUp(st, "joshua") && ks.GetRound() == 1:
			a = &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "joshua", Weapon: "couteau"}}}
		case id == "malfrat" && goldenKaUp(st, "joshua"):
			a = &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "joshua", Weapon: "revolver", Modifier: -1}}}
		case id == "chien" && goldenKaUp(st, "joshua"):
			if !rewound && ks.GetRound() == 2 {
				// Declared on the malfrat by mistake: the GM takes it back (before any card).
				evs := g.Do("gm", goldenKaAction(id, &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "malfrat", Weapon: "crocs"}}}))
				g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{
					ToSequence: evs[0].GetSequence() - 1, Reason: "the dog goes for Joshua, not its master"}}})
				rewound = true
			}
			a = &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "joshua", Weapon: "crocs"}}}
		default:
			a = &kav1.Action{Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}}
		}
		g.Do(controller[id], goldenKaAction(id, a))
	}
	require.True(g.t, disarmed, "the malfrat is disarmed and picks its revolver up")
	require.True(g.t, rewound)
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "le malfrat s'enfuit"}}})
}

// goldenKaPhrase: a seed under which Joshua disarms the malfrat in the first round.
const goldenKaPhrase = "entrepôt 3"

// goldenKaUp: the combatant is still in the fight.
func goldenKaUp(st *encounterv1.EncounterState, id string) bool {
	cs := st.GetKa().GetCombatants()[id]
	return cs != nil && !cs.GetUnconscious() && !cs.GetDying() && cs.GetKaDice() > 0
}

func goldenKaAction(id string, a *kav1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}
}

func goldenKaCombatants() []*encounterv1.Combatant {
	w := func(name, sphere, skill string, damage int32) *kav1.Weapon {
		return &kav1.Weapon{Name: name, Sphere: sphere, Skill: skill, Damage: damage}
	}
	sheet := func(id, name, ctl string, pc bool, a, h, s int32, skills, powers map[string]int32, enc, kaDice, reality int32, ws ...*kav1.Weapon) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: name, Controller: ctl, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
			Spheres: map[string]int32{ka.Animalite: a, ka.Humanite: h, "Spiritualité": s}, Skills: skills, Powers: powers,
			Encaissement: enc, KaDice: kaDice, RealityPoints: reality, PlayerCharacter: pc, Weapons: ws,
		}}}
	}
	return []*encounterv1.Combatant{
		sheet("joshua", "Joshua", "alice", true, 4, 3, 2, map[string]int32{"Arme à feu": 4, "Bagarre": 2, "Esquive": 2},
			map[string]int32{"Télékinésie": 4}, 3, 9, 15, w("pistolet", ka.Humanite, "Arme à feu", 8), w("crosse", ka.Animalite, "Bagarre", 3)),
		sheet("chien", "Le chien", "gm", false, 3, 1, 2, map[string]int32{"Esquive": 4, "Bagarre": 3}, nil, 3, 3, 10,
			w("crocs", ka.Animalite, "Bagarre", 2)),
		sheet("malfrat", "Le malfrat", "gm", false, 2, 3, 2, map[string]int32{"Arme à feu": 2, "Bagarre": 1, "Esquive": 1}, nil, 2, 5, 10,
			w("revolver", ka.Humanite, "Arme à feu", 8), w("couteau", ka.Animalite, "Bagarre", 4)),
		sheet("passant", "Le passant", "gm", false, 1, 2, 2, nil, nil, 1, 2, 6),
	}
}
