package losscmd_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/losscmd"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

const (
	extraDamage = lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	twoWeapons  = lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS
)

// submitted runs the CLI against a fake and returns the one Loss action it submitted.
func submitted(t *testing.T, args ...string) (*lossv1.Action, *encounterv1.SubmitRequest) {
	t.Helper()
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	code, _, errOut := clienttest.Run(t, append([]string{args[0], "--addr", addr}, args[1:]...)...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	calls := f.Requests()
	require.Len(t, calls, 1, args)
	require.Equal(t, "Submit", calls[0].Method)
	req := calls[0].Req.(*encounterv1.SubmitRequest)
	require.Equal(t, "enc-1", req.GetEncounterId())
	require.NotNil(t, req.GetCommand().GetLoss(), args)
	return req.GetCommand().GetLoss(), req
}

func TestAttackSendsEffectsTargetsAndSituation(t *testing.T) {
	clienttest.ClearEnv(t)
	a, req := submitted(t, "attack", "enc-1", "diego", "ruffian", "--weapon", "épée",
		"--effect", "two-weapons", "--second-weapon", "dague", "--also", "griffon-1", "--exploits", "1",
		"--effect", "FEINT", "--with-damage", "--darkness", "--higher", "--off-hand", "--behind-obstacle",
		"--outnumbered", "--from-behind", "--surprised", "--lower=false", "--cover", "partial", "--distance", "15",
		"--moving", "--aimed-long", "--fursa", "1", "--free-raises", "2", "--unseen", "--expected-sequence", "9")
	require.Equal(t, uint64(9), req.GetExpectedSequence())
	clienttest.RequireProtoEqual(t, &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "ruffian", Weapon: "épée", MoreTargetIds: []string{"griffon-1"}, SecondWeapon: "dague",
		// The --effect ones in order, then --exploits' extra damage.
		Exploits:   []lossv1.ExploitEffect{twoWeapons, lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT, extraDamage},
		WithDamage: true, Unseen: true,
		Spend: &lossv1.Spend{Fursa: 1, FreeRaises: 2},
		Situation: &lossv1.Situation{Darkness: true, Higher: true, OffHand: true, BehindObstacle: true, Outnumbered: true,
			FromBehind: true, Surprised: true, Cover: lossv1.Cover_COVER_PARTIAL, Distance: 15, Moving: true, AimedLong: true},
	}}}, a)

	// LOS-035: a trip has no automatic effect; the GM gives the fall as situations.
	a, _ = submitted(t, "attack", "enc-1", "ruffian", "diego", "--prone")
	clienttest.RequireProtoEqual(t, &lossv1.Situation{Prone: true}, a.GetAttack().GetSituation())
	a, _ = submitted(t, "attack", "enc-1", "diego", "ruffian", "--target-prone", "--distance", "15")
	clienttest.RequireProtoEqual(t, &lossv1.Situation{TargetProne: true, Distance: 15}, a.GetAttack().GetSituation())
	r, _ := submitted(t, "react", "enc-1", "ruffian", "dodge", "--prone")
	clienttest.RequireProtoEqual(t, &lossv1.Situation{Prone: true}, r.GetReact().GetSituation())

	// Several --also, and a comma list.
	a, _ = submitted(t, "attack", "enc-1", "canahan", "griffon-1", "--effect", "storm-of-blades", "--also", "griffon-2,griffon-3", "--also", "ruffian")
	require.Equal(t, []string{"griffon-2", "griffon-3", "ruffian"}, a.GetAttack().GetMoreTargetIds())
	require.Nil(t, a.GetAttack().GetSituation(), "no situation flag: no Situation")
	require.Nil(t, a.GetAttack().GetSpend())

	// A grab or a trip, with Athletics and no weapon.
	a, _ = submitted(t, "attack", "enc-1", "diego", "ruffian", "--grab", "--from-behind")
	clienttest.RequireProtoEqual(t, &lossv1.Attack{TargetId: "ruffian", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB,
		Situation: &lossv1.Situation{FromBehind: true}}, a.GetAttack())
	a, _ = submitted(t, "attack", "enc-1", "diego", "ruffian", "--trip")
	require.Equal(t, lossv1.Manoeuvre_MANOEUVRE_TRIP, a.GetAttack().GetManoeuvre())

	// Every attack effect by its name, costs adding up to at most 5.
	for _, x := range losscmd.ExploitEffects {
		if !x.Attack {
			continue
		}
		args := []string{"attack", "enc-1", "diego", "ruffian", "--effect", x.Name}
		if x.Effect == twoWeapons {
			args = append(args, "--second-weapon", "dague")
		}
		a, _ = submitted(t, args...)
		require.Equal(t, []lossv1.ExploitEffect{x.Effect}, a.GetAttack().GetExploits(), x.Name)
	}
}

