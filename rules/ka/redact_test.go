package ka_test

import (
	"maps"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The hidden gargoyle's sheet: names and numbers found nowhere else in the fight.
const (
	gargoyleWeapon = "Serres-de-Minuit"
	gargoyleSkill  = "Griffes-de-Basalte"
	gargoylePower  = "Pétrification-Ancienne"
	gargoyleSphere = "Ombres-Gargouillesques"
)

// gargoyleSheetNumbers: the numbers of its sheet; gargoyleSecrets adds what its draws make of
// them, from the recorded events.
var gargoyleSheetNumbers = []int32{19, 17, 16, 13, 12, 43, 67}

// gargoyle: GM-hidden, Animalité 19 (it acts first, KA-014), Humanité 17, lowest sphere 2
// (two actions, KA-010), one Ka die, 67 points de réalité, encaissement 0; its claws +43.
func gargoyle() *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: "gargouille", Name: "La gargouille", Controller: gm, Hidden: true, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres:       map[string]int32{ka.Animalite: 19, ka.Humanite: 17, gargoyleSphere: 2},
		Skills:        map[string]int32{gargoyleSkill: 16, ka.Dodge: 13},
		Powers:        map[string]int32{gargoylePower: 12},
		KaDice:        1,
		RealityPoints: 67,
		Weapons:       []*kav1.Weapon{weapon(gargoyleWeapon, ka.Animalite, gargoyleSkill, 43)},
	}}}
}

// hiddenFight plays a fight of Joshua against the hidden gargoyle under a reshuffle option,
// with the GM's rewind in it, and returns the registry, the log (commands recorded on the
// first event of each) and the state after each event.
func hiddenFight(t *testing.T, reshuffle string) (*engine.Registry, []*encounterv1.Event, []*encounterv1.EncounterState) {
	reg := engine.NewRegistry(ka.Released()...)
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var log []*encounterv1.Event
	var states []*encounterv1.EncounterState
	// The test's dice draw the planned cards in order (stacked), whatever the option: with
	// every_draw the discard returns before each draw, and the next planned card is taken
	// from the 56. A rewind restores the plan as it was at the event rewound to.
	plan := deckWith(t, baton(2), coupe(3), coupe(4), epee(5), denier(6), baton(7), coupe(8),
		denier(valet), denier(cavalier), baton(6), epee(9))
	plans := map[int][]*kav1.Card{}
	do := func(actor string, cmd *encounterv1.Command, rewindTo int) []*encounterv1.Event {
		t.Helper()
		plans[len(log)] = plan
		s := newStacked(t, st, plan)
		e := engine.Env{Actor: actor, Dice: s, Seed: make([]byte, dice.SeedSize)}
		if rewindTo > 0 {
			var err error
			e.RewindState, err = reg.Fold(log[:rewindTo])
			require.NoError(t, err)
		}
		evs, err := reg.Decide(st, cmd, e)
		require.NoError(t, err)
		evs[0].Command = proto.CloneOf(cmd)
		for _, ev := range evs {
			require.NoError(t, reg.Evolve(st, ev))
			log = append(log, ev)
			states = append(states, proto.CloneOf(st))
		}
		plan = withoutDrawn(plan, evs)
		if rewindTo > 0 {
			plan = plans[rewindTo]
		}
		return evs
	}
	do(gm, createCmd(&kav1.Options{Reshuffle: reshuffle}), 0)
	do(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { sh.KaDice = 14 })), 0)
	do(gm, addCmd(gargoyle()), 0)
	do(gm, startCmd(), 0)
	// Terror on the gargoyle: 19 + 0 − 5 + 2 = 16, it holds (KA-034); the GM rewinds it and
	// calls it again (the same card: the test's dice take it again; the seed's stream would
	// roll fresh dice).
	do(gm, terror("gargouille", -5), 0)
	do(gm, &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: uint64(len(log) - 1)}}}, len(log)-1)
	do(gm, terror("gargouille", -5), 0)
	// Round 1. The gargoyle's claws on Joshua, who dodges: 19 + 16 − 3 + 3 = 35 against
	// 4 + 2 + 4 = 10, margin 25, an exceptional success (KA-006, KA-007): 10 + 43 = 53 − soak
	// 4 + 3 = 46 → 10 Ka dice (KA-022…KA-024): Joshua has 4 left.
	do(gm, attack("gargouille", "joshua", gargoyleWeapon, -3), 0)
	do(player, dodge("joshua"), 0)
	// Joshua shoots it, it dodges: 3 + 4 − 1 + 5 = 11 against 17 + 13 − 1 + 6 = 35: no effect.
	do(player, attack("joshua", "gargouille", "pistolet", 0), 0)
	do(gm, dodge("gargouille"), 0)
	// Round 2. It disarms Joshua with its power: 17 + 12 + 7 = 36 against 3 + 4 + 8 = 15
	// (KA-032); Joshua picks the pistol up; the gargoyle passes; Joshua shoots, it takes it:
	// 3 + 4 − 1 + 10 + 10 + 6 = 32, margin 22, exceptional: 10 + 8 = 18 − soak 17 = 1 → its
	// one Ka die: it makes its death draw (KA-025).
	do(gm, disarm("gargouille", "joshua", gargoylePower, "pistolet"), 0)
	do(player, action(&kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_PickUp{PickUp: &kav1.PickUp{Weapon: "pistolet"}}}), 0)
	do(gm, pass("gargouille"), 0)
	do(player, attack("joshua", "gargouille", "pistolet", 0), 0)
	do(gm, react("", &kav1.React{}), 0)
	do(gm, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "la gargouille tombe"}}}, 0)
	return reg, log, states
}

