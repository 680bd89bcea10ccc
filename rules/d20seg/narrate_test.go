package d20seg_test

import (
	"strings"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// The narration of d20 segments in English (as the CLI printed it) and French.

func ntEv(seq uint64, e *d20segv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_D20Seg{D20Seg: e}}
}

// ntNarrator narrates d20 segments in lang, knowing the names of the examples.
func ntNarrator(lang language.Tag) *narrate.Narrator {
	n := narrate.New(lang, d20seg.New(1).Teller())
	for id, name := range map[string]string{"novice": "Novice", "soldat": "Soldat", "veteran": "Vétéran", "maitre": "Maître", "mage": "Mage"} {
		n.SetName(id, name)
	}
	return n
}

func en(seq uint64, e *d20segv1.Event) string { return ntNarrator(narrate.English).Text(ntEv(seq, e)) }
func fr(seq uint64, e *d20segv1.Event) string { return ntNarrator(narrate.French).Text(ntEv(seq, e)) }

func ntDie(sides, face int32) *dicev1.Roll {
	return &dicev1.Roll{Expression: "1d" + map[int32]string{3: "3", 6: "6", 8: "8", 20: "20"}[sides], Faces: []int32{face}, Total: face}
}

// D20-T01 and D20-T04: Initiative from Rapidité and equipment, the tie broken by a roll-off,
// rolled again while still tied.
func TestNarrateD20Initiative(t *testing.T) {
	cs := &d20segv1.CombatStarted{
		Initiative: []*d20segv1.InitiativeEntry{
			{CombatantId: "novice", Rapidite: 3, Equipment: 2, Initiative: 5},
			{CombatantId: "soldat", Rapidite: 3, Equipment: -5, Initiative: -2},
			{CombatantId: "veteran", Rapidite: 6, Equipment: -2, Initiative: 4, TieOrder: 1},
			{CombatantId: "maitre", Rapidite: 5, Equipment: -1, Initiative: 4},
		},
		RollOffs: []*d20segv1.RollOff{
			{CombatantIds: []string{"veteran", "maitre"}, Rolls: []*dicev1.Roll{ntDie(20, 11), ntDie(20, 11)}},
			{CombatantIds: []string{"veteran", "maitre"}, Rolls: []*dicev1.Roll{ntDie(20, 8), ntDie(20, 15)}},
		},
	}
	ev := &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: cs}}
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); Maître 4 (Rapidité 5 − 1 equipment); "+
		"Vétéran 4 (Rapidité 6 − 2 equipment); Soldat −2 (Rapidité 3 − 5 equipment); roll-off: Vétéran d20[11], Maître d20[11] (D20-011); "+
		"roll-off: Vétéran d20[8], Maître d20[15] (D20-011); at a shared segment: Novice, Maître, Vétéran, Soldat", en(7, ev))
	require.Equal(t, "#7 Initiative du combat (D20-010, D20-012) : Novice 5 (Rapidité 3 + 2 équipement) ; Maître 4 (Rapidité 5 − 1 équipement) ; "+
		"Vétéran 4 (Rapidité 6 − 2 équipement) ; Soldat −2 (Rapidité 3 − 5 équipement) ; départage : Vétéran d20[11], Maître d20[11] (D20-011) ; "+
		"départage : Vétéran d20[8], Maître d20[15] (D20-011) ; à un même segment : Novice, Maître, Vétéran, Soldat", fr(7, ev))
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment)",
		en(7, &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{Initiative: cs.GetInitiative()[:1]}}}))
	none := &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{}}}
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): no one", en(7, none))
	require.Equal(t, "#7 Initiative du combat (D20-010, D20-012) : personne", fr(7, none))
	// A roll-off that lost a roll, and one of a single combatant: no order to tell.
	odd := &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{Initiative: cs.GetInitiative()[:1],
		RollOffs: []*d20segv1.RollOff{{CombatantIds: []string{"novice", "mage"}, Rolls: []*dicev1.Roll{ntDie(20, 4)}}}}}}
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); roll-off: Novice d20[4], Mage no roll (D20-011)", en(7, odd))
	require.Equal(t, "#7 Initiative du combat (D20-010, D20-012) : Novice 5 (Rapidité 3 + 2 équipement) ; départage : Novice d20[4], Mage pas de jet (D20-011)", fr(7, odd))
}

