package feerie_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// The narration of Contes de Fées events, in English as the CLI has always written it, and
// in French. The English lines are those of the CLI's tests (cli/internal/commands).

func feerieEv(seq uint64, e *feeriev1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_Feerie{Feerie: e}}
}

func d20(face int32) *dicev1.Roll {
	return &dicev1.Roll{Expression: "1d20", Faces: []int32{face}, Total: face}
}

// roll20 is a roll of score + d20[plus] − d20[minus] with its terms.
func roll20(plus, minus int32, terms ...*feeriev1.Modifier) *feeriev1.RollResult {
	var score int32
	for _, m := range terms {
		score += m.GetValue()
	}
	return &feeriev1.RollResult{Roll: d20(plus), Minus: d20(minus), Score: score, Modifiers: terms, Total: score + plus - minus}
}

func fmod(reason string, v int32, rule string) *feeriev1.Modifier {
	return &feeriev1.Modifier{Reason: reason, Value: v, Rule: rule}
}

// narrator writes in lang and knows the names of the tests' fairies.
func narrator(lang language.Tag) *narrate.Narrator {
	n := narrate.New(lang, feerie.New(1).Teller())
	for id, name := range map[string]string{"rubezahl": "Rübezahl", "serpent": "Serpent", "pixie": "Pixie", "wichtln": "Wichtln", "redcap": "Redcap"} {
		n.SetName(id, name)
	}
	return n
}

// enText narrates a Contes de Fées event in English, and checks its French (frLines).
func enText(t *testing.T, seq uint64, e *feeriev1.Event) string {
	t.Helper()
	en := narrator(narrate.English).Text(feerieEv(seq, e))
	fr, ok := frLines[en]
	require.True(t, ok, "no French for %q", en)
	require.Equal(t, fr, narrator(narrate.French).Text(feerieEv(seq, e)))
	return en
}

func melee(target string) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true}
}

func TestNarrateFeerieFEET04(t *testing.T) {
	require.Equal(t, "#9 Action 2, step 1: declarations",
		enText(t, 9, &feeriev1.Event{Kind: &feeriev1.Event_ActionStarted{ActionStarted: &feeriev1.ActionStarted{Action: 2}}}))
	require.Equal(t, "#12 Rübezahl declares: melee attack on Serpent, tactic +0/+0/+0",
		enText(t, 12, &feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "rubezahl", Intent: melee("serpent")}}}))
	require.Equal(t, "#14 Initiative: Rübezahl 20+d20[12]−d20[17] = 15; Serpent 17+d20[9]−d20[9] = 17; the countdown starts at 17",
		enText(t, 14, &feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 1, TopRank: 17,
			Initiative: []*feeriev1.InitiativeRoll{
				{CombatantId: "rubezahl", CanAct: true, Result: roll20(12, 17, fmod("Vigilance", 20, "FEE-010"))},
				{CombatantId: "serpent", CanAct: true, Result: roll20(9, 9, fmod("Vigilance", 17, "FEE-010"))},
			}}}}))
	queued := func(q *feeriev1.Queued) *feeriev1.Event {
		return &feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}
	}
	require.Equal(t, "#15 Rübezahl acts at rank 17 (anticipating 2: −2)",
		enText(t, 15, queued(&feeriev1.Queued{CombatantId: "rubezahl", Rank: 17, Nth: 1, Anticipation: 2, RollPenalty: 2,
			Act: &feeriev1.Act{Intent: melee("serpent")}})))
	require.Equal(t, "#16 rank 17: Rübezahl attacks Serpent: 28 (H 18 + bâton 4 − anticipation 2 + d20[14]−d20[6]) vs Defense 19 (H 15 + morsure 4) — "+
		"margin 9: 4 + Damage 20 (P 16 + T 1 + force des montagnes 3) − Soak 14 (R 12 + écailles 2) = 10 Essence lost (Serpent 30 left)",
		enText(t, 16, &feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
			CombatantId: "rubezahl", Rank: 17, Intent: melee("serpent"),
			Attack:  roll20(14, 6, fmod("Habileté", 18, "FEE-011"), fmod("bâton", 4, "FEE-011"), fmod("anticipation", -2, "FEE-050")),
			Defense: 19, DefenseModifiers: []*feeriev1.Modifier{fmod("Habileté", 15, "FEE-013"), fmod("morsure", 4, "FEE-013")},
			Margin: 9, Success: true,
			Damage: 20, DamageModifiers: []*feeriev1.Modifier{fmod("Puissance", 16, "FEE-014"), fmod("Taille", 1, "FEE-014"), fmod("force des montagnes", 3, "FEE-014")},
			Soak: 14, SoakModifiers: []*feeriev1.Modifier{fmod("Résistance", 12, "FEE-015"), fmod("écailles", 2, "FEE-015")},
			EssenceLost: 10, TargetEssence: 30,
		}}}))
	require.Equal(t, "#17 countdown 17 → 16",
		enText(t, 17, &feeriev1.Event{Kind: &feeriev1.Event_RankAdvanced{RankAdvanced: &feeriev1.RankAdvanced{FromRank: 17, ToRank: 16}}}))
}

