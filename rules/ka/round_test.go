package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// gorille: an NPC of Animalité 3, lowest sphere 3 (three actions); Esquive 2; a punch of +2.
func gorille() *encounterv1.Combatant {
	return who("gorille", "Le gorille", false, 3, 3, 3, map[string]int32{"Bagarre": 2, "Esquive": 2}, 3, 6, 12,
		weapon("poing", ka.Animalite, "Bagarre", 2))
}

// KA-009: a dodge uses the sphere of the attack + Esquive: the dog dodges a shot with
// Humanité, a blow of the gun butt with Animalité.
func TestKA009DefenceUsesTheAttacksSphere(t *testing.T) {
	for _, c := range []struct {
		weapon, sphere string
		total          int32
	}{
		{"pistolet", ka.Humanite, 1 + 4 + 5},
		{"crosse", ka.Animalite, 3 + 4 + 5},
	} {
		f := newFight(t, nil, joshua(), molosse())
		f.start(coupe(2), coupe(5))
		f.do(player, attack("joshua", "chien", c.weapon, 0))
		d := find(t, f.do(gm, dodge("chien")), (*kav1.Event).GetDefenceDrawn).GetDraw()
		require.Equal(t, []any{c.sphere, "Esquive", int32(4), c.total}, []any{d.GetSphere(), d.GetSkill(), d.GetSkillValue(), d.GetTotal()})
	}
}

