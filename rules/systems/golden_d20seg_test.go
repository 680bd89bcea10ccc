package systems

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func init() {
	goldenFights["d20seg/v1"] = func(g *goldenFight) { goldenD20Seg(g, 1) }
	goldenFights["d20seg/v2"] = func(g *goldenFight) { goldenD20Seg(g, 2) }
}

// goldenD20Seg: an ambush at the ford, with carry-over on. A dog is added and sent home before
// the start; the Spadassin and Berthe share Initiative 3 and roll off (D20-011). The Brigand
// and the Spadassin ambush the Guetteur, who passes its apprehension roll, and Berthe, who does
// not; the Passant is neither attacker nor defender (D20-003). The two free actions come first
// (D20-004), an attack and a spell; then segments 0–2, then two rounds in which everyone
// attacks its foe while the attack fits (the Brigand turns on Berthe once the Guetteur is
// down), the Spadassin casts a spell for the next round
// (D20-019) and one that runs on into it (D20-020), the Passant flees, and the GM rewinds a
// misplayed attack.
//
// Version 2 plays the same fight, after the GM first gives a sheet without its armour and
// weapon class, which v2 refuses (D20-010): a refused command leaves nothing in the log, so
// v2's log is v1's under another version (v2 changes no decision an accepted command gets).
func goldenD20Seg(g *goldenFight, version uint32) {
	rules := d20seg.New(version)
	g.SeedPhrase = goldenD20SegPhrase
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "L'embuscade du gué", RuleSystem: d20seg.ID, RulesVersion: version,
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{CarryOver: proto.Bool(true)}}},
	}}})
	if version >= 2 { // D20-010: armour and weapon class required
		bare := proto.CloneOf(goldenD20SegCombatants()[0])
		bare.GetD20Seg().Armour, bare.GetD20Seg().WeaponClass = d20segv1.Armour_ARMOUR_UNSPECIFIED, d20segv1.WeaponClass_WEAPON_CLASS_UNSPECIFIED
		_, err := g.Try("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: bare}}})
		require.ErrorContains(g.t, err, "armour")
	}
	for _, c := range goldenD20SegCombatants() {
		g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	g.Table("chien")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "chien"}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	g.Do("gm", goldenD20SegAction(&d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{
		AttackerIds: []string{"brigand", "spadassin"},
		Defenders: []*d20segv1.Apprehension{
			{DefenderId: "guetteur", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_NIGHT, d20segv1.Situation_SITUATION_VIGILANT}},
			{DefenderId: "berthe", Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_NIGHT, d20segv1.Situation_SITUATION_IMPAIRED}, ImpairedMalus: 3},
		},
	}}}))

	foe := map[string]string{"brigand": "guetteur", "spadassin": "berthe", "guetteur": "brigand", "berthe": "spadassin", "passant": "brigand"}
	rewound := false
	for step := 0; step < 100; step++ {
		st := g.State()
		round := st.GetD20Seg().GetRound()
		if round >= 3 {
			break
		}
		id, seg, free, ok := rules.UpNext(st)
		require.True(g.t, ok, "someone acts in round %d", round)
		target := foe[id]
		if st.GetD20Seg().GetCombatants()[target].GetDown() && id == "brigand" {
			target = "berthe"
		}
		actor := "gm"
		if id == "guetteur" || id == "berthe" {
			actor = "alice"
		}
		var a *d20segv1.Action
		switch {
		case free && id == "spadassin": // D20-004: a spell as the free action
			a = &d20segv1.Action{Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Spell: "sommeil", Level: 1, Free: true}}}
		case free:
			a = &d20segv1.Action{Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: foe[id], DistanceCm: 150, Free: true}}}
		case id == "spadassin" && round == 1 && seg == 0: // D20-019
			a = &d20segv1.Action{Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Spell: "peau de pierre", Level: 4, NextRound: true}}}
		case id == "spadassin" && round == 1 && seg >= 3: // D20-020: runs on into round 2
			a = &d20segv1.Action{Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Spell: "mur de feu", Level: 7}}}
		case id == "passant" && seg == 0: // D20-022: the GM says fleeing takes 2 segments
			a = &d20segv1.Action{Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "s'enfuit vers le gué", Segments: 2}}}
		case id == "passant":
			a = &d20segv1.Action{Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}
		case goldenD20SegAttackFits(g, id) && !st.GetD20Seg().GetCombatants()[target].GetDown():
			a = &d20segv1.Action{Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: target, DistanceCm: 150}}}
		case st.GetD20Seg().GetCombatants()[target].GetDown(): // no one left to fight
			a = &d20segv1.Action{Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}
		default: // the attack does not fit in the segments left
			a = &d20segv1.Action{Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "se met en garde"}}}
		}
		a.CombatantId = id
		evs := g.Do(actor, goldenD20SegAction(a))
		// The GM rewinds the Guetteur's first attack of round 1: it was out of reach.
		if !rewound && round == 1 && id == "guetteur" && a.GetAttack() != nil {
			rewound = true
			g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{
				ToSequence: evs[0].GetSequence() - 1, Reason: "the Guetteur was 3 m away: out of reach (D20-031)"}}})
			g.Do("alice", goldenD20SegAction(&d20segv1.Action{CombatantId: id, Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "s'approche"}}}))
		}
	}
	require.Equal(g.t, int32(3), g.State().GetD20Seg().GetRound())
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "les brigands s'enfuient"}}})
}

// goldenD20SegPhrase makes the Guetteur pass its apprehension roll and Berthe fail hers.
const goldenD20SegPhrase = "gué 18"

func goldenD20SegAction(a *d20segv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}
}

