package feeriecmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

const (
	kindMelee  = feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK
	kindRanged = feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
)

// feerieSubmitted runs `fray feerie ARGS` against f and returns the one Contes de Fées action
// it submitted.
func feerieSubmitted(t *testing.T, f *clienttest.Fake, args ...string) (*feeriev1.Action, *encounterv1.SubmitRequest) {
	t.Helper()
	addr := clienttest.Serve(t, f)
	code, _, errOut := clienttest.Run(t, append([]string{"feerie", args[0], "--addr", addr}, args[1:]...)...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	var submits []*encounterv1.SubmitRequest
	for _, c := range f.Requests() {
		if c.Method == "Submit" {
			submits = append(submits, c.Req.(*encounterv1.SubmitRequest))
		}
	}
	require.Len(t, submits, 1, args)
	req := submits[0]
	require.Equal(t, "enc-1", req.GetEncounterId())
	require.NotNil(t, req.GetCommand().GetFeerie(), args)
	return req.GetCommand().GetFeerie(), req
}

func TestFeerieDeclareSendsTheIntent(t *testing.T) {
	clienttest.ClearEnv(t)
	a, req := feerieSubmitted(t, &clienttest.Fake{}, "declare", "enc-1", "redcap", "--kind", "melee", "--target", "rubezahl",
		"--attack", "hache,massacre", "--defense", "hache", "--initiative", "massacre", "--damage", "force", "--soak", "bonnet",
		"--tactic-values", "-2/+7/-5", "--strike", "trip", "--strike", "KEEP_AT_BAY,enter the guard", "--pace", "run", "--charge",
		"--description", "a bloody rush", "--as", "gm", "--expected-sequence", "7")
	require.Equal(t, uint64(7), req.GetExpectedSequence())
	clienttest.RequireProtoEqual(t, &feeriev1.Action{CombatantId: "redcap", Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: &feeriev1.Intent{
		Kind: kindMelee, TargetId: "rubezahl", Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{"hache", "massacre"}, Defense: []string{"hache"}, Initiative: []string{"massacre"},
			Damage: []string{"force"}, Soak: []string{"bonnet"}},
		Tactic: &feeriev1.Tactic{Initiative: -2, Attack: 7, Defense: -5},
		Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP, feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY,
			feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD},
		Pace: feeriev1.Pace_PACE_RUN, Charge: true, Description: "a bloody rush",
	}}}}, a)

	// A named tactic, folded: its values come with it (FEE-034); an attack need not be physical.
	a, _ = feerieSubmitted(t, &clienttest.Fake{}, "declare", "enc-1", "wichtln", "--kind", "ranged-attack", "--target", "serpent",
		"--damage", "voix tonnante", "--tactic", "coute-que-coute", "--physical=false")
	clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: kindRanged, TargetId: "serpent", Applied: &feeriev1.Applied{Damage: []string{"voix tonnante"}},
		Tactic: &feeriev1.Tactic{Preset: "Coûte que coûte", Initiative: 4, Defense: -4}}, a.GetDeclare().GetIntent())
	// Every preset of the rules by its own name.
	for _, p := range feerie.Presets {
		a, _ = feerieSubmitted(t, &clienttest.Fake{}, "declare", "enc-1", "rubezahl", "--kind", "melee", "--target", "serpent", "--tactic", p.Name)
		clienttest.RequireProtoEqual(t, &feeriev1.Tactic{Preset: p.Name, Initiative: p.Init, Attack: p.Att, Defense: p.Def}, a.GetDeclare().GetIntent().GetTactic())
	}
	// Another activity: an Aspect against a difficulty; not physical unless said.
	a, _ = feerieSubmitted(t, &clienttest.Fake{}, "declare", "enc-1", "pixie", "--kind", "other", "--aspect", "charme", "--difficulty", "12",
		"--intimidation", "--target", "serpent")
	clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 12,
		Intimidation: true, TargetId: "serpent"}, a.GetDeclare().GetIntent())
	for word, kind := range map[string]feeriev1.ActivityKind{
		"passive": feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, "get-up": feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP,
		"FREE": feeriev1.ActivityKind_ACTIVITY_KIND_FREE, "pick_up": feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP,
		"melee-attack": kindMelee,
	} {
		args := []string{"declare", "enc-1", "pixie", "--kind", word, "--physical"}
		if kind == kindMelee {
			args = append(args, "--target", "serpent")
		}
		a, _ = feerieSubmitted(t, &clienttest.Fake{}, args...)
		clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: kind, Physical: true, TargetId: map[bool]string{true: "serpent"}[kind == kindMelee]},
			a.GetDeclare().GetIntent())
	}
}

