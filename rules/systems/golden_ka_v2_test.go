package systems

import (
	"errors"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func init() { goldenFights["ka/v2"] = goldenKaV2 }

// goldenKaV2: the warehouse again, under version 2, with the malfrat's accomplice, of the same
// Animalité: the two act at the same time (KA-014). In round 1, Joshua disarms the accomplice
// of its knife with a power (Télékinésie); the dog, the malfrat and the accomplice attack
// Joshua, who takes it all, keeping his last action. In the second pass Joshua passes, and the
// malfrat disarms its accomplice of the revolver at the same time as the accomplice's own
// action: the accomplice still acts, and uses the revolver it loses at that very moment to
// disarm the malfrat with Arme à feu (version 2; version 1 refused that skill, yet would have
// let it stab with the knife lost a pass earlier). In round 2 Joshua shoots the dog, which
// dodges; the two malfrats pick their weapons up; the GM rewinds a shot aimed at the wrong
// target, and ends the fight while the accomplice has still to answer Joshua's shot: the
// ended encounter waits on no one (version 2).
func goldenKaV2(g *goldenFight) {
	g.SeedPhrase = goldenKaV2Phrase
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "L'entrepôt, la revanche", RuleSystem: ka.ID, RulesVersion: 2,
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{Parry: true}}},
	}}})
	for _, c := range goldenKaV2Combatants() {
		g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	g.Table("passant")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "passant"}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	do := func(actor, id string, a *kav1.Action) []*encounterv1.Event { return g.Do(actor, goldenKaAction(id, a)) }
	attack := func(actor, id, target, weapon string) []*encounterv1.Event {
		return do(actor, id, &kav1.Action{Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: target, Weapon: weapon}}})
	}
	answer := func(actor, id string, r *kav1.React) []*encounterv1.Event {
		return do(actor, id, &kav1.Action{Kind: &kav1.Action_React{React: r}})
	}
	disarm := func(actor, id, target, skill, weapon string) *kav1.DisarmDrawn {
		evs := do(actor, id, &kav1.Action{Kind: &kav1.Action_Disarm{Disarm: &kav1.Disarm{TargetId: target, Skill: skill, Weapon: weapon, Modifier: 5}}})
		return evs[0].GetKa().GetDisarmDrawn()
	}
	ks := func() *kav1.State { return g.State().GetKa() }

	do("gm", "joshua", &kav1.Action{Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: -2}}})
	// Round 1, pass 1.
	require.True(g.t, disarm("alice", "joshua", "complice", "Télékinésie", "couteau").GetSuccess(), "Joshua disarms the accomplice of its knife")
	attack("gm", "chien", "joshua", "crocs")
	answer("alice", "joshua", &kav1.React{})
	attack("gm", "malfrat", "joshua", "couteau")
	answer("alice", "joshua", &kav1.React{})
	attack("gm", "complice", "joshua", "revolver")
	answer("alice", "joshua", &kav1.React{})
	require.Equal(g.t, []any{int32(1), int32(2)}, []any{ks().GetRound(), ks().GetPassNumber()})
	// Pass 2: the malfrats at the same time (KA-014).
	do("alice", "joshua", &kav1.Action{Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}})
	dd := disarm("gm", "malfrat", "complice", "Bagarre", "revolver")
	require.True(g.t, dd.GetSuccess() && dd.GetStillActs(), "the accomplice loses its revolver at the same time as its own action")
	disarm("gm", "complice", "malfrat", "Arme à feu", "revolver") // the revolver lost at that moment still serves (KA-014, v2)
	// Round 2.
	require.Equal(g.t, []any{int32(2), int32(1)}, []any{ks().GetRound(), ks().GetPassNumber()})
	attack("alice", "joshua", "chien", "pistolet")
	answer("gm", "chien", &kav1.React{Defend: true})
	for _, id := range []string{"malfrat", "complice"} {
		if len(ks().GetCombatants()[id].GetWeaponsLost()) > 0 {
			do("gm", id, &kav1.Action{Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{Weapon: ks().GetCombatants()[id].GetWeaponsLost()[0]}}})
		} else {
			attack("gm", id, "joshua", "couteau")
			answer("alice", "joshua", &kav1.React{})
		}
	}
	require.Equal(g.t, []any{int32(2), int32(2)}, []any{ks().GetRound(), ks().GetPassNumber()})
	evs := attack("alice", "joshua", "malfrat", "pistolet")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{
		ToSequence: evs[0].GetSequence() - 1, Reason: "Joshua aims at the accomplice, not the malfrat"}}})
	attack("alice", "joshua", "complice", "pistolet")
	require.NotNil(g.t, ks().GetPending(), "the accomplice has yet to answer")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "les sirènes"}}})
	require.Empty(g.t, g.State().GetPending(), "an ended encounter waits on no one (v2)")
}

// goldenKaV2Phrase: a seed under which every disarm of the fight succeeds and no one falls.
const goldenKaV2Phrase = "entrepôt v2"

func goldenKaV2Combatants() []*encounterv1.Combatant {
	cs := goldenKaCombatants()
	for _, c := range cs {
		switch c.GetId() {
		case "joshua":
			c.GetKa().KaDice = 12
		case "chien", "malfrat":
			c.GetKa().KaDice = 8
		}
	}
	complice := proto.CloneOf(cs[2])
	complice.Id, complice.Name = "complice", "Le complice"
	return append(cs[:3:3], complice, cs[3])
}

// What Ka's version 2 changed, seen by the audit: the v2 golden log, its commands decided
// again under version 1, diverges first where the accomplice, disarmed of its revolver at the
// same time as its own action, disarms with the revolver's skill (KA-014): version 1 refuses
// it.
func TestKaV2AgainstV1Audit(t *testing.T) {
	reg := Registry()
	events, _ := readGolden(t, "ka", 2)
	_, err := reg.Audit(events)
	require.NoError(t, err, "the v2 golden log passes its own audit")
	v1 := make([]*encounterv1.Event, len(events))
	var skill *encounterv1.Event
	for i, ev := range events {
		v1[i] = proto.CloneOf(ev)
		v1[i].RulesVersion = 1
		if rw := v1[i].GetEncounterRewound(); rw.GetState() != nil { // the state a rewind restores names it too
			rw.State.RulesVersion = 1
		}
		if d := ev.GetCommand().GetKa().GetDisarm(); d.GetSkill() == "Arme à feu" && skill == nil {
			skill = ev
		}
	}
	require.NotNil(t, skill)
	_, err = reg.Audit(v1)
	var d *engine.Divergence
	require.True(t, errors.As(err, &d), "under v1: %v", err)
	require.Equal(t, skill.GetSequence(), d.Sequence, "the first divergent decision: %v", d)
	require.Contains(t, d.Reason, "refuse")
	require.Contains(t, d.Reason, "KA-032")
	require.Contains(t, d.Reason, "Arme à feu")
	t.Logf("under v1: %v", d)
}