// TestKaHiddenCombatantNeverReachesOthers: a combatant the GM hides is seen by a player of
// another combatant (and an observer) by name, order and appearance only; the numbers and
// names of its sheet appear in no state or event they read, while the player still sees its
// own combatant's losses and every outcome. The GM reads the recorded data whole. No card
// not yet drawn is anywhere: not in what any reader gets, not in the recorded events and
// states themselves (KA-003).
func TestKaHiddenCombatantNeverReachesOthers(t *testing.T) {
	for _, reshuffle := range []string{"on_empty", "every_draw"} {
		t.Run(reshuffle, func(t *testing.T) {
			reg, log, states := hiddenFight(t, reshuffle)
			final := states[len(states)-1]
			require.True(t, final.GetKa().GetCombatants()["gargouille"].GetDying(), "the fight went as scripted")
			secrets := gargoyleSecrets(log)
			numbers := secrets
			numbers.Words = nil
			player := engine.Viewer{Controls: map[string]bool{"joshua": true}}
			for _, r := range []struct {
				name string
				v    engine.Viewer
				sees bool
			}{
				{"Joshua's player", player, false},
				{"an observer", engine.Viewer{}, false},
				{"the GM", engine.Viewer{SeesAll: true}, true},
			} {
				t.Run(r.name, func(t *testing.T) {
					views := enginetest.ViewLog(reg, log, states, r.v)
					gmSawSecrets := false
					for i, ev := range log {
						seen, view := views[i], reg.View(states[i], r.v)
						// The cards not drawn yet: those left after the event but the ones it drew
						// (the discard may go back to the deck during a draw). Structurally, a
						// card is only ever in a draw or in the discard.
						undrawn := slices.DeleteFunc(ka.Left(states[i].GetKa().GetDiscard()), func(c *kav1.Card) bool { return drawnIn(ev, c) })
						for _, m := range []proto.Message{ev, seen, states[i], view} {
							requireNoCardOf(t, undrawn, m, "event %d", ev.GetSequence())
							requireCardsOnlyDrawn(t, m)
						}
						requireNoOrder(t, []*encounterv1.Event{ev, seen}, states[i], view)
						if r.sees {
							requireWhole(t, ev, seen, states[i], view)
							gmSawSecrets = gmSawSecrets || len(enginetest.Leaks(t, ev, numbers)) > 0
						} else {
							for _, m := range []proto.Message{seen, view} {
								require.Empty(t, enginetest.Leaks(t, m, secrets), "event %d: the gargoyle's names or numbers reach %s in %v", ev.GetSequence(), r.name, m)
							}
							// Redacted tells of what the rules withheld; the dice positions, which
							// no one but the GMs gets, are not counted.
							positionless := proto.CloneOf(ev)
							engine.WithholdDicePositions(positionless)
							require.Equal(t, !proto.Equal(seen, positionless), seen.GetRedacted())
							requireNoRollTellsOfTheGargoyle(t, ev, seen)
						}
					}
					if r.sees {
						require.True(t, gmSawSecrets, "the secret numbers are in the log: the search finds them when they are there")
					}
				})
			}

			// What the player sees of its own and of the outcome.
			seen := enginetest.ViewLog(reg, log, states, player)
			res := all(seen, (*kav1.Event).GetAttackResolved)
			require.Len(t, res, 3)
			// The gargoyle's claws: Joshua's soak 7, 10 Ka dice lost, 4 left (KA-023, KA-024).
			require.Equal(t, []any{true, int32(0), int32(0), int32(7), int32(10), int32(4), int32(15)},
				[]any{res[0].GetSuccess(), res[0].GetDamage(), res[0].GetMargin(), res[0].GetSoak(), res[0].GetKaLost(), res[0].GetKaLeft(), res[0].GetRealityLeft()})
			// Its dodge: Joshua's shot fails; the dodge's total is not seen.
			require.False(t, res[1].GetSuccess())
			def := all(seen, (*kav1.Event).GetDefenceDrawn)[1]
			require.Zero(t, def.GetDraw().GetTotal())
			require.Len(t, def.GetDraw().GetDraw().GetCards(), 1, "one card drawn, face down")
			require.Equal(t, kav1.Suit_SUIT_UNSPECIFIED, def.GetDraw().GetDraw().GetCards()[0].GetSuit())
			// Joshua's last shot: his own margin, level and damage, the outcome (dying, KA-025),
			// not its soak, nor the Ka dice or points it has left, nor the death draw's card.
			last := res[2]
			require.Equal(t, []any{true, int32(3), int32(18), true}, []any{last.GetSuccess(), last.GetLevel(), last.GetDamage(), last.GetDying()})
			require.Equal(t, []int32{0, 0, 0, 0}, []int32{last.GetMargin(), last.GetSoak(), last.GetKaLeft(), last.GetRealityLeft()})
			require.Equal(t, kav1.Suit_SUIT_UNSPECIFIED, last.GetDeathDraw().GetDraw().GetCards()[0].GetSuit())
			require.Contains(t, last.GetNote(), "makes its death draw")
			// The disarm: Joshua's resistance and that he loses his pistol; the gargoyle's draw
			// face down.
			d := all(seen, (*kav1.Event).GetDisarmDrawn)[0]
			require.Equal(t, []any{true, "pistolet", int32(15), int32(0)}, []any{d.GetSuccess(), d.GetWeapon(), d.GetResistance().GetTotal(), d.GetDraw().GetTotal()})

			// The state: its name, appearance and place in the pass; none of its numbers.
			mid := reg.View(states[slices.IndexFunc(log, func(ev *encounterv1.Event) bool { return ev.GetKa().GetDisarmDrawn() != nil })], player)
			g := engine.FindCombatant(mid, "gargouille")
			require.Equal(t, "La gargouille", g.GetName())
			require.Nil(t, g.GetKa())
			require.Equal(t, encounterv1.Appearance_APPEARANCE_FIGHTING, g.GetAppearance())
			require.Equal(t, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED, engine.FindCombatant(mid, "joshua").GetAppearance(), "10 of 14 Ka dice lost")
			gs := mid.GetKa().GetCombatants()["gargouille"]
			require.Equal(t, []int32{0, 0, 0, 1}, []int32{gs.GetKaDice(), gs.GetRealityPoints(), gs.GetActionsLeft(), gs.GetActionsTaken()})
			require.Equal(t, []string{"joshua"}, mid.GetKa().GetUpNext(), "Joshua acts next in the pass (KA-014)")
			require.Equal(t, int32(4), mid.GetKa().GetCombatants()["joshua"].GetKaDice())
			require.Equal(t, encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT, engine.FindCombatant(reg.View(final, player), "gargouille").GetAppearance())
		})
	}
}