func TestNarrateD20SurpriseAndRounds(t *testing.T) {
	sr := &d20segv1.SurpriseRoundStarted{AttackerIds: []string{"veteran", "maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{
		{DefenderId: "novice", Roll: ntDie(20, 7), Modifiers: -3, Total: 4, Opposition: 18, StealthBy: "veteran", StealthRoll: ntDie(20, 10), Surprised: true},
		{DefenderId: "soldat", Roll: ntDie(20, 19), Modifiers: -1, Total: 18, Opposition: 17, StealthBy: "veteran", StealthRoll: ntDie(20, 9)},
		{DefenderId: "mage", Roll: ntDie(20, 12), Modifiers: 4, Total: 16, Opposition: 15},
	}}
	ev := &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: sr}}
	require.Equal(t, "#9 Surprise attack by Vétéran and Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice: apprehension d20[7] − 3 = 4 vs Vétéran's stealth d20[10] + 8 = 18: surprised, flat-footed (D20-003, D20-006); "+
		"Soldat: apprehension d20[19] − 1 = 18 vs Vétéran's stealth d20[9] + 8 = 17: not surprised (D20-003, D20-005); "+
		"Mage: apprehension d20[12] + 4 = 16 vs 15 (no stealth): not surprised (D20-003, D20-005)", en(9, ev))
	require.Equal(t, "#9 Attaque-surprise par Vétéran et Maître : d'abord une action gratuite chacun, dans l'ordre d'Initiative, puis les segments 0–2 du round de surprise (D20-004) ; "+
		"Novice : appréhension d20[7] − 3 = 4 contre Vétéran, discrétion d20[10] + 8 = 18 : surprise, au dépourvu (D20-003, D20-006) ; "+
		"Soldat : appréhension d20[19] − 1 = 18 contre Vétéran, discrétion d20[9] + 8 = 17 : pas de surprise (D20-003, D20-005) ; "+
		"Mage : appréhension d20[12] + 4 = 16 contre 15 (sans discrétion) : pas de surprise (D20-003, D20-005)", fr(9, ev))
	// skip_apprehension: surprised without a roll (D20-000).
	skipped := &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
		AttackerIds: []string{"maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "novice", Surprised: true}, {DefenderId: "mage"}}}}}
	require.Equal(t, "#9 Surprise attack by Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice is surprised without an apprehension roll, flat-footed (D20-000, D20-006); Mage is not surprised (D20-005)", en(9, skipped))
	require.Equal(t, "#9 Attaque-surprise par Maître : d'abord une action gratuite chacun, dans l'ordre d'Initiative, puis les segments 0–2 du round de surprise (D20-004) ; "+
		"Novice : surprise sans jet d'appréhension, au dépourvu (D20-000, D20-006) ; Mage : pas de surprise (D20-005)", fr(9, skipped))
	// D20-003: those named neither attacker nor defender take no part in the surprise round.
	bystanders := &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
		AttackerIds: []string{"maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "novice", Surprised: true}},
		BystanderIds: []string{"soldat", "mage"}}}}
	require.Equal(t, "#9 Surprise attack by Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice is surprised without an apprehension roll, flat-footed (D20-000, D20-006); "+
		"Soldat and Mage, named neither attacker nor defender, take no part in the surprise round (D20-003)", en(9, bystanders))
	require.Contains(t, fr(9, bystanders), " ; Soldat et Mage, ni attaquants ni défenseurs, ne prennent pas part au round de surprise (D20-003)")
	one := &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
		AttackerIds: []string{"maitre"}, BystanderIds: []string{"mage"}}}}
	require.Contains(t, en(9, one), "; Mage, named neither attacker nor defender, takes no part in the surprise round (D20-003)")
	require.Contains(t, fr(9, one), " ; Mage, ni attaquant ni défenseur, ne prend pas part au round de surprise (D20-003)")

	round := &d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 1}}}
	require.Equal(t, "#19 Round 1: segments 0 to 5 (D20-013)", en(19, round))
	require.Equal(t, "#19 Round 1 : segments 0 à 5 (D20-013)", fr(19, round))
	// D20-019, D20-020: the spells cast for this round, the actions carried over from the last.
	carried := &d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 2,
		SpellsTakingEffect: []string{"peau de pierre", "sommeil"},
		Carried:            []*d20segv1.CarriedOver{{CombatantId: "mage", Segments: 2}, {CombatantId: "maitre", Segments: 1}}}}}
	require.Equal(t, "#30 Round 2: segments 0 to 5 (D20-013); taking effect now: peau de pierre, sommeil (D20-019); "+
		"carried over from the last round: Mage 2 segments, Maître 1 segment (D20-020)", en(30, carried))
	require.Equal(t, "#30 Round 2 : segments 0 à 5 (D20-013) ; prennent effet maintenant : peau de pierre, sommeil (D20-019) ; "+
		"reporté du round précédent : Mage 2 segments, Maître 1 segment (D20-020)", fr(30, carried))
}

