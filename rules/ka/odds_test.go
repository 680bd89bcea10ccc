package ka_test

import (
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func kaWho(id, controller string, a, h int32, skills map[string]int32, enc, kaDice, reality int32, ws ...*kav1.Weapon) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres: map[string]int32{ka.Animalite: a, ka.Humanite: h, "Spiritualité": 2}, Skills: skills,
		Encaissement: enc, KaDice: kaDice, RealityPoints: reality, PlayerCharacter: controller != oddstest.GM, Weapons: ws,
	}}}
}

// joshua and the dog of KA-T01…KA-T04: a handgun +8 (Humanité + Arme à feu 4), the butt +3
// (Animalité + Bagarre 2); the dog Esquive 4, encaissement 3, 2 Ka dice, 10 points de réalité.
func kaFight(t testing.TB, opts *kav1.Options, dogKa int32) *encounterv1.EncounterState {
	var ro *encounterv1.RuleOptions
	if opts != nil {
		ro = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: opts}}
	}
	joshua := kaWho("joshua", "david", 4, 3, map[string]int32{"Arme à feu": 4, "Bagarre": 2, "Esquive": 2}, 3, 5, 15,
		&kav1.Weapon{Name: "pistolet", Sphere: ka.Humanite, Skill: "Arme à feu", Damage: 8},
		&kav1.Weapon{Name: "crosse", Sphere: ka.Animalite, Skill: "Bagarre", Damage: 3})
	dog := kaWho("chien", oddstest.GM, 3, 1, map[string]int32{"Esquive": 4, "Bagarre": 3}, 3, dogKa, 10,
		&kav1.Weapon{Name: "crocs", Sphere: ka.Animalite, Skill: "Bagarre", Damage: 2})
	return oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "cul-de-sac", RuleSystem: "ka", Options: ro}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: joshua}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: dog}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: nil},
	)
}

func kaShot(weapon string, mod int32, stun bool) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Attack{
		Attack: &kav1.Attack{TargetId: "chien", Weapon: weapon, Modifier: mod, Stun: stun}}}}}
}

// discardFirst puts the first n cards of the minor arcana in the discard, drawn by joshua.
func discardFirst(st *encounterv1.EncounterState, n int) {
	s := st.GetKa()
	s.Discard = nil
	for _, c := range ka.NewDeck()[:n] {
		s.Discard = append(s.Discard, &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank(), DrawnBy: "joshua"})
	}
	s.Position = int32(n)
	s.DeckCount = int32(ka.DeckSize - n)
}

// TestKaOddsAgreeWithDecide: taken and dodged, the chance of each success level, of the target
// out of the fight and the Ka dice (or points de réalité) lost agree with the real Decide on
// the dice stream, the cards drawn from those left (KA-001…KA-007, KA-009, KA-020…KA-025,
// KA-030, KA-031).
func TestKaOddsAgreeWithDecide(t *testing.T) {
	oddstest.Agreement(t)
	for _, c := range []struct {
		name    string
		opts    *kav1.Options
		cmd     *encounterv1.Command
		discard int
		dogKa   int32
	}{
		{name: "KA-T02: the handgun, -2 for proximity, a full deck", cmd: kaShot("pistolet", -2, false), dogKa: 2},
		{name: "five cards left, four of them faces: the deck runs out mid-draw (KA-003)", cmd: kaShot("pistolet", 0, false), discard: 51, dogKa: 4},
		{name: "KA-T04: a stun with the butt, +3 (KA-030, KA-031)", cmd: kaShot("crosse", 3, true), discard: 20, dogKa: 2},
		{name: "every_draw reshuffles (KA-003 option)", opts: &kav1.Options{Reshuffle: "every_draw"}, cmd: kaShot("pistolet", -2, false), discard: 30, dogKa: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := kaFight(t, c.opts, c.dogKa)
			discardFirst(st, c.discard)
			o, err := odds.Of(oddstest.Reg, st, c.cmd, "david")
			require.NoError(t, err)
			require.Zero(t, o.GetLeftOut())
			_, declared := oddstest.ApplyEvents(t, st, "david", c.cmd, nil)
			tallies := map[string]*oddstest.Tally{"none": oddstest.NewTally(), "defended": oddstest.NewTally()}
			for i := range oddstest.Samples() {
				for k, re := range map[string]*kav1.React{"none": {}, "defended": {Defend: true}} {
					seed := i
					if k == "defended" {
						seed += 1 << 30
					}
					evs, err := oddstest.Reg.Decide(declared, &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "chien",
						Kind: &kav1.Action_React{React: re}}}}, engine.Env{Actor: oddstest.GM, Dice: oddstest.Stream(t, seed)})
					require.NoError(t, err)
					var res *kav1.AttackResolved
					for _, ev := range evs {
						if r := ev.GetKa().GetAttackResolved(); r != nil && res == nil {
							res = r
						}
					}
					tl := tallies[k]
					tl.N++
					tl.See("level." + oddstest.Itoa(int64(res.GetLevel())))
					if res.GetUnconscious() || res.GetDying() {
						tl.See("out")
					}
					tl.See("ka=" + oddstest.Itoa(int64(res.GetKaLost())))
					tl.Value("ka", float64(res.GetKaLost()))
					tl.See("reality=" + oddstest.Itoa(int64(res.GetRealityLost())))
					tl.Value("reality", float64(res.GetRealityLost()))
				}
			}
			for k, tl := range tallies {
				s := oddstest.Section(t, o, k)
				require.Empty(t, s.GetUnavailable())
				for _, ch := range s.GetChances() {
					tl.Agree(t, ch.GetKey(), ch.GetProbability())
				}
				for _, d := range s.GetDistributions() {
					tl.AgreeDist(t, d.GetKey(), d)
				}
			}
		})
	}
}

