package feerie_test

import (
	"maps"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The hidden ogre's Attributes: names found nowhere else in the fight.
const (
	ogreAxe    = "Hache-de-Gruumsh"
	ogreSkin   = "Peau-de-Granit"
	ogreStone  = "Pierre-de-Lune-Noire"
	ogreShadow = "Ombre-Rampante"
)

// ogreSheetNumbers: the distinctive numbers of its sheet; rdSecrets adds what its rolls and
// the blows on it made of them, from the recorded events.
var ogreSheetNumbers = []int32{23, 27, 97, 17, 19, 16, 18}

// rdOgre: GM-hidden, V 23 H 11 P 27 R 3 Taille +2, Essence 97; its axe +17 (a combat
// Affinity), its granite skin +19, the Power of turning to moonstone 16, creeping shadow 18.
func rdOgre() *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "ogre", Name: "Le Croque-Mitaine", Controller: sqGM, Hidden: true, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
		Vigilance: 23, Habilete: 11, Puissance: 27, Resistance: 3, Taille: 2, Charme: 10, Essence: 97, Attributes: []*feeriev1.Attribute{
			sqAffinity(ogreAxe, 17),
			sqAttr(ogreSkin, feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, 19, false),
			sqAttr(ogreStone, feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, 16, false),
			sqAttr(ogreShadow, feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, 18, false),
		},
	}}}
}

// rdAude: Alice's fairy, V 10 H 10 P 15 R 13, Essence 60, sword +4.
func rdAude() *encounterv1.Combatant {
	c := sqFae("aude", "Aude", 10, 10, 15, 13, 60, sqAffinity("épée", 4))
	c.Controller = "alice"
	return c
}

func rdAxe(target string, att, def int32) *feeriev1.Intent {
	in := sqTactic(sqMelee(target, ogreAxe), 0, att, def)
	in.Applied.Defense = []string{ogreAxe}
	in.Description = "brandit sa " + ogreAxe
	return in
}

// rdFight plays two Actions of Aude against the hidden ogre, every Contes de Fées event kind
// with the ogre in it, and returns the registry, the log (each command recorded on its first
// event) and the state after each event.
func rdFight(t *testing.T) (*engine.Registry, []*encounterv1.Event, []*encounterv1.EncounterState) {
	reg := engine.NewRegistry(feerie.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var log []*encounterv1.Event
	var states []*encounterv1.EncounterState
	do := func(actor string, cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
		t.Helper()
		d := dice.NewFixed(faces...)
		evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: d, Seed: make([]byte, dice.SeedSize)})
		require.NoError(t, err)
		require.Zero(t, d.Left(), "faces left over")
		evs[0].Command = proto.CloneOf(cmd)
		for _, ev := range evs {
			require.NoError(t, reg.Evolve(st, ev))
			log = append(log, ev)
			states = append(states, proto.CloneOf(st))
		}
		return evs
	}
	s := func() *feeriev1.State { return st.GetFeerie() }
	do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "La clairière", RuleSystem: feerie.ID}}})
	do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: rdAude()}}})
	do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: rdOgre()}}})
	do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})

	// Action 1. The ogre creeps up on Aude (FEE-081): 11 + 18 + 3 = 32 against Vigilance 10,
	// +11 Initiative. Both declare a melee attack; the GM gives the ogre a malus (FEE-036).
	do(sqGM, sqUnseen("ogre", "aude", "habilete", ogreShadow), sqFaces(3)...)
	do("alice", sqDeclare("aude", sqMelee("ogre", "épée")))
	do(sqGM, sqDeclare("ogre", rdAxe("aude", 5, -5)), sqDice(0, 0)...) // Initiatives: Aude 10, the ogre 23 + 11
	do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{Malus: 1, Reason: "la " + ogreAxe + " décrite comme une faux"}}}))
	require.Equal(t, int32(34), s().GetRank())
	// At its rank it changes its tactic (FEE-070), grunts (FEE-047) and strikes, with the GM's
	// −3 and 2 Essence spent: 11 + 17 + 4 − 4 − 1 − 3 + 2 = 26 against Aude's Defense 10 − 2
	// (the big ogre takes two of her angles, FEE-091, FEE-096), margin 18: 9 + Damage 29 − Soak
	// 13 = 25 Essence (FEE-021): Aude has 35 left.
	do(sqGM, sqChange("ogre", rdAxe("aude", 4, -4)))
	do(sqGM, sqGesture("ogre", "grogne"))
	act := sqAct("ogre", nil, &feeriev1.Circumstances{Modifier: -3})
	act.GetFeerie().GetAct().Essence = 2
	do(sqGM, act)
	do(sqGM, sqAdvance(10), sqDice(0)...)
	// Aude strikes back: 10 + 4 + 16 = 30 against 11 − 2 + 17 − 4 − 4 (its change of
	// intention, FEE-070) = 18, margin 12: 6 + 15 − Soak 3 + 2 = 16 Essence.
	do("alice", sqAct("aude", nil, nil))
	do(sqGM, sqAdvance(0), sqDice(16)...)
	for s().GetRank() > 0 {
		do(sqGM, sqAdvance(0))
	}
	// Rank 0: the burning hut takes 41 Essence from the ogre (FEE-046).
	do(sqGM, sqImpersonal("ogre", 41))
	do(sqGM, sqAdvance(0))

	// Action 2: the ogre is surprised (FEE-080), ruled asleep then awake (FEE-022), turns to
	// moonstone and back (FEE-026), declares, renounces (FEE-075).
	do(sqGM, sqSurprise("ogre", 1, false))
	do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Reason: "assoupi"}}}))
	do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: true}}}))
	do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: ogreStone}}}))
	do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{End: true}}}))
	do("alice", sqDeclare("aude", sqPassive()))
	do(sqGM, sqDeclare("ogre", sqMelee("aude", ogreAxe)), sqDice(0, 0)...)
	do(sqGM, sqRenounce("ogre"))
	do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "l'ogre s'enfuit"}}})
	return reg, log, states
}

