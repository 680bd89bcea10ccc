package d20segcmd_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/stretchr/testify/require"
)

// d20Submitted runs `fray d20 ARGS` against a fake and returns the d20seg action it submitted.
func d20Submitted(t *testing.T, args ...string) *d20segv1.Action {
	t.Helper()
	req := clienttest.SubmittedTo(t, &clienttest.Fake{}, append([]string{"d20"}, args...)...)
	require.NotNil(t, req.GetCommand().GetD20Seg(), args)
	return req.GetCommand().GetD20Seg()
}

func TestD20SurpriseSendsTheApprehensions(t *testing.T) {
	clienttest.ClearEnv(t)
	const (
		open, cluttered, night = d20segv1.Situation_SITUATION_OPEN_VIEW, d20segv1.Situation_SITUATION_CLUTTERED_VIEW, d20segv1.Situation_SITUATION_NIGHT
		impaired, vigilant     = d20segv1.Situation_SITUATION_IMPAIRED, d20segv1.Situation_SITUATION_VIGILANT
	)
	// A surprise names no combatant; each defender with its situations, the impaired malus
	// (Apprehension.impaired_malus) and a spell's modifier.
	clienttest.RequireProtoEqual(t, &d20segv1.Action{Kind: &d20segv1.Action_Surprise{Surprise: &d20segv1.Surprise{
		AttackerIds: []string{"veteran", "maitre"},
		Defenders: []*d20segv1.Apprehension{
			{DefenderId: "novice", Situations: []d20segv1.Situation{cluttered, night}},
			{DefenderId: "soldat", Situations: []d20segv1.Situation{night, impaired}, ImpairedMalus: 3, SpellModifier: 1},
			{DefenderId: "mage", SpellModifier: -2},
			{DefenderId: "scout", Situations: []d20segv1.Situation{vigilant, open, d20segv1.Situation_SITUATION_UNCONVENTIONAL_ATTACK}},
			{DefenderId: "drunk", Situations: []d20segv1.Situation{impaired, d20segv1.Situation_SITUATION_HUBBUB}},
		},
	}}}, d20Submitted(t, "surprise", "enc-1", "--attackers", "veteran", "--attackers", "maitre",
		"--defender", "novice:cluttered-view+night", "--defender", "soldat:NIGHT+impaired=3:+1", "--defender", "mage::−2",
		"--defender", "scout:vigilant,open_view,unconventional attack", "--defender", "drunk:impaired+hubbub:0"))
	clienttest.RequireProtoEqual(t, &d20segv1.Surprise{AttackerIds: []string{"a"}, Defenders: []*d20segv1.Apprehension{{DefenderId: "b",
		Situations: []d20segv1.Situation{d20segv1.Situation_SITUATION_DESERTED, d20segv1.Situation_SITUATION_BUSY, d20segv1.Situation_SITUATION_VERY_BUSY}}}},
		d20Submitted(t, "surprise", "enc-1", "--attackers", "a", "--defender", "b:deserted+busy+very-busy").GetSurprise())
}