func TestReactSendsEffectsAndSituation(t *testing.T) {
	clienttest.ClearEnv(t)
	a, _ := submitted(t, "react", "enc-1", "ruffian", "parry", "--effect", "counter-attack", "--counter-weapon", "dague",
		"--effect", "take-advantage", "--with-weapon", "--darkness", "--free-raises", "1", "--as", "gm")
	clienttest.RequireProtoEqual(t, &lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_PARRY,
		Effects:  []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK, lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE},
		// The effects' Exploits make up the Exploits declared.
		Exploits: 2, CounterWeapon: "dague", WithWeapon: true,
		Situation: &lossv1.Situation{Darkness: true},
		Spend:     &lossv1.Spend{FreeRaises: 1},
	}}}, a)

	a, _ = submitted(t, "react", "enc-1", "canahan", "dodge", "--effect", "protect", "--ally", "diego", "--cover-at-hand", "--exploits", "3")
	clienttest.RequireProtoEqual(t, &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_DODGE, Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT},
		Exploits: 3, AllyId: "diego", Situation: &lossv1.Situation{CoverAtHand: true},
	}, a.GetReact())

	for _, x := range losscmd.ExploitEffects {
		if x.Defence {
			args := []string{"react", "enc-1", "ruffian", "dodge", "--effect", x.Name}
			if x.Name == "protect" {
				args = append(args, "--ally", "griffon-1")
			}
			a, _ = submitted(t, args...)
			require.Equal(t, []lossv1.ExploitEffect{x.Effect}, a.GetReact().GetEffects(), x.Name)
			require.Equal(t, x.Cost, a.GetReact().GetExploits(), x.Name)
		}
	}
}

