package kacmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// kaSubmitted runs `fray ka ARGS` against a fake and returns the Ka action it submitted.
func kaSubmitted(t *testing.T, args ...string) *kav1.Action {
	t.Helper()
	req := clienttest.SubmittedTo(t, &clienttest.Fake{}, append([]string{"ka"}, args...)...)
	require.NotNil(t, req.GetCommand().GetKa(), args)
	return req.GetCommand().GetKa()
}

func TestKaAttackSendsTheAttack(t *testing.T) {
	clienttest.ClearEnv(t)
	// KA-T02: the shot at −2 for proximity.
	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{
		TargetId: "chien", Weapon: "pistolet", Modifier: -2}}},
		kaSubmitted(t, "attack", "enc-1", "joshua", "chien", "--weapon", "pistolet", "--modifier", "-2"))
	// KA-T04: the stun with the gun butt, +3; the flags after the arguments or between them.
	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{
		TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}}},
		kaSubmitted(t, "attack", "enc-1", "--stun", "joshua", "--weapon=crosse", "chien", "--modifier", "+3"))
	// KA-033: a burst on one target, and on three (--also implies the burst).
	clienttest.RequireProtoEqual(t, &kav1.Attack{TargetId: "a", Weapon: "pistolet-mitrailleur", Burst: true},
		kaSubmitted(t, "attack", "enc-1", "gunner", "a", "--weapon", "pistolet-mitrailleur", "--burst").GetAttack())
	clienttest.RequireProtoEqual(t, &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b", "c", "d"}, Burst: true},
		kaSubmitted(t, "attack", "enc-1", "gunner", "a", "--also", "b,c", "--also", "d").GetAttack())
	// No weapon: the combatant's only one.
	clienttest.RequireProtoEqual(t, &kav1.Attack{TargetId: "joshua"}, kaSubmitted(t, "attack", "enc-1", "chien", "joshua").GetAttack())
}

func TestKaReactDisarmTerrorPassSendTheActions(t *testing.T) {
	clienttest.ClearEnv(t)
	for answer, want := range map[string]*kav1.React{
		"dodge": {Defend: true}, "Defend": {Defend: true},
		"take": {}, "take-it": {}, "none": {},
		"back": {AttackBack: true}, "attack_back": {AttackBack: true},
		"parry --skill Bagarre": {Defend: true, Skill: "Bagarre"},
	} {
		args := append([]string{"react", "enc-1", "chien"}, strings.Fields(answer)...)
		clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "chien", Kind: &kav1.Action_React{React: want}},
			kaSubmitted(t, append(args, "--as", "dog-keeper")...))
	}
	// KA-008: attacking back with a weapon.
	clienttest.RequireProtoEqual(t, &kav1.React{AttackBack: true, Weapon: "crocs"}, kaSubmitted(t, "react", "enc-1", "chien", "back", "--weapon", "crocs").GetReact())

	// KA-032: the disarm, with the target's weapon chosen (Disarm.weapon) and a modifier.
	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Disarm{Disarm: &kav1.Disarm{
		TargetId: "gunner", Skill: "Bagarre", Weapon: "pistolet-mitrailleur", Modifier: -1}}},
		kaSubmitted(t, "disarm", "enc-1", "joshua", "gunner", "--skill", "Bagarre", "--weapon", "pistolet-mitrailleur", "--modifier", "-1"))
	clienttest.RequireProtoEqual(t, &kav1.Disarm{TargetId: "chien", Skill: "Arme à feu"}, kaSubmitted(t, "disarm", "enc-1", "joshua", "chien", "--skill", "Arme à feu").GetDisarm())

	// KA-T05: the Maître de Ka's terror draw at −3.
	req := clienttest.SubmittedTo(t, &clienttest.Fake{}, "ka", "terror", "enc-1", "joshua", "--modifier", "-3", "--as", "gm", "--expected-sequence", "16", "--command-id", "t-1")
	require.Equal(t, uint64(16), req.GetExpectedSequence())
	require.Equal(t, "t-1", req.GetCommandId())
	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: -3}}}, req.GetCommand().GetKa())

	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}}, kaSubmitted(t, "pass", "enc-1", "joshua"))

	// KA-032: picking up the weapon lost, named or not.
	clienttest.RequireProtoEqual(t, &kav1.Action{CombatantId: "gunner", Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{Weapon: "pistolet-mitrailleur"}}},
		kaSubmitted(t, "pickup", "enc-1", "gunner", "pistolet-mitrailleur"))
	clienttest.RequireProtoEqual(t, &kav1.PickUp{}, kaSubmitted(t, "pickup", "enc-1", "gunner").GetPickUp())
}

