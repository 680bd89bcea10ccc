package d20seg_test

import (
	"slices"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The hidden ogre's distinctive values: its strings, the numbers of its sheet and of its
// rolls, and the faces of its dice (no visible combatant's die shows them).
const secretWord = "Zorglub"

var (
	ogreNumbers = []int64{
		23,     // Rapidité; Initiative 22 with its equipment (D20-010)
		22,     // Initiative
		17,     // BBA (D20-017: its first attack costs 1 segment)
		13, 19, // Agility, Strength
		29, 83, // CA, hit points
		11, 14, 12, // the axe's bonus, the feat's attack and damage
		21,     // stealth
		55,     // attack bonus: 17 + 13 + 11 + 14 (D20-040)
		38,     // stealth opposition: d20 4 + 13 + 21 (D20-003)
		60, 59, // attack totals: d20 5 + 55, d20 4 + 55
		58, // hit points left after Aldric's blow
	}
	ogreFaces = []int64{4, 5, 6}
	// ogreSecrets: what of the ogre a player's view must not show (the log's positions are
	// everyone's).
	ogreSecrets = enginetest.Secrets{Words: []string{secretWord}, Numbers: ogreNumbers, Faces: ogreFaces, Ignore: enginetest.Positions}
)

func ogre() *encounterv1.Combatant {
	c := sheet("ogre", "L'ogre", func(s *d20segv1.Sheet) {
		s.Rapidite, s.Bba, s.Agility, s.Strength, s.Ca, s.HitPoints, s.Stealth = 23, 17, 13, 19, 29, 83, 21
		s.Weapons = []*d20segv1.Weapon{{Name: "Hache-de-" + secretWord, Dice: "1d12", Bonus: 11, Critical: 3}}
		s.Feats = []*d20segv1.Feat{{Name: "Rage-de-" + secretWord, Attack: 14, Damage: 12}}
	})
	c.Hidden, c.Side = true, "monstres"
	return c
}

// hiddenFight: the hidden ogre ambushes Aldric (the player's) while the guard stands by; then
// round 1 is fought. Every command's first event carries the command, as the service records it.
func hiddenFight(t *testing.T) *fight {
	aldric := pc(sheet("aldric", "Aldric", ca(50), func(s *d20segv1.Sheet) { s.Weapons[0].Bonus = 18 }))
	f := newFight(t, nil, aldric, ogre(), sheet("garde", "Le garde"))
	for _, s := range []struct {
		actor string
		cmd   *encounterv1.Command
		faces []int32
	}{
		{gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, []int32{15, 8}}, // Aldric and the guard tie at 2
		{gm, surprise([]string{"ogre"}, defender("aldric", d20segv1.Situation_SITUATION_NIGHT)), []int32{7, 4}},            // 7 − 2 against 38: surprised
		{gm, freeAttack("ogre", "aldric"), []int32{5, 6}},                                                                  // 60 vs flat-footed 50: 6 + 19 + 11 + 12 = 48
		{gm, endTurn("ogre"), nil}, // round 1
		{gm, attackCmd("ogre", &d20segv1.Attack{TargetId: "aldric", Weapon: "Hache-de-" + secretWord, DistanceCm: 150}), []int32{4, 6}}, // 59: 48 again, 1 segment
		{player, attack("aldric", "ogre"), []int32{16, 7}}, // 34 vs 29: 7 + 18 = 25
		{gm, endTurn("garde"), nil},
		{gm, other("ogre", "rugit", 0), nil},
		{gm, endTurn("ogre"), nil},
	} {
		evs := f.do(s.actor, s.cmd, s.faces...)
		evs[0].Command = proto.CloneOf(s.cmd)
	}
	return f
}

var (
	gmView     = engine.Viewer{SeesAll: true}
	playerView = engine.Viewer{Controls: map[string]bool{"aldric": true}}
)

// TestHiddenOgreLeavesNoTraceForAPlayer plays the ambush and views every state and event as
// the player of Aldric (nothing of the ogre's numbers; its own losses, the outcomes and who
// acts next whole) and as the GM (the recorded data).
func TestHiddenOgreLeavesNoTraceForAPlayer(t *testing.T) {
	f := hiddenFight(t)
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var hitsOnAldric, ogreUpNext, ogreWaiting int
	for _, ev := range f.Log {
		before := proto.CloneOf(st)
		seen := f.Reg.ViewEvent(before, ev, playerView)
		require.Empty(t, enginetest.Leaks(t, seen, ogreSecrets), "event #%d as Aldric's player: %v", ev.GetSequence(), seen)
		require.True(t, proto.Equal(ev, f.Reg.ViewEvent(before, ev, gmView)), "the GM sees event #%d as recorded", ev.GetSequence())

		if a := ev.GetD20Seg().GetAttackRolled(); a.GetTargetId() == "aldric" {
			// D20-044: the player sees the damage Aldric took and his hit points left; D20-042
			// whether it was a critical; not the ogre's roll, bonus or total.
			sa := seen.GetD20Seg().GetAttackRolled()
			require.True(t, seen.GetRedacted())
			require.True(t, sa.GetHit())
			require.False(t, sa.GetCritical())
			require.EqualValues(t, 48, sa.GetDamage())
			require.Equal(t, a.GetHitPointsLeft(), sa.GetHitPointsLeft())
			require.Equal(t, a.GetSegment(), sa.GetSegment())
			require.Nil(t, sa.GetRoll())
			require.Zero(t, sa.GetTotal()+sa.GetBonus()+sa.GetCost())
			hitsOnAldric++
		}
		if a := ev.GetD20Seg().GetAttackRolled(); a.GetTargetId() == "ogre" {
			// Aldric's own roll and damage stay (D20-040, D20-041); the ogre's CA and hit points go.
			sa := seen.GetD20Seg().GetAttackRolled()
			require.EqualValues(t, 34, sa.GetTotal())
			require.EqualValues(t, 25, sa.GetDamage())
			require.Zero(t, sa.GetCa()+sa.GetHitPointsLeft())
		}
		if sr := seen.GetD20Seg().GetSurpriseRoundStarted(); sr != nil {
			ap := sr.GetApprehension()[0]
			require.True(t, ap.GetSurprised(), "D20-005: Aldric sees he is surprised")
			require.EqualValues(t, 7, ap.GetRoll().GetTotal(), "and his own roll")
			require.Equal(t, "ogre", ap.GetStealthBy())
			require.Zero(t, ap.GetOpposition())
		}

		require.NoError(t, f.Reg.Evolve(st, ev))
		view := f.Reg.View(st, playerView)
		require.Empty(t, enginetest.Leaks(t, view, ogreSecrets), "the state after #%d as Aldric's player", ev.GetSequence())
		require.Nil(t, engine.FindCombatant(view, "ogre").GetD20Seg())
		// D20-015: the view names the same combatant up next, at the same segment, once a round
		// has started (before, no one acts and the roll-offs have not ordered the ties).
		id, seg, free, ok := d20seg.New(1).UpNext(st)
		if s := st.GetD20Seg(); s.GetRound() > 0 || s.GetSurpriseDeclared() {
			vid, vseg, vfree, vok := d20seg.New(1).UpNext(view)
			require.Equal(t, []any{id, seg, free, ok}, []any{vid, vseg, vfree, vok}, "up next after #%d", ev.GetSequence())
		}
		if ok && id == "ogre" {
			ogreUpNext++
		} else if st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE && !view.GetD20Seg().GetCombatants()["ogre"].GetEndedTurn() {
			require.EqualValues(t, d20seg.HiddenSegment, view.GetD20Seg().GetCombatants()["ogre"].GetNextSegment())
			ogreWaiting++
		}

		gmState := f.Reg.View(st, gmView)
		for _, c := range gmState.GetCombatants() {
			c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED
		}
		gmState.Seed = st.GetSeed()
		gmState.SidesStanding, gmState.FightOver = nil, false // filled in reads, as appearances are
		require.True(t, proto.Equal(st, gmState), "the GM sees the state whole after #%d", ev.GetSequence())
	}
	require.Equal(t, 2, hitsOnAldric)
	require.Positive(t, ogreUpNext)
	require.Positive(t, ogreWaiting)

	view := f.Reg.View(f.St, playerView)
	require.Equal(t, encounterv1.Appearance_APPEARANCE_WOUNDED, engine.FindCombatant(view, "ogre").GetAppearance(), "25 of 83 hit points lost")
	require.Equal(t, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED, engine.FindCombatant(view, "aldric").GetAppearance(), "96 of 100 lost")
}

// TestD20SegAppearance: the thresholds of what the table sees (D20-044; wounded and badly
// wounded where the seed is silent).
func TestD20SegAppearance(t *testing.T) {
	for _, c := range []struct {
		name string
		cs   *d20segv1.CombatantState
		want encounterv1.Appearance
	}{
		{"unhurt", &d20segv1.CombatantState{HitPoints: 100}, encounterv1.Appearance_APPEARANCE_FIGHTING},
		{"1 hit point lost", &d20segv1.CombatantState{HitPoints: 99}, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"49 lost", &d20segv1.CombatantState{HitPoints: 51}, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"half lost", &d20segv1.CombatantState{HitPoints: 50}, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{"1 left", &d20segv1.CombatantState{HitPoints: 1}, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{"D20-044 down at 0", &d20segv1.CombatantState{HitPoints: 0, Down: true}, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"D20-044 down at down_at, hit points left", &d20segv1.CombatantState{HitPoints: 5, Down: true}, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &encounterv1.EncounterState{
				Combatants: []*encounterv1.Combatant{sheet("x", "X")},
				System:     &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{Combatants: map[string]*d20segv1.CombatantState{"x": c.cs}}},
			}
			before := proto.CloneOf(st)
			require.Equal(t, c.want, d20seg.New(1).Appearance(st, "x"))
			require.True(t, proto.Equal(before, st), "Appearance changes nothing")
		})
	}
	require.Equal(t, encounterv1.Appearance_APPEARANCE_FIGHTING, d20seg.New(1).Appearance(&encounterv1.EncounterState{}, "x"), "no state yet")
}

// TestD20SegPlaceholdersKeepTheOrder: hidden combatants' Initiative placeholders keep the
// order of action among the visible ones, ties and roll-offs included (D20-011, D20-015),
// without their values.
func TestD20SegPlaceholdersKeepTheOrder(t *testing.T) {
	st := &encounterv1.EncounterState{System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{Round: 1, Combatants: map[string]*d20segv1.CombatantState{
		"h1": {Initiative: 27, NextSegment: 0}, "a": {Initiative: 4, NextSegment: 0}, "h2": {Initiative: 4, TieOrder: 1},
		"b": {Initiative: 4, TieOrder: 2}, "h3": {Initiative: -3}, "h4": {Initiative: -5},
	}}}}
	for _, id := range []string{"a", "b", "h1", "h2", "h3", "h4"} {
		st.Combatants = append(st.Combatants, sheet(id, id))
	}
	order := func(s *encounterv1.EncounterState) []string {
		var ids []string
		for id := range s.GetD20Seg().GetCombatants() {
			ids = append(ids, id)
		}
		cs := s.GetD20Seg().GetCombatants()
		slices.SortFunc(ids, func(x, y string) int {
			if cs[x].GetInitiative() != cs[y].GetInitiative() {
				return int(cs[y].GetInitiative() - cs[x].GetInitiative())
			}
			return int(cs[x].GetTieOrder() - cs[y].GetTieOrder())
		})
		return ids
	}
	want := order(st)
	require.Equal(t, []string{"h1", "a", "h2", "b", "h3", "h4"}, want)
	view := proto.CloneOf(st)
	d20seg.New(1).RedactState(view, func(id string) bool { return id[0] == 'h' })
	require.Equal(t, want, order(view))
	for _, id := range []string{"h1", "h3", "h4"} {
		require.NotEqual(t, st.GetD20Seg().GetCombatants()[id].GetInitiative(), view.GetD20Seg().GetCombatants()[id].GetInitiative())
	}
	// h1 is up next at segment 0 (the highest Initiative); the others are not shown a segment.
	require.EqualValues(t, 0, view.GetD20Seg().GetCombatants()["h1"].GetNextSegment())
	require.EqualValues(t, d20seg.HiddenSegment, view.GetD20Seg().GetCombatants()["h2"].GetNextSegment())
}