func TestFeerieActSendsTheActivity(t *testing.T) {
	clienttest.ClearEnv(t)
	// The activity declared, as it is: no intent, no circumstances.
	a, _ := feerieSubmitted(t, &clienttest.Fake{}, "act", "enc-1", "rubezahl", "--as", "rita")
	clienttest.RequireProtoEqual(t, &feeriev1.Action{CombatantId: "rubezahl", Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}, a)

	a, _ = feerieSubmitted(t, &clienttest.Fake{}, "act", "enc-1", "wichtln", "--essence", "3", "--supplementary", "--lighting", "moonlight",
		"--range", "moderately far", "--target-pace", "trot", "--terrain", "dense-forest", "--cover", "solid", "--cover-thick",
		"--cover-opaque", "--cover-soak", "12", "--angles", "2", "--undefended", "--modifier", "-2", "--exposed", "4", "--small-object", "6")
	clienttest.RequireProtoEqual(t, &feeriev1.Act{Essence: 3, Supplementary: true, Circumstances: &feeriev1.Circumstances{
		Lighting: feeriev1.Lighting_LIGHTING_MOONLIGHT, Distance: feeriev1.Range_RANGE_MODERATELY_FAR, TargetPace: feeriev1.Pace_PACE_TROT,
		Terrain: feeriev1.Terrain_TERRAIN_DENSE_FOREST, Cover: &feeriev1.Cover{Solidity: "solid", Thick: true, Opaque: true, DomainSoak: 12},
		AnglesOffered: 2, Undefended: true, Modifier: -2, ExposedMalus: 4, SmallObjectDifficulty: 6,
	}}, a.GetAct())
	a, _ = feerieSubmitted(t, &clienttest.Fake{}, "act", "enc-1", "wichtln", "--ranged-difficulty", "near-impossible", "--cover-semi-transparent")
	clienttest.RequireProtoEqual(t, &feeriev1.Circumstances{RangedDifficulty: feeriev1.RangedDifficulty_RANGED_DIFFICULTY_NEAR_IMPOSSIBLE,
		Cover: &feeriev1.Cover{SemiTransparent: true}}, a.GetAct().GetCircumstances())

	// With --kind, a new intent: a change of intention (FEE-070).
	a, _ = feerieSubmitted(t, &clienttest.Fake{}, "act", "enc-1", "rubezahl", "--kind", "passive", "--description", "runs away", "--pace", "sprint")
	clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, Description: "runs away", Pace: feeriev1.Pace_PACE_SPRINT},
		a.GetAct().GetIntent())
}

// declaredState is a state where Rübezahl declared a melee attack on the Serpent.
func declaredState() *encounterv1.EncounterState {
	return &encounterv1.EncounterState{EncounterId: "enc-1", RuleSystem: "feerie", System: &encounterv1.EncounterState_Feerie{Feerie: &feeriev1.State{
		Action: 1, Step: feeriev1.Step_STEP_COUNTDOWN, Rank: 9, TopRank: 17,
		Combatants: map[string]*feeriev1.CombatantState{"rubezahl": {Essence: 40, HasDeclared: true, Declared: &feeriev1.Intent{
			Kind: kindMelee, TargetId: "serpent", Physical: true,
			Applied: &feeriev1.Applied{Attack: []string{"bâton"}, Defense: []string{"bâton"}},
			Tactic:  &feeriev1.Tactic{Preset: "Attaque brutale", Initiative: -2, Attack: 4, Defense: -2},
			Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN},
		}}},
	}}}
}