func TestD20ActionsSendTheActions(t *testing.T) {
	clienttest.ClearEnv(t)
	// An attack with every flag; the distance in metres or centimetres.
	clienttest.RequireProtoEqual(t, &d20segv1.Action{CombatantId: "maitre", Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{
		TargetId: "soldat", Weapon: "lance", DistanceCm: 450, Modifier: -2, DamageModifier: 3, Free: true}}},
		d20Submitted(t, "attack", "enc-1", "maitre", "soldat", "--weapon", "lance", "--distance", "4.5m", "--modifier", "-2", "--damage-modifier", "3", "--free"))
	for d, cm := range map[string]int32{"150": 150, "150cm": 150, "1,5m": 150, "3m": 300, "0": 0} {
		require.Equal(t, cm, d20Submitted(t, "attack", "enc-1", "a", "b", "--distance", d).GetAttack().GetDistanceCm(), d)
	}
	clienttest.RequireProtoEqual(t, &d20segv1.Attack{TargetId: "novice"}, d20Submitted(t, "attack", "enc-1", "veteran", "novice").GetAttack())

	// Spells: by level, special; pure magic with its stated time; a stated time alone; for the
	// next round; free.
	clienttest.RequireProtoEqual(t, &d20segv1.Action{CombatantId: "mage", Kind: &d20segv1.Action_Cast{Cast: &d20segv1.Cast{
		Spell: "boule de feu", Level: 3, Special: true}}},
		d20Submitted(t, "cast", "enc-1", "mage", "boule", "de", "feu", "--level", "3", "--special"))
	clienttest.RequireProtoEqual(t, &d20segv1.Cast{Spell: "lumière", Level: 0}, d20Submitted(t, "cast", "enc-1", "mage", "lumière", "--level", "0").GetCast())
	clienttest.RequireProtoEqual(t, &d20segv1.Cast{Spell: "peau de pierre", PureMagic: true, StatedSegments: 2, NextRound: true, Free: true},
		d20Submitted(t, "cast", "enc-1", "mage", "peau de pierre", "--pure", "--segments", "2", "--next-round", "--free").GetCast())
	clienttest.RequireProtoEqual(t, &d20segv1.Cast{Spell: "rituel", StatedSegments: 5}, d20Submitted(t, "cast", "enc-1", "mage", "rituel", "--segments", "5").GetCast())

	// Other actions: 1 segment unless the GM says otherwise; free.
	clienttest.RequireProtoEqual(t, &d20segv1.Action{CombatantId: "soldat", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "draws his sword"}}},
		d20Submitted(t, "other", "enc-1", "soldat", "draws", "his", "sword"))
	clienttest.RequireProtoEqual(t, &d20segv1.Other{Description: "climbs the wall", Segments: 3, Free: true},
		d20Submitted(t, "other", "enc-1", "soldat", "climbs the wall", "--segments", "3", "--free", "--as", "gm").GetOther())

	req := clienttest.SubmittedTo(t, &clienttest.Fake{}, "d20", "end", "enc-1", "soldat", "--expected-sequence", "12", "--as", "rita")
	require.Equal(t, uint64(12), req.GetExpectedSequence())
	clienttest.RequireProtoEqual(t, &d20segv1.Action{CombatantId: "soldat", Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}}, req.GetCommand().GetD20Seg())
}

func TestD20UsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"d20"}, []string{"fray d20: missing subcommand", "usage: fray d20 SUBCOMMAND", "surprise", "cast"}},
		{[]string{"d20", "move"}, []string{`fray d20: unknown subcommand "move"`}},
		{[]string{"d20", "surprise", "e", "--defender", "novice"}, []string{"fray d20 surprise: name the attackers: --attackers A,B (D20-004)"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a"}, []string{"name the defenders, each with its situations"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a,a", "--defender", "b"}, []string{"--attackers: a is given twice"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "a"}, []string{"a cannot be both attacker and defender"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b", "--defender", "b:night"}, []string{"--defender: b is given twice"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:fog"}, []string{`--defender "b:fog": situation "fog": open-view, cluttered-view, night`}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:night+night"}, []string{"situation night given twice"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:night=2"}, []string{"only impaired takes a malus"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:impaired=0"}, []string{"impaired=0: give the malus as a positive number"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:night:lots"}, []string{`the spell modifier "lots" is not a number`}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", ":night"}, []string{"the defender's id is empty"}},
		{[]string{"d20", "surprise", "e", "--attackers", "a", "--defender", "b:night:1:2"}, []string{"give ID[:SITUATION+SITUATION[:SPELL_MODIFIER]]"}},
		{[]string{"d20", "surprise"}, []string{"fray d20 surprise: missing arguments: 0 given, 1 needed"}},
		{[]string{"d20", "attack", "e", "a"}, []string{"fray d20 attack: missing arguments: 2 given, 3 needed", "usage: fray d20 attack ENCOUNTER COMBATANT TARGET"}},
		{[]string{"d20", "attack", "e", "a", "a"}, []string{"a cannot attack itself"}},
		{[]string{"d20", "attack", "e", "a", "b", "--distance", "-1"}, []string{`invalid argument "-1" for "--distance" flag: a distance of 0 or more`}},
		{[]string{"d20", "attack", "e", "a", "b", "--distance", "far"}, []string{`invalid argument "far" for "--distance" flag`}},
		{[]string{"d20", "cast", "e", "mage"}, []string{"fray d20 cast: missing arguments: 2 given, 3 needed"}},
		{[]string{"d20", "cast", "e", "mage", "sommeil"}, []string{"give the spell's --level 0…9 (D20-018), or its stated casting time with --segments N"}},
		{[]string{"d20", "cast", "e", "mage", "sommeil", "--level", "10"}, []string{"--level 10: a spell level runs from 0 to 9 (D20-018)"}},
		{[]string{"d20", "cast", "e", "mage", "sommeil", "--level", "-1"}, []string{"--level -1: a spell level runs from 0 to 9"}},
		{[]string{"d20", "cast", "e", "mage", "flux", "--pure"}, []string{"pure magic has no table entry: give its stated casting time with --segments N (D20-021)"}},
		{[]string{"d20", "cast", "e", "mage", "flux", "--pure", "--level", "2", "--segments", "3"}, []string{"--pure and --level: pure magic has no level"}},
		{[]string{"d20", "cast", "e", "mage", "flux", "--segments", "0"}, []string{"--segments 0: a casting time is 1 segment or more"}},
		{[]string{"d20", "cast", "e", "mage", "flux", "--segments", "2", "--special"}, []string{"--special adds a segment to the time of the level; a stated --segments prevails (D20-018)"}},
		{[]string{"d20", "cast", "e", "mage", " ", "--level", "1"}, []string{"the spell's name is empty"}},
		{[]string{"d20", "other", "e", "soldat"}, []string{"fray d20 other: missing arguments: 2 given, 3 needed"}},
		{[]string{"d20", "other", "e", "soldat", " "}, []string{"the description is empty"}},
		{[]string{"d20", "other", "e", "soldat", "runs", "--segments", "0"}, []string{"--segments 0: an action costs 1 segment or more"}},
		{[]string{"d20", "end", "e"}, []string{"fray d20 end: missing arguments: 1 given, 2 needed"}},
		{[]string{"d20", "end", "e", "a", "b"}, []string{"fray d20 end: too many arguments: b"}},
	} {
		clienttest.RequireUsageError(t, tc.args, tc.want...)
	}
}