// The principal given with --as is sent, and the events the server answers are described.
func TestKaPrintsTheOutcome(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{State: kaPendingState(t), SubmitEvents: []*encounterv1.Event{clienttest.KaEv(7, &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{
		AttackerId: "joshua", Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, PendingIds: []string{"chien"},
	}}})}}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "ka", "attack", "enc-1", "joshua", "chien", "--weapon", "pistolet", "--modifier", "-2", "--as", "player", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, []string{"dev/player"}, f.Requests()[0].Principal)
	require.Equal(t, "#7 Joshua declares an attack on le chien with pistolet, −2 situation; "+
		"le chien announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)\n"+
		"waiting for chien (dog-keeper): joshua declares an attack on le chien: defend (one action) or not, before any card is drawn\n"+
		"  fray ka react enc-1 chien dodge|take --as dog-keeper\n", out)
}

func TestKaUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"ka"}, []string{"fray ka: missing subcommand", "usage: fray ka SUBCOMMAND", "attack", "terror"}},
		{[]string{"ka", "dodge"}, []string{`fray ka: unknown subcommand "dodge"`, "Subcommands:"}},
		{[]string{"ka", "attack", "enc-1", "joshua"}, []string{"fray ka attack: missing arguments: 2 given, 3 needed",
			"usage: fray ka attack ENCOUNTER COMBATANT TARGET", "Run 'fray help ka attack' for the flags."}},
		{[]string{"ka", "attack", "e", "joshua", "chien", "extra"}, []string{"fray ka attack: too many arguments: extra"}},
		{[]string{"ka", "attack", "e", "joshua", "joshua"}, []string{"joshua cannot attack itself"}},
		{[]string{"ka", "attack", "e", "gunner", "a", "--also", "b,a"}, []string{"--also a: each target once, and not gunner itself"}},
		{[]string{"ka", "attack", "e", "gunner", "a", "--also", "gunner"}, []string{"--also gunner: each target once"}},
		{[]string{"ka", "attack", "e", "gunner", "a", "--also", "b,c,d,e,f"}, []string{"a burst reaches at most 5 targets, not 6 (KA-033)"}},
		{[]string{"ka", "attack", "e", "joshua", "chien", "--modifier", "two"}, []string{`invalid argument "two" for "--modifier" flag`}},
		{[]string{"ka", "react", "e", "chien"}, []string{"fray ka react: missing arguments: 2 given, 3 needed"}},
		{[]string{"ka", "react", "e", "chien", "block"}, []string{`answer "block": dodge, parry, take or back`}},
		{[]string{"ka", "react", "e", "chien", "parry"}, []string{"name the skill COMBATANT parries with: --skill Bagarre (KA-013)"}},
		{[]string{"ka", "react", "e", "chien", "dodge", "--skill", "Bagarre"}, []string{"--skill goes with parry: a dodge is Esquive (KA-013)"}},
		{[]string{"ka", "react", "e", "chien", "dodge", "--weapon", "crocs"}, []string{"--weapon goes with back"}},
		{[]string{"ka", "pickup", "e"}, []string{"fray ka pickup: missing arguments: 1 given, 2 needed"}},
		{[]string{"ka", "pickup", "e", "gunner", "smg", "extra"}, []string{"fray ka pickup: too many arguments: extra"}},
		{[]string{"ka", "disarm", "e", "joshua", "chien"}, []string{"fray ka disarm: name the skill COMBATANT disarms with: --skill Bagarre (KA-032)"}},
		{[]string{"ka", "disarm", "e", "joshua", "joshua", "--skill", "Bagarre"}, []string{"joshua cannot disarm itself"}},
		{[]string{"ka", "terror", "e"}, []string{"fray ka terror: missing arguments: 1 given, 2 needed"}},
		{[]string{"ka", "terror", "e", "joshua", "-3"}, []string{"fray ka terror: too many arguments: -3"}},
		{[]string{"ka", "pass", "e", "joshua", "chien"}, []string{"fray ka pass: too many arguments: chien"}},
	} {
		clienttest.RequireUsageError(t, tc.args, tc.want...)
	}
}