func TestNarrateFeerieIntents(t *testing.T) {
	declared := func(in *feeriev1.Intent) string {
		return enText(t, 3, &feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "redcap", Intent: in}}})
	}
	// FEE-T02: the Redcap's tactic of cap 7.
	in := melee("rubezahl")
	in.Applied = &feeriev1.Applied{Attack: []string{"hache", "massacre"}, Defense: []string{"hache"}, Initiative: []string{"massacre"}}
	in.Tactic = &feeriev1.Tactic{Initiative: -2, Attack: 7, Defense: -5}
	in.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP, feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY}
	in.Charge, in.Pace = true, feeriev1.Pace_PACE_RUN
	require.Equal(t, "#3 Redcap declares: melee attack on Rübezahl with trip and keep at bay, charging, running, massacre on Initiative and Attack, hache on Attack and Defense, tactic −2/+7/−5",
		declared(in))
	require.Equal(t, `#3 Redcap declares: ranged attack on Serpent, walking, not physical, tactic Attaque brutale −2/+4/−2: "a volley of pebbles"`,
		declared(&feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: "serpent", Pace: feeriev1.Pace_PACE_WALK,
			Tactic: &feeriev1.Tactic{Preset: "Attaque brutale", Initiative: -2, Attack: 4, Defense: -2}, Description: "a volley of pebbles"}))
	require.Equal(t, "#3 Redcap declares: a Charme roll against 12, at Serpent, tactic +0/+0/+0",
		declared(&feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "Charme", Difficulty: 12, TargetId: "serpent"}))
	require.Equal(t, "#3 Redcap declares: an intimidation (Charme) against 10, tactic +0/+0/+0",
		declared(&feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 10, Intimidation: true}))
	for kind, words := range map[feeriev1.ActivityKind]string{
		feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE: "a passive activity",
		feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:  "getting up",
		feeriev1.ActivityKind_ACTIVITY_KIND_FREE:    "freeing itself, physical",
		feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP: "picking its weapon up",
	} {
		require.Equal(t, "#3 Redcap declares: "+words+", tactic +0/+0/+0", declared(&feeriev1.Intent{Kind: kind, Physical: kind == feeriev1.ActivityKind_ACTIVITY_KIND_FREE}))
	}
	require.Equal(t, "#3 Redcap declares: no intention", declared(nil))
}