func TestNewSubcommandsSendTheirActions(t *testing.T) {
	clienttest.ClearEnv(t)
	simple := func(k lossv1.SimpleKind, desc string) *lossv1.Action {
		return &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: k, Description: desc}}}
	}
	dying := func(who string, d *lossv1.Dying) *lossv1.Action {
		return &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Dying{Dying: d}}
	}
	chase := func(p *lossv1.PursuitAction) *lossv1.Action {
		return &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Pursuit{Pursuit: p}}
	}
	for _, tc := range []struct {
		args []string
		want *lossv1.Action
	}{
		{[]string{"declare", "enc-1", "canahan", "I", "charge", "the", "griffon"},
			&lossv1.Action{CombatantId: "canahan", Kind: &lossv1.Action_Declare{Declare: &lossv1.Declare{Intention: "I charge the griffon"}}}},
		{[]string{"declare", "enc-1", "canahan", "--", "-feint- then strike"},
			&lossv1.Action{CombatantId: "canahan", Kind: &lossv1.Action_Declare{Declare: &lossv1.Declare{Intention: "-feint- then strike"}}}},
		{[]string{"wait", "enc-1", "diego", "4"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: 4}}}},
		{[]string{"aim", "enc-1", "diego", "arbalète", "--points", "3"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: "arbalète", Points: 3}}}},
		{[]string{"aim", "enc-1", "diego", "arbalète"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: "arbalète", Points: 1}}}},
		{[]string{"aim", "enc-1", "diego", "arbalète", "--tour"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: "arbalète", WholeTour: true}}}},
		{[]string{"act", "enc-1", "diego", "speak", "--description", "Rends-toi !"}, simple(lossv1.SimpleKind_SIMPLE_KIND_SPEAK, "Rends-toi !")},
		{[]string{"act", "enc-1", "diego", "social"}, simple(lossv1.SimpleKind_SIMPLE_KIND_SOCIAL, "")},
		{[]string{"act", "enc-1", "diego", "pick-up", "--description", "the lantern"}, simple(lossv1.SimpleKind_SIMPLE_KIND_PICK_UP, "the lantern")},
		{[]string{"act", "enc-1", "diego", "move"}, simple(lossv1.SimpleKind_SIMPLE_KIND_MOVE, "")},
		{[]string{"act", "enc-1", "diego", "Stand-Up"}, simple(lossv1.SimpleKind_SIMPLE_KIND_STAND_UP, "")},
		{[]string{"act", "enc-1", "diego", "recover-weapon"}, simple(lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON, "")},
		{[]string{"disaster", "enc-1", "diego", "the", "blade", "snaps"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Disaster{Disaster: &lossv1.Disaster{Description: "the blade snaps"}}}},
		{[]string{"dying", "enc-1", "diego", "diego", "sacrifice", "--vertu", "courage"},
			dying("diego", &lossv1.Dying{TargetId: "diego", Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION, Vertu: "Courage"})},
		{[]string{"dying", "enc-1", "canahan", "diego", "care"},
			dying("canahan", &lossv1.Dying{TargetId: "diego", Choice: lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE})},
		{[]string{"dying", "enc-1", "ruffian", "diego", "finish"},
			dying("ruffian", &lossv1.Dying{TargetId: "diego", Choice: lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF})},
		{[]string{"pursuit", "enc-1", "--pursuers", "diego,canahan", "--pursued", "ruffian", "--distance", "3"},
			&lossv1.Action{Kind: &lossv1.Action_StartPursuit{StartPursuit: &lossv1.StartPursuit{
				PursuerIds: []string{"diego", "canahan"}, PursuedIds: []string{"ruffian"}, Distance: 3}}}},
		{[]string{"chase", "enc-1", "diego", "closer", "--exploits", "2", "--fursa", "1"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, Closer: true, Exploits: 2, Spend: &lossv1.Spend{Fursa: 1}})},
		{[]string{"chase", "enc-1", "diego", "farther"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE})},
		{[]string{"chase", "enc-1", "diego", "charge", "--target", "ruffian"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CHARGE, TargetId: "ruffian"})},
		{[]string{"chase", "enc-1", "diego", "clothesline", "--target", "ruffian"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE, TargetId: "ruffian"})},
		{[]string{"chase", "enc-1", "diego", "tackle", "--target", "ruffian"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_TACKLE, TargetId: "ruffian"})},
		{[]string{"chase", "enc-1", "diego", "shoot-legs", "--target", "ruffian", "--weapon", "arbalète", "--inspiration", "Honneur"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, TargetId: "ruffian", Weapon: "arbalète",
				Spend: &lossv1.Spend{Inspiration: map[string]int32{"Honneur": 1}}})},
		{[]string{"chase", "enc-1", "diego", "zigzags", "--exploits", "1"},
			chase(&lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS, Exploits: 1})},
		{[]string{"grant", "enc-1", "diego", "2", "--reason", "the high ground"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 2, Reason: "the high ground"}}}},
		// A negative count is a number, not a flag, wherever it stands.
		{[]string{"grant", "enc-1", "diego", "-1"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: -1}}}},
		{[]string{"grant", "--reason", "lost", "enc-1", "diego", "-2", "--as", "gm"},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: -2, Reason: "lost"}}}},
	} {
		got, _ := submitted(t, tc.args...)
		require.True(t, proto.Equal(tc.want, got), "%v:\nwant %v\ngot  %v", tc.args, tc.want, got)
	}
}

func TestNewSubcommandsPrintTheEvents(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t)
	st.Pending = nil
	f := &clienttest.Fake{State: st, SubmitEvents: []*encounterv1.Event{
		clienttest.LossEv(7, &lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{CombatantId: "diego", FromPhase: 11, UntilPhase: 4, Discount: 7}}}),
	}}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "wait", "enc-1", "diego", "4", "--addr", addr, "--as", "david")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "#7 Diego waits from phase 11 to 4 (next action −7 PA, minimum 2)\n", out)
	require.Equal(t, []string{"dev/david"}, f.Requests()[0].Principal)
}