func TestNarrateD20Attacks(t *testing.T) {
	attack := func(a *d20segv1.AttackRolled) *d20segv1.Event {
		return &d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: a}}
	}
	// D20-T03: 34 against a flat-footed CA 10 (11 − Agility 1): a critical; 2 × (5 + 3) + 2.
	critical := attack(&d20segv1.AttackRolled{AttackerId: "veteran", TargetId: "novice", Weapon: "épée longue", Free: true, Roll: ntDie(20, 20), Bonus: 14, Total: 34,
		Ca: 10, FlatFooted: true, Hit: true, Critical: true, DamageRoll: ntDie(8, 5), Damage: 18, HitPointsLeft: -10, Down: true})
	require.Equal(t, "#12 free action (D20-004): Vétéran attacks Novice with épée longue: d20[20] + 14 = 34 vs CA 10 (flat-footed, D20-006) — "+
		"a critical hit, 20 or more above the CA (D20-042): damage 18 (d8[5] and the bonuses, multiplied; feats once); Novice has −10 hit points left: down (D20-044)", en(12, critical))
	require.Equal(t, "#12 action gratuite (D20-004) : Vétéran attaque Novice avec épée longue : d20[20] + 14 = 34 contre CA 10 (au dépourvu, D20-006) — "+
		"un coup critique, 20 ou plus au-dessus de la CA (D20-042) : dégâts 18 (d8[5] et les bonus, multipliés ; dons une fois) ; Novice est à −10 PV : hors de combat (D20-044)", fr(12, critical))
	// A hit at segment 3 at the cost of BBA 11; a miss; a hit whose maluses leave no damage.
	hit := attack(&d20segv1.AttackRolled{AttackerId: "veteran", TargetId: "soldat", Weapon: "épée longue", Segment: 3, Cost: 2, Roll: ntDie(20, 14), Bonus: 14, Total: 28,
		Ca: 21, Hit: true, DamageRoll: ntDie(8, 6), Damage: 11, HitPointsLeft: 34})
	require.Equal(t, "#12 segment 3: Vétéran attacks Soldat with épée longue (2 segments, D20-017): d20[14] + 14 = 28 vs CA 21 — a hit (D20-040): "+
		"damage d8[6] + 5 = 11 (D20-041); Soldat has 34 hit points left", en(12, hit))
	require.Equal(t, "#12 segment 3 : Vétéran attaque Soldat avec épée longue (2 segments, D20-017) : d20[14] + 14 = 28 contre CA 21 — touché (D20-040) : "+
		"dégâts d8[6] + 5 = 11 (D20-041) ; Soldat est à 34 PV", fr(12, hit))
	miss := attack(&d20segv1.AttackRolled{AttackerId: "maitre", TargetId: "soldat", Segment: -1, Cost: 1, Roll: ntDie(20, 1), Bonus: 20, Total: 21, Ca: 24})
	require.Equal(t, "#12 segment −1: Maître attacks Soldat (1 segment, D20-017): d20[1] + 20 = 21 vs CA 24 — a miss (D20-040)", en(12, miss))
	require.Equal(t, "#12 segment −1 : Maître attaque Soldat (1 segment, D20-017) : d20[1] + 20 = 21 contre CA 24 — manqué (D20-040)", fr(12, miss))
	nothing := attack(&d20segv1.AttackRolled{AttackerId: "novice", TargetId: "maitre", Weapon: "poings", Cost: 4, Roll: ntDie(20, 20), Bonus: -2, Total: 18, Ca: 18, Hit: true,
		DamageRoll: ntDie(3, 1), HitPointsLeft: 120})
	require.Equal(t, "#12 segment 0: Novice attacks Maître with poings (4 segments, D20-017): d20[20] − 2 = 18 vs CA 18 — a hit (D20-040): "+
		"damage d3[1] and the maluses: 0; Maître has 120 hit points left", en(12, nothing))
	require.Equal(t, "#12 segment 0 : Novice attaque Maître avec poings (4 segments, D20-017) : d20[20] − 2 = 18 contre CA 18 — touché (D20-040) : "+
		"dégâts d3[1] et les malus : 0 ; Maître est à 120 PV", fr(12, nothing))
	plain := attack(&d20segv1.AttackRolled{AttackerId: "novice", TargetId: "maitre", Weapon: "poings", Cost: 4, Roll: ntDie(20, 20), Total: 20, Ca: 18, Hit: true,
		DamageRoll: ntDie(3, 2), Damage: 2, HitPointsLeft: 1118})
	require.Equal(t, "#12 segment 0: Novice attacks Maître with poings (4 segments, D20-017): d20[20] + 0 = 20 vs CA 18 — a hit (D20-040): "+
		"damage d3[2] = 2; Maître has 1118 hit points left", en(12, plain), "no digit grouping")
	require.Equal(t, "#12 segment 0 : Novice attaque Maître avec poings (4 segments, D20-017) : d20[20] + 0 = 20 contre CA 18 — touché (D20-040) : "+
		"dégâts d3[2] = 2 ; Maître est à 1118 PV", fr(12, plain))
}

