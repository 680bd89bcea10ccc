package e2e_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The hidden monster of each system carries this word in its sheet's strings (weapon, skill,
// attribute names) and in the GM's rulings about it.
const secretWord = "Zorglub"

// try is one command a step may give: who gives it and what.
type try struct {
	who string
	cmd *encounterv1.Command
}

// secretCase is one rule system's fight: the player's visible hero against the GM's hidden
// monster, whose sheet holds numbers no visible value reaches.
type secretCase struct {
	system  string
	hero    *encounterv1.Combatant // controlled by david
	monster *encounterv1.Combatant // the GM's, added hidden
	numbers []int64                // the monster's distinctive numbers
	// skip names integer fields whose values are public by design and may coincide: the
	// options, the deck's count, and the visible side's rolled totals (exploding dice and face
	// cards take them anywhere; the rule systems' redact tests check the hidden totals with
	// scripted dice).
	skip []protoreflect.Name
	// next lists the commands to try, in order, given the GM's view of the state: the first
	// accepted is the step.
	next func(st *encounterv1.EncounterState) []try
}

func sub(principal string) string {
	_, s, _ := strings.Cut(principal, "/")
	return s
}

// pendingFirst: a pending reaction is answered by its controller before anything else.
func pendingFirst(st *encounterv1.EncounterState, answers func(id string) []*encounterv1.Command) []try {
	var out []try
	for _, p := range st.GetPending() {
		for _, c := range answers(p.GetCombatantId()) {
			out = append(out, try{sub(p.GetController()), c})
		}
	}
	return out
}

func secretCases() []secretCase {
	loss := func(a *lossv1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
	}
	ka := func(a *kav1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}
	}
	seg := func(a *d20segv1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}
	}
	fee := func(a *feeriev1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
	}

	lossHero := diego(0, 0)
	lossHero.GetLoss().Armour = 15 // its own losses stay below the monster's numbers
	lossMonster := &encounterv1.Combatant{Id: "monstre", Name: "Le monstre", Controller: "gm", Side: "monstres", Hidden: true,
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
			Traits:     map[string]int32{"Puissance": 27, "Agilité": 26},
			Talents:    map[string]int32{"Massue-" + secretWord: 29, "Esquive": 25},
			Initiative: 3, Armour: 24,
			Weapons: []*lossv1.Weapon{{Name: "Gourdin-" + secretWord, Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 28,
				Attack: &lossv1.Score{Trait: "Puissance", Talent: "Massue-" + secretWord}}},
			Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		}}}

	segHero := warrior("aldric", 0)
	segHero.Controller = "david"
	segMonster := warrior("ogre", 37)
	segMonster.Name, segMonster.Hidden = "L'ogre", true
	{
		s := segMonster.GetD20Seg()
		s.Agility, s.Strength, s.Ca, s.HitPoints, s.Stealth = 113, 2, 129, 883, 121
		s.Weapons = []*d20segv1.Weapon{{Name: "Hache-" + secretWord, Dice: "1d6", Critical: 2}}
	}

	kaHero := kaSheet("joshua", "Joshua", "david", map[string]int32{"Animalité": 2, "Humanité": 2, "Spiritualité": 2},
		map[string]int32{"Bagarre": 1, "Esquive": 1}, 3, 4, 12, true,
		&kav1.Weapon{Name: "crosse", Sphere: "Animalité", Skill: "Bagarre", Damage: 3})
	kaMonster := kaSheet("bete", "La bête", "gm", map[string]int32{"Animalité": 19, "Humanité": 17, "Spiritualité": 18},
		map[string]int32{"Griffes-" + secretWord: 16, "Esquive": 15}, 3, 2, 12, false,
		&kav1.Weapon{Name: "Serres-" + secretWord, Sphere: "Animalité", Skill: "Griffes-" + secretWord, Damage: 2})
	kaMonster.Hidden = true

	feeHero := fey("rubezahl", "Rübezahl", "david", 20, 18, 16, 16, 1, 40, "bâton", 4)
	feeMonster := fey("serpent", "Le serpent", "gm", 14, 93, 91, 89, 0, 877, "Morsure-"+secretWord, 47)
	feeMonster.Hidden = true

	return []secretCase{
		{system: "loss", hero: lossHero, monster: lossMonster, numbers: []int64{27, 26, 29, 25, 24, 28},
			skip: []protoreflect.Name{"total", "attack_total"},
			next: func(st *encounterv1.EncounterState) []try {
				out := pendingFirst(st, func(id string) []*encounterv1.Command {
					return []*encounterv1.Command{
						loss(react(id, lossv1.Reaction_REACTION_DODGE, 0, nil)),
						loss(react(id, lossv1.Reaction_REACTION_NONE, 0, nil)),
					}
				})
				return append(out,
					try{"gm", loss(attack("monstre", "diego", "", 0, nil))},
					try{"david", loss(attack("diego", "monstre", "", 0, nil))},
					try{"gm", loss(&lossv1.Action{CombatantId: "monstre", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 1, Reason: "la ruse de " + secretWord}}})},
					try{"gm", loss(&lossv1.Action{CombatantId: "monstre", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})},
					try{"david", loss(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})},
				)
			}},
		{system: "d20seg", hero: segHero, monster: segMonster, numbers: []int64{113, 129, 883, 121},
			next: func(*encounterv1.EncounterState) []try {
				return []try{
					{"gm", seg(&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: "aldric"}}})},
					{"david", seg(&d20segv1.Action{CombatantId: "aldric", Kind: &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: "ogre"}}})},
					{"gm", seg(&d20segv1.Action{CombatantId: "ogre", Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}})},
					{"david", seg(&d20segv1.Action{CombatantId: "aldric", Kind: &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}})},
				}
			}},
		{system: "ka", hero: kaHero, monster: kaMonster, numbers: []int64{19, 17, 18, 16, 15},
			skip: []protoreflect.Name{"pass_number", "actions_taken", "ka_table", "success_levels", "success_bonus", "deck_count", "cards", "rank", "positions", "value", "reshuffle_after", "total"},
			next: func(st *encounterv1.EncounterState) []try {
				out := pendingFirst(st, func(id string) []*encounterv1.Command {
					return []*encounterv1.Command{ka(&kav1.Action{CombatantId: id, Kind: &kav1.Action_React{React: &kav1.React{Defend: true}}}),
						ka(&kav1.Action{CombatantId: id, Kind: &kav1.Action_React{React: &kav1.React{}}})}
				})
				return append(out,
					try{"gm", ka(&kav1.Action{CombatantId: "bete", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "joshua", Weapon: "Serres-" + secretWord}}})},
					try{"david", ka(&kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "bete", Weapon: "crosse"}}})},
					try{"gm", ka(&kav1.Action{CombatantId: "bete", Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}})},
					try{"david", ka(&kav1.Action{CombatantId: "joshua", Kind: &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}})},
				)
			}},
		{system: "feerie", hero: feeHero, monster: feeMonster, numbers: []int64{93, 91, 89, 877, 47},
			next: func(*encounterv1.EncounterState) []try {
				return []try{
					{"david", fee(&feeriev1.Action{CombatantId: "rubezahl", Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: melee("serpent", "bâton", 0, 2, -2)}}})},
					{"gm", fee(&feeriev1.Action{CombatantId: "serpent", Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: melee("rubezahl", "Morsure-"+secretWord, 2, 0, -2)}}})},
					{"david", fee(&feeriev1.Action{CombatantId: "rubezahl", Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})},
					{"gm", fee(&feeriev1.Action{CombatantId: "serpent", Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}})},
					{"gm", fee(&feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}})},
				}
			}},
	}
}