// Intent flags without --kind amend the intent declared, read from the encounter first.
func TestFeerieIntentFlagsAmendTheDeclaration(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{State: declaredState()}
	a, _ := feerieSubmitted(t, f, "act", "enc-1", "rubezahl", "--strike", "trip", "--as", "rita")
	calls := f.Requests()
	require.Equal(t, "GetEncounter", calls[0].Method)
	require.Equal(t, "enc-1", calls[0].Req.(*encounterv1.GetEncounterRequest).GetEncounterId())
	require.Equal(t, []string{"dev/rita"}, calls[0].Principal)
	clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: kindMelee, TargetId: "serpent", Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{"bâton"}, Defense: []string{"bâton"}},
		Tactic:  &feeriev1.Tactic{Preset: "Attaque brutale", Initiative: -2, Attack: 4, Defense: -2},
		Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP}}, a.GetAct().GetIntent())

	// A change of tactic and Attributes; an empty value clears a list; --tactic none.
	a, _ = feerieSubmitted(t, &clienttest.Fake{State: declaredState()}, "change", "enc-1", "rubezahl", "--tactic-values", "+0/-4/+4", "--defense", "bâton,manteau",
		"--strike=", "--attack=", "--target", "wichtln")
	clienttest.RequireProtoEqual(t, &feeriev1.Action{CombatantId: "rubezahl", Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: &feeriev1.Intent{
		Kind: kindMelee, TargetId: "wichtln", Physical: true,
		Applied: &feeriev1.Applied{Defense: []string{"bâton", "manteau"}},
		Tactic:  &feeriev1.Tactic{Attack: -4, Defense: 4},
	}}}}, a)
	a, _ = feerieSubmitted(t, &clienttest.Fake{State: declaredState()}, "change", "enc-1", "rubezahl", "--tactic", "none", "--physical=false")
	require.Nil(t, a.GetChange().GetIntent().GetTactic())
	require.False(t, a.GetChange().GetIntent().GetPhysical())

	// With --kind, nothing is read: the intent is the flags'.
	f = &clienttest.Fake{State: declaredState()}
	a, _ = feerieSubmitted(t, f, "change", "enc-1", "rubezahl", "--kind", "other", "--aspect", "vigilance", "--difficulty", "15")
	require.Len(t, f.Requests(), 1)
	clienttest.RequireProtoEqual(t, &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "vigilance", Difficulty: 15}, a.GetChange().GetIntent())

	// Nothing declared to amend.
	addr := clienttest.Serve(t, &clienttest.Fake{State: &encounterv1.EncounterState{}})
	code, _, errOut := clienttest.Run(t, "feerie", "change", "enc-1", "serpent", "--tactic", "feinte", "--addr", addr)
	require.Equal(t, 1, code)
	require.Equal(t, "fray feerie change: serpent has no intention declared to amend: give the whole intent, starting with --kind\n", errOut)
}