// KA-010: a character takes at most as many actions a round as its lowest sphere.
// KA-011: each action after the first has a cumulative −1, defences included.
// KA-012: with no action left, a character can neither attack nor defend: it only soaks.
// KA-013: a dodge uses an action, but not the defender's own action in the pass.
func TestKA010To013ActionsInARound(t *testing.T) {
	f := newFight(t, nil, joshua(), gorille())
	evs := f.start(coupe(5), coupe(2), coupe(6), coupe(7), coupe(8), coupe(9), coupe(10))
	require.Equal(t, map[string]int32{"joshua": 2, "gorille": 3}, find(t, evs, (*kav1.Event).GetRoundStarted).GetActions())
	require.Equal(t, int32(2), ka.LowestSphere(joshua().GetKa()))

	// Pass 1. Joshua shoots (first action, no malus): 7 + 5 = 12.
	f.do(player, attack("joshua", "gorille", "pistolet", 0))
	// The gorilla dodges, its first action: Humanité 3 + Esquive 2 + 2 = 7, no malus.
	evs = f.do(gm, dodge("gorille"))
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Zero(t, ad.GetDraw().GetModifiers())
	require.Equal(t, int32(12), ad.GetDraw().GetTotal())
	dd := find(t, evs, (*kav1.Event).GetDefenceDrawn)
	require.Zero(t, dd.GetDraw().GetModifiers())
	require.Equal(t, int32(7), dd.GetDraw().GetTotal())
	require.Equal(t, []int32{2, 1}, []int32{f.cs("gorille").GetActionsLeft(), f.cs("gorille").GetActionsTaken()})
	// KA-013: the dodge did not take its action in this pass: no new pass, it acts now.
	none(t, evs, (*kav1.Event).GetPassStarted)
	require.False(t, f.cs("gorille").GetActedThisPass())
	// KA-011: its attack is its second action, −1 (the dodge counted).
	f.do(gm, attack("gorille", "joshua", "poing", 0))
	require.Equal(t, []int32{1, 2}, []int32{f.cs("gorille").GetActionsLeft(), f.cs("gorille").GetActionsTaken()}, "declared: its action is taken")
	// Joshua dodges, his second action: −1.
	evs = f.do(player, dodge("joshua"))
	ad = find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Equal(t, int32(-1), ad.GetDraw().GetModifiers(), "the malus of the actions before the declaration")
	require.Equal(t, []string{"-1 actions already taken this round (KA-011)"}, ad.GetDraw().GetModifierReasons())
	require.Equal(t, int32(3+2-1+6), ad.GetDraw().GetTotal())
	dd = find(t, evs, (*kav1.Event).GetDefenceDrawn)
	require.Equal(t, int32(-1), dd.GetDraw().GetModifiers())
	require.Equal(t, int32(4+2-1+7), dd.GetDraw().GetTotal(), "Animalité against a punch")
	require.Zero(t, f.cs("joshua").GetActionsLeft())
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())

	// Pass 2. KA-012: Joshua has used his two actions: he cannot attack…
	f.refuse(player, attack("joshua", "gorille", "pistolet", 0), engine.CodePrecondition, "KA-012", "Joshua")
	legal, err := f.Reg.Legal(f.St, "joshua")
	require.NoError(t, err)
	require.Empty(t, legal)
	// … nor dodge: the gorilla's third action (−2) is a simple draw, and Joshua soaks.
	evs = f.do(gm, attack("gorille", "joshua", "poing", 0))
	ad = find(t, evs, (*kav1.Event).GetAttackDrawn)
	require.Equal(t, int32(-2), ad.GetDraw().GetModifiers())
	require.Equal(t, int32(3+2-2+8), ad.GetDraw().GetTotal())
	require.False(t, ad.GetDefencePossible())
	require.Contains(t, ad.GetNoDefenceReason(), "KA-012")
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{1, 1, 3, 7, 0}, []int32{res.GetMargin(), res.GetBonus(), res.GetDamage(), res.GetSoak(), res.GetKaLost()})
	// KA-010: the gorilla's three actions are used too: round 2, full actions again.
	rs := find(t, evs, (*kav1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Equal(t, map[string]int32{"joshua": 2, "gorille": 3}, rs.GetActions())
	require.Zero(t, f.cs("gorille").GetActionsTaken(), "the malus starts again")
	// The first action of round 2 has no malus.
	f.do(player, attack("joshua", "gorille", "pistolet", 0))
	ad = find(t, f.do(gm, takeIt("gorille")), (*kav1.Event).GetAttackDrawn)
	require.Zero(t, ad.GetDraw().GetModifiers())
	f.replays()
}

// KA-014: each pass goes from the highest Animalité to the lowest; between a player
// character and a non-player character of equal Animalité, the player character first.
func TestKA014Order(t *testing.T) {
	t.Run("highest Animalité first", func(t *testing.T) {
		f := newFight(t, nil, dog(), joshua())
		f.start()
		f.refuse(gm, attack("chien", "joshua", "crocs", 0), engine.CodePrecondition, "KA-014", "Joshua")
		legal, err := f.Reg.Legal(f.St, "chien")
		require.NoError(t, err)
		require.Empty(t, legal)
		legal, err = f.Reg.Legal(f.St, "joshua")
		require.NoError(t, err)
		require.Contains(t, legalNames(legal), "attack")
	})
	t.Run("a player character before a non-player character", func(t *testing.T) {
		f := newFight(t, nil, brute(), joshua())
		f.start()
		f.refuse(gm, attack("brute", "joshua", "couteau", 0), engine.CodePrecondition, "KA-014", "Joshua")
		f.do(player, pass("joshua"))
		f.do(gm, pass("brute"))
	})
}

// KA-014: two non-player characters of equal Animalité act at the same time: either may
// declare first, and one putting the other out of the fight does not cancel the other's
// action in this pass.
func TestKA014SimultaneousAction(t *testing.T) {
	loup := func(id, name string) *encounterv1.Combatant {
		return who(id, name, false, 3, 2, 2, map[string]int32{"Bagarre": 3, "Esquive": 1}, 1, 1, 8, weapon("crocs", ka.Animalite, "Bagarre", 6))
	}
	f := newFight(t, nil, loup("gris", "Le loup gris"), loup("noir", "Le loup noir"), joshua())
	f.start(coupe(9), coupe(1), coupe(7), coupe(4))
	// Joshua (Animalité 4) passes; the two wolves are next, together.
	f.do(player, pass("joshua"))
	for _, id := range []string{"gris", "noir"} {
		legal, err := f.Reg.Legal(f.St, id)
		require.NoError(t, err)
		require.Contains(t, legalNames(legal), "attack", "%s may act now", id)
	}
	// The black wolf bites first: 3 + 3 + 9 = 15, the grey one takes it: +1 + 6 = 7,
	// soak Animalité 3 + 1 = 4: 3, one Ka die, its last (death draw: the ace).
	f.do(gm, attack("noir", "gris", "crocs", 0))
	evs := f.do(gm, takeIt("gris"))
	res := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{1, 0}, []int32{res.GetKaLost(), res.GetKaLeft()})
	require.True(t, res.GetDying())
	require.True(t, res.GetStillActs())
	require.Contains(t, res.GetNote(), "KA-014")
	require.True(t, f.cs("gris").GetStillActs())
	// The grey wolf's bite happens at the same time: it still takes it.
	none(t, evs, (*kav1.Event).GetPassStarted)
	f.do(gm, attack("gris", "noir", "crocs", 0))
	evs = f.do(gm, takeIt("noir"))
	ad := find(t, evs, (*kav1.Event).GetAttackDrawn) // 3 + 3 + 7 = 13
	require.Equal(t, int32(13), ad.GetDraw().GetTotal())
	res = find(t, evs, (*kav1.Event).GetAttackResolved)
	require.True(t, res.GetDying(), "both results apply")
	require.False(t, f.cs("gris").GetStillActs(), "it has taken its action")
	require.Zero(t, f.cs("noir").GetKaDice())
	f.replays()
}

