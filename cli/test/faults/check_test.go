package faults

import (
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
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

// A call answered NotFound for an encounter the log holds is counted (a create's own
// encounter too, when the create is recorded); a rule refusal of a command chosen on the
// log's state is stale, one sent after a command of unknown outcome is not judged.
func TestCheckFindsWhatTheLogContradicts(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	timed := func(c *Command, from, to float64) *Command {
		c.Start, c.End = at(from), at(to)
		for i := range c.Attempts {
			c.Attempts[i].Start, c.Attempts[i].End = at(from), at(to)
		}
		return c
	}
	refused := func(method, enc, cmd string, code codes.Code, msg string) *Command {
		return &Command{Method: "/fray.encounter.v1.EncounterService/" + method, Encounter: enc, CommandID: cmd, Code: code,
			Attempts: []Attempt{{Code: code, Message: msg}}}
	}
	log, cmds := cleanLog()
	for i, c := range cmds {
		timed(c, float64(i), float64(i)+0.5)
	}
	// A create answered NotFound, yet recorded: its encounter is c's.
	createNF := timed(refused("CreateEncounter", "", "x1", codes.NotFound, `there is no encounter "c"`), 10, 10.1)
	log["c"] = []Record{record("c", 9, 0, "x1", 1, "g1")}
	// A submit after every command of a acknowledged, refused: stale.
	stale := timed(refused("Submit", "a", "c9", codes.FailedPrecondition, "soldat acts first"), 20, 20.1)
	// b: a command of unknown outcome, then a refusal: not judged.
	unknown := timed(&Command{Method: "Submit", Encounter: "b", CommandID: "d8", Code: codes.DeadlineExceeded, Attempts: []Attempt{{Code: codes.DeadlineExceeded}}}, 30, 31)
	notJudged := timed(refused("Submit", "b", "d9", codes.FailedPrecondition, "not your turn"), 32, 32.1)
	// A submit to b answered NotFound then acknowledged.
	nfThenOK := timed(&Command{Method: "Submit", Encounter: "b", CommandID: "d7", Acked: true, Code: codes.OK,
		Attempts: []Attempt{{Code: codes.NotFound, Message: "there is no encounter"}, {Code: codes.OK}}}, 29, 29.5)
	all := append(cmds, createNF, stale, unknown, notJudged, nfThenOK)
	f := Check(log, all)
	require.False(t, f.Truthful())
	require.Len(t, f.NotFound, 2, "%v", f.NotFound)
	require.Contains(t, f.NotFound[0], "CreateEncounter x1 of c answered NotFound at attempt 1")
	require.Contains(t, f.NotFound[1], "Submit d7 of b answered NotFound at attempt 1")
	require.Len(t, f.Stale, 1, "%v", f.Stale)
	require.Contains(t, f.Stale[0], "Submit c9 of a refused FailedPrecondition (soldat acts first) though chosen on the log's state (3 commands acknowledged before it; not decided again)")
	require.Contains(t, f.Summary(), "stale refusals")

	a := availability(all, at(9), at(40))
	require.Equal(t, 2, a.NotFound)
	require.Equal(t, 1, a.Stale)
	require.Zero(t, availability(all, at(0), at(9)).NotFound)

	// A refusal right after a create that was acknowledged is stale too (nothing unknown before).
	log2, cmds2 := cleanLog()
	for i, c := range cmds2 {
		timed(c, float64(i), float64(i)+0.5)
	}
	perm := timed(refused("AddCombatant", "b", "d5", codes.PermissionDenied, "no role"), 10, 10.1)
	f = Check(log2, append(cmds2, perm))
	require.Len(t, f.Stale, 1)
	require.True(t, f.OK(), "stale refusals are their own finding, not a broken invariant")
}

// A refusal is decided again on the log's state: one the rules accept there is stale, one
// they refuse there too is the load's own (RefusedOnLog). The log is a real one: an
// encounter created and ended by the rules' own decisions.
func TestRefusalsAreDecidedAgainOnTheLog(t *testing.T) {
	seed := make([]byte, dice.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	env := engine.Env{Actor: "t1/load-gm", Tenant: "t1", Seed: seed}
	st := &encounterv1.EncounterState{EncounterId: "enc-1"}
	var recs []Record
	decide := func(cmdID string, cmd *encounterv1.Command) {
		stream, err := dice.NewStreamScheme(dice.Latest, seed, st.GetDiceOffset())
		require.NoError(t, err)
		env.Dice = stream
		evs, err := registry.Decide(st, cmd, env)
		require.NoError(t, err)
		for _, ev := range evs {
			ev.CommandId = cmdID
			require.NoError(t, registry.Evolve(st, ev))
		}
		recs = append(recs, Record{Encounter: "enc-1", Position: uint64(len(recs) + 1), Batch: &encounterv1.EventBatch{Events: evs}})
	}
	decide("c1", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "replay", RuleSystem: "loss"}}})
	decide("c2", &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "over"}}})
	log := Log{"enc-1": recs}

	at := func(s float64) time.Time { return time.Unix(1000, 0).Add(time.Duration(s * float64(time.Second))) }
	create := &Command{Method: "/x/CreateEncounter", Encounter: "enc-1", CommandID: "c1", Acked: true, Code: codes.OK, Start: at(0), End: at(1),
		Events: []AckedEvent{{Sequence: 1, EventID: recs[0].Batch.Events[0].GetEventId()}}, Attempts: []Attempt{{Code: codes.OK}}}
	// An End refused right after the create: on the log's state (the create) it is legal.
	end := &encounterv1.EndEncounterRequest{EncounterId: "enc-1", Reason: "over"}
	refusedEnd := &Command{Method: "/x/EndEncounter", Encounter: "enc-1", CommandID: "c9", Code: codes.FailedPrecondition, Start: at(2), End: at(3),
		Subject: "load-gm", request: end, Attempts: []Attempt{{Code: codes.FailedPrecondition, Message: "not yet"}}}
	f := Check(Log{"enc-1": recs[:1]}, []*Command{create, refusedEnd})
	require.Len(t, f.Stale, 1, "no seed revealed: not decided again, yet stale by the client's account")
	require.Contains(t, f.Stale[0], "not decided again")
	f = Check(log, []*Command{create, refusedEnd})
	require.Len(t, f.Stale, 1, "%v %v", f.Stale, f.RefusedOnLog)
	require.Contains(t, f.Stale[0], "the rules accept it there")

	// A Start refused after the end (acknowledged): the rules refuse it on the log too.
	ended := &Command{Method: "/x/EndEncounter", Encounter: "enc-1", CommandID: "c2", Acked: true, Code: codes.OK, Start: at(2), End: at(3),
		Events: []AckedEvent{{Sequence: 2, EventID: recs[1].Batch.Events[0].GetEventId()}}, Attempts: []Attempt{{Code: codes.OK}}}
	refusedStart := &Command{Method: "/x/StartEncounter", Encounter: "enc-1", CommandID: "c10", Code: codes.FailedPrecondition, Start: at(4), End: at(5),
		Subject: "load-gm", request: &encounterv1.StartEncounterRequest{EncounterId: "enc-1"}, Attempts: []Attempt{{Code: codes.FailedPrecondition, Message: "ended"}}}
	f = Check(log, []*Command{create, ended, refusedStart})
	require.Empty(t, f.Stale)
	require.Len(t, f.RefusedOnLog, 1)
	require.Contains(t, f.RefusedOnLog[0], "StartEncounter c10 of enc-1 refused FailedPrecondition (ended); the rules refuse it on the log's state too")
}

