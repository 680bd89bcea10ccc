package commands

import (
	"strconv"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

func kaEv(seq uint64, e *kav1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_Ka{Ka: e}}
}

// kaDraw is a draw of sphere + skill + the modifiers of reasons ("-2 situation") + cards, the
// cards at deck positions from position on (KA-002, KA-004).
func kaDraw(sphere string, sv int32, skill string, skv int32, position int32, reasons []string, cards ...*kav1.Card) *kav1.DrawResult {
	r := &kav1.DrawResult{Sphere: sphere, SphereValue: sv, Skill: skill, SkillValue: skv, ModifierReasons: reasons,
		Draw: &kav1.Draw{Cards: cards, Position: position}}
	for _, m := range reasons {
		v, _ := strconv.Atoi(strings.Fields(m)[0])
		r.Modifiers += int32(v)
	}
	for i, c := range cards {
		r.Draw.Value += ka.Value(c)
		r.Draw.Positions = append(r.Draw.Positions, position+int32(i))
	}
	r.Total = sv + skv + r.GetModifiers() + r.GetDraw().GetValue()
	return r
}

var kaNames = NewNames(map[string]string{"joshua": "Joshua", "chien": "le chien", "gunner": "Gunner", "a": "Alpha", "b": "Bravo", "c": "Charlie"})

func describeKa(seq uint64, e *kav1.Event) string { return kaNames.Describe(kaEv(seq, e)) }

var (
	epee6, epee10           = kaCard(kav1.Suit_SUIT_EPEE, 6), kaCard(kav1.Suit_SUIT_EPEE, 10)
	valetBaton, coupe9      = kaCard(kav1.Suit_SUIT_BATON, 11), kaCard(kav1.Suit_SUIT_COUPE, 9)
	denier3, baton4         = kaCard(kav1.Suit_SUIT_DENIER, 3), kaCard(kav1.Suit_SUIT_BATON, 4)
	denier5                 = kaCard(kav1.Suit_SUIT_DENIER, 5)
	asEpee, roiCoupe, dameD = kaCard(kav1.Suit_SUIT_EPEE, 1), kaCard(kav1.Suit_SUIT_COUPE, 14), kaCard(kav1.Suit_SUIT_DENIER, 13)
	cavalierBaton           = kaCard(kav1.Suit_SUIT_BATON, 12)
)

func TestKaCardText(t *testing.T) {
	for want, c := range map[string]*kav1.Card{
		"6 d'épée": epee6, "as d'épée": asEpee, "valet de bâton": valetBaton, "cavalier de bâton": cavalierBaton,
		"dame de denier": dameD, "roi de coupe": roiCoupe, "10 d'épée": epee10, "rank 15 de suit unknown": {Rank: 15},
	} {
		require.Equal(t, want, cardText(c))
	}
}

