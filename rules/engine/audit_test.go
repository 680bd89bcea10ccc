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
		do("gm", &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Pass{Pass: &lossv1.Pass{}}}}})
		_ = target
	}
	if end {
		do("gm", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}})
	}
	return log
}

func TestAuditIntactAndTamperedLogs(t *testing.T) {
	reg := engine.NewRegistry(loss.New())
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