// KA-014: the player character, acting first, puts the non-player character of equal
// Animalité out of the fight before it acts: that action is not simultaneous.
func TestKA014PlayerFirstIsNotSimultaneous(t *testing.T) {
	f := newFight(t, nil, joshua(), with(brute(), func(sh *kav1.Sheet) { sh.KaDice = 1 }))
	f.start(coupe(9), coupe(2))
	f.do(player, attack("joshua", "brute", "pistolet", 0))
	res := find(t, f.do(gm, takeIt("brute")), (*kav1.Event).GetAttackResolved)
	require.True(t, res.GetDying())
	require.False(t, res.GetStillActs())
	f.refuse(gm, attack("brute", "joshua", "couteau", 0), engine.CodePrecondition, "KA-025", "La brute")
}

// KA-015: in each pass a character takes at most one action; passes repeat until no one has
// actions left or wants to act; then a new round begins with full actions.
func TestKA015Passes(t *testing.T) {
	f := newFight(t, nil, joshua(), gorille())
	f.start(coupe(2), coupe(3), coupe(4))
	f.do(player, attack("joshua", "gorille", "pistolet", 0))
	f.do(gm, takeIt("gorille"))
	require.Equal(t, int32(1), f.ka().GetPassNumber())
	f.refuse(player, attack("joshua", "gorille", "pistolet", 0), engine.CodePrecondition, "KA-015", "Joshua")
	f.do(gm, attack("gorille", "joshua", "poing", 0))
	evs := f.do(player, takeIt("joshua"))
	// Both have acted: the second pass.
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())
	require.Equal(t, int32(2), f.ka().GetPassNumber())
	require.Equal(t, int32(1), f.ka().GetRound())
	// Joshua does not want to act any more this round; the gorilla goes on alone.
	f.do(player, pass("joshua"))
	require.True(t, f.cs("joshua").GetPassed())
	f.refuse(player, attack("joshua", "gorille", "pistolet", 0), engine.CodePrecondition, "KA-015", "Joshua")
	evs = f.do(gm, attack("gorille", "joshua", "poing", 0))
	// Joshua has passed but has an action left: he may still dodge; he takes it.
	require.Equal(t, []string{"joshua"}, find(t, evs, (*kav1.Event).GetAttackDeclared).GetPendingIds())
	evs = f.do(player, takeIt("joshua"))
	require.Equal(t, int32(3), find(t, evs, (*kav1.Event).GetPassStarted).GetPassNumber())
	evs = f.do(gm, pass("gorille"))
	rs := find(t, evs, (*kav1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Equal(t, int32(1), f.ka().GetPassNumber())
	require.Equal(t, map[string]int32{"joshua": 2, "gorille": 3}, rs.GetActions())
	require.False(t, f.cs("joshua").GetPassed())
	f.replays()
}

// KA-016: a round is a few seconds of game time however long it takes at the table: the
// round is a state of passes and actions, with no clock; whatever happens between the
// actions (here the GM's terror draws, and the table's time), the round goes on until the
// actions are used.
func TestKA016RoundIsNotTableTime(t *testing.T) {
	for _, m := range []protoreflect.MessageDescriptor{
		(&kav1.State{}).ProtoReflect().Descriptor(), (&kav1.CombatantState{}).ProtoReflect().Descriptor(),
		(&kav1.RoundStarted{}).ProtoReflect().Descriptor(), (&kav1.PassStarted{}).ProtoReflect().Descriptor(),
	} {
		for i := range m.Fields().Len() {
			fd := m.Fields().Get(i)
			if fd.Message() != nil {
				require.NotContains(t, []protoreflect.FullName{"google.protobuf.Timestamp", "google.protobuf.Duration"}, fd.Message().FullName(), "%s.%s", m.FullName(), fd.Name())
			}
		}
	}
	f := newFight(t, nil, joshua(), dog())
	f.start()
	f.do(player, pass("joshua"))
	for range 5 {
		f.do(gm, terror("joshua", 10))
	}
	require.Equal(t, []int32{1, 1}, []int32{f.ka().GetRound(), f.ka().GetPassNumber()})
	evs := f.do(gm, pass("chien"))
	require.Equal(t, int32(2), find(t, evs, (*kav1.Event).GetRoundStarted).GetRound())
}

// KA-015: when the GM removes the last combatant still to act in the pass, the next pass
// begins; removing the target of a burst awaiting its answer passes the word to the next.
func TestKA015RemovalMidPass(t *testing.T) {
	f := newFight(t, nil, joshua(), dog(), gorille())
	f.start(coupe(2))
	f.do(player, pass("joshua"))
	f.do(gm, pass("chien"))
	evs := f.do(gm, &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "gorille"}}})
	rs := find(t, evs, (*kav1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Equal(t, map[string]int32{"joshua": 2, "chien": 1}, rs.GetActions())
	f.replays()

	g := newFight(t, nil, tireur(), joshua(), molosse())
	g.start(coupe(2))
	g.do(gm, burst("tireur", "joshua", "chien"))
	require.Equal(t, "joshua", g.St.GetPending()[0].GetCombatantId())
	g.do(gm, &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "joshua"}}})
	require.Equal(t, "chien", g.St.GetPending()[0].GetCombatantId())
	res := find(t, g.do(gm, takeIt("chien")), (*kav1.Event).GetAttackResolved)
	require.Equal(t, int32(5+3-2+2-10), res.GetMargin())
	g.replays()
}

// A refused attack or disarm is an error, never a silent no-op (a shadowed error once made
// Decide return no events and no error).
func TestRefusalsAreErrors(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start()
	for _, cmd := range []*encounterv1.Command{
		attack("joshua", "chien", "bazooka", 0),
		attack("joshua", "personne", "pistolet", 0),
		attack("joshua", "joshua", "pistolet", 0),
		disarm("joshua", "chien", "Danse", ""),
		disarm("joshua", "personne", "Bagarre", ""),
	} {
		before := proto.CloneOf(f.St)
		evs, err := f.decide(player, cmd)
		require.Error(t, err, "%v", cmd)
		require.Empty(t, evs)
		require.True(t, proto.Equal(before, f.St))
	}
	f.refuse(player, attack("joshua", "chien", "", 0), engine.CodeInvalid, "", "Joshua")
	f.refuse(player, action(&kav1.Action{CombatantId: "joshua"}), engine.CodeInvalid, "", "Joshua")
}