// A command acknowledged with a state behind its own events is a stale answer, and a refusal
// of the command chosen on it is stale, whatever the rules say on the log's state.
func TestCheckFindsStaleAnswers(t *testing.T) {
	log, cmds := cleanLog()
	t0 := time.Unix(1000, 0)
	for i, c := range cmds {
		c.Start, c.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second+time.Millisecond)
		c.StateSequence = c.Events[len(c.Events)-1].Sequence
	}
	cmds[1].StateSequence = 1 // Submit c2 recorded events 2..3, answered the state at 1
	refused := &Command{Method: "/x/Submit", Encounter: "a", CommandID: "c4", Code: codes.FailedPrecondition, Start: t0.Add(10 * time.Second), End: t0.Add(11 * time.Second),
		Attempts: []Attempt{{Code: codes.FailedPrecondition, Message: "not your turn"}}}
	// The refusal follows c3 (answered rightly): not the stale answer's; c2's answer is found.
	f := Check(log, append(cmds, refused))
	require.Len(t, f.StaleAnswers, 1)
	require.Contains(t, f.StaleAnswers[0], "Submit c2 of a acknowledged events [2..3] with a state at sequence 1")
	require.False(t, f.Truthful())
	// Right after c2: the refusal is the stale answer's.
	log2, cmds2 := cleanLog()
	for i, c := range cmds2 {
		c.Start, c.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second+time.Millisecond)
	}
	cmds2[1].StateSequence = 1
	refused.Start, refused.End = cmds2[1].End.Add(time.Millisecond), cmds2[1].End.Add(2*time.Millisecond)
	f = Check(log2, append(cmds2[:2], refused))
	require.Len(t, f.Stale, 1)
	require.Contains(t, f.Stale[0], "chosen on the state at sequence 1 that Submit c2 answered, the log at 3")
}