// TestFeerieHiddenCombatantNeverReachesOthers: a combatant the GM hides is seen by a player of
// another combatant (and an observer) by name, appearance and the ranks at which it acts; the
// names of its Attributes and its numbers appear in no state or event they read, while the
// player still sees its own combatant's Defense, Soak and losses and every outcome. The GM
// reads the recorded data whole.
func TestFeerieHiddenCombatantNeverReachesOthers(t *testing.T) {
	reg, log, states := rdFight(t)
	kinds := map[string]bool{}
	for _, ev := range log {
		if e := ev.GetFeerie(); e != nil {
			kinds[string(e.ProtoReflect().WhichOneof(e.ProtoReflect().Descriptor().Oneofs().Get(0)).Name())] = true
		}
	}
	require.Len(t, kinds, (&feeriev1.Event{}).ProtoReflect().Descriptor().Oneofs().Get(0).Fields().Len(), "every kind of event: %v", kinds)
	secrets := rdSecrets(log)
	numbers := secrets
	numbers.Words = nil
	player := engine.Viewer{Controls: map[string]bool{"aude": true}}
	for _, r := range []struct {
		name string
		v    engine.Viewer
		sees bool
	}{
		{"Aude's player", player, false},
		{"an observer", engine.Viewer{}, false},
		{"the GM", engine.Viewer{SeesAll: true}, true},
	} {
		t.Run(r.name, func(t *testing.T) {
			views := enginetest.ViewLog(reg, log, states, r.v)
			gmSawSecrets := false
			for i, ev := range log {
				seen, view := views[i], reg.View(states[i], r.v)
				if r.sees {
					require.True(t, proto.Equal(ev, seen), "event %d: the GM reads it whole", ev.GetSequence())
					want := proto.CloneOf(states[i])
					if want.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
						want.Seed = nil
					}
					for _, c := range view.GetCombatants() {
						c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED
					}
					view.SidesStanding, view.FightOver = nil, false // filled in reads, as appearances are
					require.True(t, proto.Equal(want, view), "state after event %d: the GM reads it whole", ev.GetSequence())
					gmSawSecrets = gmSawSecrets || len(enginetest.Leaks(t, ev, numbers)) > 0
				} else {
					for _, m := range []proto.Message{seen, view} {
						require.Empty(t, enginetest.Leaks(t, m, secrets), "event %d: the ogre's names or numbers reach %s in %v", ev.GetSequence(), r.name, m)
					}
					// Redacted tells of what the rules withheld; the dice positions, which no
					// one but the GMs gets, are not counted.
					positionless := proto.CloneOf(ev)
					engine.WithholdDicePositions(positionless)
					require.Equal(t, !proto.Equal(seen, positionless), seen.GetRedacted())
				}
			}
			if r.sees {
				require.True(t, gmSawSecrets, "the secret numbers are in the log: the search finds them when they are there")
			}
		})
	}

	// What Aude's player sees.
	seen := enginetest.ViewLog(reg, log, states, player)
	res := sqAll(seen, (*feeriev1.Event).GetActivityResolved)
	require.Len(t, res, 2)
	// The ogre's blow: Aude's Defense 8 and Soak 13, 25 Essence lost, 35 left (FEE-020,
	// FEE-021); not its roll, margin or Damage.
	hit := res[0]
	require.Equal(t, []any{true, int32(8), int32(13), int32(25), int32(35)}, []any{hit.GetSuccess(), hit.GetDefense(), hit.GetSoak(), hit.GetEssenceLost(), hit.GetTargetEssence()})
	require.Nil(t, hit.GetAttack())
	require.Equal(t, []int32{0, 0, 0}, []int32{hit.GetMargin(), hit.GetDamage(), hit.GetEssenceSpent()})
	require.Equal(t, feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, hit.GetIntent().GetKind())
	require.Equal(t, "aude", hit.GetIntent().GetTargetId())
	require.Equal(t, int32(34), hit.GetRank(), "the rank it acts at is called out loud (FEE-041)")
	// Aude's blow: her roll and Damage; not the ogre's Defense, Soak or Essence.
	back := res[1]
	require.Equal(t, []any{true, int32(30), int32(15)}, []any{back.GetSuccess(), back.GetAttack().GetTotal(), back.GetDamage()})
	require.Equal(t, []int32{0, 0, 0, 0, 0}, []int32{back.GetDefense(), back.GetMargin(), back.GetSoak(), back.GetEssenceLost(), back.GetTargetEssence()})
	// The Initiative: Aude's roll, the ogre's withheld; the top rank is called out loud.
	cd := sqAll(seen, (*feeriev1.Event).GetCountdownStarted)[0]
	require.Equal(t, int32(34), cd.GetTopRank())
	require.Equal(t, int32(10), sqInit(t, cd, "aude").GetResult().GetTotal())
	require.Nil(t, sqInit(t, cd, "ogre").GetResult())
	require.True(t, sqInit(t, cd, "ogre").GetCanAct())

	// The state: its name and appearance; Aude's Essence; none of the ogre's numbers.
	mid := reg.View(states[len(states)-1], player)
	ogre := engine.FindCombatant(mid, "ogre")
	require.Equal(t, "Le Croque-Mitaine", ogre.GetName())
	require.Nil(t, ogre.GetFeerie())
	require.Equal(t, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED, ogre.GetAppearance(), "97 − 2 spent − 16 − 41 = 38 Essence")
	require.Equal(t, encounterv1.Appearance_APPEARANCE_WOUNDED, engine.FindCombatant(mid, "aude").GetAppearance())
	require.Equal(t, int32(35), mid.GetFeerie().GetCombatants()["aude"].GetEssence())
	os := mid.GetFeerie().GetCombatants()["ogre"]
	require.Equal(t, []int32{0, 0, 0}, []int32{os.GetEssence(), os.GetInitiative(), os.GetActingRank()})
	require.True(t, os.GetRenounced())
	require.Equal(t, int32(38), states[len(states)-1].GetFeerie().GetCombatants()["ogre"].GetEssence())
}

