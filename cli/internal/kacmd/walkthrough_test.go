package kacmd_test

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// kaDrawFaces gives the faces that draw cards, in order, from the whole deck (KA-003): each
// the rank of its card among the cards left, in the order of the minor arcana.
func kaDrawFaces(t *testing.T, cards ...*kav1.Card) []int32 {
	t.Helper()
	var drawn []*kav1.Card
	var faces []int32
	for _, c := range cards {
		i := slices.IndexFunc(ka.Left(drawn), func(x *kav1.Card) bool { return proto.Equal(x, c) })
		require.GreaterOrEqual(t, i, 0, "%v is not left", c)
		faces = append(faces, int32(i+1))
		drawn = append(drawn, c)
	}
	return faces
}

func kaCard(s kav1.Suit, rank int32) *kav1.Card { return &kav1.Card{Suit: s, Rank: rank} }

// The worked example of Ka played through the CLI against the rules engine, with the example
// sheets (KA-T01…KA-T05): the dice draw the cards of the example from those left, in order —
// the 6 and the 10 of the first shot and the dodge, the valet and the 9 of the second shot, the
// death draw's card, the 4 of the stun and the 5 of the terror draw.
func TestKaWalkthroughWithTheRulesEngine(t *testing.T) {
	clienttest.ClearEnv(t)
	faces := kaDrawFaces(t, kaCard(kav1.Suit_SUIT_EPEE, 6), kaCard(kav1.Suit_SUIT_EPEE, 10), kaCard(kav1.Suit_SUIT_BATON, 11),
		kaCard(kav1.Suit_SUIT_COUPE, 9), kaCard(kav1.Suit_SUIT_DENIER, 3), kaCard(kav1.Suit_SUIT_BATON, 4), kaCard(kav1.Suit_SUIT_DENIER, 5))
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(ka.Released()...), Seed: dice.NewSeed(), Dice: dice.NewFixed(faces...)}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, "ka", name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Le cul-de-sac", "--system", "ka"))
	require.Equal(t, "added Joshua (joshua): Animalité 4, Humanité 3, Spiritualité 2, encaissement 3, 5 Ka dice, 15 points de réalité, player character, side pcs, controller player (#2)\n"+
		"added le chien (chien): Animalité 3, Humanité 1, Spiritualité 2, encaissement 3, 2 Ka dice, 10 points de réalité, side foes, controller dog-keeper (#3)\n",
		step("add", "enc-1", sheet("joshua.yaml"), sheet("chien.yaml")))
	// KA-T01: 2 actions for Joshua, 1 for the dog; Joshua (Animalité 4) acts first.
	require.Equal(t, "#4 The fight starts\n#5 The deck is whole: 56 cards, each card drawn at random from those left (KA-003)\n"+
		"#6 Round 1: Joshua 2 actions, le chien 1 action (each its lowest sphere, KA-010)\n", step("start", "enc-1"))
	state := step("state", "enc-1", "--for", "joshua")
	t.Logf("fray state:\n%s", state)
	require.Contains(t, state, "Round 1, pass 1\nDeck: 56 cards left, 0 in the discard (KA-003)\n")
	require.Regexp(t, `joshua\s+Joshua\s+pcs\s+dev/player\s+4\s+5/5\s+15/15\s+2 left, 0 taken\s+player character, seuil 15\n`, state)
	require.Regexp(t, `chien\s+le chien\s+foes\s+dev/dog-keeper\s+3\s+2/2\s+10/10\s+1 left, 0 taken\s+seuil 12\n`, state)
	require.Contains(t, state, "Pass 1: Joshua acts next: fray ka attack|disarm|pass enc-1 joshua ...\n")
	require.Contains(t, state, "Joshua may:\n  attack with pistolet (Humanité + Arme à feu, −0): 1 action, targets chien (KA-018)\n")
	code, _, errOut := clienttest.Run(t, "ka", "attack", "enc-1", "chien", "joshua", "--as", "dog-keeper", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray ka attack: FailedPrecondition: it is Joshua's turn first (Animalité 4 against le chien's 3) (KA-014)")

	// KA-T02 (KA-020): Joshua declares his shot; the dog announces its dodge before any card;
	// then 3 + 4 − 2 + the 6 = 11 against the dog's 1 + 4 + the 10 = 15: the dog wins.
	require.Equal(t, "#7 Joshua declares an attack on le chien with pistolet, −2 situation; "+
		"le chien announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)\n"+
		"waiting for chien (dev/dog-keeper): joshua declares an attack on le chien: defend (one action) or not, before any card is drawn\n"+
		"  fray ka react enc-1 chien dodge|take --as dev/dog-keeper\n",
		step("ka", "attack", "enc-1", "joshua", "chien", "--weapon", "pistolet", "--modifier", "-2", "--as", "player"))
	state = step("state", "enc-1")
	require.Contains(t, state, "Deck: 56 cards left, 0 in the discard (KA-003)\n")
	require.Contains(t, state, "Attack declared, waiting for an answer before any card is drawn: Joshua on le chien (KA-020)\n")
	require.Regexp(t, `joshua\s+Joshua\s+pcs\s+dev/player\s+4\s+5/5\s+15/15\s+1 left, 1 taken\s+acted this pass, player character, seuil 15\n`, state)
	require.Equal(t, "#8 le chien will dodge (one action, KA-013, KA-020)\n"+
		"#9 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation + cards 6 (6 d'épée, deck position 0) = 11\n"+
		"#10 le chien dodges (one action, KA-009, KA-013): Humanité 1 + Esquive 4 + cards 10 (10 d'épée, deck position 1) = 15\n"+
		"#11 Joshua's attack on le chien: the defender wins: no effect (KA-021)\n"+
		"#12 Pass 2 round the table, from the highest Animalité: one action each (KA-014, KA-015)\n",
		step("ka", "react", "enc-1", "chien", "dodge", "--as", "dog-keeper"))

	// KA-T03: 3 + 4 − 1 − 2 + valet + 9 = 23, a great success; no defence; 5 + 8 − 4 = 9: 2 Ka
	// dice, the dog's last: its death draw.
	require.Equal(t, "#13 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation − 1 actions already taken this round (KA-011) + "+
		"cards 19 (valet de bâton + 9 de coupe, deck positions 2–3) = 23; no defence: le chien has no action left: it can only soak (KA-012)\n"+
		"#14 Joshua hits le chien: margin 13, a great success (damage bonus +5, KA-006): damage 5 + weapon 8 = 13 − soak 4 = 9 → 2 Ka dice lost (KA-022…KA-024); "+
		"le chien has 0 Ka dice and 10 points de réalité left: dying; death draw: cards 3 (3 de denier, deck position 4) = 3, the Maître de Ka rules on it (KA-025)\n"+
		"#15 Round 2: Joshua 2 actions (each its lowest sphere, KA-010)\n",
		step("ka", "attack", "enc-1", "joshua", "chien", "--weapon", "pistolet", "--modifier", "-2", "--as", "player"))

	// KA-T04: the stun with the gun butt, 4 + 2 + 3 + the 4 = 13: 1 + 3 = 4 points de réalité,
	// below the seuil of 12.
	require.Equal(t, "#16 Joshua tries to stun le chien with crosse (KA-030): Animalité 4 + Bagarre 2 + 3 situation + cards 4 (4 de bâton, deck position 5) = 13; "+
		"no defence: le chien cannot defend\n"+
		"#17 Joshua stuns le chien: margin 3, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030); le chien has 0 Ka dice and 6 points de réalité left: dying\n"+
		"#18 Pass 2 round the table, from the highest Animalité: one action each (KA-014, KA-015)\n",
		step("ka", "attack", "enc-1", "joshua", "chien", "--weapon", "crosse", "--stun", "--modifier", "3", "--as", "player"))

	// KA-T05: terror, called by the Maître de Ka: 4 + 3 − 3 + the 5 = 9 < 12: Abysse.
	code, _, errOut = clienttest.Run(t, "ka", "terror", "enc-1", "joshua", "--modifier", "-3", "--as", "player", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray ka terror: PermissionDenied: ")
	require.Equal(t, "#19 Terror: Joshua draws Animalité 4 + 3 encaissement − 3 situation + cards 5 (5 de denier, deck position 6) = 9: "+
		"below 10 and below Animalité × 3 = 12: Joshua enters Abysse (KA-034)\n", step("ka", "terror", "enc-1", "joshua", "--modifier", "-3"))
	state = step("state", "enc-1")
	t.Logf("fray state:\n%s", state)
	require.Contains(t, state, "Round 2, pass 2\nDeck: 49 cards left, 7 in the discard (KA-003)\n"+
		"Discard, in the order drawn: 6 d'épée, 10 d'épée, valet de bâton, 9 de coupe, 3 de denier, 4 de bâton, 5 de denier\n")
	require.Regexp(t, `joshua\s+Joshua\s+pcs\s+dev/player\s+4\s+5/5\s+15/15\s+1 left, 1 taken\s+Abysse \(KA-034\), player character, seuil 15\n`, state)
	require.Regexp(t, `chien\s+le chien\s+foes\s+dev/dog-keeper\s+3\s+0/2\s+6/10\s+0 left, 0 taken\s+DYING \(KA-025\), seuil 12\n`, state)

	require.Equal(t, "#20 Joshua passes: no more actions this round (KA-015)\n#21 Round 3: Joshua 2 actions (each its lowest sphere, KA-010)\n",
		step("ka", "pass", "enc-1", "joshua", "--as", "player"))
	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 21)
	require.True(t, strings.HasPrefix(log, fmt.Sprintf(`#1 Encounter "Le cul-de-sac" created by dev/gm, ka v%d; rules: deck tarot56, reshuffle on_empty, `, ka.Latest)+
		`success levels from margins 10/20, damage bonus +1/+5/+10, Ka dice by damage up to 5/10/15/20; dice seed sha256 `), log)
	require.Zero(t, srv.Dice.Left(), "every die was rolled as planned")
	require.Equal(t, hex.EncodeToString(srv.Seed)+"\n", step("end", "enc-1"))
}
