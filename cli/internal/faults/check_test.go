package faults

import (
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

// record is a record of encounter enc at position, linked to prev, holding events from
// sequence seq on, one per id, of command cmd.
func record(enc string, position, prev uint64, cmd string, seq uint64, ids ...string) Record {
	b := &encounterv1.EventBatch{}
	for i, id := range ids {
		ev := &encounterv1.Event{EncounterId: enc, Sequence: seq + uint64(i), EventId: id, CommandId: cmd}
		if seq+uint64(i) == 1 {
			ev.Payload = &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{}}
		}
		b.Events = append(b.Events, ev)
	}
	return Record{Encounter: enc, Position: position, Previous: prev, HasPrevious: true, Batch: b}
}

func acked(method, enc, cmd string, evs ...AckedEvent) *Command {
	return &Command{Method: "/fray.encounter.v1.EncounterService/" + method, Encounter: enc, CommandID: cmd, Acked: true, Code: codes.OK,
		Events: evs, Attempts: []Attempt{{Code: codes.OK}}}
}

func ev(seq uint64, id string) AckedEvent { return AckedEvent{Sequence: seq, EventID: id} }

// A clean log of two encounters and the commands acknowledged in it.
func cleanLog() (Log, []*Command) {
	log := Log{
		"a": {record("a", 1, 0, "c1", 1, "e1"), record("a", 3, 1, "c2", 2, "e2", "e3"), record("a", 6, 3, "c3", 4, "e4")},
		"b": {record("b", 2, 0, "d1", 1, "f1"), record("b", 4, 2, "d2", 2, "f2")},
	}
	cmds := []*Command{
		acked("CreateEncounter", "a", "c1", ev(1, "e1")),
		acked("Submit", "a", "c2", ev(2, "e2"), ev(3, "e3")),
		acked("Submit", "a", "c3", ev(4, "e4")),
		acked("CreateEncounter", "b", "d1", ev(1, "f1")),
		acked("Submit", "b", "d2", ev(2, "f2")),
	}
	return log, cmds
}

// The checks pass a clean log and find each kind of breach, naming it.
func TestCheckFindsEveryBreach(t *testing.T) {
	cases := []struct {
		name   string
		change func(Log, []*Command) (Log, []*Command)
		field  func(*Findings) []string
		want   string
	}{
		{"lost: acknowledged, not in the log", func(l Log, c []*Command) (Log, []*Command) {
			return l, append(c, acked("Submit", "b", "d3", ev(3, "f3")))
		}, func(f *Findings) []string { return f.Lost }, "Submit d3 of b acknowledged at [3..3], not in the log"},
		{"misplaced: acknowledged at other sequences", func(l Log, c []*Command) (Log, []*Command) {
			c[2].Events = []AckedEvent{ev(5, "e4")}
			return l, c
		}, func(f *Findings) []string { return f.Misplaced }, "acknowledged as events [5..5], recorded as [4..4]"},
		{"misplaced: other event ids", func(l Log, c []*Command) (Log, []*Command) {
			c[4].Events = []AckedEvent{ev(2, "other")}
			return l, c
		}, func(f *Findings) []string { return f.Misplaced }, "Submit d2 of b acknowledged as events [2..2]"},
		{"misplaced: in another encounter", func(l Log, c []*Command) (Log, []*Command) {
			c[4].Encounter = "a"
			return l, c
		}, func(f *Findings) []string { return f.Misplaced }, "Submit d2 acknowledged for a, recorded in b"},
		{"duplicated: a command recorded twice", func(l Log, c []*Command) (Log, []*Command) {
			l["a"] = append(l["a"], record("a", 7, 6, "c3", 5, "e5"))
			return l, c
		}, func(f *Findings) []string { return f.Duplicated }, "command c3 recorded 2 times (a@6, a@7)"},
		{"forked: a record linked to another than the one before", func(l Log, c []*Command) (Log, []*Command) {
			l["a"][2].Previous = 1
			return l, c
		}, func(f *Findings) []string { return f.Forked }, "a: record 6 links to 1, the record before it is 3"},
		{"forked: no link", func(l Log, c []*Command) (Log, []*Command) {
			l["b"][1].HasPrevious = false
			return l, c
		}, func(f *Findings) []string { return f.Forked }, "b: record 4 has no Fray-Previous link"},
		{"forked: a sequence twice", func(l Log, c []*Command) (Log, []*Command) {
			l["a"] = append(l["a"], record("a", 7, 6, "c4", 4, "e5"))
			return l, c
		}, func(f *Findings) []string { return f.Forked }, "a: record 7 holds event 4 where event 5 comes next"},
		{"forked: a gap", func(l Log, c []*Command) (Log, []*Command) {
			l["b"] = append(l["b"], record("b", 8, 4, "d4", 4, "f4"))
			return l, c
		}, func(f *Findings) []string { return f.Forked }, "b: record 8 holds event 4 where event 3 comes next"},
		{"forked: an event of another encounter", func(l Log, c []*Command) (Log, []*Command) {
			l["b"][1].Batch.Events[0].EncounterId = "a"
			return l, c
		}, func(f *Findings) []string { return f.Forked }, `b: record 4 holds an event of encounter "a"`},
		{"forked: events of two commands in a record", func(l Log, c []*Command) (Log, []*Command) {
			l["a"][1].Batch.Events[1].CommandId = "zz"
			return l, c
		}, func(f *Findings) []string { return f.Forked }, `a: record 3 holds events of commands "c2" and "zz"`},
		{"forked: not created first", func(l Log, c []*Command) (Log, []*Command) {
			l["b"][0].Batch.Events[0].Payload = nil
			return l, c
		}, func(f *Findings) []string { return f.Forked }, "b: the first record (2) does not create the encounter"},
		{"refused yet recorded", func(l Log, c []*Command) (Log, []*Command) {
			c[4].Acked, c[4].Code = false, codes.FailedPrecondition
			c[4].Attempts = []Attempt{{Code: codes.Unavailable}, {Code: codes.FailedPrecondition, Message: "not your turn"}}
			return l, c
		}, func(f *Findings) []string { return f.RefusedButRecorded }, "Submit d2 of b answered FailedPrecondition after 2 attempts (not your turn), yet recorded at 4"},
	}
	log, cmds := cleanLog()
	f := Check(log, cmds)
	require.True(t, f.OK(), f.Summary())
	require.Equal(t, 5, f.Acked)
	require.Equal(t, 5, f.AckedFound)
	require.Equal(t, 2, f.Encounters)
	require.Equal(t, 5, f.Records)
	require.Equal(t, 6, f.Events)
	require.Empty(t, f.Summary())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, c := tc.change(cleanLog())
			f := Check(l, c)
			require.False(t, f.OK())
			got := tc.field(f)
			require.NotEmpty(t, got, f.Summary())
			require.Contains(t, got[0], tc.want)
			require.Contains(t, f.Summary(), tc.want)
		})
	}
}