func TestFeerieAppearance(t *testing.T) {
	for _, c := range []struct {
		name string
		cs   *feeriev1.CombatantState
		want encounterv1.Appearance
	}{
		{"unhurt", &feeriev1.CombatantState{Essence: 97}, encounterv1.Appearance_APPEARANCE_FIGHTING},
		{"Essence lost (FEE-021)", &feeriev1.CombatantState{Essence: 96}, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"Essence spent (FEE-005)", &feeriev1.CombatantState{Essence: 90}, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"half its Essence gone", &feeriev1.CombatantState{Essence: 48}, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{"0 Essence: helpless (FEE-022), cannot act (FEE-024)", &feeriev1.CombatantState{}, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"ruled helpless (FEE-022)", &feeriev1.CombatantState{Essence: 97, Helpless: true}, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"an object for a while (FEE-026)", &feeriev1.CombatantState{Essence: 97, Inanimate: true}, encounterv1.Appearance_APPEARANCE_FIGHTING},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{rdOgre()},
				System: &encounterv1.EncounterState_Feerie{Feerie: &feeriev1.State{Combatants: map[string]*feeriev1.CombatantState{"ogre": c.cs}}}}
			require.Equal(t, c.want, feerie.New(1).Appearance(st, "ogre"))
		})
	}
	require.Equal(t, encounterv1.Appearance_APPEARANCE_FIGHTING, feerie.New(1).Appearance(&encounterv1.EncounterState{}, "ogre"))
}