func TestKaHelp(t *testing.T) {
	code, out, _ := clienttest.Run(t, "help")
	require.Equal(t, 0, code)
	require.Regexp(t, `(?m)^  ka +Ka: attack \(stun, burst\), react, disarm, pickup, pass; terror \(GM\)$`, out)
	for _, args := range [][]string{{"help", "ka"}, {"ka", "-h"}, {"ka", "help"}} {
		code, out, errOut := clienttest.Run(t, args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut)
		for _, sub := range []string{"attack", "react", "disarm", "pickup", "terror", "pass"} {
			require.Regexp(t, `(?m)^  `+sub+` +\S`, out, args)
		}
	}
	for _, args := range [][]string{{"help", "ka", "attack"}, {"ka", "help", "attack"}, {"ka", "attack", "-h"}} {
		code, out, _ := clienttest.Run(t, args...)
		require.Equal(t, 0, code, args)
		require.Contains(t, out, "usage: fray ka attack ENCOUNTER COMBATANT TARGET [--weapon W] [--stun] [--burst] [--also T,...] [--modifier N]", args)
		for _, flag := range []string{"-weapon", "-stun", "-burst", "-also", "-modifier", "-expected-sequence"} {
			require.Contains(t, out, flag, args)
		}
	}
	code, out, _ = clienttest.Run(t, "help", "ka", "disarm")
	require.Equal(t, 0, code)
	require.Contains(t, out, "TARGET's weapon to knock away")
}

// `create --system ka` and `--system d20seg` take their bare options.
func TestCreateKaAndD20SegWithOptions(t *testing.T) {
	clienttest.ClearEnv(t)
	for system, yaml := range map[string]string{"ka": "reshuffle: every_draw\nka_table: [4, 8]\nparry: true\n", "d20seg": "carry_over: true\napprehension_scale: [1, 4, 8]\n"} {
		f := &clienttest.Fake{}
		addr := clienttest.Serve(t, f)
		opts := filepath.Join(t.TempDir(), "house.yaml")
		require.NoError(t, os.WriteFile(opts, []byte(yaml), 0o600))
		code, out, errOut := clienttest.Run(t, "create", "--name", "Ici", "--system", system, "--options", opts, "--addr", addr)
		require.Equal(t, 0, code, errOut)
		require.Equal(t, "enc-1\n", out)
		req := f.Requests()[0].Req.(*encounterv1.CreateEncounterRequest)
		require.Equal(t, system, req.GetEncounter().GetRuleSystem())
		o := req.GetEncounter().GetOptions()
		if system == "ka" {
			require.Equal(t, "every_draw", o.GetKa().GetReshuffle())
			require.Equal(t, []int32{4, 8}, o.GetKa().GetKaTable())
			require.True(t, o.GetKa().GetParry())
		} else {
			require.True(t, o.GetD20Seg().GetCarryOver())
			require.Equal(t, []int32{1, 4, 8}, o.GetD20Seg().GetApprehensionScale())
		}
	}
	wrapped := filepath.Join(t.TempDir(), "wrapped.yaml")
	require.NoError(t, os.WriteFile(wrapped, []byte("d20seg: {down_at: -10}\n"), 0o600))
	o, err := client.LoadOptions(wrapped, "d20seg")
	require.NoError(t, err)
	require.Equal(t, int32(-10), o.GetD20Seg().GetDownAt())
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("ka_table: five\n"), 0o600))
	_, err = client.LoadOptions(bad, "ka")
	require.ErrorContains(t, err, "bad.yaml: field ka_table")
}