// A command whose outcome the client never learnt may be recorded or not; a refusal that was
// not recorded is no breach.
func TestCheckAllowsUnknownOutcomes(t *testing.T) {
	log, cmds := cleanLog()
	unknownRecorded := &Command{Method: "Submit", Encounter: "a", CommandID: "c3", Code: codes.DeadlineExceeded, Attempts: []Attempt{{Code: codes.DeadlineExceeded}}}
	cut := &Command{Method: "Submit", Encounter: "a", CommandID: "c9", Cut: true, Code: codes.Canceled}
	refused := &Command{Method: "Submit", Encounter: "b", CommandID: "d9", Code: codes.PermissionDenied, Attempts: []Attempt{{Code: codes.PermissionDenied}}}
	f := Check(log, append(cmds[:2], cmds[3], cmds[4], unknownRecorded, cut, refused))
	require.True(t, f.OK(), f.Summary())
	require.Equal(t, 4, f.Acked)
	require.Equal(t, 2, f.Unknown)
	require.Equal(t, 1, f.UnknownRecorded)
	require.Equal(t, 1, f.Refused)
	require.True(t, log.Ended("a") == false)
	log["a"][2].Batch.Events[0].Payload = &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{}}
	require.True(t, log.Ended("a"))
	require.Equal(t, []string{"a", "b"}, log.Encounters())
}

// Availability counts the calls and commands begun in a window; the outage is the longest
// stretch without a successful call; firstAfter finds the first success begun after a time.
func TestAvailabilityOutageAndRecovery(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	cmd := func(acked bool, code codes.Code, attempts ...Attempt) *Command {
		return &Command{Acked: acked, Code: code, Attempts: attempts, Start: attempts[0].Start, End: attempts[len(attempts)-1].End}
	}
	cmds := []*Command{
		cmd(true, codes.OK, Attempt{Start: at(0), End: at(0.1), Code: codes.OK}),
		cmd(true, codes.OK, Attempt{Start: at(1), End: at(1.5), Code: codes.Unavailable, Replica: 0}, Attempt{Start: at(1.6), End: at(4), Code: codes.OK, Replica: 1}),
		cmd(false, codes.FailedPrecondition, Attempt{Start: at(2), End: at(2.1), Code: codes.FailedPrecondition}),
		cmd(false, codes.DeadlineExceeded, Attempt{Start: at(2.5), End: at(5.5), Code: codes.DeadlineExceeded}),
		cmd(true, codes.OK, Attempt{Start: at(5), End: at(5.2), Code: codes.OK, Replica: 0}),
	}
	a := availability(cmds, at(1), at(3))
	require.Equal(t, 4, a.Attempts)
	require.Equal(t, 1, a.AttemptsOK)
	require.Equal(t, map[string]int{"Unavailable": 1, "FailedPrecondition": 1, "DeadlineExceeded": 1}, a.Codes)
	require.Equal(t, 3, a.Commands)
	require.Equal(t, 1, a.CommandsOK)
	require.Equal(t, 1, a.Refused)
	require.Equal(t, 1, a.GaveUp)
	require.Equal(t, 3*time.Second, a.Slowest)
	// Successes end at 0.1, 4 and 5.2: from 0.5 to 6 the longest stretch is 0.5 → 4.
	require.Equal(t, 3500*time.Millisecond, outage(cmds, at(0.5), at(6)))
	require.Equal(t, 3*time.Second, outage(cmds, at(6), at(9)), "no success at all")
	require.Equal(t, at(5.2), firstAfter(cmds, at(3), -1))
	require.Equal(t, at(4), firstAfter(cmds, at(1.5), 1))
	require.True(t, firstAfter(cmds, at(5.5), -1).IsZero())
}
