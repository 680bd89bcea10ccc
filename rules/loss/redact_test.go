package loss_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The hidden ogre's distinctive values: its strings, the numbers of its sheet and of its
// Tests, and the faces of its dice (no visible combatant's die shows them).
const secretWord = "Zorglub"

var (
	ogreNumbers = []int64{
		23,     // Initiative (LOS-030)
		27, 29, // Puissance, Massue-Zorglub
		26, 25, // Agilité, Esquive
		28, // the club's damage (LOS-020), and its PA after its attack
		22, // armour (LOS-021)
		32, // its PA in each Tour: 23 + d10 9 (LOS-030)
		68, // its attack: 27 + 29 + d10 7 + a free raise 5 (LOS-001, LOS-004)
		31, // its damage: d10 3 + 28 (LOS-020)
		60, // its dodge: 26 + 25 + d10 9
	}
	ogreFaces = []int64{3, 7, 9}
	// ogreSecrets: what of the ogre a player's view must not show (the log's positions are
	// everyone's).
	ogreSecrets = enginetest.Secrets{Words: []string{secretWord}, Numbers: ogreNumbers, Faces: ogreFaces, Ignore: enginetest.Positions}
)

// ogre: an Adversaire the GM hides, with a club and a talent named for the search.
func ogre() *encounterv1.Combatant {
	club := &lossv1.Weapon{Name: "Gourdin-de-" + secretWord, Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 28,
		Attack: &lossv1.Score{Trait: "Puissance", Talent: "Massue-" + secretWord}, WeaponType: "Massue-" + secretWord}
	return &encounterv1.Combatant{Id: "ogre", Name: "L'ogre", Controller: gm, Side: "monstres", Hidden: true,
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       adv,
			Traits:     map[string]int32{"Puissance": 27, "Agilité": 26},
			Talents:    map[string]int32{"Massue-" + secretWord: 29, "Esquive": 25},
			Initiative: 23, Weapons: []*lossv1.Weapon{club}, Armour: 22,
			Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			Specialisations: []*lossv1.Specialisation{{Kind: lossv1.SpecialisationKind_SPECIALISATION_KIND_CHARGE,
				WeaponType: "Massue-" + secretWord}},
		}}}
}

// hiddenFight: Diego (david's) against the GM's hidden ogre. Every command's first event
// carries the command, as the service records it.
func hiddenFight(t *testing.T) *fight {
	d := with(diego(), func(sh *lossv1.Sheet) { sh.Armour = 24; sh.Weapons[0].Damage = 19 })
	d.Side = "pj"
	f := newFight(t, nil, d, ogre())
	for _, s := range []struct {
		actor string
		cmd   *encounterv1.Command
		faces []int32
	}{
		{gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, []int32{5, 9}}, // Diego 13 PA, the ogre 32
		{gm, action(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{
			Count: 2, Reason: "la ruse de " + secretWord}}}), nil},
		{gm, action(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
			TargetId: "diego", Weapon: "Gourdin-de-" + secretWord, Spend: &lossv1.Spend{FreeRaises: 1}}}}), []int32{7}},
		{"david", dodge("diego", 0, nil), []int32{4, 3}}, // 14 < 15: hit, d10 3 + 28 = 31, armour 24: 7 NS
		{gm, pass("ogre"), nil},
		{"david", attack("diego", "ogre", 0, nil), []int32{8}}, // 6+6+8 = 20 vs 20 (grave band, LOS-022)
		{gm, takeBlow("ogre"), []int32{5}},                     // 5 + 19 = 24, armour 22: 2 NS
		{"david", attack("diego", "ogre", 0, nil), []int32{8}}, // 20 vs 20
		{gm, dodge("ogre", 0, nil), []int32{9}},                // 26+25+9 = 60: dodged
		{"david", pass("diego"), []int32{2, 9}},                // Tour 2: Diego 10, the ogre 32
		{gm, action(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: 28}}}), nil},
	} {
		evs := f.do(s.actor, s.cmd, s.faces...)
		evs[0].Command = proto.CloneOf(s.cmd)
	}
	return f
}

var (
	gmView     = engine.Viewer{SeesAll: true}
	davidsView = engine.Viewer{Controls: map[string]bool{"diego": true}}
)

