package ka_test

import (
	"slices"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

const (
	gm     = "gm"
	player = "david"
)

// fight is a Ka encounter driven through the registry (enginetest.Fight), command by command,
// with fixed dice. plan is the order in which the test wants the cards drawn (nil: the order of
// ka.NewDeck): a command given no faces rolls the faces that take them (stacked).
type fight struct {
	*enginetest.Fight
	plan []*kav1.Card
}

// newFight creates a Ka encounter (opts nil for the defaults) and adds cs in order.
func newFight(t *testing.T, opts *kav1.Options, cs ...*encounterv1.Combatant) *fight {
	t.Helper()
	f := blank(t)
	f.Setup(gm, createCmd(opts), cs...)
	return f
}

// blank is a fight whose encounter is not created yet.
func blank(t *testing.T) *fight {
	return &fight{Fight: enginetest.NewFight(t, engine.NewRegistry(ka.Released()...))}
}

// decide decides cmd with dice.NewFixed(faces...) and folds the events; every face given must
// be used. Given no faces, the faces are those that draw the cards of the plan (stacked): a
// dry run on a copy of the state finds them. Either way the cards drawn leave the plan.
func (f *fight) decide(actor string, cmd *encounterv1.Command, faces ...int32) ([]*encounterv1.Event, error) {
	f.T.Helper()
	if len(faces) == 0 {
		s := newStacked(f.T, f.St, f.plan)
		if _, err := f.Reg.Decide(proto.CloneOf(f.St), cmd, engine.Env{Actor: actor, Dice: s, Seed: make([]byte, dice.SeedSize)}); err == nil {
			faces = s.faces
		}
	}
	evs, err := f.Decide(actor, cmd, faces...)
	if err == nil {
		f.plan = withoutDrawn(f.plan, evs)
	}
	return evs, err
}

func (f *fight) do(actor string, cmd *encounterv1.Command, faces ...int32) []*encounterv1.Event {
	f.T.Helper()
	evs, err := f.decide(actor, cmd, faces...)
	require.NoError(f.T, err)
	return evs
}

// start starts the fight (no die is rolled) and plans the draws: top first, then the other
// cards in the order of ka.NewDeck. The deck has no order (KA-003): the test's dice take
// the planned cards from the cards left, one at a time (stacked).
func (f *fight) start(top ...*kav1.Card) []*encounterv1.Event {
	f.T.Helper()
	f.plan = deckWith(f.T, top...)
	return f.do(gm, startCmd())
}

// pick is the faces that draw cards, in order, from the cards left in the fight's state
// (KA-003): each the rank of its card among the cards left, in the order of ka.NewDeck.
func (f *fight) pick(cards ...*kav1.Card) []int32 {
	f.T.Helper()
	left := ka.Left(f.ka().GetDiscard())
	var faces []int32
	for _, c := range cards {
		require.Greater(f.T, len(left), 1, "the last card left is taken without a roll")
		i := indexOf(f.T, left, c)
		faces = append(faces, int32(i+1))
		left = slices.Delete(slices.Clone(left), i, i+1)
	}
	return faces
}

// refuse checks that cmd is refused with code and rule, that the message names each of
// names, that no card is drawn and that the state is untouched.
func (f *fight) refuse(actor string, cmd *encounterv1.Command, code engine.Code, rule string, names ...string) *engine.RuleError {
	f.T.Helper()
	return f.Refuse(actor, cmd, code, rule, names...)
}

func (f *fight) ka() *kav1.State { return f.St.GetKa() }

func (f *fight) cs(id string) *kav1.CombatantState {
	f.T.Helper()
	cs := f.ka().GetCombatants()[id]
	require.NotNil(f.T, cs, "no state for %s", id)
	return cs
}

// replays checks that folding the log again gives the same state, deck included (KA-003).
func (f *fight) replays() {
	f.T.Helper()
	f.Replays()
}

// find returns the one event of evs that get picks out.
func find[T any](t *testing.T, evs []*encounterv1.Event, get func(*kav1.Event) *T) *T {
	t.Helper()
	return enginetest.Find(t, evs, (*encounterv1.Event).GetKa, get)
}

// all returns the events of evs that get picks out, in order.
func all[T any](evs []*encounterv1.Event, get func(*kav1.Event) *T) []*T {
	return enginetest.All(evs, (*encounterv1.Event).GetKa, get)
}

// none checks that no event of evs is of the kind get picks out.
func none[T any](t *testing.T, evs []*encounterv1.Event, get func(*kav1.Event) *T) {
	t.Helper()
	enginetest.None(t, evs, (*encounterv1.Event).GetKa, get)
}

// Cards and the deck.

func card(s kav1.Suit, rank int32) *kav1.Card { return &kav1.Card{Suit: s, Rank: rank} }
func baton(rank int32) *kav1.Card             { return card(kav1.Suit_SUIT_BATON, rank) }
func coupe(rank int32) *kav1.Card             { return card(kav1.Suit_SUIT_COUPE, rank) }
func denier(rank int32) *kav1.Card            { return card(kav1.Suit_SUIT_DENIER, rank) }
func epee(rank int32) *kav1.Card              { return card(kav1.Suit_SUIT_EPEE, rank) }

const (
	valet    = 11
	cavalier = 12
	dame     = 13
	roi      = 14
)

// deckWith is the 56 cards with top first and the others in the order of ka.NewDeck.
func deckWith(t *testing.T, top ...*kav1.Card) []*kav1.Card {
	t.Helper()
	out := append([]*kav1.Card{}, top...)
	for _, c := range ka.NewDeck() {
		seen := false
		for _, x := range top {
			seen = seen || proto.Equal(x, c)
		}
		if !seen {
			out = append(out, c)
		}
	}
	require.Len(t, out, 56, "top cards must be distinct cards of the minor arcana")
	return out
}

// sameCard compares cards by suit and rank (not who drew them).
func sameCard(a, b *kav1.Card) bool { return a.GetSuit() == b.GetSuit() && a.GetRank() == b.GetRank() }

// indexOf is the place of card c among cards.
func indexOf(t testing.TB, cards []*kav1.Card, c *kav1.Card) int {
	t.Helper()
	i := slices.IndexFunc(cards, func(x *kav1.Card) bool { return sameCard(x, c) })
	require.GreaterOrEqual(t, i, 0, "%v is not among the cards left", c)
	return i
}

// stacked is dice that draw the cards of a plan in its order, as from a deck the test
// stacked: each roll has as many faces as cards left (KA-003), and its face is the rank,
// among them in the order of ka.NewDeck, of the first planned card still left. When the
// plan has no card left, it goes on in the order of ka.NewDeck. It records the faces.
type stacked struct {
	t     testing.TB
	plan  []*kav1.Card
	left  []*kav1.Card
	faces []int32
}

func newStacked(t testing.TB, st *encounterv1.EncounterState, plan []*kav1.Card) *stacked {
	return &stacked{t: t, plan: slices.Clone(plan), left: ka.Left(st.GetKa().GetDiscard())}
}

// Roll implements dice.Roller.
func (s *stacked) Roll(e dice.Expr) *dicev1.Roll {
	s.t.Helper()
	if e.Sides != len(s.left) { // the discard went back: the whole deck is left
		if len(s.left) == 1 { // its last card was taken without a roll
			s.plan = withoutCard(s.plan, s.left[0])
		}
		s.left = ka.NewDeck()
	}
	require.Equal(s.t, dice.Expr{Count: 1, Sides: len(s.left)}, e, "a draw rolls one die with a face per card left")
	i := slices.IndexFunc(s.plan, func(c *kav1.Card) bool {
		return slices.ContainsFunc(s.left, func(x *kav1.Card) bool { return sameCard(x, c) })
	})
	if i < 0 {
		s.plan = append(s.plan, ka.NewDeck()...)
		return s.Roll(e)
	}
	c := s.plan[i]
	s.plan = slices.Delete(s.plan, i, i+1)
	j := indexOf(s.t, s.left, c)
	s.left = slices.Delete(slices.Clone(s.left), j, j+1)
	s.faces = append(s.faces, int32(j+1))
	return dice.NewFixed(int32(j + 1)).Roll(e)
}

// withoutCard is plan less its first c.
func withoutCard(plan []*kav1.Card, c *kav1.Card) []*kav1.Card {
	if i := slices.IndexFunc(plan, func(x *kav1.Card) bool { return sameCard(x, c) }); i >= 0 {
		return slices.Delete(slices.Clone(plan), i, i+1)
	}
	return plan
}

// withoutDrawn is plan less the cards evs drew.
func withoutDrawn(plan []*kav1.Card, evs []*encounterv1.Event) []*kav1.Card {
	for _, ev := range evs {
		eachMessage(ev, func(m protoreflect.Message) {
			if d, ok := m.Interface().(*kav1.Draw); ok {
				for _, c := range d.GetCards() {
					plan = withoutCard(plan, c)
				}
			}
		})
	}
	return plan
}

// cardsOf is the cards of the draw of a result.
func cardsOf(r *kav1.DrawResult) []*kav1.Card { return r.GetDraw().GetCards() }

// requireCards compares cards by suit and rank: who drew a card of the discard is checked
// apart (TestKA003DiscardKnowsWhoDrew).
func requireCards(t *testing.T, want []*kav1.Card, got []*kav1.Card) {
	t.Helper()
	require.Len(t, got, len(want), "cards %v", got)
	for i := range want {
		require.True(t, want[i].GetSuit() == got[i].GetSuit() && want[i].GetRank() == got[i].GetRank(), "card %d: want %v, got %v", i, want[i], got[i])
	}
}

// Commands.

func createCmd(opts *kav1.Options) *encounterv1.Command {
	return enginetest.CreateCmd("Un cul-de-sac", "ka", opts)
}

func addCmd(c *encounterv1.Combatant) *encounterv1.Command { return enginetest.AddCmd(c) }

func startCmd() *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
}