func TestNarrateD20OtherEvents(t *testing.T) {
	for _, c := range []struct {
		ev     *d20segv1.Event
		en, fr string
	}{
		{&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "maitre", Spell: "peau de pierre", Cost: 2, NextRound: true}}},
			"#20 segment 0: Maître casts peau de pierre (2 segments, D20-018); it takes effect at the start of the next round (D20-019)",
			"#20 segment 0 : Maître lance peau de pierre (2 segments, D20-018) ; il prend effet au début du round suivant (D20-019)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "mage", Spell: "sommeil", Segment: 0, Free: true}}},
			"#20 free action (D20-004): Mage casts sommeil",
			"#20 action gratuite (D20-004) : Mage lance sommeil"},
		{&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "mage", Spell: "boule de feu", Segment: 4, Cost: 3}}},
			"#20 segment 4: Mage casts boule de feu (3 segments, D20-018)",
			"#20 segment 4 : Mage lance boule de feu (3 segments, D20-018)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "soldat", Description: "climbs the wall", Segment: 2, Cost: 3}}},
			`#20 segment 2: Soldat: "climbs the wall" (3 segments, D20-022)`,
			"#20 segment 2 : Soldat : « climbs the wall » (3 segments, D20-022)"},
		{&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "maitre", Free: true}}},
			"#20 free action (D20-004): Maître: acts",
			"#20 action gratuite (D20-004) : Maître : agit"},
		{&d20segv1.Event{Kind: &d20segv1.Event_TurnEnded{TurnEnded: &d20segv1.TurnEnded{CombatantId: "soldat"}}},
			"#20 Soldat ends its turn for this round (D20-016)",
			"#20 Soldat termine son tour pour ce round (D20-016)"},
		{&d20segv1.Event{},
			"#20 (empty d20seg event)",
			"#20 (évènement d20seg vide)"},
	} {
		require.Equal(t, c.en, en(20, c.ev))
		require.Equal(t, c.fr, fr(20, c.ev))
	}
}