func TestFeerieOtherSubcommandsSendTheirActions(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want *feeriev1.Action
	}{
		{[]string{"renounce", "enc-1", "pixie"}, &feeriev1.Action{CombatantId: "pixie", Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}}},
		{[]string{"gesture", "enc-1", "rubezahl", "shouts", "a", "warning"}, &feeriev1.Action{CombatantId: "rubezahl",
			Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{Description: "shouts a warning"}}}},
		{[]string{"object", "enc-1", "pixie", "--power", "pantin de bois"}, &feeriev1.Action{CombatantId: "pixie",
			Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: "pantin de bois"}}}},
		{[]string{"object", "enc-1", "pixie", "--end"}, &feeriev1.Action{CombatantId: "pixie",
			Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{End: true}}}},
		// The GM's: advance and impersonal name no combatant.
		{[]string{"advance", "enc-1"}, &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}}},
		{[]string{"advance", "enc-1", "--to", "9"}, &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: 9}}}},
		{[]string{"impersonal", "enc-1", "serpent", "3", "the", "hut", "burns"}, &feeriev1.Action{Kind: &feeriev1.Action_Impersonal{
			Impersonal: &feeriev1.Impersonal{TargetId: "serpent", EssenceLoss: 3, Description: "the hut burns"}}}},
		{[]string{"surprise", "enc-1", "serpent"}, &feeriev1.Action{CombatantId: "serpent",
			Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 1}}}},
		{[]string{"surprise", "enc-1", "serpent", "--actions", "3", "--no-activity"}, &feeriev1.Action{CombatantId: "serpent",
			Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 3, NoActivity: true}}}},
		{[]string{"helpless", "enc-1", "serpent", "--reason", "asleep"}, &feeriev1.Action{CombatantId: "serpent", // FEE-022
			Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Reason: "asleep"}}}},
		{[]string{"helpless", "enc-1", "serpent", "--clear"}, &feeriev1.Action{CombatantId: "serpent",
			Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: true}}}},
		{[]string{"unseen", "enc-1", "redcap", "rubezahl", "--aspect", "habilete", "--applied", "ombre,silence"}, &feeriev1.Action{CombatantId: "redcap",
			Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{VictimId: "rubezahl", Aspect: "habilete", Applied: []string{"ombre", "silence"}}}}},
		{[]string{"rule", "enc-1", "redcap", "--tactic", "parade simple", "--malus", "2", "--reason", "no room"}, &feeriev1.Action{CombatantId: "redcap",
			Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{Tactic: &feeriev1.Tactic{Preset: "Parade simple", Initiative: -2, Attack: -2, Defense: 4},
				Malus: 2, Reason: "no room"}}}},
		{[]string{"rule", "enc-1", "redcap", "--cancel-tactic"}, &feeriev1.Action{CombatantId: "redcap",
			Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{CancelTactic: true}}}},
		{[]string{"rule", "enc-1", "redcap", "--tactic-values", "1/-1/0"}, &feeriev1.Action{CombatantId: "redcap",
			Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{Tactic: &feeriev1.Tactic{Initiative: 1, Attack: -1}}}}},
	} {
		a, _ := feerieSubmitted(t, &clienttest.Fake{}, tc.args...)
		clienttest.RequireProtoEqual(t, tc.want, a)
	}
}

// The events a command causes are printed as they come back.
func TestFeerieCommandPrintsItsEvents(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{State: declaredState(), SubmitEvents: []*encounterv1.Event{
		clienttest.FeerieEv(12, &feeriev1.Event{Kind: &feeriev1.Event_Renounced{Renounced: &feeriev1.Renounced{CombatantId: "rubezahl"}}}),
	}}
	f.State.Combatants = []*encounterv1.Combatant{{Id: "rubezahl", Name: "Rübezahl"}}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "feerie", "renounce", "enc-1", "rubezahl", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#12 Rübezahl renounces its activity (FEE-075)\n", out)

	// A command that changed nothing says so.
	f.SubmitEvents = nil
	code, out, _ = clienttest.Run(t, "feerie", "renounce", "enc-1", "rubezahl", "--addr", addr)
	require.Equal(t, 0, code)
	require.Equal(t, "(no event: the command changed nothing)\n", out)
}

func TestFeerieUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"feerie"}, []string{"fray feerie: missing subcommand", "usage: fray feerie SUBCOMMAND", "declare", "surprise"}},
		{[]string{"feerie", "attack"}, []string{`fray feerie: unknown subcommand "attack"`, "Subcommands:"}},
		{[]string{"feerie", "help", "attack"}, []string{`unknown subcommand "attack"`}},
		{[]string{"feerie", "declare", "enc-1"}, []string{"fray feerie declare: missing arguments: 1 given, 2 needed",
			"usage: fray feerie declare ENCOUNTER COMBATANT --kind", "Run 'fray help feerie declare' for the flags."}},
		{[]string{"feerie", "declare", "enc-1", "rubezahl"}, []string{"fray feerie declare: declare the activity with --kind melee|ranged|other|passive|get-up|free|pick-up"}},
		{[]string{"feerie", "declare", "enc-1", "rubezahl", "--kind", "dance"}, []string{`--kind "dance": melee, ranged, other, passive, get-up, free, pick-up`}},
		{[]string{"feerie", "declare", "enc-1", "rubezahl", "--kind", "melee"}, []string{"an attack needs --target"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "melee", "--target", "s", "--strike", "kick"}, []string{`--strike "kick": disarm, trip, entangle, stun, keep-at-bay`}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "passive", "--strike", "trip"}, []string{"--strike goes with an attack"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "passive", "--charge"}, []string{"--charge goes with an attack"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "other"}, []string{"another activity needs the Aspect rolled"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "other", "--aspect", "luck"}, []string{`--aspect "luck": vigilance, habilete`}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "passive", "--difficulty", "12"}, []string{"--aspect, --difficulty and --intimidation go with --kind other"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "other", "--aspect", "charme", "--difficulty", "-1"}, []string{"--difficulty -1: cannot be negative"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "passive", "--pace", "gallop"}, []string{`--pace "gallop": walk, trot, run, sprint`}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "melee", "--target", "s", "--tactic", "fury"}, []string{`--tactic "fury": the tactics of FEE-034 are Attaque foudroyante`}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "melee", "--target", "s", "--tactic-values", "1/2/3"}, []string{"add up to 0, these add up to +6 (FEE-031)"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "melee", "--target", "s", "--tactic-values", "+2/-2"}, []string{"give Initiative/Attack/Defense"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", "melee", "--target", "s", "--tactic", "feinte", "--tactic-values", "0/0/0"}, []string{"--tactic and --tactic-values: choose one"}},
		{[]string{"feerie", "act", "e", "r", "--essence", "-1"}, []string{"--essence -1: cannot be negative"}},
		{[]string{"feerie", "act", "e", "r", "--lighting", "noon"}, []string{`--lighting "noon": dusk, moonlight, starlight, darkness`}},
		{[]string{"feerie", "act", "e", "r", "--range", "far", "--ranged-difficulty", "typical"}, []string{"not both (FEE-172)"}},
		{[]string{"feerie", "act", "e", "r", "--range", "near"}, []string{`--range "near": arms-length, few-steps`}},
		{[]string{"feerie", "act", "e", "r", "--terrain", "swamp"}, []string{`--terrain "swamp": dense-forest, corridor, winding-tunnel`}},
		{[]string{"feerie", "act", "e", "r", "--angles", "7"}, []string{"--angles 7: a defender offers 1 to 6"}},
		{[]string{"feerie", "act", "e", "r", "--cover", "paper"}, []string{`--cover "paper": fragile, normal, solid`}},
		{[]string{"feerie", "act", "e", "r", "--cover-thick"}, []string{"--cover-thick and --cover-soak go with --cover"}},
		{[]string{"feerie", "act", "e", "r", "--cover-opaque", "--cover-semi-transparent"}, []string{"choose one"}},
		{[]string{"feerie", "act", "e", "r", "--exposed", "-4"}, []string{"--exposed -4: give the malus as a positive number"}},
		{[]string{"feerie", "act", "e", "r", "--kind", "melee"}, []string{"fray feerie act: an attack needs --target"}},
		{[]string{"feerie", "change", "e", "r"}, []string{"fray feerie change: give the new intention"}},
		{[]string{"feerie", "renounce", "e"}, []string{"fray feerie renounce: missing arguments"}},
		{[]string{"feerie", "gesture", "e", "r", " "}, []string{"the description is empty"}},
		{[]string{"feerie", "object", "e", "r"}, []string{"name the Power with --power, or end the status with --end"}},
		{[]string{"feerie", "advance", "e", "--to", "0"}, []string{"--to 0: give a rank of 1 or more"}},
		{[]string{"feerie", "advance", "e", "r"}, []string{"too many arguments: r"}},
		{[]string{"feerie", "impersonal", "e", "serpent", "-3", "fire"}, []string{`Essence loss "-3": a number, 0 or more`}},
		{[]string{"feerie", "impersonal", "e", "serpent", "3"}, []string{"missing arguments: 3 given, 4 needed"}},
		{[]string{"feerie", "surprise", "e", "s", "--actions", "0"}, []string{"--actions 0: a surprise lasts 1 Action or more"}},
		{[]string{"feerie", "unseen", "e", "redcap", "rubezahl"}, []string{`--aspect "": vigilance, habilete`}},
		{[]string{"feerie", "helpless", "e", "serpent", "--clear", "--reason", "awake"}, []string{"--reason goes with the ruling"}},
		{[]string{"feerie", "helpless", "e"}, []string{"missing arguments"}},
		{[]string{"feerie", "rule", "e", "redcap"}, []string{"rule on something"}},
		{[]string{"feerie", "rule", "e", "redcap", "--cancel-tactic", "--tactic", "feinte"}, []string{"choose one"}},
		{[]string{"feerie", "rule", "e", "redcap", "--malus", "-2"}, []string{"--malus -2: give the malus as a positive number"}},
	} {
		clienttest.RequireUsageError(t, tc.args, tc.want...)
	}
}