func TestNarrateFeerieCountdownAndQueue(t *testing.T) {
	// A tactic, last Action's penalties and a surprise in the Initiative roll; one cannot act.
	require.Equal(t, "#8 Initiative: Redcap 8+d20[10]−d20[3] = 15 (V 14 + massacre 4 − tactic 2 − penalties of the last Action 8); "+
		"Serpent 9+d20[2]−d20[15] = −4 (V 17 − surprised 8), cannot act (FEE-043); "+
		"Pixie 12+d20[5]−d20[5] = 12, cannot act (FEE-082); the countdown starts at 15",
		enText(t, 8, &feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 2, TopRank: 15,
			Initiative: []*feeriev1.InitiativeRoll{
				{CombatantId: "redcap", CanAct: true, Result: roll20(10, 3, fmod("Vigilance", 14, "FEE-010"), fmod("massacre", 4, "FEE-010"),
					fmod("tactic", -2, "FEE-031"), fmod("penalties of the last Action", -8, "FEE-062"))},
				{CombatantId: "serpent", Result: roll20(2, 15, fmod("Vigilance", 17, "FEE-010"), fmod("surprised", -8, "FEE-080"))},
				{CombatantId: "pixie", Result: roll20(5, 5, fmod("Vigilance", 12, "FEE-010"))},
			}}}}))
	require.Equal(t, "#8 Initiative: Serpent 9+d20[2]−d20[15] = −4 (V 17 − surprised 8), cannot act (FEE-043); no one can act in this Action",
		enText(t, 8, &feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 2,
			Initiative: []*feeriev1.InitiativeRoll{{CombatantId: "serpent", Result: roll20(2, 15, fmod("Vigilance", 17, "FEE-010"), fmod("surprised", -8, "FEE-080"))}}}}}))

	queued := func(q *feeriev1.Queued) string {
		return enText(t, 20, &feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}})
	}
	// FEE-T08: a further activity that is also a change of intention, 8 ranks later: −8.
	trip := melee("serpent")
	trip.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP}
	require.Equal(t, "#20 Rübezahl acts again at rank 9, changing intention to melee attack on Serpent with trip, tactic +0/+0/+0 (activity 2, change of intention: −8)",
		queued(&feeriev1.Queued{CombatantId: "rubezahl", Rank: 9, Nth: 2, ChangeOfIntention: true, RollPenalty: 8, Act: &feeriev1.Act{Intent: trip}}))
	// FEE-T05: anticipated to rank 12, −7, with the −2 of the first anticipation carried on.
	require.Equal(t, "#20 Rübezahl acts again at rank 12 (anticipating 3, activity 2, earlier penalties: −9; spending 2 Essence: +2; "+
		"dusk, range far, target running, dense forest, through cover (solid, thick, opaque, Domain Soak 8), 2 attack angles offered, the target does not defend, exposed part −4, a small object, difficulty 6, GM −2)",
		queued(&feeriev1.Queued{CombatantId: "rubezahl", Rank: 12, Nth: 2, Anticipation: 3, RollPenalty: 9, Act: &feeriev1.Act{Intent: melee("serpent"), Essence: 2,
			Circumstances: &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_DUSK, Distance: feeriev1.Range_RANGE_FAR, TargetPace: feeriev1.Pace_PACE_RUN,
				Terrain: feeriev1.Terrain_TERRAIN_DENSE_FOREST, Cover: &feeriev1.Cover{Solidity: "solid", Thick: true, Opaque: true, DomainSoak: 8},
				AnglesOffered: 2, Undefended: true, ExposedMalus: 4, SmallObjectDifficulty: 6, Modifier: -2}}}))
	// A ranged attack that waited aims (FEE-132); a melee one merely waited.
	require.Equal(t, "#20 Wichtln acts at rank 5 (aiming 10 ranks: +8; very hard shot)",
		queued(&feeriev1.Queued{CombatantId: "wichtln", Rank: 5, Nth: 1, Delay: 10, Act: &feeriev1.Act{
			Intent:        &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: "serpent"},
			Circumstances: &feeriev1.Circumstances{RangedDifficulty: feeriev1.RangedDifficulty_RANGED_DIFFICULTY_VERY_HARD}}}))
	require.Equal(t, "#20 Wichtln acts at rank 5 (after waiting 2 ranks)",
		queued(&feeriev1.Queued{CombatantId: "wichtln", Rank: 5, Nth: 1, Delay: 2, Act: &feeriev1.Act{Intent: melee("serpent")}}))

	require.Equal(t, "#30 countdown 1 → 0: the impersonal events, then the next Action (FEE-046)",
		enText(t, 30, &feeriev1.Event{Kind: &feeriev1.Event_RankAdvanced{RankAdvanced: &feeriev1.RankAdvanced{FromRank: 1, ToRank: 0}}}))
	require.Equal(t, "#30 countdown 16 → 9",
		enText(t, 30, &feeriev1.Event{Kind: &feeriev1.Event_RankAdvanced{RankAdvanced: &feeriev1.RankAdvanced{FromRank: 16, ToRank: 9}}}))
}