// TestKaOddsByHand: KA-T03's second shot scores 3 + 4 − 1 − 2 = 4 (here the first, without
// the −1: 5); taken, it succeeds when the cards give 5 or more: a pip of 5 to 10 (24 of the 56
// cards) or a face (16), so fails with 16/56 (KA-002, KA-005, KA-006).
func TestKaOddsByHand(t *testing.T) {
	o, err := odds.Of(oddstest.Reg, kaFight(t, nil, 2), kaShot("pistolet", -2, false), "david")
	require.NoError(t, err)
	none := oddstest.Section(t, o, "none")
	require.InDelta(t, 16.0/56, oddstest.ChanceOf(t, none, "level.0"), 1e-12)
	require.Equal(t, "an attack on chien: 5 + the cards", o.GetSummary())
	// A pip of 5 to 10 gives margins 0…5, a normal success (24/56); a face then a pip gives
	// 15 + pip: margins 6…15 (great from margin 10, i.e. a pip ≥ 5 after one face).
	require.InDelta(t, 24.0/56+16.0/56*(4*4.0)/55, oddstest.ChanceOf(t, none, "level.1"), 1e-12)
}

// TestKaEveryDrawReshufflesFirst: with reshuffle every_draw the discard returns to the deck
// before each draw (KA-003): the odds are those of a whole deck whatever the discard holds.
func TestKaEveryDrawReshufflesFirst(t *testing.T) {
	every := &kav1.Options{Reshuffle: "every_draw"}
	whole, err := odds.Of(oddstest.Reg, kaFight(t, every, 2), kaShot("pistolet", -2, false), "david")
	require.NoError(t, err)
	st := kaFight(t, every, 2)
	discardFirst(st, 51)
	thin, err := odds.Of(oddstest.Reg, st, kaShot("pistolet", -2, false), "david")
	require.NoError(t, err)
	require.True(t, proto.Equal(whole, thin))
	st = kaFight(t, nil, 2)
	discardFirst(st, 51)
	onEmpty, err := odds.Of(oddstest.Reg, st, kaShot("pistolet", -2, false), "david")
	require.NoError(t, err)
	require.False(t, proto.Equal(whole, onEmpty), "on_empty draws from the five cards left")
}

// leaveOnly puts every card of the minor arcana but left in the discard.
func leaveOnly(st *encounterv1.EncounterState, left ...*kav1.Card) {
	s := st.GetKa()
	s.Discard = nil
	for _, c := range ka.NewDeck() {
		if !slices.ContainsFunc(left, func(l *kav1.Card) bool { return l.GetSuit() == c.GetSuit() && l.GetRank() == c.GetRank() }) {
			s.Discard = append(s.Discard, &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank(), DrawnBy: "joshua"})
		}
	}
	s.Position = int32(len(s.GetDiscard()))
	s.DeckCount = int32(ka.DeckSize - len(s.GetDiscard()))
}