// KA-T01…KA-T05 in words, each draw with its cards, their place in the deck and the total of
// sphere + skill + modifiers + cards.
func TestDescribeKaWorkedExample(t *testing.T) {
	require.Equal(t, "#5 The deck is whole: 56 cards, each card drawn at random from those left (KA-003)",
		describeKa(5, &kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: 56}}}))
	require.Equal(t, "#6 Round 1: Joshua 2 actions, le chien 1 action (each its lowest sphere, KA-010)",
		describeKa(6, &kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 1, Actions: map[string]int32{"chien": 1, "joshua": 2}}}}))

	// KA-T02 (KA-020): the shot declared, the dodge announced, then the cards.
	require.Equal(t, "#7 Joshua declares an attack on le chien with pistolet, −2 situation; "+
		"le chien announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)",
		describeKa(7, &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "joshua",
			Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, PendingIds: []string{"chien"}}}}))
	require.Equal(t, "#8 le chien will dodge (one action, KA-013, KA-020)",
		describeKa(8, &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{Defend: true, Skill: "Esquive"}}}}))
	shot := kaDraw(ka.Humanite, 3, "Arme à feu", 4, 0, []string{"-2 situation"}, epee6)
	require.Equal(t, "#8 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation + cards 6 (6 d'épée, deck position 0) = 11",
		describeKa(8, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
			Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, Draw: shot, DefencePossible: true, Declared: true}}}))
	require.Equal(t, "#8 le chien dodges (one action, KA-009, KA-013): Humanité 1 + Esquive 4 + cards 10 (10 d'épée, deck position 1) = 15",
		describeKa(8, &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "chien", Defended: true,
			Draw: kaDraw(ka.Humanite, 1, "Esquive", 4, 1, nil, epee10)}}}))
	require.Equal(t, "#9 Joshua's attack on le chien: the defender wins: no effect (KA-021)",
		describeKa(9, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Margin: -1, KaLeft: 2, RealityLeft: 10, Note: "the defender wins: no effect (KA-021)"}}}))
	require.Equal(t, "#10 Pass 2 round the table, from the highest Animalité: one action each (KA-014, KA-015)",
		describeKa(10, &kav1.Event{Kind: &kav1.Event_PassStarted{PassStarted: &kav1.PassStarted{PassNumber: 2}}}))

	// KA-T03: a face card adds 10 and draws again; a great success; 13 − 4 = 9: 2 Ka dice, the
	// last ones: the death draw.
	second := kaDraw(ka.Humanite, 3, "Arme à feu", 4, 2, []string{"-2 situation", "-1 actions already taken this round (KA-011)"}, valetBaton, coupe9)
	require.Equal(t, int32(23), second.GetTotal())
	require.Equal(t, "#11 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation − 1 actions already taken this round (KA-011) + "+
		"cards 19 (valet de bâton + 9 de coupe, deck positions 2–3) = 23; no defence: le chien has no action left: it can only soak (KA-012)",
		describeKa(11, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
			Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, Draw: second,
			NoDefenceReason: "le chien has no action left: it can only soak (KA-012)"}}}))
	death := &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{denier3}, Position: 4, Positions: []int32{4}, Value: 3}, Total: 3}
	require.Equal(t, "#12 Joshua hits le chien: margin 13, a great success (damage bonus +5, KA-006): damage 5 + weapon 8 = 13 − soak 4 = 9 → 2 Ka dice lost (KA-022…KA-024); "+
		"le chien has 0 Ka dice and 10 points de réalité left: dying; death draw: cards 3 (3 de denier, deck position 4) = 3, the Maître de Ka rules on it (KA-025)",
		describeKa(12, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Success: true, Margin: 13, Level: 2, Bonus: 5, WeaponDamage: 8, Damage: 13, Soak: 4, KaLost: 2, KaLeft: 0, RealityLeft: 10, Dying: true,
			DeathDraw: death, Note: "le chien has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"}}}))

	// KA-T04: the stun; the attack drawn tells the description it is one.
	names := NewNames(map[string]string{"joshua": "Joshua", "chien": "le chien"})
	drawn := kaEv(14, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}, Draw: kaDraw(ka.Animalite, 4, "Bagarre", 2, 5, []string{"+3 situation"}, baton4),
		DefencePossible: true, Declared: true}}})
	require.Equal(t, "#13 Joshua declares a stun on le chien with crosse (KA-030), +3 situation; "+
		"le chien announces whether it dodges (one action; a stun is not parried, KA-030) or takes it, before any card is drawn (KA-020)",
		describeKa(13, &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "joshua",
			Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}, PendingIds: []string{"chien"}}}}))
	require.Equal(t, "#13 le chien takes it: no defence, the attacker's draw will stand alone (KA-020)",
		describeKa(13, &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{}}}}))
	require.Equal(t, "#14 Joshua tries to stun le chien with crosse (KA-030): Animalité 4 + Bagarre 2 + 3 situation + cards 4 (4 de bâton, deck position 5) = 13",
		names.Describe(drawn))
	names.Learn(drawn)
	require.Equal(t, "#15 le chien takes it: no defence, the attacker's draw stands alone (KA-020)",
		names.Describe(kaEv(15, &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "chien"}}})))
	require.Equal(t, "#16 Joshua stuns le chien: margin 3, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030); le chien has 2 Ka dice and 6 points de réalité left",
		names.Describe(kaEv(16, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLeft: 2, RealityLeft: 6}}})))
	// A stun on an empty track is still a stun, known from the attack drawn.
	require.Equal(t, "#17 Joshua stuns le chien: margin 3, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), only 0 left to lose; "+
		"le chien has 0 Ka dice and 0 points de réalité left: unconscious",
		names.Describe(kaEv(17, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, Unconscious: true}}})))

	// KA-T05: terror: 4 + 3 − 3 + 5 = 9, below 10 and below 12: Abysse.
	terror := kaDraw(ka.Animalite, 4, "", 0, 6, []string{"+3 encaissement", "-3 situation"}, denier5)
	require.Equal(t, "#18 Terror: Joshua draws Animalité 4 + 3 encaissement − 3 situation + cards 5 (5 de denier, deck position 6) = 9: "+
		"below 10 and below Animalité × 3 = 12: Joshua enters Abysse (KA-034)",
		describeKa(18, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua", Draw: terror, Abysse: true}}}))
	require.Equal(t, "#19 Joshua passes: no more actions this round (KA-015)",
		describeKa(19, &kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: "joshua"}}}))
}

