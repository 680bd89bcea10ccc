package systems

import (
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func init() {
	goldenFights["feerie/v1"] = func(g *goldenFight) { goldenFeerie(g, 1) }
	goldenFights["feerie/v2"] = func(g *goldenFight) { goldenFeerie(g, 2) }
}

// goldenFeerie: two Actions in the clearing. A dog is added and sent home before the start.
// The Hippogriffe sleeps: surprised with no activity, and ruled helpless (FEE-022, FEE-082);
// the Pixie creeps up on the Serpent unseen (FEE-081); the wooden puppet Pinocchio becomes an
// object (FEE-026). Rübezahl and the Serpent fight with tactics, the Pixie pokes the sleeper;
// the GM gives Rübezahl a malus for a poor description (FEE-036), the Serpent changes its
// intention and tactic (FEE-070), the Pixie sneers freely (FEE-047), a burning hut singes the
// Serpent at rank 0 (FEE-046). In the second Action the Hippogriffe wakes, Pinocchio comes back
// to life, Rübezahl renounces (FEE-075), and the GM rewinds a misplayed attack. Under version 2
// two more Actions play what version 2 changed (goldenFeerieV2).
func goldenFeerie(g *goldenFight, version uint32) {
	g.SeedPhrase = goldenFeeriePhrase
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "La clairière", RuleSystem: feerie.ID, RulesVersion: version,
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: &feeriev1.Options{}}},
	}}})
	for _, c := range goldenFeerieCombatants() {
		g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}})
	}
	g.Table("chien")
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "chien"}}})
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})

	// Action 1, step 1.
	g.Do("gm", goldenFeerieAction("hippogriffe", &feeriev1.Action{Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{Actions: 1, NoActivity: true}}}))
	g.Do("gm", goldenFeerieAction("hippogriffe", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Reason: "endormi"}}}))
	g.Do("gm", goldenFeerieAction("pixie", &feeriev1.Action{Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{
		VictimId: "serpent", Aspect: "habilete", Applied: []string{"discrétion"}}}}))
	g.Do("gm", goldenFeerieAction("pantin", &feeriev1.Action{Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: "pantin de bois"}}}))
	intents := map[string]*feeriev1.Intent{
		"rubezahl": goldenFeerieMelee("serpent", "bâton", 0, 2, -2),
		"serpent":  goldenFeerieMelee("rubezahl", "morsure", 2, 0, -2),
		"pixie":    goldenFeerieMelee("hippogriffe", "taquinerie", -5, 5, 0),
	}
	goldenFeerieDeclare(g, intents)
	g.Do("gm", goldenFeerieAction("rubezahl", &feeriev1.Action{Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{
		Malus: 1, Reason: "the bâton is described as a sword"}}}))
	changed, gestured := false, false
	goldenFeerieCountdown(g, func(id string, rank int32, cs *feeriev1.CombatantState) {
		if id == "serpent" && !changed && cs.GetActivities() == 0 && rank >= cs.GetActingRank() {
			// The Serpent switches to a quick bite (FEE-070, FEE-071).
			_, err := g.Try("gm", goldenFeerieAction(id, &feeriev1.Action{Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{
				Intent: goldenFeerieMelee("rubezahl", "morsure", 4, 0, -4)}}}))
			changed = err == nil
		}
		if id == "pixie" && !gestured {
			_, err := g.Try("bob", goldenFeerieAction(id, &feeriev1.Action{Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{Description: "ricane"}}}))
			gestured = err == nil
		}
	})
	require.True(g.t, changed && gestured, "change %v, gesture %v", changed, gestured)
	g.Do("gm", goldenFeerieAction("", &feeriev1.Action{Kind: &feeriev1.Action_Impersonal{Impersonal: &feeriev1.Impersonal{
		Description: "la hutte en flammes", TargetId: "serpent", EssenceLoss: 2}}}))
	g.Do("gm", goldenFeerieAction("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}}))

	// Action 2: the Hippogriffe wakes, Pinocchio comes back to life.
	g.Do("gm", goldenFeerieAction("hippogriffe", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: true}}}))
	g.Do("gm", goldenFeerieAction("pantin", &feeriev1.Action{Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{End: true}}}))
	intents["hippogriffe"] = goldenFeerieMelee("pixie", "", 0, 0, 0)
	intents["pantin"] = goldenFeerieMelee("serpent", "", 0, 0, 0)
	goldenFeerieDeclare(g, intents)
	renounced, rewound := false, false
	goldenFeerieCountdown(g, func(id string, rank int32, cs *feeriev1.CombatantState) {
		if id == "rubezahl" && !renounced {
			_, err := g.Try("alice", goldenFeerieAction(id, &feeriev1.Action{Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}}))
			renounced = err == nil
		}
		if id == "pantin" && !rewound && cs.GetActivities() == 0 && cs.GetCanAct() && rank == cs.GetActingRank() {
			// Pinocchio's attack is entered before its player described it: rewound, then played again.
			evs, err := g.Try("gm", goldenFeerieAction(id, &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}))
			if err == nil {
				g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{
					ToSequence: evs[0].GetSequence() - 1, Reason: "entered before Pinocchio's player described the attack"}}})
				rewound = true
			}
		}
	})
	require.True(g.t, renounced && rewound, "renounce %v, rewind %v", renounced, rewound)
	if version >= 2 {
		goldenFeerieV2(g)
	}
	g.Do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "le Serpent s'enfuit"}}})
}