// TestRedactEachD20SegEventKind: every kind of d20seg event, and the action recorded with it,
// as a player sees it when the ogre is hidden.
func TestRedactEachD20SegEventKind(t *testing.T) {
	secret := func(id string) bool { return id == "ogre" }
	roll := func(f int32) *dicev1.Roll { return &dicev1.Roll{Faces: []int32{f}, Total: f} }
	axe := "Hache-de-" + secretWord
	for _, c := range []struct {
		name string
		ev   *d20segv1.Event
		cmd  *d20segv1.Action
		kept func(*testing.T, *d20segv1.Event)
	}{
		{"D20-010 D20-011 combat started", &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{
			Initiative: []*d20segv1.InitiativeEntry{{CombatantId: "ogre", Rapidite: 23, Equipment: -1, Initiative: 22, TieOrder: 1}, {CombatantId: "aldric", Rapidite: 3, Equipment: -1, Initiative: 2}},
			RollOffs: []*d20segv1.RollOff{
				{CombatantIds: []string{"ogre", "garde"}, Rolls: []*dicev1.Roll{roll(4), roll(8)}},
				{CombatantIds: []string{"aldric", "ogre", "garde"}, Rolls: []*dicev1.Roll{roll(15), roll(5), roll(8)}},
			}}}}, nil, func(t *testing.T, e *d20segv1.Event) {
			c := e.GetCombatStarted()
			require.Len(t, c.GetInitiative(), 1)
			require.Len(t, c.GetRollOffs(), 1, "a roll-off with the ogre and one other is no roll-off to show")
			require.Equal(t, []string{"aldric", "garde"}, c.GetRollOffs()[0].GetCombatantIds())
			require.EqualValues(t, 8, c.GetRollOffs()[0].GetRolls()[1].GetTotal())
		}},
		{"D20-003 surprise", &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
			AttackerIds: []string{"ogre"}, Apprehension: []*d20segv1.ApprehensionRolled{
				{DefenderId: "aldric", Roll: roll(7), Modifiers: -2, Total: 5, Opposition: 38, StealthBy: "ogre", StealthRoll: roll(4), Surprised: true},
			}}}}, &d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{AttackerIds: []string{"aldric"}, Defenders: []*d20segv1.Apprehension{{DefenderId: "ogre", SpellModifier: 13, ImpairedMalus: 12}}}}},
			func(t *testing.T, e *d20segv1.Event) {
				ap := e.GetSurpriseRoundStarted().GetApprehension()[0]
				require.EqualValues(t, 5, ap.GetTotal())
				require.True(t, ap.GetSurprised())
			}},
		{"D20-005 the ogre's apprehension", &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
			AttackerIds: []string{"aldric"}, Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "ogre", Roll: roll(4), Modifiers: 21, Total: 25, Opposition: 15}}}}}, nil,
			func(t *testing.T, e *d20segv1.Event) {
				require.False(t, e.GetSurpriseRoundStarted().GetApprehension()[0].GetSurprised())
			}},
		{"D20-020 carried over", &d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 2, Carried: []*d20segv1.CarriedOver{{CombatantId: "ogre", Segments: 13}, {CombatantId: "aldric", Segments: 2}}}}}, nil,
			func(t *testing.T, e *d20segv1.Event) {
				require.Equal(t, "ogre", e.GetRoundStarted().GetCarried()[0].GetCombatantId())
				require.EqualValues(t, 2, e.GetRoundStarted().GetCarried()[1].GetSegments())
			}},
		{"D20-040 the ogre attacks", &d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{AttackerId: "ogre", TargetId: "aldric", Weapon: axe,
			Segment: 2, Cost: 17, Roll: roll(5), Bonus: 55, Total: 60, Ca: 50, Hit: true, DamageRoll: roll(6), Damage: 48, HitPointsLeft: 52}}},
			&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: "aldric", Weapon: axe, DistanceCm: 29, Modifier: 13, DamageModifier: 12}}},
			func(t *testing.T, e *d20segv1.Event) {
				a := e.GetAttackRolled()
				require.EqualValues(t, 48, a.GetDamage())
				require.EqualValues(t, 52, a.GetHitPointsLeft())
				require.EqualValues(t, 50, a.GetCa(), "Aldric's own CA")
			}},
		{"D20-044 the ogre hit", &d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{AttackerId: "aldric", TargetId: "ogre",
			Roll: roll(16), Bonus: 18, Total: 34, Ca: 29, Hit: true, DamageRoll: roll(7), Damage: 25, HitPointsLeft: 58, Down: true}}}, nil,
			func(t *testing.T, e *d20segv1.Event) {
				require.EqualValues(t, 25, e.GetAttackRolled().GetDamage())
				require.True(t, e.GetAttackRolled().GetDown())
			}},
		{"D20-018 the ogre casts", &d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "ogre", Spell: "Brume", Segment: 1, Cost: 13, NextRound: true}}},
			&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{Spell: "Brume", Level: 17, StatedSegments: 13}}},
			func(t *testing.T, e *d20segv1.Event) { require.Equal(t, "Brume", e.GetSpellCast().GetSpell()) }},
		{"D20-022 the ogre acts", &d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "ogre", Description: "rugit", Cost: 13}}},
			&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "rugit", Segments: 13}}}, nil},
		{"D20-016 the ogre ends its turn", &d20segv1.Event{Kind: &d20segv1.Event_TurnEnded{TurnEnded: &d20segv1.TurnEnded{CombatantId: "ogre"}}},
			&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := &encounterv1.Event{Payload: &encounterv1.Event_D20Seg{D20Seg: c.ev}}
			if c.cmd != nil {
				ev.Command = &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: c.cmd}}
			}
			recorded := proto.CloneOf(ev)
			d20seg.New(1).RedactEvent(ev, secret)
			require.Empty(t, enginetest.Leaks(t, ev, ogreSecrets), "%v", ev)
			if c.kept != nil {
				c.kept(t, ev.GetD20Seg())
			}
			again := proto.CloneOf(recorded)
			d20seg.New(1).RedactEvent(again, func(string) bool { return false })
			require.True(t, proto.Equal(recorded, again), "nothing hidden, nothing removed")
		})
	}
}