// TestKaNoDeckOrderExists: no order of the cards not yet drawn exists, in the recorded log
// or in a state: the start records the deck's composition (56 cards) and nothing rolled, the
// state the count of cards left and the discard, each card marked with who drew it, face
// down for a reader from whom the drawer is hidden (KA-003). Every reader, the GM included,
// reads the same count.
func TestKaNoDeckOrderExists(t *testing.T) {
	reg, log, states := hiddenFight(t, "on_empty")
	requireNoOrder(t, log, states...)
	gmView := engine.Viewer{SeesAll: true}
	start := slices.IndexFunc(log, func(ev *encounterv1.Event) bool { return ev.GetKa().GetDeckShuffled() != nil })
	require.True(t, proto.Equal(&kav1.DeckShuffled{Cards: 56}, log[start].GetKa().GetDeckShuffled()))
	require.False(t, reg.ViewEvent(states[start-1], log[start], engine.Viewer{}).GetRedacted(), "nothing to withhold")

	final := states[len(states)-1]
	require.Equal(t, int32(56-len(final.GetKa().GetDiscard())), final.GetKa().GetDeckCount())
	for _, v := range []engine.Viewer{gmView, {Controls: map[string]bool{"joshua": true}}, {}} {
		view := reg.View(final, v)
		require.Equal(t, final.GetKa().GetDeckCount(), view.GetKa().GetDeckCount())
		require.Len(t, view.GetKa().GetDiscard(), len(final.GetKa().GetDiscard()))
	}
	// Who drew each card of the discard (KA-003): the terror draw rewound is not there.
	var by []string
	for _, c := range final.GetKa().GetDiscard() {
		by = append(by, c.GetDrawnBy())
	}
	require.Equal(t, []string{"gargouille", "gargouille", "joshua", "joshua", "gargouille", "gargouille", "joshua", "joshua", "joshua", "joshua", "gargouille"}, by)
	player := reg.View(final, engine.Viewer{Controls: map[string]bool{"joshua": true}}).GetKa().GetDiscard()
	for i, c := range player {
		require.Equal(t, by[i] == "gargouille", c.GetRank() == 0, "card %d, drawn by %s", i, by[i])
	}
	require.True(t, proto.Equal(final.GetKa().GetDiscard()[2], reg.View(final, engine.Viewer{}).GetKa().GetDiscard()[2]), "Joshua's cards are seen face up")
}