// TestFeerieRedactedConditionsAndNotes: each condition keeps its bearer's numbers for its
// bearer (FEE-153, FEE-181, FEE-177); a hidden actor's Damage roll on an object leaves the
// note (FEE-023); an impersonal event keeps a visible target's loss (FEE-046).
func TestFeerieRedactedConditionsAndNotes(t *testing.T) {
	secret := func(id string) bool { return id == "ogre" }
	resolved := func(actor, target string) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
			CombatantId: actor, Intent: sqMelee(target), Success: true, Note: "an object: Damage roll 31",
			Conditions: []*feeriev1.Condition{
				{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, Malus: 9, By: actor},
				{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW, Malus: 3, By: actor},
				{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS, Malus: 8, By: actor},
			},
		}}}}}
	}
	malus := func(ev *encounterv1.Event) []int32 {
		var out []int32
		for _, c := range ev.GetFeerie().GetActivityResolved().GetConditions() {
			out = append(out, c.GetMalus())
		}
		return out
	}
	ev := resolved("ogre", "aude")
	feerie.New(1).RedactEvent(ev, secret)
	require.Equal(t, []int32{9, 0, 0}, malus(ev), "Aude's stun is hers; the ogre's bonus and its Defense malus are its own")
	require.Equal(t, "an object: a Damage roll (FEE-023)", ev.GetFeerie().GetActivityResolved().GetNote())
	ev = resolved("aude", "ogre")
	feerie.New(1).RedactEvent(ev, secret)
	require.Equal(t, []int32{0, 3, 8}, malus(ev))
	require.Equal(t, "an object: Damage roll 31", ev.GetFeerie().GetActivityResolved().GetNote())

	imp := &encounterv1.Event{Command: sqImpersonal("aude", 41), Payload: &encounterv1.Event_Feerie{Feerie: &feeriev1.Event{Kind: &feeriev1.Event_Impersonal{
		Impersonal: &feeriev1.ImpersonalHappened{TargetId: "aude", EssenceLost: 41}}}}}
	feerie.New(1).RedactEvent(imp, secret)
	require.Equal(t, int32(41), imp.GetFeerie().GetImpersonal().GetEssenceLost())
	require.Equal(t, int32(41), imp.GetCommand().GetFeerie().GetImpersonal().GetEssenceLoss())
}

// rdSecrets: the names of the ogre's Attributes; its sheet numbers, and the totals, Damage and
// Essence its rolls and the blows on it recorded (those of 12 and more: smaller numbers are
// everywhere), searched in every integer field, a Roll's faces included, but rdPublic.
func rdSecrets(log []*encounterv1.Event) enginetest.Secrets {
	set := map[int64]bool{}
	add := func(ns ...int32) {
		for _, n := range ns {
			if n >= 12 {
				set[int64(n)] = true
			}
		}
	}
	add(ogreSheetNumbers...)
	for _, ev := range log {
		switch k := ev.GetFeerie().GetKind().(type) {
		case *feeriev1.Event_CountdownStarted:
			for _, ir := range k.CountdownStarted.GetInitiative() {
				if ir.GetCombatantId() == "ogre" {
					add(ir.GetResult().GetTotal(), ir.GetResult().GetScore())
				}
			}
		case *feeriev1.Event_UnseenRolled:
			add(k.UnseenRolled.GetRoll().GetTotal(), k.UnseenRolled.GetRoll().GetScore(), k.UnseenRolled.GetMargin())
		case *feeriev1.Event_ActivityResolved:
			if r := k.ActivityResolved; r.GetCombatantId() == "ogre" {
				add(r.GetAttack().GetTotal(), r.GetAttack().GetScore(), r.GetMargin(), r.GetDamage())
			} else if r.GetIntent().GetTargetId() == "ogre" {
				add(r.GetDefense(), r.GetTargetEssence())
			}
		case *feeriev1.Event_Impersonal:
			add(k.Impersonal.GetEssenceLost())
		}
	}
	numbers := slices.Sorted(maps.Keys(set))
	return enginetest.Secrets{Words: []string{ogreAxe, ogreSkin, ogreStone, ogreShadow}, Numbers: numbers, Faces: numbers, Ignore: rdPublic}
}

// rdPublic: the counts and places every reader sees, whatever numbers they hold: the ranks of
// the countdown are called out loud (FEE-041).
var rdPublic = []protoreflect.Name{"sequence", "to_sequence", "action", "rank", "top_rank",
	"last_rank", "from_rank", "to_rank", "dice_offset", "rules_version", "status",
	"appearance", "offset", "draws"}