// TestHiddenOgreLeavesNoTraceForAPlayer plays the fight and views every state and event as
// Diego's player (nothing of the ogre's numbers, its own losses and the outcomes whole) and
// as the GM (the recorded data).
func TestHiddenOgreLeavesNoTraceForAPlayer(t *testing.T) {
	f := hiddenFight(t)
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var sawOwnLoss, sawPrompt, sawOgreActing bool
	for _, ev := range f.Log {
		before := proto.CloneOf(st)
		seen := f.Reg.ViewEvent(before, ev, davidsView)
		require.Empty(t, enginetest.Leaks(t, seen, ogreSecrets), "event #%d as Diego's player: %v", ev.GetSequence(), seen)
		whole := f.Reg.ViewEvent(before, ev, gmView)
		require.True(t, proto.Equal(ev, whole), "the GM sees event #%d as recorded", ev.GetSequence())

		if r := ev.GetLoss().GetAttackResolved(); r.GetTargetId() == "diego" {
			// The player sees what its own combatant lost and has left (LOS-021, LOS-022).
			sr := seen.GetLoss().GetAttackResolved()
			require.True(t, seen.GetRedacted())
			require.True(t, sr.GetHit())
			require.EqualValues(t, 7, sr.GetDamage().GetLevelsLost())
			require.EqualValues(t, 24, sr.GetDamage().GetArmour())
			require.Equal(t, []int32{0, 3, 5}, []int32{sr.GetLight(), sr.GetGrave(), sr.GetFatal()})
			require.Nil(t, sr.GetDamage().GetRoll())
			require.Zero(t, sr.GetDamage().GetTotal())
			sawOwnLoss = true
		}
		if r := ev.GetLoss().GetAttackResolved(); r.GetTargetId() == "ogre" && r.GetHit() {
			// Diego's own damage roll stays; the ogre's armour and NS do not (LOS-021).
			sr := seen.GetLoss().GetAttackResolved()
			require.EqualValues(t, 24, sr.GetDamage().GetTotal())
			require.Equal(t, []int32{5}, sr.GetDamage().GetRoll().GetFaces())
			require.Zero(t, sr.GetDamage().GetArmour()+sr.GetDamage().GetLevelsLost()+sr.GetLight()+sr.GetGrave()+sr.GetFatal())
		}
		if a := ev.GetLoss().GetAttackRolled(); a.GetAttackerId() == "ogre" {
			sa := seen.GetLoss().GetAttackRolled()
			require.True(t, sa.GetTest().GetSuccess(), "the defender knows the attack succeeded (LOS-009)")
			require.EqualValues(t, 15, sa.GetDefenceDifficulty(), "and the Difficulty it must beat (LOS-012)")
		}

		require.NoError(t, f.Reg.Evolve(st, ev))
		view := f.Reg.View(st, davidsView)
		require.Nil(t, engine.FindCombatant(view, "ogre").GetLoss())
		ogreCS := view.GetLoss().GetCombatants()["ogre"]
		require.Zero(t, ogreCS.GetLight()+ogreCS.GetGrave()+ogreCS.GetFatal()+ogreCS.GetInitiativeTotal()+ogreCS.GetFreeRaises())
		if full := st.GetLoss().GetCombatants()["ogre"]; full.GetActionPoints() > 0 && ogreCS.GetActionPoints() > 0 {
			// The one exception: the phase being played, called aloud, when the ogre acts now
			// (LOS-031): no one else is at a higher phase.
			for id, cs := range st.GetLoss().GetCombatants() {
				require.True(t, id == "ogre" || cs.GetPassed() || cs.GetActionPoints() <= full.GetActionPoints())
			}
			require.Equal(t, full.GetActionPoints(), ogreCS.GetActionPoints())
			sawOgreActing = true
			ogreCS.ActionPoints = 0
		}
		require.Empty(t, enginetest.Leaks(t, view, ogreSecrets), "the state after #%d as Diego's player", ev.GetSequence())
		for _, p := range view.GetPending() {
			if p.GetCombatantId() == "diego" && st.GetLoss().GetPending().GetAttackerId() == "ogre" {
				require.Equal(t, "L'ogre attacks Diego (the attack succeeds; Difficulty 15 to defend): parry, dodge or take the blow", p.GetPrompt())
				sawPrompt = true
			}
		}

		gmState := f.Reg.View(st, gmView)
		for _, c := range gmState.GetCombatants() {
			c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED
		}
		gmState.Seed = st.GetSeed()
		gmState.SidesStanding, gmState.FightOver = nil, false // filled in reads, as appearances are
		require.True(t, proto.Equal(st, gmState), "the GM sees the state whole after #%d", ev.GetSequence())
	}
	require.True(t, sawOwnLoss && sawPrompt && sawOgreActing)

	// What the table sees of the ogre: wounded, 2 NS off its light band (LOS-022).
	view := f.Reg.View(f.St, davidsView)
	require.Equal(t, encounterv1.Appearance_APPEARANCE_WOUNDED, engine.FindCombatant(view, "ogre").GetAppearance())
	require.Equal(t, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED, engine.FindCombatant(view, "diego").GetAppearance())
	require.Equal(t, "monstres", engine.FindCombatant(view, "ogre").GetSide())
}