// TestKaRollsTellNothingOfHiddenCards: a draw's roll counts the cards left (KA-003), so once
// the hidden gargoyle's cards are out of the deck, the faces of Joshua's draws would tell of
// them: his player gets his cards and not those rolls, the GM gets them all; before the
// gargoyle draws, and after the discard returns (every_draw), Joshua's rolls are his
// player's to read.
func TestKaRollsTellNothingOfHiddenCards(t *testing.T) {
	player := engine.Viewer{Controls: map[string]bool{"joshua": true}}
	for _, reshuffle := range []string{"on_empty", "every_draw"} {
		t.Run(reshuffle, func(t *testing.T) {
			reg, log, states := hiddenFight(t, reshuffle)
			var kept, withheld int
			for i, ev := range log[1:] {
				if ev.GetKa() == nil {
					continue
				}
				for _, d := range draws(ev.GetKa()) {
					require.NotEmpty(t, d.GetRolls(), "every card but the last left is rolled for")
				}
				seen := reg.ViewEvent(states[i], ev, player)
				gm := reg.ViewEvent(states[i], ev, engine.Viewer{SeesAll: true})
				require.True(t, proto.Equal(ev, gm), "the GM reads the rolls")
				for k, d := range draws(seen.GetKa()) {
					switch recorded := draws(ev.GetKa())[k]; {
					case slices.Contains(recorded.GetDiscardBy(), "gargouille"):
						require.Empty(t, d.GetRolls(), "event %d: %v", ev.GetSequence(), recorded)
						withheld++
					case !faceDown(d):
						// His faces, not where they sit in the dice stream (engine.View).
						want := proto.CloneOf(recorded)
						engine.WithholdDicePositions(want)
						require.NotZero(t, recorded.GetRolls()[0].GetDraws())
						require.Equal(t, want.GetRolls(), d.GetRolls())
						kept++
					}
				}
			}
			// on_empty: the gargoyle draws first, and its card stays out; every_draw: the discard
			// goes back before each draw.
			require.Equal(t, []bool{reshuffle == "on_empty", reshuffle == "every_draw"}, []bool{withheld > 0, kept > 0})
		})
	}
}