func resolvedEv(r *feeriev1.ActivityResolved) *feeriev1.Event {
	return &feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: r}}
}

func resolved(t *testing.T, r *feeriev1.ActivityResolved) string { return enText(t, 40, resolvedEv(r)) }

func TestNarrateFeerieAttacks(t *testing.T) {
	att := func() *feeriev1.RollResult {
		return roll20(15, 5, fmod("Habileté", 20, "FEE-011"), fmod("marteau", 3, "FEE-011"))
	}
	def := []*feeriev1.Modifier{fmod("Habileté", 18, "FEE-013"), fmod("Taille", -1, "FEE-013")}
	base := func(in *feeriev1.Intent, margin int32) *feeriev1.ActivityResolved {
		return &feeriev1.ActivityResolved{CombatantId: "wichtln", Rank: 12, Intent: in, Attack: att(), Defense: 33 - margin,
			DefenseModifiers: def, Margin: margin, Success: margin >= 0,
			Damage: 12, DamageModifiers: []*feeriev1.Modifier{fmod("Puissance", 10, "FEE-014"), fmod("Taille", -2, "FEE-014"), fmod("force surnaturelle", 4, "FEE-014")},
			Soak: 16, SoakModifiers: []*feeriev1.Modifier{fmod("Résistance", 16, "FEE-015")}, TargetEssence: 40}
	}
	// A miss, and a fumble with what hurting oneself would cost (FEE-004).
	r := base(melee("rubezahl"), -3)
	r.Defense, r.DefenseModifiers = 36, append(def, fmod("tactic", 19, "FEE-031"))
	require.Equal(t, "#40 rank 12: Wichtln attacks Rübezahl: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 36 (H 18 − T 1 + tactic 19) — margin −3: a miss", resolved(t, r))
	r = base(melee("rubezahl"), -12)
	r.Fumble, r.SelfHarm = true, 2
	require.Equal(t, "#40 rank 12: Wichtln attacks Rübezahl: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 45 (H 18 − T 1) — margin −12: a fumble (FEE-004); hurting itself would cost 2 Essence", resolved(t, r))
	// A hit that goes through no Soak, one that is capped by the Essence left.
	r = base(melee("rubezahl"), 4)
	require.Equal(t, "#40 rank 12: Wichtln attacks Rübezahl: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 29 (H 18 − T 1) — "+
		"margin 4: 2 + Damage 12 (P 10 − T 2 + force surnaturelle 4) − Soak 16 = −2: no Essence lost", resolved(t, r))
	r = base(melee("rubezahl"), 21)
	r.EssenceLost, r.TargetEssence = 3, 0
	require.Equal(t, "#40 rank 12: Wichtln attacks Rübezahl: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 12 (H 18 − T 1) — "+
		"margin 21: 10 + Damage 12 (P 10 − T 2 + force surnaturelle 4) − Soak 16 = 6, 3 Essence lost (Rübezahl 0 left); Rübezahl is down and cannot act (FEE-024)", resolved(t, r))
	// A charging ranged attack is a charge; Relentless adds to the damage.
	in := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK, TargetId: "rubezahl", Charge: true,
		Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS}}
	r = base(in, 10)
	r.EssenceLost, r.TargetEssence = 1, 39
	r.Conditions = []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS, By: "wichtln", Malus: 0}}
	require.Equal(t, "#40 rank 12: Wichtln charges Rübezahl with relentless: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 23 (H 18 − T 1) — "+
		"margin 10: 5 + Damage 12 (P 10 − T 2 + force surnaturelle 4) − Soak 16 = 1 Essence lost (Rübezahl 39 left); relentless: Wichtln's next Damage +0, its Defense −8 until its weapon is dislodged (FEE-156)", resolved(t, r))
	in.Charge = false
	r.Note = "the weapon is dislodged: the relentless strike ends (FEE-156)"
	r.Margin, r.Success, r.Conditions, r.EssenceLost = -1, false, nil, 0
	require.Equal(t, "#40 rank 12: Wichtln shoots at Rübezahl with relentless: 33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 23 (H 18 − T 1) — "+
		"margin −1: a miss; the weapon is dislodged: the relentless strike ends (FEE-156)", resolved(t, r))

	// Every special strike's condition (FEE-150…FEE-159).
	strikes := []feeriev1.SpecialStrike{}
	for i := range feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD {
		if i > 0 {
			strikes = append(strikes, i)
		}
	}
	in = melee("rubezahl")
	in.Strikes = append(strikes, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD)
	r = base(in, 6)
	r.Note = "Rübezahl is thrown 3 distance units (FEE-158)"
	for _, s := range in.Strikes {
		c := &feeriev1.Condition{Strike: s, By: "wichtln", Malus: 5}
		switch s {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			c.Malus, c.FreeAgainst = 6, 10
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			c.Malus = 8
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			c.Malus, c.Ranks = 0, 15
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
			c.Malus, c.Distance = 0, 3
		}
		r.Conditions = append(r.Conditions, c)
	}
	require.Equal(t, "#40 rank 12: Wichtln attacks Rübezahl with disarm, trip, entangle, stun, keep at bay, cripple, relentless, frightening blow, knockback and enter the guard: "+
		"33 (H 20 + marteau 3 + d20[15]−d20[5]) vs Defense 27 (H 18 − T 1) — margin 6: the special strikes replace the Essence damage; "+
		"Rübezahl is disarmed: its weapon flies a few steps away (FEE-150); "+
		"Rübezahl falls: −4 to its activities until it gets up (FEE-151); "+
		"Rübezahl is entangled: −6 to its activities until it frees itself, Puissance against 10 (FEE-152); "+
		"Rübezahl is stunned: −5 to its activities, 1 less each rank (FEE-153); "+
		"Rübezahl is kept at bay: −8 Attack against Wichtln until it enters the guard (FEE-154); "+
		"an organ of Rübezahl is crippled for 15 ranks (FEE-155); "+
		"relentless: Wichtln's next Damage +5, its Defense −8 until its weapon is dislodged (FEE-156); "+
		"a frightening blow: Wichtln gains +5 on its next intimidation (FEE-181); "+
		"Wichtln is inside Rübezahl's guard: Rübezahl has −8 Attack against Wichtln until it keeps it at bay (FEE-159); "+
		"Rübezahl is thrown 3 distance units (FEE-158)", resolved(t, r))
	r.Note = ""
	r.Conditions = []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK, By: "wichtln", Distance: 4}}
	require.Contains(t, resolved(t, r), "the special strikes replace the Essence damage; Rübezahl is thrown 4 distance units (FEE-158)")

	// An object takes a Damage roll, not an Attack roll (FEE-023).
	r = &feeriev1.ActivityResolved{CombatantId: "wichtln", Rank: 3, Intent: melee("serpent"), Attack: att(), Damage: 12,
		DamageModifiers: []*feeriev1.Modifier{fmod("Puissance", 10, "FEE-014"), fmod("Taille", -2, "FEE-014"), fmod("force surnaturelle", 4, "FEE-014")},
		Soak:            5, Margin: 22, Success: true, EssenceLost: 17, TargetEssence: 3, Note: "an object: Damage roll 22"}
	require.Equal(t, "#40 rank 3: Wichtln attacks Serpent, an object (FEE-023): Damage 12 (P 10 − T 2 + force surnaturelle 4) + d20[15]−d20[5] = 22 − Soak 5 = 17 Essence lost (Serpent 3 left)", resolved(t, r))
	r.Margin, r.Success, r.Fumble, r.EssenceLost, r.TargetEssence = -1, false, true, 0, 20
	r.Attack = roll20(1, 14, fmod("Habileté", 20, "FEE-011"), fmod("marteau", 3, "FEE-011"))
	require.Equal(t, "#40 rank 3: Wichtln attacks Serpent, an object (FEE-023): Damage 12 (P 10 − T 2 + force surnaturelle 4) + d20[1]−d20[14] = −1: an incident (FEE-023)", resolved(t, r))
}