// TestLossAppearance: the thresholds of what the table sees, per kind of combatant.
func TestLossAppearance(t *testing.T) {
	const (
		fighting = encounterv1.Appearance_APPEARANCE_FIGHTING
		wounded  = encounterv1.Appearance_APPEARANCE_WOUNDED
		badly    = encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED
		out      = encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	)
	for _, c := range []struct {
		name string
		kind lossv1.CombatantKind
		cs   *lossv1.CombatantState
		want encounterv1.Appearance
	}{
		{"LOS-022 unhurt: every box", adv, &lossv1.CombatantState{Light: 5, Grave: 5, Fatal: 5}, fighting},
		{"LOS-022 one light box lost", adv, &lossv1.CombatantState{Light: 4, Grave: 5, Fatal: 5}, wounded},
		{"LOS-022 every light box lost, the grave band whole", pc, &lossv1.CombatantState{Light: 0, Grave: 5, Fatal: 5}, wounded},
		{"LOS-022 a grave box lost: +5 Difficulty", pc, &lossv1.CombatantState{Light: 0, Grave: 4, Fatal: 5}, badly},
		{"LOS-022 a fatal box lost: +10 Difficulty", adv, &lossv1.CombatantState{Light: 0, Grave: 0, Fatal: 1}, badly},
		{"LOS-022 LOS-023 0 fatal boxes: down and dying", adv, &lossv1.CombatantState{Out: true, Dying: true}, out},
		{"LOS-023 dead", pc, &lossv1.CombatantState{Out: true, Dead: true}, out},
		{"LOS-076 neutralised, NS left", adv, &lossv1.CombatantState{Light: 5, Grave: 5, Fatal: 5, Out: true, Neutralised: true}, out},
		{"LOS-024 a Sbire unhurt", sbire, &lossv1.CombatantState{Health: 10}, fighting},
		{"LOS-024 a Sbire 1 NS off", sbire, &lossv1.CombatantState{Health: 9}, wounded},
		{"LOS-024 a Sbire 4 NS off", sbire, &lossv1.CombatantState{Health: 6}, wounded},
		{"LOS-024 a Sbire half its NS off", sbire, &lossv1.CombatantState{Health: 5}, badly},
		{"LOS-025 a Sbire felled", sbire, &lossv1.CombatantState{Health: 0, Out: true}, out},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &encounterv1.EncounterState{
				Options:    &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{HealthBands: []int32{5, 5, 5}}}},
				Combatants: []*encounterv1.Combatant{who("x", "X", c.kind, 1, 1, 1, 1, 1)},
				System:     &encounterv1.EncounterState_Loss{Loss: &lossv1.State{Combatants: map[string]*lossv1.CombatantState{"x": c.cs}}},
			}
			before := proto.CloneOf(st)
			require.Equal(t, c.want, loss.New(1).Appearance(st, "x"))
			require.True(t, proto.Equal(before, st), "Appearance changes nothing")
		})
	}
	require.Equal(t, encounterv1.Appearance_APPEARANCE_FIGHTING, loss.New(1).Appearance(&encounterv1.EncounterState{}, "x"), "no state yet")
}