// draws is the draws of a Ka event.
func draws(e *kav1.Event) []*kav1.Draw {
	var out []*kav1.Draw
	eachMessage(e, func(m protoreflect.Message) {
		if d, ok := m.Interface().(*kav1.Draw); ok {
			out = append(out, d)
		}
	})
	return out
}

// faceDown: the draw's cards are face down.
func faceDown(d *kav1.Draw) bool {
	return len(d.GetCards()) > 0 && d.GetCards()[0].GetSuit() == kav1.Suit_SUIT_UNSPECIFIED
}

// requireNoRollTellsOfTheGargoyle: no roll in what a player or observer reads was made with
// the gargoyle's cards out of the deck or draws its cards.
func requireNoRollTellsOfTheGargoyle(t *testing.T, ev, seen *encounterv1.Event) {
	t.Helper()
	for k, d := range draws(seen.GetKa()) {
		if recorded := draws(ev.GetKa())[k]; slices.Contains(recorded.GetDiscardBy(), "gargouille") || faceDown(d) {
			require.Empty(t, d.GetRolls(), "event %d", ev.GetSequence())
		}
	}
}

func TestKaAppearance(t *testing.T) {
	st := &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{gargoyle()}, System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{}}}
	with := func(cs *kav1.CombatantState, sheetKa int32) *encounterv1.EncounterState {
		out := proto.CloneOf(st)
		out.Combatants[0].GetKa().KaDice = sheetKa
		out.GetKa().Combatants = map[string]*kav1.CombatantState{"gargouille": cs}
		return out
	}
	for _, c := range []struct {
		name string
		st   *encounterv1.EncounterState
		want encounterv1.Appearance
	}{
		{"unhurt", with(&kav1.CombatantState{KaDice: 4, RealityPoints: 67}, 4), encounterv1.Appearance_APPEARANCE_FIGHTING},
		{"a Ka die lost (KA-024)", with(&kav1.CombatantState{KaDice: 3, RealityPoints: 67}, 4), encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"stunned, a few points lost (KA-030)", with(&kav1.CombatantState{KaDice: 4, RealityPoints: 60}, 4), encounterv1.Appearance_APPEARANCE_WOUNDED},
		{"half its Ka dice lost", with(&kav1.CombatantState{KaDice: 2, RealityPoints: 67}, 4), encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{"half its points lost", with(&kav1.CombatantState{KaDice: 4, RealityPoints: 33}, 4), encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{"knocked out (KA-027, KA-031)", with(&kav1.CombatantState{KaDice: 4, RealityPoints: 50, Unconscious: true}, 4), encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"dying (KA-025)", with(&kav1.CombatantState{Dying: true}, 4), encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"no Ka dice", with(&kav1.CombatantState{RealityPoints: 67}, 4), encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT},
		{"in Abysse, unhurt (KA-034)", with(&kav1.CombatantState{KaDice: 4, RealityPoints: 67, Abysse: true}, 4), encounterv1.Appearance_APPEARANCE_FIGHTING},
		{"not in the state", st, encounterv1.Appearance_APPEARANCE_FIGHTING},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, ka.New(ka.Latest).Appearance(c.st, "gargouille"))
		})
	}
}