func TestNarrateFeerieOtherActivities(t *testing.T) {
	other := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 15, TargetId: "serpent", Description: "a glamour"}
	require.Equal(t, `#40 rank 11: Pixie rolls charme at Serpent ("a glamour"): 18 (Charme 14 + taquinerie 5 + d20[4]−d20[5]) vs 15 — margin 3: success`,
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 11, Intent: other,
			Attack: roll20(4, 5, fmod("charme", 14, "FEE-001"), fmod("taquinerie", 5, "FEE-011")), Defense: 15, Margin: 3, Success: true}))
	other = &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 20, Intimidation: true}
	require.Equal(t, "#40 rank 11: Pixie intimidates with charme: 6 (Charme 14 + d20[1]−d20[9]) vs 20 — margin −14: a fumble (FEE-004); hurting itself would cost 3 Essence",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 11, Intent: other,
			Attack: roll20(1, 9, fmod("charme", 14, "FEE-001")), Defense: 20, Margin: -14, Fumble: true, SelfHarm: 3}))
	free := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_FREE}
	require.Equal(t, "#40 rank 8: Rübezahl tries to free itself: 14 (P 16 − entangled 6 + d20[8]−d20[4]) vs 10 — margin 4: free (FEE-152)",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "rubezahl", Rank: 8, Intent: free,
			Attack: roll20(8, 4, fmod("Puissance", 16, "FEE-152"), fmod("entangled", -6, "FEE-152")), Defense: 10, Margin: 4, Success: true}))
	require.Equal(t, "#40 rank 8: Rübezahl tries to free itself: 6 (P 16 − entangled 6 + d20[2]−d20[6]) vs 10 — margin −4: still entangled",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "rubezahl", Rank: 8, Intent: free,
			Attack: roll20(2, 6, fmod("Puissance", 16, "FEE-152"), fmod("entangled", -6, "FEE-152")), Defense: 10, Margin: -4}))
	require.Equal(t, `#40 rank 8: Pixie: a passive activity, no roll: "flies off"`,
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "pixie", Rank: 8, Note: "no roll",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, Description: "flies off"}}))
	require.Equal(t, "#40 rank 8: Rübezahl gets up (FEE-151)",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "rubezahl", Rank: 8, Success: true, Note: "Rübezahl gets up",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP}}))
	require.Equal(t, "#40 rank 8: Rübezahl picks its weapon up (FEE-183)",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "rubezahl", Rank: 8, Success: true, Note: "Rübezahl picks its weapon up",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP}}))
	require.Equal(t, "#40 rank 8: Rübezahl attacks Serpent; the activity no longer holds: no bâton",
		resolved(t, &feeriev1.ActivityResolved{CombatantId: "rubezahl", Rank: 8, Intent: melee("serpent"), Note: "the activity no longer holds: no bâton"}))
}