// The sheet of a joining combatant and the house rules of an encounter, as the common
// narration ("joins: …", "Encounter … created") shows them.
func TestNarrateD20SheetAndOptions(t *testing.T) {
	maitre := &encounterv1.Combatant{Id: "maitre", Name: "Maître d'armes", Sheet: &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{
		Rapidite: 5, Armour: d20segv1.Armour_ARMOUR_LIGHT, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED, Bba: 16, Ca: 24, HitPoints: 120, Size: d20segv1.Size_SIZE_G}}}
	options := &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{ApprehensionScale: []int32{2, 5, 10},
		CarryOver: proto.Bool(true), DownAt: proto.Int32(-10), SkipApprehension: proto.Bool(true)}}}
	off := &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{CarryOver: proto.Bool(false), SkipApprehension: proto.Bool(false)}}}
	for _, c := range []struct {
		lang                    language.Tag
		sheet, options, offText string
	}{
		{narrate.English, "Rapidité 5, Initiative 4, BBA 16, CA 24, 120 hit points, size G",
			"apprehension modifiers light 2, medium 5, high 10, actions carry over into the next round, down at −10 hit points, no apprehension rolls: every defender of a surprise attack is surprised",
			"no carry-over, apprehension rolled against surprise"},
		{narrate.French, "Rapidité 5, Initiative 4, BBA 16, CA 24, 120 PV, taille G",
			"modificateurs d'appréhension léger 2, moyen 5, élevé 10, les actions se poursuivent sur le round suivant, hors de combat à −10 PV, pas de jet d'appréhension : tout défenseur d'une attaque-surprise est surpris",
			"pas de report, jet d'appréhension contre la surprise"},
	} {
		n := narrate.New(c.lang, d20seg.New(1).Teller())
		s, ok := d20seg.New(1).Teller().Sheet(n, maitre)
		require.True(t, ok)
		require.Equal(t, c.sheet, s)
		s, ok = d20seg.New(1).Teller().Options(n, options)
		require.True(t, ok)
		require.Equal(t, c.options, s)
		s, ok = d20seg.New(1).Teller().Options(n, off)
		require.True(t, ok)
		require.Equal(t, c.offText, s)
		_, ok = d20seg.New(1).Teller().Sheet(n, &encounterv1.Combatant{Id: "x"})
		require.False(t, ok)
		_, ok = d20seg.New(1).Teller().Options(n, &encounterv1.RuleOptions{})
		require.False(t, ok)
		_, ok = d20seg.New(1).Teller().Event(n, &encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{}})
		require.False(t, ok)
	}
	sizes := map[d20segv1.Size]string{d20segv1.Size_SIZE_I: "I", d20segv1.Size_SIZE_MIN: "Min", d20segv1.Size_SIZE_TP: "Tp", d20segv1.Size_SIZE_P: "P",
		d20segv1.Size_SIZE_M: "M", d20segv1.Size_SIZE_G: "G", d20segv1.Size_SIZE_TG: "Tg", d20segv1.Size_SIZE_GIG: "Gig", d20segv1.Size_SIZE_COL: "Col",
		d20segv1.Size_SIZE_UNSPECIFIED: "?"}
	for size, want := range sizes { // D20-030
		s, _ := d20seg.New(1).Teller().Sheet(narrate.New(narrate.English, d20seg.New(1).Teller()), &encounterv1.Combatant{Sheet: &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{Size: size}}})
		require.True(t, strings.HasSuffix(s, ", size "+want), s)
	}
}