func TestFeerieHelp(t *testing.T) {
	code, out, _ := clienttest.Run(t, "help")
	require.Equal(t, 0, code)
	require.Regexp(t, `(?m)^  feerie +Contes de Fées: declare, act`, out)
	for _, args := range [][]string{{"help", "feerie"}, {"feerie", "-h"}, {"feerie", "help"}} {
		code, out, errOut := clienttest.Run(t, args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut)
		for _, sub := range []string{"declare", "act", "change", "renounce", "gesture", "object", "advance", "impersonal", "surprise", "unseen", "helpless", "rule"} {
			require.Regexp(t, `(?m)^  `+sub+` +\S`, out, args)
		}
	}
	for _, args := range [][]string{{"help", "feerie", "act"}, {"feerie", "help", "act"}, {"feerie", "act", "-h"}} {
		code, out, _ := clienttest.Run(t, args...)
		require.Equal(t, 0, code, args)
		require.Contains(t, out, "usage: fray feerie act ENCOUNTER COMBATANT [intent flags]", args)
		for _, flag := range []string{"-tactic-values", "-strike", "-lighting", "-essence", "-angles", "-undefended"} {
			require.Contains(t, out, flag, args)
		}
	}
}

// `create --system feerie` takes the bare Contes de Fées options.
func TestCreateFeerieWithOptions(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	opts := filepath.Join(t.TempDir(), "house.yaml")
	require.NoError(t, os.WriteFile(opts, []byte("roll: 2d10-11\nfumble_margin: 8\n"), 0o600))
	code, out, errOut := clienttest.Run(t, "create", "--name", "Clairière", "--system", "feerie", "--options", opts, "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out)
	req := f.Requests()[0].Req.(*encounterv1.CreateEncounterRequest)
	require.Equal(t, "feerie", req.GetEncounter().GetRuleSystem())
	require.Equal(t, "2d10-11", req.GetEncounter().GetOptions().GetFeerie().GetRoll())
	require.Equal(t, int32(8), req.GetEncounter().GetOptions().GetFeerie().GetFumbleMargin())

	wrapped := filepath.Join(t.TempDir(), "wrapped.yaml")
	require.NoError(t, os.WriteFile(wrapped, []byte("feerie: {essence_spend_cap: 3}\n"), 0o600))
	o, err := client.LoadOptions(wrapped, "feerie")
	require.NoError(t, err)
	require.Equal(t, int32(3), o.GetFeerie().GetEssenceSpendCap())
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("fumble_margin: often\n"), 0o600))
	_, err = client.LoadOptions(bad, "feerie")
	require.ErrorContains(t, err, "bad.yaml: field fumble_margin")
}