func TestNarrateFeerieOtherEvents(t *testing.T) {
	// FEE-T06: the Pixie changes intention at rank 19 to flee, its rank capped at 19.
	flee := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, Applied: &feeriev1.Applied{Defense: []string{"couardise", "esquive"}},
		Tactic: &feeriev1.Tactic{Initiative: 0, Attack: -5, Defense: 5}, Description: "flees"}
	require.Equal(t, `#21 rank 19: Pixie changes intention: a passive activity, couardise and esquive on Defense, tactic +0/−5/+5: "flees"; `+
		"it acts from rank 19 (−4 on that activity and on Defense from now on, −4 on the next Action; FEE-070, FEE-071)",
		enText(t, 21, &feeriev1.Event{Kind: &feeriev1.Event_IntentionChanged{IntentionChanged: &feeriev1.IntentionChanged{
			CombatantId: "pixie", Intent: flee, Rank: 19, ActingRank: 19}}}))
	require.Equal(t, `#22 rank 0: "the hut burns": Serpent loses 3 Essence (FEE-046)`,
		enText(t, 22, &feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{Description: "the hut burns", TargetId: "serpent", EssenceLost: 3}}}))
	require.Equal(t, "#22 rank 0: an impersonal event: Serpent loses 0 Essence (FEE-046)",
		enText(t, 22, &feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{TargetId: "serpent"}}}))
	require.Equal(t, "#23 Pixie renounces its activity (FEE-075)",
		enText(t, 23, &feeriev1.Event{Kind: &feeriev1.Event_Renounced{Renounced: &feeriev1.Renounced{CombatantId: "pixie"}}}))
	require.Equal(t, "#24 Serpent is surprised for the next Action: −8 Initiative, −4 Defense, no tactic (FEE-080)",
		enText(t, 24, &feeriev1.Event{Kind: &feeriev1.Event_Surprised{Surprised: &feeriev1.Surprised{CombatantId: "serpent", Actions: 1}}}))
	require.Equal(t, "#24 Serpent is surprised for the next 3 Actions: −8 Initiative, −4 Defense, no tactic (FEE-080); it can do nothing while it lasts (FEE-082)",
		enText(t, 24, &feeriev1.Event{Kind: &feeriev1.Event_Surprised{Surprised: &feeriev1.Surprised{CombatantId: "serpent", Actions: 3, NoActivity: true}}}))
	require.Equal(t, `#25 rank 12: Rübezahl, freely: "shouts a warning" (FEE-047)`,
		enText(t, 25, &feeriev1.Event{Kind: &feeriev1.Event_Gestured{Gestured: &feeriev1.Gestured{CombatantId: "rubezahl", Description: "shouts a warning", Rank: 12}}}))
	require.Equal(t, "#26 Redcap attacks Rübezahl unseen: dissimulation 25 (H 16 + hache 3 + d20[10]−d20[4]) vs Vigilance 20 — margin 5: +2 Initiative this Action (FEE-081, FEE-186)",
		enText(t, 26, &feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "redcap", VictimId: "rubezahl",
			Roll: roll20(10, 4, fmod("Habileté", 16, "FEE-081"), fmod("hache", 3, "FEE-081")), Vigilance: 20, Margin: 5, InitiativeBonus: 2}}}))
	require.Equal(t, "#26 Redcap attacks Rübezahl unseen: dissimulation 14 (H 16 + d20[2]−d20[4]) vs Vigilance 20 — margin −6: no Initiative gained (FEE-081, FEE-186)",
		enText(t, 26, &feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "redcap", VictimId: "rubezahl",
			Roll: roll20(2, 4, fmod("Habileté", 16, "FEE-081")), Vigilance: 20, Margin: -6}}}))
	// FEE-022: the GM's ruling that a combatant is helpless, and that it no longer is.
	require.Equal(t, "#26 the GM rules: Serpent is helpless (asleep): Defense 0 against every attack, and no activity (FEE-022, FEE-024)",
		enText(t, 26, &feeriev1.Event{Kind: &feeriev1.Event_HelplessRuled{HelplessRuled: &feeriev1.HelplessRuled{CombatantId: "serpent", Helpless: true, Reason: "asleep"}}}))
	require.Equal(t, "#26 the GM rules: Serpent is helpless: Defense 0 against every attack, and no activity (FEE-022, FEE-024)",
		enText(t, 26, &feeriev1.Event{Kind: &feeriev1.Event_HelplessRuled{HelplessRuled: &feeriev1.HelplessRuled{CombatantId: "serpent", Helpless: true}}}))
	require.Equal(t, "#26 the GM rules: Serpent is no longer helpless; it defends and acts again (FEE-022)",
		enText(t, 26, &feeriev1.Event{Kind: &feeriev1.Event_HelplessRuled{HelplessRuled: &feeriev1.HelplessRuled{CombatantId: "serpent"}}}))
	require.Equal(t, "#27 Pixie becomes an inanimate object through pantin de bois: it takes damage as an object and renounces every activity (FEE-026)",
		enText(t, 27, &feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: "pixie", Power: "pantin de bois"}}}))
	require.Equal(t, "#28 Pixie is no longer an inanimate object (FEE-026)",
		enText(t, 28, &feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: "pixie", End: true}}}))
	require.Equal(t, `#29 rank 12: the GM rules: Redcap's tactic is now −2/+2/+0; −2 to Redcap's activity rolls to the end of the Action; Redcap acts from rank 10 (FEE-036): "no room to swing"`,
		enText(t, 29, &feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "redcap",
			Tactic: &feeriev1.Tactic{Initiative: -2, Attack: 2}, Malus: 2, Reason: "no room to swing", Rank: 12, ActingRank: 10}}}))
	require.Equal(t, "#29 the GM rules: Redcap's tactic is cancelled (FEE-036)",
		enText(t, 29, &feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "redcap", CancelTactic: true}}}))
}