// TestKaOddsWithTwoCardsLeft: two cards left, Joshua (3 + 4 − 2 = 5) draws one and the dog
// (Humanité 1 + Esquive 4 = 5) the other (KA-003, KA-009). With a 5 and a 4: Joshua's 10
// against 9 wins with margin 10 − max(9, 10) = 0, a normal success, half the time (KA-007);
// with two 5s, 10 against 10 is a tie, which goes to the defender: no success at all; taken,
// 10 is a normal success (KA-005, KA-006). Four levels are listed, then the target out.
func TestKaOddsWithTwoCardsLeft(t *testing.T) {
	for _, c := range []struct {
		name            string
		left            []*kav1.Card
		dodged, dodged0 float64
	}{
		{name: "a 5 and a 4", left: []*kav1.Card{{Suit: kav1.Suit_SUIT_EPEE, Rank: 5}, {Suit: kav1.Suit_SUIT_EPEE, Rank: 4}}, dodged: 0.5, dodged0: 0.5},
		{name: "two 5s", left: []*kav1.Card{{Suit: kav1.Suit_SUIT_EPEE, Rank: 5}, {Suit: kav1.Suit_SUIT_DENIER, Rank: 5}}, dodged: 0, dodged0: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := kaFight(t, nil, 2)
			leaveOnly(st, c.left...)
			o, err := odds.Of(oddstest.Reg, st, kaShot("pistolet", -2, false), "david")
			require.NoError(t, err)
			d := oddstest.Section(t, o, "defended")
			require.Len(t, d.GetChances(), 5)
			require.InDelta(t, c.dodged, oddstest.ChanceOf(t, d, "level.1"), 1e-12)
			require.InDelta(t, c.dodged0, oddstest.ChanceOf(t, d, "level.0"), 1e-12)
			require.Zero(t, oddstest.ChanceOf(t, d, "out"), "1 + 8 − 4 soak = 5: 1 Ka die of the dog's 2 (KA-024)")
			require.InDelta(t, c.dodged, oddstest.ProbOf(oddstest.DistOf(t, d, "ka"), 1), 1e-12, "a success at margin 0 deals its damage (KA-022)")
			n := oddstest.Section(t, o, "none")
			require.InDelta(t, 1, oddstest.ChanceOf(t, n, "level.1")+oddstest.ChanceOf(t, n, "level.0"), 1e-12)
		})
	}
}

// TestKaStunAtTheSeuil: a stun of exactly the seuil knocks out (KA-027, KA-031). The dog with
// encaissement 1 has a seuil of (1 + 1) × 3 = 6 (KA-026); the butt, made to deal 5, with a
// normal success (+1, KA-006) stuns for 6 points de réalité, no soak (KA-030): knocked out,
// its 10 points not all gone, no Ka die lost.
func TestKaStunAtTheSeuil(t *testing.T) {
	st := kaFight(t, nil, 2)
	dog := engine.FindCombatant(st, "chien").GetKa()
	dog.Encaissement = 1
	engine.FindCombatant(st, "joshua").GetKa().Weapons[1].Damage = 5
	leaveOnly(st, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 5}, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 4})
	require.Equal(t, int32(6), ka.New(ka.Latest).Seuil(dog))
	// Animalité 4 + Bagarre 2 − 5 = 1; taken: 1 + 5 = 6 or 1 + 4 = 5, both failures.
	o, err := odds.Of(oddstest.Reg, st, kaShot("crosse", -5, true), "david")
	require.NoError(t, err)
	require.InDelta(t, 1, oddstest.ChanceOf(t, oddstest.Section(t, o, "none"), "level.0"), 1e-12)
	// + 4: 10 + 5 or 10 + 4, margins 5 and 4, normal successes: 1 + 5 = 6 points, the seuil.
	o, err = odds.Of(oddstest.Reg, st, kaShot("crosse", 4, true), "david")
	require.NoError(t, err)
	n := oddstest.Section(t, o, "none")
	require.InDelta(t, 1, oddstest.ChanceOf(t, n, "level.1"), 1e-12)
	require.InDelta(t, 1, oddstest.ChanceOf(t, n, "out"), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, n, "reality"), 6), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, n, "ka"), 0), 1e-12)
}

