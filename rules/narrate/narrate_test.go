package narrate

import (
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
	"google.golang.org/protobuf/types/known/durationpb"
)

// fakeTeller narrates the Loss payload as "a Loss event", a Loss sheet as "a sheet" and Loss
// options as "house rules"; it counts what it learns.
type fakeTeller struct{ learnt, states *int }

func (f fakeTeller) Event(n *Narrator, ev *encounterv1.Event) (string, bool) {
	if ev.GetLoss() == nil {
		return "", false
	}
	return "a Loss event", true
}

func (f fakeTeller) Sheet(n *Narrator, c *encounterv1.Combatant) (string, bool) {
	if c.GetLoss() == nil {
		return "", false
	}
	return "a sheet", true
}

func (f fakeTeller) Options(n *Narrator, o *encounterv1.RuleOptions) (string, bool) {
	if o.GetLoss() == nil {
		return "", false
	}
	return "house rules", true
}

func (f fakeTeller) Learn(n *Narrator, ev *encounterv1.Event) { *f.learnt++ }

func (f fakeTeller) LearnState(n *Narrator, st *encounterv1.EncounterState) { *f.states++ }

// silentTeller owns nothing, and says so.
type silentTeller struct{}

func (silentTeller) Event(*Narrator, *encounterv1.Event) (string, bool) { return "", false }
func (silentTeller) Sheet(*Narrator, *encounterv1.Combatant) (string, bool) {
	return "", true // an empty sheet text is left out
}
func (silentTeller) Options(*Narrator, *encounterv1.RuleOptions) (string, bool) { return "", false }
func (silentTeller) Learn(*Narrator, *encounterv1.Event)                        {}
func (silentTeller) LearnState(*Narrator, *encounterv1.EncounterState)          {}

func TestParse(t *testing.T) {
	for in, want := range map[string]language.Tag{"": English, "  ": English, "en": English, "en-GB": English, "fr": French, "fr-CA": French} {
		got, err := Parse(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := Parse("de")
	require.EqualError(t, err, `narration language "de": narration is written in en (English) or fr (French)`)
	_, err = Parse("not a tag!")
	require.EqualError(t, err, `narration language "not a tag!": not a language tag; narration is written in en (English) or fr (French)`)
	require.Equal(t, []language.Tag{English, French}, Languages())
}

func TestTheCatalogueRefusesBadMessages(t *testing.T) {
	require.PanicsWithValue(t, "narrate.Fr: an English key without its French message", func() { Fr("one") })
	require.Panics(t, func() { SetString(French, "bad", "${broken") })
	require.Panics(t, func() { Set(French, "bad", catalog.String("${broken")) })
	SetString(French, "twice the same", "deux fois la même")
	SetString(French, "twice the same", "deux fois la même")
	require.PanicsWithValue(t, `narrate: message "twice the same" in fr is both "deux fois la même" and "autre chose": give one of them another English key`,
		func() { SetString(French, "twice the same", "autre chose") })
}

func TestTheNarratorRemembers(t *testing.T) {
	n := New(French)
	require.Equal(t, French, n.Language())
	require.True(t, n.French())
	require.False(t, New(English).French())
	require.Equal(t, "?", n.Name(""))
	require.Equal(t, "diego", n.Name("diego"))
	n.SetName("diego", "Diego")
	n.SetName("", "Nobody")
	n.SetName("ruffian", "")
	require.Equal(t, "Diego", n.Name("diego"))
	require.Equal(t, "ruffian", n.Name("ruffian"))
	require.Equal(t, "?", n.Name(""))

	n.SetHidden("ogre", true)
	n.SetHidden("", true)
	require.True(t, n.Hidden("ogre"))
	require.False(t, n.Hidden(""))
	require.False(t, n.Redacted())
	require.False(t, n.Withheld("ogre"), "not while narrating a redacted event")

	type key struct{}
	made := 0
	m := n.Memory(key{}, func() any { made++; return &made })
	require.Same(t, m, n.Memory(key{}, func() any { made++; return nil }))
	require.Equal(t, 1, made)
}

// Withheld is true while a redacted event is narrated, for the hidden combatants only.
func TestWithheldDuringARedactedEvent(t *testing.T) {
	var seen []bool
	n := New(English, probe{func(n *Narrator) { seen = append(seen, n.Redacted(), n.Withheld("ogre"), n.Withheld("diego")) }})
	n.SetHidden("ogre", true)
	n.Text(&encounterv1.Event{Sequence: 1, Redacted: true, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}})
	require.Equal(t, []bool{true, true, false}, seen)
	require.False(t, n.Redacted(), "only while the event is narrated")
	require.False(t, n.Withheld("ogre"))
}

type probe struct{ f func(*Narrator) }

func (p probe) Event(n *Narrator, ev *encounterv1.Event) (string, bool) {
	p.f(n)
	return "probed", true
}
func (probe) Sheet(*Narrator, *encounterv1.Combatant) (string, bool)     { return "", false }
func (probe) Options(*Narrator, *encounterv1.RuleOptions) (string, bool) { return "", false }
func (probe) Learn(*Narrator, *encounterv1.Event)                        {}
func (probe) LearnState(*Narrator, *encounterv1.EncounterState)          {}

func TestLearning(t *testing.T) {
	learnt, states := 0, 0
	n := New(English, silentTeller{}, fakeTeller{&learnt, &states})
	ogre := &encounterv1.Combatant{Id: "ogre", Name: "L'ogre", Hidden: true}
	n.Learn(&encounterv1.Event{Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: ogre}}})
	require.Equal(t, "L'ogre", n.Name("ogre"))
	require.True(t, n.Hidden("ogre"))
	require.Equal(t, 1, learnt)
	require.Equal(t, 0, states)

	require.Equal(t, "#2 The GM shows L'ogre again: its numbers are seen from now on",
		n.Narrate(&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantHidden{CombatantHidden: &encounterv1.CombatantHidden{CombatantId: "ogre"}}}))
	require.False(t, n.Hidden("ogre"))
	require.Equal(t, 2, learnt)

	rewound := &encounterv1.Event{Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{
		State: &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{{Id: "diego", Name: "Diego", Hidden: true}}}}}}
	n.Learn(rewound)
	require.Equal(t, "Diego", n.Name("diego"))
	require.True(t, n.Hidden("diego"))
	require.Equal(t, 3, learnt)
	require.Equal(t, 1, states, "a rewind's state is learnt by each teller")

	n.LearnState(&encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{{Id: "canahan", Name: "Canahan", Hidden: true}}})
	require.Equal(t, "Canahan", n.Name("canahan"))
	require.True(t, n.Hidden("canahan"))
	require.Equal(t, 2, states)
	require.Equal(t, 3, learnt)
}