// The example sheets are the worked example of ka.md: valid Ka combatants of one encounter,
// with the numbers of KA-T01…KA-T05.
func TestKaExampleSheets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(clienttest.Sheets, "ka", "*.yaml"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	st := &encounterv1.EncounterState{}
	for _, f := range files {
		c, err := client.LoadCombatant(f)
		require.NoError(t, err, f)
		require.NoError(t, ka.New(ka.Latest).CheckCombatant(st, c), f)
		st.Combatants = append(st.Combatants, c)
	}
	joshua, dog := clienttest.MustSheet(t, "ka/joshua.yaml").GetKa(), clienttest.MustSheet(t, "ka/chien.yaml").GetKa()
	// KA-T01: Animalité 4 against 3; 2 actions a round against 1.
	require.Equal(t, []int32{4, 3}, []int32{joshua.GetSpheres()[ka.Animalite], dog.GetSpheres()[ka.Animalite]})
	require.Equal(t, []int32{2, 1}, []int32{ka.LowestSphere(joshua), ka.LowestSphere(dog)})
	require.True(t, joshua.GetPlayerCharacter())
	// KA-T02: Humanité 3 + Arme à feu 4; the dog's Humanité 1 + Esquive 4.
	require.Equal(t, int32(7), joshua.GetSpheres()[ka.Humanite]+joshua.GetSkills()["Arme à feu"])
	require.Equal(t, int32(5), dog.GetSpheres()[ka.Humanite]+dog.GetSkills()["Esquive"])
	// KA-T03: the handgun's +8; the dog's soak against it, 1 + 3 = 4; its 2 Ka dice.
	require.Equal(t, "pistolet", joshua.GetWeapons()[0].GetName())
	require.Equal(t, int32(8), joshua.GetWeapons()[0].GetDamage())
	require.Equal(t, int32(4), dog.GetSpheres()[ka.Humanite]+dog.GetEncaissement()+dog.GetProtection())
	require.Equal(t, int32(2), dog.GetKaDice())
	// KA-T04: the gun butt, Animalité 4 + Bagarre 2, +3 damage; the dog's seuil (1 + 3) × 3.
	require.Equal(t, []any{"crosse", ka.Animalite, "Bagarre", int32(3)}, []any{joshua.GetWeapons()[1].GetName(), joshua.GetWeapons()[1].GetSphere(),
		joshua.GetWeapons()[1].GetSkill(), joshua.GetWeapons()[1].GetDamage()})
	require.Equal(t, int32(12), ka.New(ka.Latest).Seuil(dog))
	// KA-T05: Animalité 4 + encaissement 3; Animalité × 3 = 12.
	require.Equal(t, int32(3), joshua.GetEncaissement())
}

// kaPendingState: Joshua has shot at the dog, who must answer (KA-T02).
func kaPendingState(t *testing.T) *encounterv1.EncounterState {
	t.Helper()
	return &encounterv1.EncounterState{EncounterId: "enc-1", Name: "Le cul-de-sac", RuleSystem: "ka", RulesVersion: 1, GameMaster: "gm", Sequence: 7,
		Status:     encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE,
		Combatants: []*encounterv1.Combatant{clienttest.MustSheet(t, "ka/joshua.yaml"), clienttest.MustSheet(t, "ka/chien.yaml")},
		Pending: []*encounterv1.PendingReaction{{CombatantId: "chien", Controller: "dog-keeper",
			Prompt: "joshua declares an attack on le chien: defend (one action) or not, before any card is drawn"}},
		System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{Round: 1, PassNumber: 1,
			DeckCount: 56,
			Combatants: map[string]*kav1.CombatantState{
				"joshua": {KaDice: 5, RealityPoints: 15, ActionsLeft: 1, ActionsTaken: 1, ActedThisPass: true},
				"chien":  {KaDice: 2, RealityPoints: 10, ActionsLeft: 1},
			},
			Pending: &kav1.Pending{AttackerId: "joshua", DefenderId: "chien", Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}},
		}}}
}