// The example sheets are valid Contes de Fées combatants that can join one encounter, and
// give the combat values and tactic caps of FEE-T01 and FEE-T02.
func TestFeerieExampleSheets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(clienttest.Sheets, "feerie", "*.yaml"))
	require.NoError(t, err)
	require.Len(t, files, 5) // farfadet.yaml: the README's, quick enough to act first
	st := &encounterv1.EncounterState{}
	seen := map[string]bool{}
	for _, f := range files {
		c, err := client.LoadCombatant(f)
		require.NoError(t, err, f)
		require.NoError(t, feerie.New(1).CheckCombatant(st, c), f)
		require.False(t, seen[c.GetId()], "duplicate id %s", c.GetId())
		seen[c.GetId()] = true
		st.Combatants = append(st.Combatants, c)
	}

	// FEE-T01: the Wichtln's combat values in a physical conflict.
	w := clienttest.MustSheet(t, "feerie/wichtln.yaml").GetFeerie()
	v, err := feerie.New(1).ComputeValues(w, &feeriev1.Intent{Kind: kindMelee, Physical: true, Applied: &feeriev1.Applied{
		Attack: []string{"marteau"}, Defense: []string{"marteau"}, Damage: []string{"force surnaturelle"}, Soak: []string{"tablier de cuir"}}})
	require.NoError(t, err)
	require.Equal(t, []int32{15, 23, 25, 12, 15}, []int32{v.Initiative.Sum(), v.Attack.Sum(), v.Defense.Sum(), v.Damage.Sum(), v.Soak.Sum()})
	v, err = feerie.New(1).ComputeValues(w, &feeriev1.Intent{Kind: kindRanged, Physical: true, Applied: &feeriev1.Applied{Damage: []string{"voix tonnante"}}})
	require.NoError(t, err)
	require.Equal(t, []int32{15, 7}, []int32{v.Attack.Sum(), v.Damage.Sum()})

	// FEE-T02: the Redcap's cap of 7.
	r := clienttest.MustSheet(t, "feerie/redcap.yaml").GetFeerie()
	in := &feeriev1.Intent{Kind: kindMelee, TargetId: "rubezahl", Applied: &feeriev1.Applied{Attack: []string{"hache", "massacre"}},
		Tactic: &feeriev1.Tactic{Initiative: -2, Attack: 7, Defense: -5}}
	require.Equal(t, int32(7), feerie.Cap(r, in))
	require.NoError(t, feerie.CheckTactic(r, in, "Redcap"))
	in.Tactic = &feeriev1.Tactic{Initiative: -3, Attack: 8, Defense: -5}
	require.Error(t, feerie.CheckTactic(r, in, "Redcap"))

	// FEE-T04: Rübezahl's Vigilance 20 against the Serpent's 17.
	require.Equal(t, int32(20), clienttest.MustSheet(t, "feerie/rubezahl.yaml").GetFeerie().GetVigilance())
	require.Equal(t, int32(17), clienttest.MustSheet(t, "feerie/serpent.yaml").GetFeerie().GetVigilance())
}