func action(a *kav1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}
}

func attackCmd(id string, a *kav1.Attack) *encounterv1.Command {
	return action(&kav1.Action{CombatantId: id, Kind: &kav1.Action_Attack{Attack: a}})
}

// attack is an attack with a weapon and the Maître de Ka's modifier.
func attack(id, target, weapon string, mod int32) *encounterv1.Command {
	return attackCmd(id, &kav1.Attack{TargetId: target, Weapon: weapon, Modifier: mod})
}

func stun(id, target, weapon string, mod int32) *encounterv1.Command {
	return attackCmd(id, &kav1.Attack{TargetId: target, Weapon: weapon, Modifier: mod, Stun: true})
}

func burst(id string, targets ...string) *encounterv1.Command {
	return attackCmd(id, &kav1.Attack{TargetId: targets[0], MoreTargetIds: targets[1:], Weapon: "pistolet-mitrailleur", Burst: true})
}

func react(id string, r *kav1.React) *encounterv1.Command {
	return action(&kav1.Action{CombatantId: id, Kind: &kav1.Action_React{React: r}})
}

func dodge(id string) *encounterv1.Command  { return react(id, &kav1.React{Defend: true}) }
func takeIt(id string) *encounterv1.Command { return react(id, &kav1.React{}) }
func attackBack(id, weapon string) *encounterv1.Command {
	return react(id, &kav1.React{AttackBack: true, Weapon: weapon})
}