// goldenD20SegAttackFits: the rules list an attack among what id may do now.
func goldenD20SegAttackFits(g *goldenFight, id string) bool {
	legal, err := g.reg.Legal(g.State(), id)
	require.NoError(g.t, err)
	for _, l := range legal {
		if l.GetName() == "attack" {
			return true
		}
	}
	return false
}

func goldenD20SegCombatants() []*encounterv1.Combatant {
	sheet := func(id, name, controller string, edit func(*d20segv1.Sheet)) *encounterv1.Combatant {
		sh := &d20segv1.Sheet{
			Rapidite: 3, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE,
			WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED, Bba: 6, Agility: 1, Strength: 2, Ca: 15, HitPoints: 40,
			Size: d20segv1.Size_SIZE_M, Weapons: []*d20segv1.Weapon{{Name: "épée longue", Dice: "1d8", Critical: 2}},
		}
		edit(sh)
		return &encounterv1.Combatant{Id: id, Name: name, Side: map[string]string{"gm": "brigands", "alice": "voyageurs"}[controller],
			Controller: controller, Sheet: &encounterv1.Combatant_D20Seg{D20Seg: sh}}
	}
	return []*encounterv1.Combatant{
		// Initiative 10: Rapidité 8, no armour +1, unarmed +1.
		sheet("passant", "Passant", "gm", func(s *d20segv1.Sheet) {
			s.Rapidite, s.Armour, s.WeaponClass, s.Bba, s.Weapons = 8, d20segv1.Armour_ARMOUR_NONE, d20segv1.WeaponClass_WEAPON_CLASS_UNARMED, 0,
				[]*d20segv1.Weapon{{Name: "poings", Dice: "1d3", Critical: 2}}
		}),
		// Initiative 8, BBA 11, vigilant.
		sheet("guetteur", "Guetteur", "alice", func(s *d20segv1.Sheet) { s.Rapidite, s.Bba, s.Wisdom, s.Perception = 9, 11, 2, 4 }),
		// Initiative 6, BBA 16 (1 then 2 segments), stealth d20 + 2 + 5; a critical feat.
		sheet("brigand", "Brigand", "gm", func(s *d20segv1.Sheet) {
			s.Rapidite, s.Bba, s.Agility, s.Stealth = 7, 16, 2, 5
			s.Feats = []*d20segv1.Feat{{Name: "arme de prédilection", Attack: 1, Damage: 2}}
		}),
		// Initiative 3: a sword-mage.
		sheet("spadassin", "Spadassin", "gm", func(s *d20segv1.Sheet) { s.Rapidite, s.Stealth = 4, 2 }),
		// Initiative 3, BBA 0 (4 segments).
		sheet("berthe", "Berthe", "alice", func(s *d20segv1.Sheet) { s.Rapidite, s.Bba, s.Agility, s.Ca = 4, 0, 3, 13 }),
		sheet("chien", "Chien", "gm", func(s *d20segv1.Sheet) { s.Size = d20segv1.Size_SIZE_P }),
	}
}

// What d20seg's version 2 changed, seen by the audit (D20-010): v2 refuses a sheet without its
// armour or weapon class, which v1 took for light. So the v2 golden log, its commands decided
// again under v1, gives the very same events (v2 changes no decision of a command it
// accepts); and a log recorded under v1 with such a sheet passes v1's audit, but fails under
// v2 at that sheet, the first divergent decision.
func TestD20SegV2AgainstV1Audit(t *testing.T) {
	reg := Registry()
	asVersion := func(events []*encounterv1.Event, v uint32) []*encounterv1.Event {
		out := make([]*encounterv1.Event, len(events))
		for i, ev := range events {
			out[i] = proto.CloneOf(ev)
			out[i].RulesVersion = v
			if rw := out[i].GetEncounterRewound(); rw.GetState() != nil { // the state a rewind restores names it too
				rw.State.RulesVersion = v
			}
		}
		return out
	}
	v2, _ := readGolden(t, "d20seg", 2)
	rep, err := reg.Audit(asVersion(v2, 1))
	require.NoError(t, err, "the v2 golden log decided again under v1")
	require.Equal(t, len(v2), rep.Events)

	g := &goldenFight{t: t, reg: reg, system: "d20seg", st: &encounterv1.EncounterState{EncounterId: "v1-bare"}, SeedPhrase: "bare"}
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Le gué", RuleSystem: d20seg.ID, RulesVersion: 1}}})
	combatants := goldenD20SegCombatants()
	bare := combatants[0] // Passant: Rapidité 8, no armour, unarmed: Initiative 10 when stated
	bare.GetD20Seg().Armour, bare.GetD20Seg().WeaponClass = d20segv1.Armour_ARMOUR_UNSPECIFIED, d20segv1.WeaponClass_WEAPON_CLASS_UNSPECIFIED
	added := g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: bare}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatants[1]}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	require.Equal(t, int32(8), g.State().GetD20Seg().GetCombatants()["passant"].GetInitiative(), "v1: Rapidité 8, light armour and weapon taken for the missing ones")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "fin"}}})

	_, err = reg.Audit(g.events)
	require.NoError(t, err, "v1 keeps deciding as before: its log passes its audit")
	_, err = reg.Audit(asVersion(g.events, 2))
	var d *engine.Divergence
	require.ErrorAs(t, err, &d, "under v2")
	require.Equal(t, added[0].GetSequence(), d.Sequence, "the first divergent decision: the sheet without armour")
	require.Contains(t, d.Reason, "D20-010")
	require.Contains(t, d.Reason, "armour")
	t.Logf("under v2: %v", d)
}