// TestKaRedactedNotes: a hidden target's seuil and points de réalité leave the notes; the
// outcome stays (KA-027, KA-031, KA-025).
func TestKaRedactedNotes(t *testing.T) {
	ev := &encounterv1.Event{Payload: &encounterv1.Event_Ka{Ka: &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{
		AttackerId: "joshua", TargetId: "gargouille", Success: true, Damage: 61, Unconscious: true, Dying: true,
		Note: "61 points at once reach the seuil of 57: knocked out (KA-027, KA-031); no points de réalité left: knocked out, and one Ka die lost (KA-031); La gargouille has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)",
	}}}}}
	ka.New(ka.Latest).RedactEvent(ev, func(id string) bool { return id == "gargouille" })
	require.Equal(t, "the blow reaches its seuil at once: knocked out (KA-027, KA-031); knocked out (KA-031); La gargouille has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)",
		ev.GetKa().GetAttackResolved().GetNote())
	require.Equal(t, int32(61), ev.GetKa().GetAttackResolved().GetDamage(), "Joshua's own damage")
}

// gargoyleSecrets: the names of the gargoyle's sheet; its sheet numbers, and the totals,
// damage and tracks its draws and the attacks on it recorded, searched in every integer field
// but the public counts and the dice's rolls (those of a hidden card's draw are checked apart:
// requireNoRollTellsOfTheGargoyle).
func gargoyleSecrets(log []*encounterv1.Event) enginetest.Secrets {
	set := map[int64]bool{}
	for _, n := range gargoyleSheetNumbers {
		set[int64(n)] = true
	}
	add := func(ns ...int32) {
		for _, n := range ns {
			if n != 0 {
				set[int64(n)] = true
			}
		}
	}
	for _, ev := range log {
		switch k := ev.GetKa().GetKind().(type) {
		case *kav1.Event_AttackDrawn:
			if k.AttackDrawn.GetAttackerId() == "gargouille" {
				add(k.AttackDrawn.GetDraw().GetTotal())
			}
		case *kav1.Event_DefenceDrawn:
			if k.DefenceDrawn.GetDefenderId() == "gargouille" {
				add(k.DefenceDrawn.GetDraw().GetTotal())
			}
		case *kav1.Event_TerrorDrawn:
			add(k.TerrorDrawn.GetDraw().GetTotal())
		case *kav1.Event_DisarmDrawn:
			add(k.DisarmDrawn.GetDraw().GetTotal())
		case *kav1.Event_AttackResolved:
			if r := k.AttackResolved; r.GetAttackerId() == "gargouille" {
				add(r.GetDamage(), r.GetMargin())
			} else if r.GetTargetId() == "gargouille" {
				add(r.GetSoak(), r.GetRealityLeft())
			}
		}
	}
	return enginetest.Secrets{Words: []string{gargoyleWeapon, gargoyleSkill, gargoylePower, gargoyleSphere},
		Numbers: slices.Sorted(maps.Keys(set)), Ignore: public, Skip: []protoreflect.FullName{"fray.dice.v1.Roll"}}
}

// public: the counts and places every reader sees, whatever numbers they hold.
var public = []protoreflect.Name{"sequence", "to_sequence", "round", "pass_number",
	"position", "positions", "reshuffle_after", "deck_count", "cards", "rank",
	"suit", "actions_taken", "dice_offset", "rules_version", "status", "appearance"}

// requireNoCardOf: no card of deck (the cards not yet drawn) is in m.
func requireNoCardOf(t *testing.T, deck []*kav1.Card, m proto.Message, msgAndArgs ...any) {
	t.Helper()
	undrawn := map[[2]int32]bool{}
	for _, c := range deck {
		undrawn[[2]int32{int32(c.GetSuit()), c.GetRank()}] = true
	}
	eachMessage(m, func(m protoreflect.Message) {
		if c, ok := m.Interface().(*kav1.Card); ok {
			require.False(t, undrawn[[2]int32{int32(c.GetSuit()), c.GetRank()}], "%v: a card not yet drawn is read: %v", msgAndArgs, c)
		}
	})
}