func TestD20Help(t *testing.T) {
	code, out, _ := clienttest.Run(t, "help")
	require.Equal(t, 0, code)
	require.Regexp(t, `(?m)^  d20 +d20 à segments \(d20seg\): attack, cast, other, end; surprise \(GM\)$`, out)
	for _, args := range [][]string{{"help", "d20"}, {"d20", "-h"}, {"d20", "help"}} {
		code, out, errOut := clienttest.Run(t, args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut)
		for _, sub := range []string{"surprise", "attack", "cast", "other", "end"} {
			require.Regexp(t, `(?m)^  `+sub+` +\S`, out, args)
		}
	}
	code, out, _ = clienttest.Run(t, "help", "d20", "surprise")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: fray d20 surprise ENCOUNTER --attackers A,B --defender ID[:SITUATION+SITUATION[:SPELL_MODIFIER]]...")
	require.Contains(t, out, "Situations (D20-001): open-view, cluttered-view, night,")
	for _, sit := range []string{"deserted", "busy", "very-busy", "hubbub", "impaired", "unconventional-attack", "vigilant", "impaired=N sets the impaired malus"} {
		require.Contains(t, out, sit)
	}
	code, out, _ = clienttest.Run(t, "d20", "cast", "-h")
	require.Equal(t, 0, code)
	for _, flag := range []string{"-level", "-pure", "-segments", "-special", "-next-round", "-free"} {
		require.Contains(t, out, flag)
	}
}