// TestKaStunOfADogWithoutPoints: a stun on a victim with no points de réalité left takes no
// Ka die: the die goes when the points reach 0 (KA-031), and they were already gone.
func TestKaStunOfADogWithoutPoints(t *testing.T) {
	st := kaFight(t, nil, 2)
	st.GetKa().GetCombatants()["chien"].RealityPoints = 0
	leaveOnly(st, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 5}, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 4})
	o, err := odds.Of(oddstest.Reg, st, kaShot("crosse", 4, true), "david")
	require.NoError(t, err)
	n := oddstest.Section(t, o, "none")
	require.InDelta(t, 1, oddstest.ChanceOf(t, n, "level.1"), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, n, "ka"), 0), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, n, "reality"), 0), 1e-12)
}

// TestKaOddsNameTheLevels: the levels are named (KA-006), and an encounter with more success
// levels (option success_levels) gets them all, the fourth by its number: with thresholds 5,
// 10 and 20, Joshua's 5 + a 5 or a 4 taken (margins 0 and −1) is a normal success or a
// failure, never above; with a 10 and a 9 left, margins 5 and 4: the second level or the first.
func TestKaOddsNameTheLevels(t *testing.T) {
	st := kaFight(t, &kav1.Options{SuccessLevels: []int32{5, 10, 20}, SuccessBonus: []int32{1, 3, 5, 10}}, 2)
	leaveOnly(st, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 10}, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 9})
	o, err := odds.Of(oddstest.Reg, st, kaShot("pistolet", -2, false), "david")
	require.NoError(t, err)
	n := oddstest.Section(t, o, "none")
	var labels []string
	for _, c := range n.GetChances() {
		labels = append(labels, c.GetLabel())
	}
	require.Equal(t, []string{"failure", "normal success", "great success", "exceptional success", "level 4", "the target is out of the fight"}, labels)
	require.InDelta(t, 0.5, oddstest.ChanceOf(t, n, "level.2"), 1e-12)
	require.InDelta(t, 0.5, oddstest.ChanceOf(t, n, "level.1"), 1e-12)
	require.Zero(t, oddstest.ChanceOf(t, n, "level.4"))
}

// TestKaOddsOfABurst: a burst on one target (KA-033) draws with Animalité, −1, and deals +12,
// soaked with Animalité: Joshua's 4 + Arme à feu 4 − 1 = 7, with a 5 or a 4 left, margins 2
// and 1, normal successes (+1): 13 − (3 + 3) = 7 → 2 Ka dice (KA-024), the dog's last two.
func TestKaOddsOfABurst(t *testing.T) {
	st := kaFight(t, nil, 2)
	j := engine.FindCombatant(st, "joshua").GetKa()
	j.Weapons = append(j.Weapons, &kav1.Weapon{Name: "pistolet-mitrailleur", Sphere: ka.Humanite, Skill: "Arme à feu", Damage: 6, Burst: true})
	leaveOnly(st, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 5}, &kav1.Card{Suit: kav1.Suit_SUIT_EPEE, Rank: 4})
	o, err := odds.Of(oddstest.Reg, st, &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Attack{
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet-mitrailleur", Burst: true}}}}}, "david")
	require.NoError(t, err)
	n := oddstest.Section(t, o, "none")
	require.Equal(t, "an attack on chien: 7 + the cards", o.GetSummary())
	require.InDelta(t, 1, oddstest.ChanceOf(t, n, "level.1"), 1e-12)
	require.InDelta(t, 1, oddstest.ProbOf(oddstest.DistOf(t, n, "ka"), 2), 1e-12)
	require.InDelta(t, 1, oddstest.ChanceOf(t, n, "out"), 1e-12)
}

// TestOddsUseOnlyWhatTheCallerSees: with the target hidden from the player, the odds computed
// on the player's view are the same whatever the target's numbers are, and say its numbers
// are hidden; the GM, who sees all, gets odds that change with them (KA-007).
func TestOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	oddstest.Hidden(t, kaFight(t, nil, 2), kaShot("pistolet", -2, false), "joshua", "chien",
		func(c *encounterv1.Combatant) { c.GetKa().Skills["Esquive"] = 9; c.GetKa().Encaissement = 6 })
}