// received is everything one reader got from the service, message by message.
type received struct{ msgs []proto.Message }

func (r *received) add(m proto.Message) { r.msgs = append(r.msgs, proto.CloneOf(m)) }

// watchAll collects a Watch stream from the first event until it ends.
func watchAll(t *testing.T, c encounterv1.EncounterServiceClient, ctx context.Context, id string) <-chan *received {
	s, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: 1})
	require.NoError(t, err)
	_, err = s.Header() // under way
	require.NoError(t, err)
	out := make(chan *received, 1)
	go func() {
		r := &received{}
		for {
			m, err := s.Recv()
			if err != nil {
				out <- r
				return
			}
			r.add(m)
		}
	}()
	return out
}

// secrets: what of the monster a message must not show, for enginetest.Leaks: the secret word
// in its bytes, one of its distinctive numbers in any integer field, a Roll's faces included
// (but the log's positions, times and skip).
func (tc secretCase) secrets() enginetest.Secrets {
	ignored := append(slices.Clone(enginetest.Positions), "from_sequence", "fold_version", "seconds", "nanos", "position")
	return enginetest.Secrets{Words: []string{secretWord}, Numbers: tc.numbers, Faces: tc.numbers, Ignore: append(ignored, tc.skip...)}
}

// For each rule system, the GM hides a monster and a fight is played over gRPC; every byte
// the player receives — its Watch stream from the first event, its Get (with its legal
// actions), its Export, its own Submit responses — is searched for the monster's secret word
// (none) and walked for its distinctive numbers (none) and for dice positions (none), while
// the GM's stream has them. No state any reader receives holds an order of the Ka deck.
func TestHiddenValuesNeverReachAPlayer(t *testing.T) {
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	for _, tc := range secretCases() {
		t.Run(tc.system, func(t *testing.T) {
			sum := sha256.Sum256([]byte("fray-hidden-" + tc.system))
			c := startEncounter(t, ns.ClientURL(), resolverAddr, sum[:])
			gm, david := as("gm"), as("david")
			player, gmSaw := &received{}, &received{}

			cr, err := c.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Dans l'ombre", RuleSystem: tc.system}})
			require.NoError(t, err)
			id := cr.GetEncounterId()
			for _, cmb := range []*encounterv1.Combatant{tc.hero, tc.monster} {
				r, err := c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: cmb})
				require.NoError(t, err)
				gmSaw.add(r)
			}
			playerWatch := watchAll(t, c, david, id)
			gmWatch := watchAll(t, c, gm, id)
			r, err := c.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
			require.NoError(t, err)
			gmSaw.add(r)

			read := func() {
				g, err := c.GetEncounter(david, &encounterv1.GetEncounterRequest{EncounterId: id, LegalFor: tc.hero.GetId()})
				require.NoError(t, err)
				player.add(g)
			}
			step := func() bool {
				full, err := c.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
				require.NoError(t, err)
				gmSaw.add(full)
				for _, tr := range tc.next(full.GetState()) {
					r, err := c.Submit(as(tr.who), &encounterv1.SubmitRequest{EncounterId: id, Command: tr.cmd})
					if err != nil {
						continue
					}
					if tr.who == "david" {
						player.add(r)
					} else {
						gmSaw.add(r)
					}
					return true
				}
				return false
			}
			steps := 0
			play := func(n int) {
				t.Helper()
				for range n {
					if !step() {
						return
					}
					steps++
					read()
				}
			}
			play(30)
			// The GM rewinds a few steps (the rewind carries a state: the player's is a view),
			// then the fight goes on.
			now, err := c.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
			require.NoError(t, err)
			rw, err := c.RewindEncounter(gm, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: now.GetState().GetSequence() - 4, Reason: "on reprend"})
			require.NoError(t, err)
			gmSaw.add(rw)
			play(10)
			require.GreaterOrEqual(t, steps, 20, "a fight of some length was played")
			end, err := c.EndEncounter(gm, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "fin"})
			require.NoError(t, err)
			gmSaw.add(end)
			read()
			g, err := c.GetEncounter(david, &encounterv1.GetEncounterRequest{EncounterId: id, AtSequence: 3})
			require.NoError(t, err)
			player.add(g)
			exp, err := c.ExportLog(david, &encounterv1.ExportLogRequest{EncounterId: id})
			require.NoError(t, err)
			for {
				m, err := exp.Recv()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				player.add(m)
			}
			watched := <-playerWatch
			require.Equal(t, int(end.GetEvents()[0].GetSequence()), len(watched.msgs), "the player's watch saw every event")
			player.msgs = append(player.msgs, watched.msgs...)
			gmSaw.msgs = append(gmSaw.msgs, (<-gmWatch).msgs...)

			secrets := tc.secrets()
			var redacted, gmPositions int
			for _, m := range player.msgs {
				require.Empty(t, enginetest.Leaks(t, m, secrets), "the player received %v", m)
				// Where the dice stream stands counts the monster's draws too (issue 23, item 6).
				require.Empty(t, enginetest.DicePositions(m), "the player received a dice position in %v", m)
				if w, ok := m.(*encounterv1.WatchEncounterResponse); ok && w.GetEvent().GetRedacted() {
					redacted++
				}
			}
			require.Positive(t, redacted, "events about the monster reach the player redacted")
			var gmLeaks []string
			for _, m := range gmSaw.msgs {
				gmLeaks = append(gmLeaks, enginetest.Leaks(t, m, secrets)...)
				gmPositions += len(enginetest.DicePositions(m))
			}
			require.Positive(t, gmPositions, "the GM reads the dice positions")
			word := fmt.Sprintf("the word %q", secretWord)
			require.Contains(t, gmLeaks, word, "the GM's reads have the monster whole")
			require.True(t, slices.ContainsFunc(gmLeaks, func(l string) bool { return l != word }), "and its numbers")

			// The Ka deck: no reader receives an order of cards not yet drawn.
			for _, m := range append(slices.Clone(player.msgs), gmSaw.msgs...) {
				walkStates(m.ProtoReflect(), func(st *encounterv1.EncounterState) {
					require.Empty(t, st.GetKa().GetDeck(), "an order of the Ka deck was sent")
				})
			}
			kinds := map[string]bool{}
			for _, m := range watched.msgs {
				ev := m.(*encounterv1.WatchEncounterResponse).GetEvent()
				kind := string(ev.ProtoReflect().WhichOneof(ev.ProtoReflect().Descriptor().Oneofs().ByName("payload")).Name())
				if sys := ev.ProtoReflect().Get(ev.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(kind))).Message(); kind == tc.system || kind == "d20_seg" {
					if o := sys.Descriptor().Oneofs(); o.Len() > 0 {
						if f := sys.WhichOneof(o.Get(0)); f != nil {
							kind += "." + string(f.Name())
						}
					}
				}
				kinds[kind] = true
			}
			t.Logf("%s: %d steps; the player received %d messages (%d redacted events), the GM %d; event kinds: %v",
				tc.system, steps, len(player.msgs), redacted, len(gmSaw.msgs), slices.Sorted(maps.Keys(kinds)))
		})
	}
}

// walkStates calls fn with every EncounterState inside m.
func walkStates(m protoreflect.Message, fn func(*encounterv1.EncounterState)) {
	if st, ok := m.Interface().(*encounterv1.EncounterState); ok {
		fn(st)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		switch {
		case fd.IsList():
			for i := range v.List().Len() {
				walkStates(v.List().Get(i).Message(), fn)
			}
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					walkStates(mv.Message(), fn)
					return true
				})
			}
		default:
			walkStates(v.Message(), fn)
		}
		return true
	})
}