// The state of a Ka encounter: the round and pass, the deck and its discard, each
// combatant's Ka dice, points de réalité, actions and conditions, the attack waiting.
func TestKaState(t *testing.T) {
	clienttest.ClearEnv(t)
	st := kaPendingState(t)
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	t.Logf("fray state:\n%s", out)
	lines := strings.Split(out, "\n")
	require.Equal(t, "Le cul-de-sac (enc-1): active, ka v1, GM gm, at event #7", lines[0])
	require.Equal(t, "Round 1, pass 1", lines[1])
	require.Equal(t, "Deck: 56 cards left, 0 in the discard (KA-003)", lines[2])
	require.Regexp(t, `^  ID\s+NAME\s+SIDE\s+CONTROLLER\s+ANIMALITÉ\s+KA\s+RÉALITÉ\s+ACTIONS\s+OTHER$`, lines[3])
	require.Regexp(t, `^  joshua\s+Joshua\s+pcs\s+player\s+4\s+5/5\s+15/15\s+1 left, 1 taken\s+acted this pass, player character, seuil 15$`, lines[4])
	require.Regexp(t, `^  chien\s+le chien\s+foes\s+dog-keeper\s+3\s+2/2\s+10/10\s+1 left, 0 taken\s+seuil 12$`, lines[5])
	require.Equal(t, "Attack declared, waiting for an answer before any card is drawn: Joshua on le chien (KA-020)", lines[6])
	require.Equal(t, "waiting for chien (dog-keeper): joshua declares an attack on le chien: defend (one action) or not, before any card is drawn", lines[7])
	require.Equal(t, "  fray ka react enc-1 chien dodge|take --as dog-keeper", lines[8])

	// A burst with targets still to answer; tied Animalité: attacking back is offered; every
	// condition.
	ks := st.GetKa()
	st.Combatants[1].GetKa().Spheres[ka.Animalite] = 4
	ks.Pending.QueuedIds = []string{"joshua"}
	ks.Pending.Answers = []*kav1.DefenceAnnounced{{DefenderId: "gunner", React: &kav1.React{Defend: true}}}
	ks.Combatants["joshua"] = &kav1.CombatantState{KaDice: 0, RealityPoints: 0, Unconscious: true, Dying: true, Abysse: true, WeaponsLost: []string{"pistolet", "crosse"}, Passed: true, StillActs: true}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Regexp(t, `joshua\s+Joshua\s+pcs\s+player\s+4\s+0/5\s+0/15\s+0 left, 0 taken\s+DYING \(KA-025\), UNCONSCIOUS, Abysse \(KA-034\), disarmed of pistolet, crosse \(KA-032\), passed, still acts this pass \(KA-014\), player character, seuil 15\n`, out)
	require.Contains(t, out, "Attack declared, waiting for an answer before any card is drawn: Joshua on le chien (KA-020); already answered: gunner will dodge (one action, KA-013, KA-020); then Joshua (KA-033)\n")
	require.Contains(t, out, "  fray ka react enc-1 chien dodge|take|back --as dog-keeper\n")
	// KA-013: where the GM allows parries, and the attack is no stun, a parry is offered.
	st.Options = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{Parry: true}}}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "  fray ka react enc-1 chien dodge|parry|take|back --as dog-keeper\n")
	ks.Pending.Attack.Stun = true
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "  fray ka react enc-1 chien dodge|take|back --as dog-keeper\n")
	st.Options = nil

	// No attack waiting: who acts next; equal ranks act at the same time (KA-014).
	ks.Pending, st.Pending = nil, nil
	ks.Combatants["joshua"] = &kav1.CombatantState{KaDice: 5, RealityPoints: 15, ActionsLeft: 2}
	st.Combatants[0].GetKa().PlayerCharacter = false
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Pass 1: Joshua and le chien act next, at the same time (KA-014): fray ka attack|disarm|pass enc-1 COMBATANT ...\n")
	require.NotContains(t, out, "waiting for")
	// KA-032: one who lost a weapon to a disarm may pick it up: the hint offers pickup.
	ks.Combatants["joshua"].WeaponsLost = []string{"pistolet"}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Pass 1: Joshua and le chien act next, at the same time (KA-014): fray ka attack|disarm|pickup|pass enc-1 COMBATANT ...\n")
	st.Combatants[1].GetKa().Spheres[ka.Animalite] = 3
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Pass 1: Joshua acts next: fray ka attack|disarm|pickup|pass enc-1 joshua ...\n")
	ks.Combatants["joshua"].WeaponsLost = nil
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Pass 1: Joshua acts next: fray ka attack|disarm|pass enc-1 joshua ...\n")

	// Before the start.
	st.Status, ks.Round, ks.DeckCount, ks.Discard = encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP, 0, 0, nil
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "\nNot started\n")
	require.NotContains(t, out, "Deck:")
	require.Regexp(t, `joshua\s+Joshua\s+pcs\s+player\s+4\s+5/5\s+15/15\s+-\s+seuil 15\n`, out)
}