func TestDescribeKaManoeuvres(t *testing.T) {
	// KA-033: a burst on three targets at −3, one of which cannot defend.
	burst := kaDraw(ka.Animalite, 3, "Arme à feu", 4, 10, []string{"-3 burst targets (KA-033)"}, epee6)
	require.Equal(t, "#19 Gunner declares a burst at Alpha, Bravo and Charlie with pistolet-mitrailleur (KA-033); "+
		"Bravo and Charlie each announce in turn whether they dodge (one action) or take it, before any card is drawn (KA-020, KA-033)",
		describeKa(19, &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "gunner",
			Attack: &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b", "c"}, Weapon: "pistolet-mitrailleur", Burst: true}, PendingIds: []string{"b", "c"}}}}))
	require.Equal(t, "#20 Gunner fires a burst at Alpha, Bravo and Charlie with pistolet-mitrailleur (KA-033): Animalité 3 + Arme à feu 4 − 3 burst targets (KA-033) + "+
		"cards 6 (6 d'épée, deck position 10) = 10; no defence for Alpha: Alpha cannot defend",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "a",
			Attack: &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b", "c"}, Weapon: "pistolet-mitrailleur", Burst: true}, Draw: burst,
			NoDefenceReason: "Alpha cannot defend", Declared: true}}}))
	// KA-033: a single target, −1.
	require.Equal(t, "#20 Gunner fires a burst at Alpha with pistolet-mitrailleur (the whole burst on one target, KA-033): Animalité 3 + Arme à feu 4 − 1 burst targets (KA-033) + "+
		"cards 6 (6 d'épée, deck position 10) = 12",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "a",
			Attack: &kav1.Attack{TargetId: "a", Weapon: "pistolet-mitrailleur", Burst: true}, Draw: kaDraw(ka.Animalite, 3, "Arme à feu", 4, 10, []string{"-1 burst targets (KA-033)"}, epee6),
			DefencePossible: true, Declared: true}}}))
	// KA-013: a parry announced and drawn; a defender without the skill draws at 0.
	require.Equal(t, "#20 Bravo will parry with Bagarre (one action, KA-013, KA-020)",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "b", React: &kav1.React{Defend: true, Skill: "Bagarre"}}}}))
	parry := kaDraw(ka.Animalite, 3, "Épée", 0, 11, nil, epee10)
	parry.SkillMissing = true
	require.Equal(t, "#20 Bravo parries (one action, KA-009, KA-013): Animalité 3 + Épée 0 (lacks the skill, KA-013) + cards 10 (10 d'épée, deck position 11) = 13",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "b", Defended: true, Draw: parry}}}))
	require.Equal(t, "#20 le chien will attack back with crocs (one action; only the winner succeeds, KA-008, KA-020)",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{AttackBack: true, Weapon: "crocs"}}}}))
	// KA-032: the weapon picked up.
	require.Equal(t, "#20 Gunner picks up pistolet-mitrailleur, lost to a disarm (one action, KA-032)",
		describeKa(20, &kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gunner", Weapon: "pistolet-mitrailleur"}}}))
	// Each target hit by the burst takes a bullet: +6; soak below the damage: no Ka die.
	require.Equal(t, "#21 Gunner hits Bravo: margin 0, a normal success (damage bonus +1, KA-006): damage 1 + weapon 6 = 7 − soak 9: no Ka die lost (KA-022, KA-023); Bravo has 3 Ka dice and 12 points de réalité left",
		describeKa(21, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "b",
			Success: true, Level: 1, Bonus: 1, WeaponDamage: 6, Damage: 7, Soak: 9, KaLeft: 3, RealityLeft: 12}}}))
	// An undefended attack below 10; an exceptional success.
	require.Equal(t, "#22 Gunner's attack on Charlie fails: margin −3, no effect (KA-005, KA-006)",
		describeKa(22, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c", Margin: -3}}}))
	require.Equal(t, "#23 Gunner hits Charlie: margin 22, an exceptional success (damage bonus +10, KA-006): damage 10 + weapon 12 = 22 − soak 5 = 17 → 4 Ka dice lost (KA-022…KA-024); Charlie has 1 Ka die and 12 points de réalité left",
		describeKa(23, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c",
			Success: true, Margin: 22, Level: 3, Bonus: 10, WeaponDamage: 12, Damage: 22, Soak: 5, KaLost: 4, KaLeft: 1, RealityLeft: 12}}}))

	// KA-008: attacking back, the loser's attack without effect; KA-031: a stun to 0 points
	// costs a Ka die; KA-014: put out at the same time, it still acts.
	require.Equal(t, "#24 le chien attacks back (one action; only the winner succeeds, KA-008): Animalité 3 + Morsure 3 − 1 actions already taken this round (KA-011) + "+
		"cards 23 (roi de coupe + dame de denier + 3 de denier, deck positions 12–14) = 28",
		describeKa(24, &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "chien", AttackedBack: true,
			Draw: kaDraw(ka.Animalite, 3, "Morsure", 3, 12, []string{"-1 actions already taken this round (KA-011)"}, roiCoupe, dameD, denier3)}}}))
	require.Equal(t, "#25 Joshua stuns le chien: margin 5, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), and 1 Ka die (KA-031); "+
		"le chien has 1 Ka die and 0 points de réalité left: unconscious; le chien acts at the same time and still takes its action this pass (KA-014); "+
		"no points de réalité left: knocked out, and one Ka die lost (KA-031)",
		describeKa(25, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Success: true, Margin: 5, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLost: 1, KaLeft: 1, Unconscious: true, StillActs: true,
			Note: "no points de réalité left: knocked out, and one Ka die lost (KA-031)"}}}))

	// KA-031 with KA-025 and KA-014: the rules' notes, joined by "; ", lose the death draw's
	// sentence, which the description of the draw replaces.
	require.Equal(t, "#25 Joshua stuns le chien: margin 5, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), and 1 Ka die (KA-031); "+
		"le chien has 0 Ka dice and 0 points de réalité left: unconscious and dying; death draw: cards 3 (3 de denier, deck position 4) = 3, the Maître de Ka rules on it (KA-025); "+
		"no points de réalité left: knocked out, and one Ka die lost (KA-031); le chien acts at the same time as Joshua and still takes its action this pass (KA-014)",
		describeKa(25, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
			Success: true, Margin: 5, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLost: 1, Unconscious: true, Dying: true, StillActs: true,
			DeathDraw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{denier3}, Position: 4, Positions: []int32{4}, Value: 3}, Total: 3},
			Note: "no points de réalité left: knocked out, and one Ka die lost (KA-031); le chien has lost its last Ka die and makes its death draw; " +
				"the Maître de Ka rules on it (KA-025); le chien acts at the same time as Joshua and still takes its action this pass (KA-014)"}}}))

	// KA-032: the disarm against the weapon chosen; a failure below 10, one not higher.
	disarm := &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "gunner", Weapon: "pistolet-mitrailleur", Success: true, StillActs: true,
		Draw:       kaDraw(ka.Humanite, 3, "Bagarre", 2, 30, []string{"-1 actions already taken this round (KA-011)"}, denier5),
		Resistance: kaDraw(ka.Humanite, 2, "Arme à feu", 4, 31, nil, asEpee)}
	require.Equal(t, "#26 Joshua tries to disarm Gunner of pistolet-mitrailleur: Humanité 3 + Bagarre 2 − 1 actions already taken this round (KA-011) + "+
		"cards 5 (5 de denier, deck position 30) = 9 against Gunner's Humanité 2 + Arme à feu 4 + cards 1 (as d'épée, deck position 31) = 7 — fails: below 10 (KA-032)",
		describeKa(26, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "gunner", Weapon: "pistolet-mitrailleur",
			Draw: disarm.GetDraw(), Resistance: disarm.GetResistance()}}}))
	disarm.Draw = kaDraw(ka.Humanite, 3, "Bagarre", 2, 30, nil, epee10)
	require.Equal(t, "#27 Joshua tries to disarm Gunner of pistolet-mitrailleur: Humanité 3 + Bagarre 2 + cards 10 (10 d'épée, deck position 30) = 15 "+
		"against Gunner's Humanité 2 + Arme à feu 4 + cards 1 (as d'épée, deck position 31) = 7 — Gunner is disarmed: it loses pistolet-mitrailleur "+
		"until it picks it up (one action), and may fight bare-handed (KA-032); "+
		"Gunner acts at the same time and still takes its action this pass (KA-014)",
		describeKa(27, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}))
	disarm.Success, disarm.StillActs, disarm.Resistance = false, false, kaDraw(ka.Humanite, 2, "Arme à feu", 4, 31, nil, coupe9)
	require.Contains(t, describeKa(28, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}), "= 15 — fails: not strictly higher (KA-032)")

	// KA-034: a terror draw that holds, and a failure above Animalité × 3.
	require.Equal(t, "#29 Terror: le chien draws Animalité 3 + 3 encaissement + cards 6 (6 d'épée, deck position 40) = 12: 10 or more, le chien holds (KA-034)",
		describeKa(29, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "chien",
			Draw: kaDraw(ka.Animalite, 3, "", 0, 40, []string{"+3 encaissement"}, epee6)}}}))
	require.Equal(t, "#30 Terror: Gunner draws Animalité 2 + 3 encaissement − 4 situation + cards 9 (9 de coupe, deck position 41) = 10: 10 or more, Gunner holds (KA-034)",
		describeKa(30, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gunner",
			Draw: kaDraw(ka.Animalite, 2, "", 0, 41, []string{"+3 encaissement", "-4 situation"}, coupe9)}}}))
	require.Equal(t, "#31 Terror: Gunner draws Animalité 2 + 3 encaissement − 4 situation + cards 6 (6 d'épée, deck position 41) = 7: "+
		"a failure, but not below Animalité × 3 = 6: no Abysse (KA-034)",
		describeKa(31, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gunner",
			Draw: kaDraw(ka.Animalite, 2, "", 0, 41, []string{"+3 encaissement", "-4 situation"}, epee6)}}}))
}