// goldenFeerieV2: Action 3, the Hippogriffe (surface 8) bites the Pixie and Pinocchio with one
// Attack roll, each filling only its share of the bite, one angle (FEE-094, v2), while Rübezahl
// strikes the Serpent with a frightening blow watched by all (FEE-157); Action 4, Rübezahl
// intimidates the Serpent, which spends every bonus of the blow (FEE-181, v2).
func goldenFeerieV2(g *goldenFight) {
	passive := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE}
	g.Do("gm", goldenFeerieAction("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}})) // Action 3
	bite := goldenFeerieMelee("pixie", "", 0, 0, 0)
	bite.AlsoTargetIds = []string{"pantin"}
	blow := goldenFeerieMelee("serpent", "bâton", 0, 0, 0)
	blow.Strikes = []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW}
	goldenFeerieDeclare(g, map[string]*feeriev1.Intent{"hippogriffe": bite, "rubezahl": blow, "serpent": passive, "pixie": passive, "pantin": passive})
	goldenFeerieCountdown(g, func(string, int32, *feeriev1.CombatantState) {})
	g.Do("gm", goldenFeerieAction("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}})) // Action 4
	scare := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "charme", Difficulty: 10, Intimidation: true, TargetId: "serpent"}
	goldenFeerieDeclare(g, map[string]*feeriev1.Intent{"hippogriffe": passive, "rubezahl": scare, "serpent": passive, "pixie": passive, "pantin": passive})
	goldenFeerieCountdown(g, func(string, int32, *feeriev1.CombatantState) {})
	require.Empty(g.t, g.State().GetFeerie().GetCombatants()["rubezahl"].GetIntimidationBonuses(), "the intimidation spent every bonus")
}

// goldenFeeriePhrase picks dice under which every kind of event happens.
const goldenFeeriePhrase = "clairière"

func goldenFeerieAction(id string, a *feeriev1.Action) *encounterv1.Command {
	a.CombatantId = id
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

func goldenFeerieMelee(target, attr string, init, att, def int32) *feeriev1.Intent {
	in := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true}
	if attr != "" {
		in.Applied = &feeriev1.Applied{Attack: []string{attr}, Defense: []string{attr}}
		in.Tactic = &feeriev1.Tactic{Initiative: init, Attack: att, Defense: def}
	}
	return in
}

// goldenFeerieDeclare has every combatant that may declare do so, in the order they joined.
func goldenFeerieDeclare(g *goldenFight, intents map[string]*feeriev1.Intent) {
	for _, c := range g.State().GetCombatants() {
		if g.State().GetFeerie().GetStep() != feeriev1.Step_STEP_DECLARING {
			break
		}
		in := intents[c.GetId()]
		if in == nil {
			continue
		}
		_, _ = g.Try(c.GetController(), goldenFeerieAction(c.GetId(), &feeriev1.Action{Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: in}}}))
	}
	require.Equal(g.t, feeriev1.Step_STEP_COUNTDOWN, g.State().GetFeerie().GetStep(), "everyone has declared")
}