func TestAddWatchedJoinsAFightInProgress(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t) // active
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "add", "enc-1", filepath.Join(clienttest.Sheets, "canahan.yaml"), "--watched", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "added Canahan (canahan): player character, side pcs, controller florence (#1); joins the fight in progress after watching the last Tour: acts from the next Tour, +2 Initiative (LOS-039)\n", out)
	req := f.Requests()[0].Req.(*encounterv1.AddCombatantRequest)
	require.True(t, req.GetWatched())
	clienttest.RequireProtoEqual(t, clienttest.MustSheet(t, "canahan.yaml"), req.GetCombatant())

	code, _, errOut = clienttest.Run(t, "add", "enc-1", filepath.Join(clienttest.Sheets, "diego.yaml"), "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.False(t, f.Requests()[1].Req.(*encounterv1.AddCombatantRequest).GetWatched())
	require.False(t, f.Requests()[1].Req.(*encounterv1.AddCombatantRequest).GetCombatant().GetHidden())

	// --hidden: the GM's combatant is hidden from the moment it joins, never seen whole first.
	code, _, errOut = clienttest.Run(t, "add", "enc-1", filepath.Join(clienttest.Sheets, "ruffian.yaml"), "--hidden", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.True(t, f.Requests()[2].Req.(*encounterv1.AddCombatantRequest).GetCombatant().GetHidden())
}

// A pursuit action waiting for its target is answered by a dodge or nothing (LOS-102…LOS-106).
func TestPendingPursuitActionSuggestsADodge(t *testing.T) {
	clienttest.ClearEnv(t)
	st, _ := clienttest.Ruelle(t)
	st.GetLoss().Pending = &lossv1.PendingAttack{AttackerId: "diego", DefenderId: "ruffian", Difficulty: 20, Pursuit: lossv1.PursuitKind_PURSUIT_KIND_CHARGE}
	st.GetLoss().Pursuit = &lossv1.Pursuit{PursuerIds: []string{"diego"}, PursuedIds: []string{"ruffian"}, Distance: 2, Zigzag: 5, ZigzagBy: "ruffian"}
	st.Pending[0].Prompt = "pursuit: Diego makes a Charge on Le malfrat (dodge at 20, or take it)"
	st.GetLoss().GetCombatants()["ruffian"].Prone = true
	st.GetLoss().GetCombatants()["ruffian"].FreeRaises = 2
	st.GetLoss().GetCombatants()["diego"].AimBonus, st.GetLoss().GetCombatants()["diego"].AimWeapon = 3, "arbalète"
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Pursuit: Diego after Le malfrat, distance 2 (close); Le malfrat zigzags: pursuers +5 Difficulty\n")
	require.Contains(t, out, "waiting for ruffian (gm): pursuit: Diego makes a Charge on Le malfrat (dodge at 20, or take it)\n"+
		"  fray react enc-1 ruffian dodge|none --as gm\n")
	require.Regexp(t, `ruffian .* prone, 2 free raises`, out)
	require.Regexp(t, `diego .* aiming arbalète \+3`, out)
}

func TestNewSubcommandUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"attack", "e", "a", "b", "--effect", "counter-attack"}, []string{`unknown effect "counter-attack" for an attack`,
			"extra-damage (1), assaut (1), feint (1), take-advantage (1), aim-limb (1), two-weapons (2), moulinet (2), overthrow (2), aim-zone (2), disarm (3), aim-point (3), neutralise (4), storm-of-blades (4), kill-outright (5), ricochet (2), shoot-through (2), rain-of-projectiles (4)"}},
		{[]string{"attack", "e", "a", "b", "--effect", "bogus"}, []string{`unknown effect "bogus"`, "usage: fray attack"}},
		{[]string{"attack", "e", "a", "b", "--grab", "--trip"}, []string{"--grab and --trip: choose one"}},
		{[]string{"attack", "e", "a", "b", "--grab", "--exploits", "1"}, []string{"a grab or a trip takes no Exploits"}},
		{[]string{"attack", "e", "a", "b", "--trip", "--weapon", "épée"}, []string{"drop --weapon"}},
		{[]string{"attack", "e", "a", "b", "--effect", "kill-outright", "--exploits", "1"}, []string{"add up to 6; at most 5"}},
		{[]string{"attack", "e", "a", "b", "--second-weapon", "dague"}, []string{"--second-weapon goes with --effect two-weapons"}},
		{[]string{"attack", "e", "a", "b", "--effect", "two-weapons"}, []string{"--effect two-weapons needs --second-weapon"}},
		{[]string{"attack", "e", "a", "b", "--also", "c"}, []string{"--also names further targets of a multi-target effect"}},
		{[]string{"attack", "e", "a", "b", "--cover", "half"}, []string{`cover "half": partial or full`}},
		{[]string{"attack", "e", "a", "b", "--distance", "-5"}, []string{"--distance -5: a distance in metres cannot be negative"}},
		{[]string{"attack", "e", "a", "b", "--lower", "--higher"}, []string{"both lower and higher"}},
		{[]string{"attack", "e", "a", "b", "--free-raises", "-1"}, []string{"free raises spent cannot be negative"}},
		{[]string{"react", "e", "a", "parry", "--effect", "moulinet"}, []string{`unknown effect "moulinet" for a parry or dodge`,
			"counter-attack (1), total-dodge (1), feint (1), defensive-wall (1), take-advantage (1), protect (1), overthrow (2), disarm (3), neutralise (4)"}},
		{[]string{"react", "e", "a", "parry", "--effect", "protect"}, []string{"--effect protect needs --ally"}},
		{[]string{"react", "e", "a", "parry", "--ally", "x"}, []string{"--ally goes with --effect protect"}},
		{[]string{"react", "e", "a", "parry", "--counter-weapon", "x"}, []string{"--counter-weapon goes with --effect counter-attack"}},
		{[]string{"react", "e", "a", "dodge", "--with-weapon"}, []string{"--with-weapon is for a parry"}},
		{[]string{"react", "e", "a", "none", "--effect", "feint"}, []string{"taking the blow has no Exploit effects"}},
		{[]string{"react", "e", "a", "parry", "--effect", "neutralise", "--effect", "disarm"}, []string{"add up to 7; at most 5"}},
		{[]string{"declare", "e", "a"}, []string{"missing arguments: 2 given, 3 needed", "usage: fray declare ENCOUNTER COMBATANT INTENTION..."}},
		{[]string{"wait", "e", "a", "soon"}, []string{`phase "soon": a phase is a number from 1 up`}},
		{[]string{"wait", "e", "a", "0"}, []string{`phase "0"`}},
		{[]string{"aim", "e", "a", "arc", "--points", "2", "--tour"}, []string{"--points and --tour: choose one"}},
		{[]string{"aim", "e", "a", "arc", "--points", "-2"}, []string{"--points -2: aim with 1 PA or more"}},
		{[]string{"act", "e", "a", "dance"}, []string{`action "dance": speak, social, pick-up, move, stand-up, recover-weapon`}},
		{[]string{"disaster", "e", "a"}, []string{"missing arguments"}},
		{[]string{"dying", "e", "a", "b", "sacrifice"}, []string{"sacrifice needs --vertu"}},
		{[]string{"dying", "e", "a", "b", "care", "--vertu", "Courage"}, []string{"--vertu goes with sacrifice"}},
		{[]string{"dying", "e", "a", "a", "sacrifice", "--vertu", "Bravoure"}, []string{`--vertu "Bravoure": Sagesse, Honneur or Courage`}},
		{[]string{"dying", "e", "a", "b", "kill"}, []string{`choice "kill": sacrifice, care, finish`}},
		{[]string{"pursuit", "e", "--pursuers", "a", "--distance", "3"}, []string{"a pursuit needs --pursuers and --pursued"}},
		{[]string{"pursuit", "e", "--pursuers", "a", "--pursued", "b", "--distance", "7"}, []string{"--distance 7: a pursuit starts at 1 (contact) to 6"}},
		{[]string{"pursuit", "e", "--pursuers", "a", "--pursued", "b"}, []string{"--distance 0"}},
		{[]string{"chase", "e", "a", "run"}, []string{`pursuit action "run": charge, clothesline, closer, farther, tackle, shoot-legs, zigzags`}},
		{[]string{"chase", "e", "a", "charge"}, []string{"charge needs --target"}},
		{[]string{"chase", "e", "a", "closer", "--target", "b"}, []string{"closer has no --target"}},
		{[]string{"chase", "e", "a", "zigzags", "--weapon", "arc"}, []string{"--weapon goes with shoot-legs"}},
		{[]string{"chase", "e", "a", "farther", "--exploits", "6"}, []string{"--exploits 6: from 0 to 5"}},
		{[]string{"grant", "e", "a", "0"}, []string{`"0": give a number of free raises other than 0`}},
		{[]string{"grant", "e", "a", "many"}, []string{`"many": give a number`}},
		{[]string{"grant", "e", "a"}, []string{"missing arguments"}},
	} {
		errOut := clienttest.RequireUsageError(t, tc.args, tc.want...)
		require.True(t, strings.HasPrefix(errOut, "fray "+tc.args[0]+": "), errOut)
	}
}

// The CLI's table of Exploit effects agrees with the rules: same effects, in the enum's
// order, with the same costs.
func TestExploitCostsMatchTheRules(t *testing.T) {
	var rows [][]string
	for _, tb := range loss.New(loss.Latest).Describe().GetTables() {
		if tb.GetName() == "Exploits" {
			for _, r := range tb.GetRows() {
				rows = append(rows, r.GetCells())
			}
		}
	}
	require.Len(t, rows, len(losscmd.ExploitEffects))
	require.Len(t, losscmd.ExploitEffects, len(lossv1.ExploitEffect_name)-1, "every ExploitEffect but UNSPECIFIED")
	for i, x := range losscmd.ExploitEffects {
		require.Equal(t, lossv1.ExploitEffect(i+1), x.Effect, x.Name)
		require.True(t, strings.EqualFold(x.Text, rows[i][0]), "%s is the rules' %q", x.Name, rows[i][0])
		require.Equal(t, rows[i][1], fmt.Sprint(x.Cost), "%s costs %s Exploits", x.Name, rows[i][1])
	}
}