// KA-003: the deck runs out in the middle of a draw, and the discard goes back in; the
// description gives the count of cards (the deck has no order).
func TestDescribeKaReshuffle(t *testing.T) {
	r := kaDraw(ka.Humanite, 3, "Arme à feu", 4, 55, nil, cavalierBaton, epee6)
	r.Draw.Positions = []int32{55, 0}
	r.Draw.Reshuffle, r.Draw.ReshuffleAfter = &kav1.DeckShuffled{Cards: 56}, 1
	s := describeKa(40, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien"}, Draw: r, NoDefenceReason: "le chien cannot defend"}}})
	require.Equal(t, "#40 Joshua attacks le chien: Humanité 3 + Arme à feu 4 + cards 16 (cavalier de bâton + 6 d'épée, deck positions 55, 0; "+
		"the deck ran out after 1 card and the discard went back in: 56 cards (KA-003)) = 23; no defence: le chien cannot defend", s)
	r.Draw.ReshuffleAfter, r.Draw.Positions = 0, []int32{0, 1}
	require.Contains(t, describeKa(41, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua", Draw: r}}}),
		"deck positions 0–1; the discard back in the deck first: 56 cards (KA-003))")
	require.Equal(t, "#42 Round 4: no one can act", describeKa(42, &kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 4}}}))
}

func TestDescribeKaEncounter(t *testing.T) {
	created := &encounterv1.Event{Sequence: 1, RuleSystem: "ka", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{
		EncounterCreated: &encounterv1.EncounterCreated{Name: "Le cul-de-sac", GameMaster: "gm",
			Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{Deck: "tarot56", Reshuffle: "every_draw",
				SuccessLevels: []int32{8, 16}, SuccessBonus: []int32{1, 4, 8}, KaTable: []int32{4, 8}, Parry: true}}}}}}
	require.Equal(t, `#1 Encounter "Le cul-de-sac" created by gm, ka v1; rules: deck tarot56, reshuffle every_draw, success levels from margins 8/16, damage bonus +1/+4/+8, Ka dice by damage up to 4/8, parries allowed`,
		Describe(created))
	require.Equal(t, "#2 joins: le chien (chien): Animalité 3, Humanité 1, Spiritualité 2, encaissement 3, 2 Ka dice, 10 points de réalité, side foes, controller dog-keeper",
		Describe(&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: mustSheet(t, "ka/chien.yaml")}}}))
	require.Equal(t, "#1 (empty Ka event)", Describe(kaEv(1, &kav1.Event{})))
}