// goldenFeerieCountdown runs the countdown down to rank 0: at each rank, first each
// combatant's extra moves, then everyone whose rank it is acts; the GM advances.
func goldenFeerieCountdown(g *goldenFight, extra func(id string, rank int32, cs *feeriev1.CombatantState)) {
	for g.State().GetFeerie().GetRank() > 0 {
		rank := g.State().GetFeerie().GetRank()
		for _, c := range g.State().GetCombatants() {
			extra(c.GetId(), rank, g.State().GetFeerie().GetCombatants()[c.GetId()])
			cs := g.State().GetFeerie().GetCombatants()[c.GetId()]
			if cs.GetCanAct() && cs.GetActivities() == 0 && cs.GetActingRank() == rank && !cs.GetRenounced() {
				_, _ = g.Try(c.GetController(), goldenFeerieAction(c.GetId(), &feeriev1.Action{Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}))
			}
		}
		g.Do("gm", goldenFeerieAction("", &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}}))
	}
}

func goldenFeerieCombatants() []*encounterv1.Combatant {
	fey := func(id, name, ctl string, v, h, p, r, t, essence int32, attrs ...*feeriev1.Attribute) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: name, Controller: ctl, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
			Vigilance: v, Habilete: h, Puissance: p, Resistance: r, Taille: t, Charme: 10, Essence: essence, Attributes: attrs,
		}}}
	}
	aff := func(name string, v int32) *feeriev1.Attribute {
		return &feeriev1.Attribute{Name: name, Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: v, Combat: true}
	}
	return []*encounterv1.Combatant{
		fey("rubezahl", "Rübezahl", "alice", 20, 18, 16, 16, 1, 40, aff("bâton", 4)),
		fey("serpent", "Serpent à Sornettes", "gm", 17, 15, 12, 12, 0, 40, aff("morsure", 4)),
		fey("pixie", "Pixie", "bob", 20, 14, 4, 6, -3, 20, aff("taquinerie", 5),
			&feeriev1.Attribute{Name: "discrétion", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: 3}),
		fey("hippogriffe", "Hippogriffe", "gm", 12, 12, 16, 14, 2, 40),
		fey("pantin", "Pinocchio", "gm", 14, 12, 6, 8, -1, 30,
			&feeriev1.Attribute{Name: "pantin de bois", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, Value: 2}),
		fey("chien", "Chien", "gm", 12, 10, 6, 8, -2, 10),
	}
}

// TestFeerieV2LogFailsTheV1Audit: the golden log of version 2, pinned to version 1 and audited,
// diverges first where version 2 decided otherwise: the Hippogriffe's bite on the Pixie and
// Pinocchio, whose angles version 1 counts the whole bite against (−6 and −2, FEE-091) and
// version 2 only each one's share (FEE-094). Every command before it is decided alike.
func TestFeerieV2LogFailsTheV1Audit(t *testing.T) {
	events, _ := readGolden(t, feerie.ID, 2)
	sweep := slices.IndexFunc(events, func(ev *encounterv1.Event) bool {
		return len(ev.GetFeerie().GetActivityResolved().GetIntent().GetAlsoTargetIds()) > 0
	})
	require.Positive(t, sweep, "the log of version 2 holds a sweep")
	var v1 []*encounterv1.Event
	for _, ev := range events {
		ev = proto.CloneOf(ev)
		ev.RulesVersion = 1
		if rw := ev.GetEncounterRewound(); rw.GetState() != nil {
			rw.State.RulesVersion = 1
		}
		v1 = append(v1, ev)
	}
	_, err := Registry().Audit(v1)
	var d *engine.Divergence
	require.ErrorAs(t, err, &d)
	t.Logf("version 1 decides otherwise at event %d: %s", d.Sequence, d.Reason)
	require.Equal(t, events[sweep].GetSequence(), d.Sequence, "the first divergent decision is the bite")
	// The text of a message is spaced at random: match it loosely.
	require.Regexp(t, `reason:\s*"attack angles occupied"\s+value:\s*-6\s+rule:\s*"FEE-091"`, d.Reason, "version 1's malus of the whole bite")
}