// TestTheCommonEvents narrates each common event in English (the CLI's words) and French.
func TestTheCommonEvents(t *testing.T) {
	learnt, states := 0, 0
	diego := &encounterv1.Combatant{Id: "diego", Name: "Diego", Side: "pcs", Controller: "david", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{}}}
	for _, tc := range []struct {
		en, fr string
		ev     *encounterv1.Event
	}{
		{`#1 Encounter "Ruelle" created by gm, loss v1; rules: house rules; dice seed sha256 abcd`,
			"#1 Rencontre « Ruelle » créée par gm, loss v1 ; règles : house rules ; empreinte sha256 de la graine des dés abcd",
			&encounterv1.Event{Sequence: 1, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{
				Name: "Ruelle", GameMaster: "gm", SeedSha256: []byte{0xab, 0xcd}, Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{}}}}}}},
		{`#1 Encounter "" created by ?`, "#1 Rencontre «  » créée par ?",
			&encounterv1.Event{Sequence: 1, Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{}}}},
		{"#2 joins: Diego (diego): a sheet, side pcs, controller david",
			"#2 rejoint la rencontre : Diego (diego) : a sheet, camp pcs, contrôleur david",
			&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: diego}}}},
		{"#3 joins: ogre: hidden by the GM: its sheet is withheld; joins the fight in progress after watching the last Tour: acts from the next Tour, +2 Initiative (LOS-039)",
			"#3 rejoint la rencontre : ogre : caché par le MJ : sa fiche est masquée ; rejoint le combat en cours après avoir observé le dernier Tour : agit dès le Tour suivant, +2 à l'Initiative (LOS-039)",
			&encounterv1.Event{Sequence: 3, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{
				Combatant: &encounterv1.Combatant{Id: "ogre", Name: "ogre", Hidden: true}, InProgress: true, Watched: true}}}},
		{"#4 joins: L'ogre (ogre): hidden by the GM, a sheet; watched the fight (LOS-039)",
			"#4 rejoint la rencontre : L'ogre (ogre) : caché par le MJ, a sheet ; a observé le combat (LOS-039)",
			&encounterv1.Event{Sequence: 4, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{
				Combatant: &encounterv1.Combatant{Id: "ogre", Name: "L'ogre", Hidden: true, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{}}}, Watched: true}}}},
		{"#4 joins: diego; joins the fight in progress: acts from the next Tour (LOS-039)",
			"#4 rejoint la rencontre : diego ; rejoint le combat en cours : agit dès le Tour suivant (LOS-039)",
			&encounterv1.Event{Sequence: 4, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{
				Combatant: &encounterv1.Combatant{Id: "diego"}, InProgress: true}}}},
		{"#5 diego is removed from the encounter", "#5 diego est retiré de la rencontre",
			&encounterv1.Event{Sequence: 5, Payload: &encounterv1.Event_CombatantRemoved{CombatantRemoved: &encounterv1.CombatantRemoved{CombatantId: "diego"}}}},
		{"#6 The fight starts", "#6 Le combat commence",
			&encounterv1.Event{Sequence: 6, Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}}},
		{"#7 Encounter ended (the ruffian flees); dice seed revealed: 00ff", "#7 Fin de la rencontre (the ruffian flees) ; graine des dés révélée : 00ff",
			&encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Reason: "the ruffian flees", Seed: []byte{0, 0xff}}}}},
		{"#8 Encounter ended", "#8 Fin de la rencontre",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{}}}},
		{"#8 Encounter ended for idleness: no event for 30 days; dice seed revealed: 00ff", "#8 Fin de la rencontre pour inactivité : aucun événement depuis 30 jours ; graine des dés révélée : 00ff",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Idle: durationpb.New(720 * time.Hour), Seed: []byte{0, 0xff}}}}},
		{"#8 Encounter ended for idleness: no event for 1 day (asked by acme/ops)", "#8 Fin de la rencontre pour inactivité : aucun événement depuis 1 jour (asked by acme/ops)",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Idle: durationpb.New(24 * time.Hour), Reason: "asked by acme/ops"}}}},
		{"#8 Encounter ended for idleness: no event for 36 hours", "#8 Fin de la rencontre pour inactivité : aucun événement depuis 36 heures",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Idle: durationpb.New(36 * time.Hour)}}}},
		{"#8 Encounter ended for idleness: no event for 1 minute", "#8 Fin de la rencontre pour inactivité : aucun événement depuis 1 minute",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Idle: durationpb.New(time.Minute)}}}},
		{"#8 Encounter ended for idleness: no event for 2 seconds", "#8 Fin de la rencontre pour inactivité : aucun événement depuis 2 secondes",
			&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Idle: durationpb.New(2500 * time.Millisecond)}}}},
		{"#1234 Rewound to #1200: the events after it are undone (a misclick); the dice go on from position 1717, none rolled again",
			"#1234 Retour à #1200 : les événements qui le suivent sont annulés (a misclick) ; les dés reprennent à la position 1717, aucun n'est relancé",
			&encounterv1.Event{Sequence: 1234, Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 1200, Reason: "a misclick", DiceOffset: 1717}}}},
		{"#9 Rewound to #4: the events after it are undone", "#9 Retour à #4 : les événements qui le suivent sont annulés",
			&encounterv1.Event{Sequence: 9, Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 4}}}},
		{"#10 The GM hides diego: only the GM and its controller see its numbers", "#10 Le MJ cache diego : seuls le MJ et son contrôleur voient ses chiffres",
			&encounterv1.Event{Sequence: 10, Payload: &encounterv1.Event_CombatantHidden{CombatantHidden: &encounterv1.CombatantHidden{CombatantId: "diego", Hidden: true}}}},
		{"#11 dev/david is a player from now on, controlling diego, ruffian", "#11 dev/david est désormais joueur, et contrôle diego, ruffian",
			&encounterv1.Event{Sequence: 11, Payload: &encounterv1.Event_RoleGranted{RoleGranted: &encounterv1.RoleGranted{
				Principal: "dev/david", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego", "ruffian"}}}}},
		{"#12 dev/carol is a co-GM from now on", "#12 dev/carol est désormais co-MJ",
			&encounterv1.Event{Sequence: 12, Payload: &encounterv1.Event_RoleGranted{RoleGranted: &encounterv1.RoleGranted{Principal: "dev/carol", Role: encounterv1.Role_ROLE_CO_GM}}}},
		{"#13 ? is the GM from now on", "#13 ? est désormais le MJ",
			&encounterv1.Event{Sequence: 13, Payload: &encounterv1.Event_RoleGranted{RoleGranted: &encounterv1.RoleGranted{Role: encounterv1.Role_ROLE_GM}}}},
		{"#14 dev/david is no longer a player; diego goes back to the GM", "#14 dev/david n'est plus joueur ; diego revient au MJ",
			&encounterv1.Event{Sequence: 14, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{
				Principal: "dev/david", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego"}}}}},
		{"#15 dev/florence is no longer a player; diego, ruffian go back to the GM", "#15 dev/florence n'est plus joueur ; diego, ruffian reviennent au MJ",
			&encounterv1.Event{Sequence: 15, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{
				Principal: "dev/florence", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego", "ruffian"}}}}},
		{"#16 dev/erin is no longer an observer", "#16 dev/erin n'est plus observateur",
			&encounterv1.Event{Sequence: 16, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{Principal: "dev/erin", Role: encounterv1.Role_ROLE_OBSERVER}}}},
		{"#17 dev/x is no longer no role", "#17 dev/x n'est plus sans rôle",
			&encounterv1.Event{Sequence: 17, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{Principal: "dev/x"}}}},
		{"#18 The encounter is open to joining: anyone of its tenant may add the combatants it will control",
			"#18 La rencontre est ouverte : quiconque de son espace peut y ajouter les combattants qu'il contrôlera",
			&encounterv1.Event{Sequence: 18, Payload: &encounterv1.Event_JoiningSet{JoiningSet: &encounterv1.JoiningSet{Open: true}}}},
		{"#19 The encounter is closed to joining: only the GM and co-GMs add combatants",
			"#19 La rencontre est fermée : seuls le MJ et les co-MJ y ajoutent des combattants",
			&encounterv1.Event{Sequence: 19, Payload: &encounterv1.Event_JoiningSet{JoiningSet: &encounterv1.JoiningSet{}}}},
		{"#20 a Loss event", "#20 a Loss event",
			&encounterv1.Event{Sequence: 20, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}}},
		{"#21 (event without payload)", "#21 (événement sans contenu)", &encounterv1.Event{Sequence: 21}},
		{"#22 (event *encounterv1.Event_Ka)", "#22 (événement *encounterv1.Event_Ka)",
			&encounterv1.Event{Sequence: 22, Payload: &encounterv1.Event_Ka{}}},
	} {
		require.Equal(t, tc.en, New(English, silentTeller{}, fakeTeller{&learnt, &states}).Text(tc.ev))
		require.Equal(t, tc.fr, New(French, silentTeller{}, fakeTeller{&learnt, &states}).Text(tc.ev))
	}
	require.Zero(t, learnt, "Text does not learn")
	require.Equal(t, "Diego (diego): a sheet, side pcs, controller david", New(English, fakeTeller{&learnt, &states}).Combatant(diego))
	require.Equal(t, "diego", New(English).Combatant(&encounterv1.Combatant{Id: "diego", Name: "diego"}))
}

// The role events with names learnt, as the CLI's TestDescribeRoleEvents told them.
func TestTheRoleEventsWithNames(t *testing.T) {
	n := New(English)
	n.SetName("diego", "Diego")
	n.SetName("ruffian", "Le malfrat")
	for _, tc := range []struct {
		ev   *encounterv1.Event
		want string
	}{
		{&encounterv1.Event{Sequence: 5, Payload: &encounterv1.Event_RoleGranted{RoleGranted: &encounterv1.RoleGranted{
			Principal: "dev/david", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego", "ruffian"}}}},
			"#5 dev/david is a player from now on, controlling Diego, Le malfrat"},
		{&encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{
			Principal: "dev/david", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego"}}}},
			"#7 dev/david is no longer a player; Diego goes back to the GM"},
		{&encounterv1.Event{Sequence: 8, Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{
			Principal: "dev/florence", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego", "ruffian"}}}},
			"#8 dev/florence is no longer a player; Diego, Le malfrat go back to the GM"},
		{&encounterv1.Event{Sequence: 12, Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{
			ToSequence: 4, Reason: "a misclick", DiceOffset: 17}}},
			"#12 Rewound to #4: the events after it are undone (a misclick); the dice go on from position 17, none rolled again"},
	} {
		require.Equal(t, tc.want, n.Text(tc.ev))
	}
}
