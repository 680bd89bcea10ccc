package engine_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// recordFight plays a short duel as the encounter service does: decide with the seeded
// stream, stamp the command on its first event, fold.
func recordFight(t *testing.T, reg *engine.Registry, end bool) []*encounterv1.Event {
	sum := sha256.Sum256([]byte("audit"))
	sd := sum[:]
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	var log []*encounterv1.Event
	do := func(actor string, cmd *encounterv1.Command) {
		evs, next, err := reg.Resolve(st, cmd, actor, sd, nil)
		require.NoError(t, err)
		for i, ev := range evs {
			ev.CommandId = fmt.Sprint("c", len(log))
			ev.EventId = fmt.Sprint("ev", ev.GetSequence())
			if i == 0 {
				ev.Command = cmd
			}
		}
		log = append(log, evs...)
		st = next
	}
	do("gm", create("Ruelle", "loss", 0))
	do("gm", combatant("a", "A", "gm"))
	do("gm", combatant("b", "B", "gm"))
	do("gm", start)
	for range 6 {
		var who, target string
		for _, id := range []string{"a", "b"} {
			cs := st.GetLoss().GetCombatants()[id]
			if !cs.GetPassed() && cs.GetActionPoints() > 0 && (who == "" || cs.GetActionPoints() > st.GetLoss().GetCombatants()[who].GetActionPoints()) {
				who = id
			}
		}
		target = map[string]string{"a": "b", "b": "a"}[who]
		do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}})
		_ = target
	}
	if end {
		do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}})
	}
	return log
}

func TestAuditIntactAndTamperedLogs(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	log := recordFight(t, reg, true)
	rep, err := reg.Audit(log)
	require.NoError(t, err)
	require.Equal(t, len(log), rep.Events)
	require.Equal(t, 11, rep.Commands)
	require.GreaterOrEqual(t, rep.Rolls, 4, "Initiative of three Tours at least")

	tamper := func(f func(log []*encounterv1.Event) []*encounterv1.Event) error {
		c := make([]*encounterv1.Event, len(log))
		for i, ev := range log {
			c[i] = proto.CloneOf(ev)
		}
		_, err := reg.Audit(f(c))
		return err
	}
	firstTour := func(log []*encounterv1.Event) *encounterv1.Event {
		for _, ev := range log {
			if ev.GetLoss().GetTourStarted() != nil {
				return ev
			}
		}
		t.Fatal("no Tour")
		return nil
	}
	var d *engine.Divergence

	// A die face changed: caught at that event.
	err = tamper(func(l []*encounterv1.Event) []*encounterv1.Event {
		r := firstTour(l).GetLoss().GetTourStarted().GetInitiative()[0].GetRoll()
		r.Faces[0] = r.Faces[0]%10 + 1
		return l
	})
	require.ErrorAs(t, err, &d)
	require.Equal(t, firstTour(log).GetSequence(), d.Sequence)
	require.Contains(t, d.Reason, "tampered roll")

	// An outcome changed, dice untouched: the rules decide otherwise.
	err = tamper(func(l []*encounterv1.Event) []*encounterv1.Event {
		firstTour(l).GetLoss().GetTourStarted().GetInitiative()[0].ActionPoints += 3
		return l
	})
	require.ErrorAs(t, err, &d)
	require.Equal(t, firstTour(log).GetSequence(), d.Sequence)
	require.Contains(t, d.Reason, "the rules decide")

	// A command changed: its recorded events no longer follow from it.
	err = tamper(func(l []*encounterv1.Event) []*encounterv1.Event {
		l[1].GetCommand().GetAddCombatant().GetCombatant().GetLoss().Initiative = 9
		return l
	})
	require.ErrorAs(t, err, &d)
	require.Equal(t, uint64(2), d.Sequence)

	// An event removed.
	err = tamper(func(l []*encounterv1.Event) []*encounterv1.Event { return append(l[:3], l[4:]...) })
	require.ErrorAs(t, err, &d)
	require.Contains(t, d.Reason, "missing")

	// A seed that is not the one committed to.
	err = tamper(func(l []*encounterv1.Event) []*encounterv1.Event {
		l[len(l)-1].GetEncounterEnded().Seed[0] ^= 1
		return l
	})
	require.ErrorAs(t, err, &d)
	require.Equal(t, uint64(1), d.Sequence)
	require.Contains(t, d.Reason, "does not match")

	// Before the end there is no seed to check against.
	_, err = reg.Audit(recordFight(t, reg, false))
	require.ErrorContains(t, err, "not revealed")
}