// TestRedactEachLossEventKind: every kind of Loss event, and the action recorded with it,
// as a player sees it when the ogre is hidden: none of the ogre's values, the rest kept.
func TestRedactEachLossEventKind(t *testing.T) {
	w := "Arbalète-" + secretWord
	test := func(total int32) *lossv1.TestResult {
		return &lossv1.TestResult{Roll: &dicev1.Roll{Expression: "1d10!", Faces: []int32{9}, Total: 9}, Trait: 27, Talent: 29, Bonus: 28,
			Total: total, Difficulty: 23, Success: true, Spend: &lossv1.Spend{FreeRaises: 1},
			TestModifiers: []*lossv1.Modifier{{Reason: "Visée " + w, Value: 25, Rule: "LOS-090"}}}
	}
	secret := func(id string) bool { return id == "ogre" }
	for _, c := range []struct {
		name string
		ev   *lossv1.Event
		cmd  *lossv1.Action
		kept func(*testing.T, *lossv1.Event)
	}{
		{"LOS-030 Tour started", &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 2, Initiative: []*lossv1.InitiativeRoll{
			{CombatantIds: []string{"ogre"}, Initiative: 23, Roll: &dicev1.Roll{Faces: []int32{9}}, ActionPoints: 32, Bonus: map[string]int32{"ogre": 27}},
			{CombatantIds: []string{"diego"}, Initiative: 8, Roll: &dicev1.Roll{Faces: []int32{5}}, ActionPoints: 13},
			{CombatantIds: []string{"guet", "ogre"}, Initiative: 4, Roll: &dicev1.Roll{Faces: []int32{4}}, ActionPoints: 8, Bonus: map[string]int32{"ogre": 25}},
		}}}}, nil, func(t *testing.T, e *lossv1.Event) {
			r := e.GetTourStarted().GetInitiative()
			require.Equal(t, []string{"ogre"}, r[0].GetCombatantIds(), "that it rolled is seen")
			require.EqualValues(t, 13, r[1].GetActionPoints())
			require.Equal(t, []string{"guet"}, r[2].GetCombatantIds(), "LOS-037 a group roll stays the visible members'")
			require.EqualValues(t, 8, r[2].GetActionPoints())
		}},
		{"LOS-009 LOS-012 attack by the ogre", &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{
			AttackerId: "ogre", TargetId: "diego", Weapon: w, SecondWeapon: w, ActionPointsSpent: 26, Test: test(68), DefencePossible: true,
			DefenceDifficulty: 20, Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE},
			Situation: &lossv1.Situation{Distance: 31}}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "diego", Weapon: w, SecondWeapon: w,
				Spend: &lossv1.Spend{Fursa: 22}, Situation: &lossv1.Situation{Distance: 31}}}},
			func(t *testing.T, e *lossv1.Event) {
				a := e.GetAttackRolled()
				require.True(t, a.GetTest().GetSuccess())
				require.True(t, a.GetDefencePossible())
				require.EqualValues(t, 20, a.GetDefenceDifficulty())
				require.Len(t, a.GetExploits(), 1, "LOS-010 declared Exploits")
			}},
		{"LOS-014 the ogre's defence", &lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: &lossv1.DefenceRolled{
			DefenderId: "ogre", AttackerId: "diego", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 26, Test: test(60), ExploitsCancelled: 1}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_PARRY,
				Spend: &lossv1.Spend{Inspiration: map[string]int32{"Courage": 22}}, CounterWeapon: w}}},
			func(t *testing.T, e *lossv1.Event) {
				d := e.GetDefenceRolled()
				require.Equal(t, lossv1.Reaction_REACTION_PARRY, d.GetReaction())
				require.True(t, d.GetTest().GetSuccess())
				require.EqualValues(t, 1, d.GetExploitsCancelled(), "the attacker's outcome")
			}},
		{"LOS-021 the ogre's blow on Diego", &lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{
			AttackerId: "ogre", TargetId: "diego", Hit: true, AttackerPhase: 32, Light: 1, Grave: 5, Fatal: 5,
			Damage:       &lossv1.Damage{Roll: &dicev1.Roll{Faces: []int32{3}}, WeaponDamage: 28, Total: 31, Armour: 4, LevelsLost: 7},
			SecondDamage: &lossv1.Damage{Roll: &dicev1.Roll{Faces: []int32{7}}, WeaponDamage: 28, Total: 31, Armour: 4, LevelsLost: 7}}}}, nil,
			func(t *testing.T, e *lossv1.Event) {
				r := e.GetAttackResolved()
				require.EqualValues(t, 7, r.GetDamage().GetLevelsLost(), "Diego sees what he lost")
				require.EqualValues(t, 4, r.GetDamage().GetArmour(), "and his own armour")
				require.EqualValues(t, 1, r.GetLight())
			}},
		{"LOS-021 Diego's blow on the ogre", &lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{
			AttackerId: "diego", TargetId: "ogre", Hit: true, AttackerPhase: 12, Light: 23, Health: 25, TargetOut: true,
			Damage: &lossv1.Damage{Roll: &dicev1.Roll{Faces: []int32{5}}, WeaponDamage: 19, Total: 24, Armour: 22, Shield: 26, LevelsLost: 29}}}}, nil,
			func(t *testing.T, e *lossv1.Event) {
				r := e.GetAttackResolved()
				require.EqualValues(t, 24, r.GetDamage().GetTotal(), "Diego's own damage")
				require.EqualValues(t, 12, r.GetAttackerPhase())
				require.True(t, r.GetTargetOut(), "the outcome")
			}},
		{"LOS-033 the ogre passes", &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "ogre", ActionPointsLeft: 28}}}, &lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}, nil},
		{"LOS-038 the ogre declares", &lossv1.Event{Kind: &lossv1.Event_Declared{Declared: &lossv1.Declared{CombatantId: "ogre", Intention: "charger"}}}, nil,
			func(t *testing.T, e *lossv1.Event) {
				require.Equal(t, "charger", e.GetDeclared().GetIntention(), "spoken aloud")
			}},
		{"LOS-040 the ogre waits", &lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{CombatantId: "ogre", FromPhase: 32, UntilPhase: 28, Discount: 26}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: 28}}}, nil},
		{"LOS-084 the ogre aims", &lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "ogre", Weapon: w, ActionPointsSpent: 25, Bonus: 25, WholeTour: true}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: w, Points: 25}}},
			func(t *testing.T, e *lossv1.Event) { require.True(t, e.GetAimed().GetWholeTour()) }},
		{"LOS-035 the ogre moves", &lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "ogre", Kind: lossv1.SimpleKind_SIMPLE_KIND_MOVE, ActionPointsSpent: 25, Description: "contourne le puits"}}}, nil,
			func(t *testing.T, e *lossv1.Event) {
				require.Equal(t, "contourne le puits", e.GetSimpleActed().GetDescription())
			}},
		{"LOS-006 a Disaster", &lossv1.Event{Kind: &lossv1.Event_DisasterDeclared{DisasterDeclared: &lossv1.DisasterDeclared{CombatantId: "ogre", Description: "le gourdin se brise"}}}, nil, nil},
		{"LOS-023 the ogre saved", &lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "ogre", TargetId: "ogre",
			Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION, Vertu: "Courage-" + secretWord}}},
			&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Dying{Dying: &lossv1.Dying{TargetId: "ogre", Vertu: "Courage-" + secretWord}}},
			func(t *testing.T, e *lossv1.Event) {
				require.Equal(t, lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION, e.GetDyingResolved().GetChoice())
			}},
		{"LOS-100 pursuit", &lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{PursuerIds: []string{"ogre"}, PursuedIds: []string{"diego"}, Distance: 3}}}}, nil, nil},
		{"LOS-106 the ogre shoots the legs", &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "ogre", TargetId: "diego",
			Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, ActionPointsSpent: 26, Test: test(68), Shot: test(60), Weapon: w, Success: true, Distance: 2,
			Dodge: &lossv1.TestResult{Roll: &dicev1.Roll{Faces: []int32{4}}, Total: 12}}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Pursuit{Pursuit: &lossv1.PursuitAction{Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, Weapon: w, Spend: &lossv1.Spend{Fursa: 22}}}},
			func(t *testing.T, e *lossv1.Event) {
				a := e.GetPursuitActed()
				require.True(t, a.GetSuccess())
				require.EqualValues(t, 2, a.GetDistance())
				require.EqualValues(t, 12, a.GetDodge().GetTotal(), "Diego's own dodge")
			}},
		{"LOS-107 Diego dodges the hidden ogre's pursuit", &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "diego", TargetId: "ogre",
			Kind: lossv1.PursuitKind_PURSUIT_KIND_CHARGE, Test: &lossv1.TestResult{Total: 21}, Dodge: test(60)}}}, nil,
			func(t *testing.T, e *lossv1.Event) {
				require.EqualValues(t, 21, e.GetPursuitActed().GetTest().GetTotal())
			}},
		{"LOS-004 free raises for the ogre", &lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "ogre", Count: 25, Reason: secretWord}}},
			&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 25, Reason: secretWord}}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: c.ev}}
			if c.cmd != nil {
				ev.Command = &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: c.cmd}}
			}
			recorded := proto.CloneOf(ev)
			loss.New(1).RedactEvent(ev, secret)
			require.Empty(t, enginetest.Leaks(t, ev, ogreSecrets), "%v", ev)
			if c.kept != nil {
				c.kept(t, ev.GetLoss())
			}
			again := proto.CloneOf(recorded)
			loss.New(1).RedactEvent(again, func(string) bool { return false })
			require.True(t, proto.Equal(recorded, again), "nothing hidden, nothing removed")
		})
	}
}