// drawnIn reports whether the event draws card c.
func drawnIn(ev *encounterv1.Event, c *kav1.Card) bool {
	found := false
	eachMessage(ev, func(m protoreflect.Message) {
		if d, ok := m.Interface().(*kav1.Draw); ok {
			found = found || slices.ContainsFunc(d.GetCards(), func(x *kav1.Card) bool { return x.GetSuit() == c.GetSuit() && x.GetRank() == c.GetRank() })
		}
	})
	return found
}

// eachMessage calls f on m and on every message within it (maps aside: no Ka map holds one).
func eachMessage(m proto.Message, f func(protoreflect.Message)) {
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		f(m)
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Message() == nil || fd.IsMap():
			case fd.IsList():
				for i := range v.List().Len() {
					walk(v.List().Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return true
		})
	}
	walk(m.ProtoReflect())
}

// requireCardsOnlyDrawn: a card is in m only among a draw's cards or the discard (KA-003):
// nothing else holds one.
func requireCardsOnlyDrawn(t *testing.T, m proto.Message) {
	t.Helper()
	eachMessage(m, func(m protoreflect.Message) {
		m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
			if fd.Message() != nil && fd.Message().FullName() == "fray.ka.v1.Card" {
				where := string(m.Descriptor().Name()) + "." + string(fd.Name())
				require.Contains(t, []string{"Draw.cards", "State.discard"}, where)
			}
			return true
		})
	})
}

// requireWhole: the GM's view of an event and a state is the recorded data (but, in a state,
// the appearance filled in and a live encounter's seed).
func requireWhole(t *testing.T, ev, seen *encounterv1.Event, st, view *encounterv1.EncounterState) {
	t.Helper()
	want := proto.CloneOf(ev)
	if rw := want.GetEncounterRewound(); rw != nil {
		rw.GetState().Seed = nil
	}
	want.Redacted = !proto.Equal(want, ev)
	if rw := seen.GetEncounterRewound(); rw != nil { // the rewound state is read with the appearances filled in
		for _, c := range rw.GetState().GetCombatants() {
			want.Redacted = want.GetRedacted() || c.GetAppearance() != encounterv1.Appearance_APPEARANCE_UNSPECIFIED
			c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED
		}
	}
	require.True(t, proto.Equal(want, seen), "event %d: the GM reads it whole:\n%v\n%v", ev.GetSequence(), want, seen)
	wantSt := proto.CloneOf(st)
	if wantSt.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		wantSt.Seed = nil
	}
	got := proto.CloneOf(view)
	for _, c := range got.GetCombatants() {
		require.NotEqual(t, encounterv1.Appearance_APPEARANCE_UNSPECIFIED, c.GetAppearance())
		c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED
	}
	got.SidesStanding, got.FightOver = nil, false // filled in reads, as appearances are
	require.True(t, proto.Equal(wantSt, got), "state after event %d: the GM reads it whole", ev.GetSequence())
}

// TestKaRefusalKeepsAHiddenAnimaliteSecret: the order of the pass is seen, not the Animalité
// of a hidden combatant up first (KA-014).
func TestKaRefusalKeepsAHiddenAnimaliteSecret(t *testing.T) {
	f := newFight(t, nil, joshua(), gargoyle())
	f.start()
	re := f.refuse(player, attack("joshua", "gargouille", "pistolet", 0), engine.CodePrecondition, "KA-014", "it is La gargouille's turn first")
	require.NotContains(t, re.Msg, "19")
	shown := gargoyle()
	shown.Hidden = false
	f = newFight(t, nil, joshua(), shown)
	f.start()
	f.refuse(player, attack("joshua", "gargouille", "pistolet", 0), engine.CodePrecondition, "KA-014", "(Animalité 19 against Joshua's 4)")
}
