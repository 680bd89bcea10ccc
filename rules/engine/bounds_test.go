package engine_test

import (
	"fmt"
	"strings"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// The bounds of the common engine's checks, each at its edge: found by mutation testing
// (scripts/mutation.sh ./engine), where a check moved by one or a number in a refusal
// changed without a test noticing.

// An encounter's and a combatant's name may be exactly MaxNameLength (200) bytes long, not
// one more.
func TestNamesOfExactlyMaxNameLength(t *testing.T) {
	long := strings.Repeat("n", engine.MaxNameLength)
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	_, err := apply(t, reg, st, create(long, "loss", 0), env("gm"))
	require.NoError(t, err, "a name of %d bytes", engine.MaxNameLength)
	require.Equal(t, long, st.GetName())

	_, err = reg.Decide(st, combatant("a", long+"n", "gm"), env("gm"))
	requireCode(t, err, engine.CodeInvalid)
	_, err = apply(t, reg, st, combatant("a", long, "gm"), env("gm"))
	require.NoError(t, err, "a combatant's name of %d bytes", engine.MaxNameLength)
	require.Equal(t, long, engine.FindCombatant(st, "a").GetName())
}

// A rewind goes back to an event from 1 to the one before the last: to 1, the creation, it
// goes; to the last event itself (even with the state after it) or to 0 it is refused, naming
// the range.
func TestRewindRange(t *testing.T) {
	tb := ruelle(t)
	seq := tb.st.GetSequence()
	require.Equal(t, uint64(5), seq)
	for _, to := range []uint64{0, seq, seq + 1} {
		_, err := tb.try("dev/gm", rewindTo(to))
		re := requireCode(t, err, engine.CodeInvalid)
		require.Contains(t, re.Msg, fmt.Sprintf("is at event %d: rewind to an event from 1 to %d", seq, seq-1), "rewind to %d", to)
	}
	require.Equal(t, seq, tb.st.GetSequence(), "nothing recorded")

	rw := tb.do("dev/gm", rewindTo(1))[0].GetEncounterRewound()
	require.Equal(t, uint64(1), rw.GetToSequence())
	require.Empty(t, tb.st.GetCombatants(), "back to the encounter as created")
	require.Equal(t, seq+1, tb.st.GetSequence())
}

// An event missing from a log is a divergence at its place: the log's 4th event is event 5.
func TestAuditNamesTheMissingEvent(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	log := recordFight(t, reg, true)
	gap := append(cloneLog(log[:3]), cloneLog(log[4:])...)
	_, err := reg.Audit(gap)
	var d *engine.Divergence
	require.ErrorAs(t, err, &d)
	require.Equal(t, uint64(4), d.Sequence)
	require.Equal(t, "event 4 is missing: the log has event 5 there", d.Reason)
}

// The rolls of one command are checked in the order of their offsets, whichever of its events
// records them: a command whose second event holds the roll drawn first is intact. Two
// commands are not one: the same rolls split across two commands are refused, the second
// command's roll not reachable from the first's.
func TestVerifyRollsOrdersACommandsRollsByOffset(t *testing.T) {
	sd := seed()
	stream, err := dice.NewStreamScheme(dice.Latest, sd, 0)
	require.NoError(t, err)
	first := stream.Roll(dice.Expr{Count: 1, Sides: 20})
	second := stream.Roll(dice.Expr{Count: 1, Sides: 20})
	require.Greater(t, second.GetOffset(), first.GetOffset())
	tour := func(seq uint64, command string, r *dicev1.Roll) *encounterv1.Event {
		return &encounterv1.Event{Sequence: seq, CommandId: command, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{
			Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Initiative: []*lossv1.InitiativeRoll{{Roll: r}}}}}}}
	}
	log := []*encounterv1.Event{tour(1, "c1", second), tour(2, "c1", first)}
	log[0].Command = start
	n, err := engine.VerifyRolls(log, sd, dice.Latest)
	require.NoError(t, err, "one command: its rolls in the order of their offsets")
	require.Equal(t, 2, n)

	for name, split := range map[string]func([]*encounterv1.Event){
		"another command id":        func(l []*encounterv1.Event) { l[1].CommandId = "c2" },
		"a command of its own (c1)": func(l []*encounterv1.Event) { l[1].Command = start },
	} {
		l := cloneLog(log)
		split(l)
		_, err := engine.VerifyRolls(l, sd, dice.Latest)
		var d *engine.Divergence
		require.ErrorAs(t, err, &d, name)
		require.Equal(t, uint64(1), d.Sequence, name)
		require.Contains(t, d.Reason, "impossible roll", name)
	}
}

// A principal with a space or an unprintable character anywhere, its first character
// included, is refused, in an encounter without a tenant too (where a bare subject is not
// prefixed with one): as the one granted a role and as a combatant's controller.
func TestPrincipalsWithoutSpacesFromTheFirstCharacter(t *testing.T) {
	tb := newTable(t, "")
	tb.do("gm", create("Ruelle", "loss", 0))
	for _, p := range []string{" david", "\tdavid", "da vid", "david ", "\x00david"} {
		_, err := tb.try("gm", grant(p, engine.RolePlayer))
		re := requireCode(t, err, engine.CodeInvalid)
		require.Contains(t, re.Msg, "without spaces", "%q", p)
		_, err = tb.try("gm", duellist("diego", "Diego", p, 5))
		re = requireCode(t, err, engine.CodeInvalid)
		require.Contains(t, re.Msg, "without spaces", "%q", p)
	}
	tb.do("gm", grant("david", engine.RolePlayer))
	require.Equal(t, engine.RolePlayer, engine.RoleOf(tb.st, "david"))
}

// A principal may be exactly MaxPrincipalLength characters long, not one more: granted a role
// at the edge, refused past it, naming the bound.
func TestPrincipalsOfExactlyMaxPrincipalLength(t *testing.T) {
	tb := ruelle(t)
	edge := "dev/" + strings.Repeat("p", engine.MaxPrincipalLength-len("dev/"))
	_, err := tb.try("dev/gm", grant(edge+"p", engine.RoleObserver))
	require.Contains(t, requireCode(t, err, engine.CodeInvalid).Msg, fmt.Sprintf("1 to %d printable characters", engine.MaxPrincipalLength))
	tb.do("dev/gm", grant(edge, engine.RoleObserver))
	require.Equal(t, engine.RoleObserver, engine.RoleOf(tb.st, edge), "a principal of %d characters", engine.MaxPrincipalLength)
}

// DiceEnd is the furthest position any roll reaches, offset + draws, whatever their order; a
// nil roll counts as none, and no roll is position 0.
func TestDiceEndIsTheFurthestOffsetPlusDraws(t *testing.T) {
	require.EqualValues(t, 0, engine.DiceEnd())
	require.EqualValues(t, 0, engine.DiceEnd(nil))
	require.EqualValues(t, 13, engine.DiceEnd(&dicev1.Roll{Offset: 10, Draws: 3}, nil, &dicev1.Roll{Offset: 2, Draws: 9}))
	require.EqualValues(t, 14, engine.DiceEnd(&dicev1.Roll{Offset: 10, Draws: 3}, &dicev1.Roll{Offset: 5, Draws: 9}))
}