// TestRewindRollsFreshDice: a rewound attack, repeated, rolls dice further along the stream,
// never those seen before; the audit re-derives them and re-decides the rewind.
func TestRewindRollsFreshDice(t *testing.T) {
	tb := ruelle(t)
	tb.do("dev/gm", start)
	mark := proto.CloneOf(tb.st)
	attack := lossAction("diego", &lossv1.Action{Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "ruffian"}}})
	first := engine.Rolls(&encounterv1.EventBatch{Events: tb.do("dev/david", attack)})
	require.NotEmpty(t, first)
	tb.do("dev/gm", nextDuel(tb.st)) // the ruffian dodges: more dice
	high := tb.st.GetDiceOffset()
	require.Equal(t, high, tb.st.GetDiceHighWater())

	rw := tb.do("dev/carol", rewindTo(mark.GetSequence()))[0].GetEncounterRewound()
	require.Equal(t, high, rw.GetDiceOffset(), "the rewind records where the dice go on")
	// The state is as it was, except the dice stream's position.
	restored := proto.CloneOf(tb.st)
	require.Equal(t, high, restored.GetDiceOffset())
	require.Equal(t, high, restored.GetDiceHighWater())
	restored.Sequence, restored.DiceOffset, restored.DiceHighWater = mark.GetSequence(), mark.GetDiceOffset(), mark.GetDiceHighWater()
	require.True(t, proto.Equal(mark, restored), "restored state differs:\n%v\n%v", mark, restored)

	again := engine.Rolls(&encounterv1.EventBatch{Events: tb.do("dev/david", attack)})
	require.Len(t, again, len(first))
	for i := range again {
		require.GreaterOrEqual(t, again[i].GetOffset(), high, "roll %d comes from fresh dice", i)
		require.Greater(t, again[i].GetOffset(), first[i].GetOffset())
	}
	require.NotEqual(t, first[0].GetFaces(), again[0].GetFaces(), "the same attack rolls other faces")

	// A fresh fold agrees; the audit passes once the seed is revealed.
	folded, err := tb.reg.Fold(tb.log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(tb.st), engine.Hash(folded))
	tb.do("dev/gm", endCmd())
	rep, err := tb.reg.Audit(tb.log)
	require.NoError(t, err)
	require.Equal(t, len(tb.log), rep.Events)

	// A tampered dice_offset is a divergence at the rewind, whatever it is tampered to.
	var rewound uint64
	for _, ev := range tb.log {
		if ev.GetEncounterRewound() != nil {
			rewound = ev.GetSequence()
		}
	}
	for _, offset := range []uint64{0, high - 1, high + 1} {
		log := make([]*encounterv1.Event, len(tb.log))
		for i, ev := range tb.log {
			log[i] = proto.CloneOf(ev)
		}
		log[rewound-1].GetEncounterRewound().DiceOffset = offset
		_, err := tb.reg.Audit(log)
		var d *engine.Divergence
		require.ErrorAs(t, err, &d, "dice_offset %d", offset)
		require.Equal(t, rewound, d.Sequence)
		require.Contains(t, d.Reason, "the rules decide")
	}
}

// TestLegacyRewindAudits: a log recorded before tenants, whose rewind went back to the
// restored state's dice (no dice_offset), still folds as it did and passes the audit.
func TestLegacyRewindAudits(t *testing.T) {
	tb := newTable(t, "")
	tb.do("gm", create("Ruelle", "loss", 0))
	tb.do("gm", duellist("diego", "Diego", "david", 30))
	tb.do("gm", duellist("ruffian", "Le malfrat", "gm", 6))
	tb.do("gm", start)
	mark := proto.CloneOf(tb.st)
	tb.do("david", lossAction("diego", &lossv1.Action{Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "ruffian"}}}))
	high := tb.st.GetDiceOffset()
	tb.do("gm", rewindTo(mark.GetSequence()))
	tb.do("gm", endCmd())

	// As it was recorded then: the plain past state, no dice_offset.
	log := make([]*encounterv1.Event, len(tb.log))
	for i, ev := range tb.log {
		log[i] = proto.CloneOf(ev)
	}
	rw := log[len(log)-2].GetEncounterRewound()
	require.Equal(t, high, rw.GetDiceOffset())
	rw.DiceOffset, rw.State.DiceHighWater = 0, 0
	st, err := tb.reg.Fold(log)
	require.NoError(t, err)
	require.Equal(t, mark.GetDiceOffset(), st.GetDiceOffset(), "a legacy rewind goes back to the restored state's dice")
	require.Equal(t, high, st.GetDiceHighWater(), "the furthest position is kept")
	_, err = tb.reg.Audit(log)
	require.NoError(t, err)
}