// The example sheets: four valid combatants of BBA 0, 6, 11 and 16, with the Initiatives of
// D20-T01 and D20-T04, the attack costs of D20-T02 and the longsword of D20-T03.
func TestD20ExampleSheets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(clienttest.Sheets, "d20seg", "*.yaml"))
	require.NoError(t, err)
	require.Len(t, files, 4)
	st := &encounterv1.EncounterState{}
	bbas := map[int32]string{}
	rules := d20seg.New(d20seg.Latest) // the example sheets are for the encounters fray creates today
	_, lastSegment := rules.Segments(nil, 1)
	for _, f := range files {
		c, err := client.LoadCombatant(f)
		require.NoError(t, err, f)
		require.NoError(t, rules.CheckCombatant(st, c), f)
		bbas[c.GetD20Seg().GetBba()] = c.GetId()
		st.Combatants = append(st.Combatants, c)
	}
	require.Equal(t, map[int32]string{0: "novice", 6: "soldat", 11: "veteran", 16: "maitre"}, bbas)
	sheet := func(id string) *d20segv1.Sheet { return clienttest.MustSheet(t, "d20seg/"+id+".yaml").GetD20Seg() }
	// D20-T01: Rapidité 3 unarmed without armour, 5; with heavy armour, pavise and a one-handed
	// weapon, −2. D20-T04: the veteran and the master tie at 4.
	require.Equal(t, []int32{5, -2, 4, 4}, []int32{rules.Initiative(sheet("novice")), rules.Initiative(sheet("soldat")),
		rules.Initiative(sheet("veteran")), rules.Initiative(sheet("maitre"))})
	require.Equal(t, int32(3), sheet("novice").GetRapidite())
	require.Equal(t, int32(3), sheet("soldat").GetRapidite())
	// D20-T02: in segments 0–5, BBA 0 attacks once, 6 twice, 11 and 16 three times.
	for id, want := range map[string]int{"novice": 1, "soldat": 2, "veteran": 3, "maitre": 3} {
		n, used := 0, int32(0)
		for used+rules.AttackCost(sheet(id).GetBba(), int32(n)) <= lastSegment+1 {
			used += rules.AttackCost(sheet(id).GetBba(), int32(n))
			n++
		}
		require.Equal(t, want, n, id)
	}
	// D20-T03: the veteran's longsword, ×2, 1d8 + Strength 3, and +2 feat damage.
	v := sheet("veteran")
	require.Equal(t, []any{"épée longue", "1d8", int32(2), int32(3)}, []any{v.GetWeapons()[0].GetName(), v.GetWeapons()[0].GetDice(), v.GetWeapons()[0].GetCritical(), v.GetStrength()})
	require.Equal(t, int32(2), v.GetFeats()[0].GetDamage())
	// D20-030: the master is large: 3 m of reach, 4.5 m with the lance.
	require.Equal(t, int32(300), rules.Reach(sheet("maitre").GetSize()))
	require.Equal(t, int32(450), sheet("maitre").GetWeapons()[1].GetReachCm())
}

// d20State: round 1 of the four example combatants, the master at segment 2 after his first
// attack, the novice down, the veteran's turn ended, a spell for the next round.
func d20State(t *testing.T) *encounterv1.EncounterState {
	t.Helper()
	var cs []*encounterv1.Combatant
	for _, id := range []string{"novice", "soldat", "veteran", "maitre"} {
		cs = append(cs, clienttest.MustSheet(t, "d20seg/"+id+".yaml"))
	}
	return &encounterv1.EncounterState{EncounterId: "enc-1", Name: "L'embuscade", RuleSystem: "d20seg", RulesVersion: 1, GameMaster: "gm", Sequence: 20,
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Combatants: cs,
		System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{Round: 1, SurpriseDeclared: true, DelayedSpells: []string{"peau de pierre"},
			Combatants: map[string]*d20segv1.CombatantState{
				"novice":  {Initiative: 5, HitPoints: -10, Down: true},
				"soldat":  {Initiative: -2, HitPoints: 25, NextSegment: 1},
				"veteran": {Initiative: 4, TieOrder: 1, HitPoints: 71, NextSegment: 2, AttacksThisRound: 1, EndedTurn: true},
				"maitre":  {Initiative: 4, HitPoints: 120, NextSegment: 1, AttacksThisRound: 1},
			}}}}
}