// The state of a Contes de Fées encounter: Essence, Initiative, acting rank, activities,
// penalties and conditions.
func TestFeerieState(t *testing.T) {
	clienttest.ClearEnv(t)
	st := declaredState()
	st.Name, st.GameMaster, st.Sequence, st.RulesVersion = "Clairière", "gm", 30, 1
	st.Status = encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE
	st.Combatants = []*encounterv1.Combatant{clienttest.MustSheet(t, "feerie/rubezahl.yaml"), clienttest.MustSheet(t, "feerie/serpent.yaml"), clienttest.MustSheet(t, "feerie/wichtln.yaml")}
	fs := st.GetFeerie()
	rb := fs.Combatants["rubezahl"]
	rb.Initiative, rb.ActingRank, rb.CanAct, rb.Activities, rb.LastRank = 15, 15, true, 1, 17
	rb.Penalties = []*feeriev1.Penalty{{FromRank: 17, Rolls: 2, Defense: 2, Reason: "activity"}}
	rb.NextAction, rb.ThisAction, rb.Relentless, rb.RelentlessBonus = 4, 4, true, 2
	rb.IntimidationBonuses = map[string]int32{"serpent": 3, "wichtln": 2}
	rb.EngagedBy, rb.Aggressors = []string{"serpent"}, []string{"serpent", "wichtln"}
	fs.Combatants["serpent"] = &feeriev1.CombatantState{Essence: 27, Initiative: 9, ActingRank: 9, CanAct: true, Prone: true, Disarmed: true,
		SurprisedActions: 1, Conditions: []*feeriev1.Condition{
			{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE, By: "rubezahl", Malus: 6, FreeAgainst: 16},
			{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, By: "rubezahl", Malus: 3},
			{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, By: "rubezahl", Malus: 8},
			{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE, By: "rubezahl", Ranks: 5},
		}}
	fs.Combatants["wichtln"] = &feeriev1.CombatantState{Essence: 0, Initiative: -3}
	fs.Queue = []*feeriev1.Queued{{CombatantId: "rubezahl", Rank: 9, Act: &feeriev1.Act{Intent: fs.Combatants["rubezahl"].GetDeclared()}}}
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	t.Logf("fray state:\n%s", out)
	lines := strings.Split(out, "\n")
	require.Equal(t, "Clairière (enc-1): active, feerie v1, GM gm, at event #30", lines[0])
	require.Equal(t, "Action 1, countdown at rank 9 (from 17)", lines[1])
	require.Regexp(t, `^  ID\s+NAME\s+SIDE\s+CONTROLLER\s+ESSENCE\s+INIT\s+RANK\s+ACTS\s+OTHER$`, lines[2])
	require.Regexp(t, `^  rubezahl\s+Rübezahl\s+pcs\s+rita\s+40/40\s+15\s+15\s+1 \(rank 17\)\s+`+
		`relentless: next Damage \+2, Defense −8; next intimidation \+3 against Serpent, \+2 against Wichtln; −4 on this Action \(FEE-062, FEE-073\); `+
		`−2 rolls, −2 Defense from rank 17 \(activity\); −4 on the next Action; watches Serpent and Wichtln \(FEE-175\); engaged by Serpent; `+
		`declared melee attack on Serpent with stun, bâton on Attack and Defense, tactic Attaque brutale −2/\+4/−2$`, lines[3])
	require.Regexp(t, `^  serpent\s+Serpent\s+foes\s+gm\s+27/40\s+9\s+9\s+0\s+surprised \(1 Action\); down: −4 to its activities until it gets up; disarmed; `+
		`entangled by Rübezahl: −6 to its activities, frees itself against 16; stunned: −3 to its activities; `+
		`kept at bay by Rübezahl: −8 Attack against it; an organ crippled for 5 ranks$`, lines[4])
	require.Regexp(t, `^  wichtln\s+Wichtln\s+foes\s+gm\s+0/30\s+−3\s+-\s+0\s+OUT \(0 Essence\)$`, lines[5])
	require.Equal(t, "To resolve at rank 9: Rübezahl's melee attack on Serpent", lines[6])
	require.Equal(t, "Rank 9 is the Initiative of serpent: fray feerie act enc-1 COMBATANT", lines[7])
	require.Equal(t, "The GM resolves rank 9 and goes on: fray feerie advance enc-1", lines[8])

	// Ruled helpless (FEE-022), the Serpent is not waited for at its rank.
	fs.Combatants["serpent"].Helpless, fs.Combatants["serpent"].HelplessReason = true, "asleep"
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+gm\s+27/40\s+9\s+9\s+0\s+helpless \(asleep\): Defense 0, no activity; surprised`, out)
	require.NotContains(t, out, "Rank 9 is the Initiative of serpent")

	// Rank 0, then the declarations of the next Action.
	fs.Rank, fs.Queue = 0, nil
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Action 1, rank 0: the impersonal events, then the next Action\n")
	require.Contains(t, out, "The GM may make impersonal events happen (fray feerie impersonal enc-1 TARGET LOSS DESCRIPTION...), then starts Action 2: fray feerie advance enc-1\n")
	fs.Action, fs.Step = 2, feeriev1.Step_STEP_DECLARING
	for _, cs := range fs.Combatants {
		cs.HasDeclared, cs.Declared, cs.Helpless = false, nil, false
	}
	fs.Combatants["rubezahl"].HasDeclared = true
	fs.Combatants["rubezahl"].Declared = &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Action 2, step 1: declarations\n")
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+gm\s+27/40\s+-\s+-\s+-\s+surprised.*; to declare\n`, out)
	require.Contains(t, out, "Waiting for the declarations of serpent: fray feerie declare enc-1 COMBATANT --kind ...\n")
}