func disarm(id, target, skill, weapon string) *encounterv1.Command {
	return action(&kav1.Action{CombatantId: id, Kind: &kav1.Action_Disarm{Disarm: &kav1.Disarm{TargetId: target, Skill: skill, Weapon: weapon}}})
}

func terror(id string, mod int32) *encounterv1.Command {
	return action(&kav1.Action{CombatantId: id, Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: mod}}})
}

func pass(id string) *encounterv1.Command {
	return action(&kav1.Action{CombatantId: id, Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}})
}

// Sheets.

const (
	third = "Spiritualité" // the third sphere; the rules only need Animalité and Humanité
)

func weapon(name, sphere, skill string, damage int32) *kav1.Weapon {
	return &kav1.Weapon{Name: name, Sphere: sphere, Skill: skill, Damage: damage}
}

// The weapons of the examples (KA-035): handgun +8 (Humanité + Arme à feu), gun butt +3
// (Animalité + Bagarre), SMG +6 a bullet.
func pistolet() *kav1.Weapon { return weapon("pistolet", ka.Humanite, "Arme à feu", 8) }
func crosse() *kav1.Weapon   { return weapon("crosse", ka.Animalite, "Bagarre", 3) }
func crocs() *kav1.Weapon    { return weapon("crocs", ka.Animalite, "Bagarre", 2) }
func smg() *kav1.Weapon {
	w := weapon("pistolet-mitrailleur", ka.Humanite, "Arme à feu", 6)
	w.Burst = true
	return w
}

// who is a combatant with spheres Animalité a, Humanité h and the third sphere s.
func who(id, name string, pc bool, a, h, s int32, skills map[string]int32, enc, kaDice, reality int32, ws ...*kav1.Weapon) *encounterv1.Combatant {
	controller := gm
	if pc {
		controller = player
	}
	return &encounterv1.Combatant{Id: id, Name: name, Controller: controller, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres:         map[string]int32{ka.Animalite: a, ka.Humanite: h, third: s},
		Skills:          skills,
		Encaissement:    enc,
		KaDice:          kaDice,
		RealityPoints:   reality,
		PlayerCharacter: pc,
		Weapons:         ws,
	}}}
}

// joshua: Animalité 4, Humanité 3, lowest sphere 2 (KA-T01); Arme à feu 4 (KA-T02), Bagarre
// 2 (KA-T04), encaissement 3 (KA-T05); a handgun and its butt.
func joshua() *encounterv1.Combatant {
	return who("joshua", "Joshua", true, 4, 3, 2, map[string]int32{"Arme à feu": 4, "Bagarre": 2, "Esquive": 2}, 3, 5, 15, pistolet(), crosse())
}

// dog: Animalité 3, Humanité 1, its lowest sphere (KA-T01, KA-T04); Esquive 4 (KA-T02);
// encaissement 3 (KA-T03); 2 Ka dice, as stipulated in KA-T03; 10 points de réalité.
func dog() *encounterv1.Combatant {
	return who("chien", "Le chien", false, 3, 1, 2, map[string]int32{"Esquive": 4, "Bagarre": 3}, 3, 2, 10, crocs())
}

func with(c *encounterv1.Combatant, edit func(*kav1.Sheet)) *encounterv1.Combatant {
	c = proto.CloneOf(c)
	edit(c.GetKa())
	return c
}

// envFor is an Env with no dice to roll.
func envFor(actor string) engine.Env {
	return engine.Env{Actor: actor, Dice: dice.NewFixed(), Seed: make([]byte, dice.SeedSize)}
}

func legalNames(ls []*rulesetv1.LegalAction) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.GetName())
	}
	return out
}

// Ka answers the GM's removal of a combatant mid-pass (KA-015).
var _ engine.FollowUp = ka.System{}