// The state of a d20seg encounter: the round, each combatant's Initiative, hit points, next
// segment, attacks this round and conditions, and who acts next.
func TestD20State(t *testing.T) {
	clienttest.ClearEnv(t)
	st := d20State(t)
	f := &clienttest.Fake{State: st}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Equal(t, 0, code, errOut)
	t.Logf("fray state:\n%s", out)
	lines := strings.Split(out, "\n")
	require.Equal(t, "L'embuscade (enc-1): active, d20seg v1, GM gm, at event #20", lines[0])
	require.Equal(t, "Round 1: segments 0 to 5 (D20-013)", lines[1])
	require.Regexp(t, `^  ID\s+NAME\s+SIDE\s+CONTROLLER\s+INIT\s+HP\s+NEXT\s+ATTACKS\s+OTHER$`, lines[2])
	require.Regexp(t, `^  novice\s+Novice\s+travellers\s+gm\s+5\s+−10/8\s+-\s+0\s+DOWN \(D20-044\)$`, lines[3])
	require.Regexp(t, `^  soldat\s+Soldat\s+travellers\s+gm\s+−2\s+25/45\s+segment 1\s+0\s+next attack costs 3 segments \(BBA 6, D20-017\)$`, lines[4])
	require.Regexp(t, `^  veteran\s+Vétéran\s+ambushers\s+gm\s+4 \(tie 2nd\)\s+71/80\s+done\s+1\s+ended its turn$`, lines[5])
	require.Regexp(t, `^  maitre\s+Maître d'armes\s+ambushers\s+gm\s+4 \(tie 1st\)\s+120/120\s+segment 1\s+1\s+next attack costs 2 segments \(BBA 16, D20-017\)$`, lines[6])
	require.Equal(t, "Taking effect at the start of the next round: peau de pierre (D20-019)", lines[7])
	// At segment 1, the master's Initiative of 4 before the soldier's −2 (D20-015).
	require.Equal(t, "Maître d'armes acts next, at segment 1: fray d20 attack|cast|other|end enc-1 maitre ...", lines[8])

	// Extra segments: the master may use segments 6 and 7, and −1 (D20-014); at 6 he still acts.
	ds := st.GetD20Seg()
	st.Combatants[3].GetD20Seg().ExtraSegments = []int32{7, -1, 6}
	ds.Combatants["maitre"].NextSegment, ds.Combatants["soldat"].NextSegment = 6, 6
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Regexp(t, `maitre\s+Maître d'armes\s+ambushers\s+gm\s+4 \(tie 1st\)\s+120/120\s+segment 6\s+1\s+extra segments −1, 6, 7 \(D20-014\), next attack costs 2 segments`, out)
	require.Regexp(t, `soldat\s+Soldat\s+travellers\s+gm\s+−2\s+25/45\s+done\s+0\n`, out)
	require.Contains(t, out, "Maître d'armes acts next, at segment 6:")

	// The surprise round: a surprised defender, a bystander, an attacker's free action, which
	// comes before the novice's segment 0 for all the novice's higher Initiative (D20-004).
	st.Combatants[3].GetD20Seg().ExtraSegments = nil
	ds.Round, ds.DelayedSpells = 0, nil
	ds.Combatants["soldat"] = &d20segv1.CombatantState{Initiative: -2, HitPoints: 45, Surprised: true}
	ds.Combatants["novice"] = &d20segv1.CombatantState{Initiative: 5, HitPoints: 8}
	ds.Combatants["veteran"] = &d20segv1.CombatantState{Initiative: 4, TieOrder: 1, HitPoints: 80, Bystander: true}
	ds.Combatants["maitre"] = &d20segv1.CombatantState{Initiative: 4, HitPoints: 120, FreeActionLeft: true}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "\nSurprise round: segments 0 to 2 (D20-004)\n")
	require.Regexp(t, `soldat\s+Soldat\s+travellers\s+gm\s+−2\s+45/45\s+segment 0\s+0\s+surprised: flat-footed, no action in the surprise round \(D20-004, D20-006\)\n`, out)
	require.Regexp(t, `veteran\s+Vétéran\s+ambushers\s+gm\s+4 \(tie 2nd\)\s+80/80\s+segment 0\s+0\s+neither attacker nor defender: no part in the surprise round \(D20-003\)\n`, out)
	require.Contains(t, out, "Maître d'armes acts next, with its free action, before anyone acts in a segment (D20-004): fray d20 attack|cast|other enc-1 maitre ... --free, or end\n")
	ds.Combatants["maitre"].FreeActionLeft = false
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "Novice acts next, at segment 0:")

	// Before the start: the Initiatives of the sheets.
	st.Status, ds.Round, ds.SurpriseDeclared = encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP, 0, false
	ds.Combatants = map[string]*d20segv1.CombatantState{"novice": {Initiative: 5, HitPoints: 8}}
	_, out, _ = clienttest.Run(t, "state", "enc-1", "--addr", addr)
	require.Contains(t, out, "\nNot started\n")
	require.Regexp(t, `novice\s+Novice\s+travellers\s+gm\s+5\s+8/8\s+-\s+-\s*\n`, out)
	require.Regexp(t, `soldat\s+Soldat\s+travellers\s+gm\s+−2\s+-\s+-\s+-\s*\n`, out)
	require.NotContains(t, out, "acts next")
}
