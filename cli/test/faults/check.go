package faults

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// Record is one message of the event stream: one command's events.
type Record struct {
	Encounter string
	Position  uint64
	// Previous is the Fray-Previous header: the position of the encounter's record before it
	// (0 for the first); HasPrevious false when the header is missing or unreadable.
	Previous    uint64
	HasPrevious bool
	Batch       *encounterv1.EventBatch
}

// Log is the stream's records by encounter, each encounter's in stream order.
type Log map[string][]Record

// subjectPrefix is the services' subject prefix: fray.enc.<encounter>.
const subjectPrefix = "fray.enc."

// previousHeader is the header each record carries (store.PreviousHeader).
const previousHeader = "Fray-Previous"

// ReadLog reads every record of the stream with one ordered consumer, as an auditor may.
func ReadLog(ctx context.Context, js jetstream.JetStream, stream string) (Log, error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	log := Log{}
	last := info.State.LastSeq
	if info.State.Msgs == 0 {
		return log, nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subjectPrefix + ">"}})
	if err != nil {
		return nil, err
	}
	it, err := cons.Messages()
	if err != nil {
		return nil, err
	}
	defer it.Stop()
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	for {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		meta, err := m.Metadata()
		if err != nil {
			return nil, err
		}
		r := Record{Encounter: strings.TrimPrefix(m.Subject(), subjectPrefix), Position: meta.Sequence.Stream, Batch: &encounterv1.EventBatch{}}
		if err := proto.Unmarshal(m.Data(), r.Batch); err != nil {
			return nil, fmt.Errorf("record %d is not an event batch: %w", r.Position, err)
		}
		if p, err := strconv.ParseUint(m.Headers().Get(previousHeader), 10, 64); err == nil {
			r.Previous, r.HasPrevious = p, true
		}
		log[r.Encounter] = append(log[r.Encounter], r)
		if r.Position >= last || meta.NumPending == 0 {
			return log, nil
		}
	}
}

// Ended reports whether the encounter's last record ends it.
func (l Log) Ended(encounter string) bool {
	recs := l[encounter]
	if len(recs) == 0 {
		return false
	}
	evs := recs[len(recs)-1].Batch.GetEvents()
	return len(evs) > 0 && evs[len(evs)-1].GetEncounterEnded() != nil
}

// Encounters are the encounters of the log, sorted.
func (l Log) Encounters() []string {
	var ids []string
	for id := range l {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Findings is what the checks found. Lost, Duplicated, Forked, Misplaced and
// RefusedButRecorded must be empty; each entry says what and where.
type Findings struct {
	Encounters, Records, Events int
	// Acked commands (answered OK), and of them the ones found in the log.
	Acked, AckedFound int
	// Unknown: commands whose outcome the client never learnt (budget spent, or cut by the end
	// of the run), and of them those recorded anyway (allowed: never acknowledged).
	Unknown, UnknownRecorded int
	// Refused: commands answered with a refusal (a code that is not retried).
	Refused int

	// Lost: acknowledged, not in the log.
	Lost []string
	// Misplaced: acknowledged with sequences or event ids other than those recorded.
	Misplaced []string
	// Duplicated: a command id recorded more than once.
	Duplicated []string
	// Forked: an encounter's history not one line (a record not linked to the one before,
	// events not numbered 1, 2, 3…, events of another encounter or command in a record).
	Forked []string
	// RefusedButRecorded: a command answered with a refusal, yet recorded.
	RefusedButRecorded []string

	// NotFound: calls answered NotFound for an encounter the log holds (for a create, its own
	// encounter, when the create is recorded): a read behind the service's own write.
	NotFound []string
	// Stale: commands refused by a rule although the client chose them, from the rules' own
	// legal actions, on the state the log held when it sent them (every earlier command of the
	// encounter acknowledged before it, none of unknown outcome), and which the rules, deciding
	// them again on that state of the log (what a read of the stream's leader held), accept: a
	// decision on a state behind the log.
	Stale []string
	// RefusedOnLog: such refusals that the rules refuse on the log's state too — the load
	// chose a command its rules refuse, no fault of the cluster (reported, not a breach).
	RefusedOnLog []string
	// StaleAnswers: commands acknowledged with a state behind their own events (a retry
	// answered from a cached state that had not read them): the client then chooses its next
	// command on a state the log has left.
	StaleAnswers []string
}

// Truthful reports whether no client was told something the log contradicts: no NotFound
// for an encounter that exists, no refusal decided on a stale state.
func (f *Findings) Truthful() bool { return len(f.NotFound)+len(f.Stale)+len(f.StaleAnswers) == 0 }

// OK reports whether no invariant is broken.
func (f *Findings) OK() bool {
	return len(f.Lost)+len(f.Misplaced)+len(f.Duplicated)+len(f.Forked)+len(f.RefusedButRecorded) == 0
}

// Summary is one line per broken invariant (at most 5 examples each), or "".
func (f *Findings) Summary() string {
	var b strings.Builder
	for _, x := range []struct {
		name string
		list []string
	}{{"lost", f.Lost}, {"misplaced", f.Misplaced}, {"duplicated", f.Duplicated}, {"forked", f.Forked}, {"refused but recorded", f.RefusedButRecorded},
		{"NotFound for an encounter that exists", f.NotFound}, {"stale refusals", f.Stale}, {"answered with a state behind their own events", f.StaleAnswers}} {
		if len(x.list) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%d %s: %s\n", len(x.list), x.name, strings.Join(x.list[:min(5, len(x.list))], "; "))
	}
	return b.String()
}

// recorded is where a command id is in the log.
type recorded struct {
	encounter string
	record    Record
}

// Check compares the log with the commands the clients sent.
func Check(log Log, cmds []*Command) *Findings {
	f := &Findings{Encounters: len(log)}
	byCommand := map[string][]recorded{}
	for _, enc := range log.Encounters() {
		recs := log[enc]
		f.Records += len(recs)
		next := uint64(1)
		for i, r := range recs {
			evs := r.Batch.GetEvents()
			f.Events += len(evs)
			want := uint64(0)
			if i > 0 {
				want = recs[i-1].Position
			}
			switch {
			case !r.HasPrevious:
				f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d has no %s link", enc, r.Position, previousHeader))
			case r.Previous != want:
				f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d links to %d, the record before it is %d", enc, r.Position, r.Previous, want))
			}
			if len(evs) == 0 {
				f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d holds no event", enc, r.Position))
				continue
			}
			if i == 0 && evs[0].GetEncounterCreated() == nil {
				f.Forked = append(f.Forked, fmt.Sprintf("%s: the first record (%d) does not create the encounter", enc, r.Position))
			}
			cmd := evs[0].GetCommandId()
			for _, ev := range evs {
				if ev.GetSequence() != next {
					f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d holds event %d where event %d comes next", enc, r.Position, ev.GetSequence(), next))
				}
				next = ev.GetSequence() + 1
				if ev.GetEncounterId() != enc {
					f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d holds an event of encounter %q", enc, r.Position, ev.GetEncounterId()))
				}
				if ev.GetCommandId() != cmd {
					f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d holds events of commands %q and %q", enc, r.Position, cmd, ev.GetCommandId()))
				}
			}
			if cmd == "" {
				f.Forked = append(f.Forked, fmt.Sprintf("%s: record %d has no command id", enc, r.Position))
				continue
			}
			byCommand[cmd] = append(byCommand[cmd], recorded{encounter: enc, record: r})
		}
	}
	for _, cmd := range slices.Sorted(maps.Keys(byCommand)) {
		if rs := byCommand[cmd]; len(rs) > 1 {
			var at []string
			for _, r := range rs {
				at = append(at, fmt.Sprintf("%s@%d", r.encounter, r.record.Position))
			}
			f.Duplicated = append(f.Duplicated, fmt.Sprintf("command %s recorded %d times (%s)", cmd, len(rs), strings.Join(at, ", ")))
		}
	}
	for _, c := range cmds {
		rs := byCommand[c.CommandID]
		switch {
		case c.Acked:
			f.Acked++
			if len(rs) == 0 {
				f.Lost = append(f.Lost, fmt.Sprintf("%s %s of %s acknowledged at %v, not in the log", short(c.Method), c.CommandID, c.Encounter, sequences(c.Events)))
				continue
			}
			f.AckedFound++
			r := rs[0]
			if r.encounter != c.Encounter {
				f.Misplaced = append(f.Misplaced, fmt.Sprintf("%s %s acknowledged for %s, recorded in %s", short(c.Method), c.CommandID, c.Encounter, r.encounter))
				continue
			}
			var got []AckedEvent
			for _, ev := range r.record.Batch.GetEvents() {
				got = append(got, AckedEvent{Sequence: ev.GetSequence(), EventID: ev.GetEventId()})
			}
			if !slices.Equal(got, c.Events) {
				f.Misplaced = append(f.Misplaced, fmt.Sprintf("%s %s of %s acknowledged as events %v, recorded as %v", short(c.Method), c.CommandID, c.Encounter, sequences(c.Events), sequences(got)))
			}
		case c.Cut || retryable(c.Code):
			f.Unknown++
			if len(rs) > 0 {
				f.UnknownRecorded++
			}
		default:
			f.Refused++
			if len(rs) > 0 {
				f.RefusedButRecorded = append(f.RefusedButRecorded, fmt.Sprintf("%s %s of %s answered %v after %d attempts (%s), yet recorded at %d",
					short(c.Method), c.CommandID, rs[0].encounter, c.Code, len(c.Attempts), lastMessage(c), rs[0].record.Position))
			}
		}
	}
	untruthful(f, log, byCommand, cmds)
	return f
}

// ruleRefusal: the codes a command is refused with for what it asks of the state (its rules,
// its roles), as opposed to NotFound (counted apart) and the codes that leave it unknown.
func ruleRefusal(c codes.Code) bool {
	switch c {
	case codes.FailedPrecondition, codes.InvalidArgument, codes.OutOfRange, codes.AlreadyExists, codes.PermissionDenied:
		return true
	}
	return false
}

// previous is cs[i-1], or nil.
func previous(cs []*Command, i int) *Command {
	if i == 0 {
		return nil
	}
	return cs[i-1]
}

// untruthful finds the calls answered NotFound for an encounter that exists, and the stale
// refusals, and marks them on the commands (for the windows' counts).
func untruthful(f *Findings, log Log, byCommand map[string][]recorded, cmds []*Command) {
	encounterOf := func(c *Command) string {
		if c.Encounter != "" {
			return c.Encounter
		}
		if rs := byCommand[c.CommandID]; len(rs) > 0 { // a create: its own encounter
			return rs[0].encounter
		}
		return ""
	}
	byEncounter := map[string][]*Command{}
	for _, c := range cmds {
		if n := len(c.Events); c.Acked && n > 0 && c.StateSequence != 0 && c.StateSequence < c.Events[n-1].Sequence {
			f.StaleAnswers = append(f.StaleAnswers, fmt.Sprintf("%s %s of %s acknowledged events %s with a state at sequence %d",
				short(c.Method), c.CommandID, encounterOf(c), sequences(c.Events), c.StateSequence))
		}
		c.stale = false
		enc := encounterOf(c)
		for i := range c.Attempts {
			a := &c.Attempts[i]
			a.notFound = a.Code == codes.NotFound && enc != "" && len(log[enc]) > 0
			if a.notFound {
				f.NotFound = append(f.NotFound, fmt.Sprintf("%s %s of %s answered NotFound at attempt %d (%s); the log holds %d records of it",
					short(c.Method), c.CommandID, enc, i+1, clip(a.Message, 120), len(log[enc])))
			}
		}
		if enc != "" {
			byEncounter[enc] = append(byEncounter[enc], c)
		}
	}
	for _, enc := range slices.Sorted(maps.Keys(byEncounter)) {
		cs := byEncounter[enc]
		slices.SortStableFunc(cs, func(a, b *Command) int { return a.Start.Compare(b.Start) })
		for i, c := range cs {
			if c.Acked || c.Cut || !ruleRefusal(c.Code) {
				continue
			}
			known := true // every command before it acknowledged before it was sent
			for _, p := range cs[:i] {
				if !p.Acked || p.End.After(c.Start) {
					known = false
					break
				}
			}
			if !known {
				continue
			}
			// The command before it answered a state behind the log's: the client chose on
			// that, and the refusal is the stale answer's.
			if p := previous(cs, i); p != nil && p.StateSequence != 0 && len(p.Events) > 0 && p.StateSequence < p.Events[len(p.Events)-1].Sequence {
				c.stale = true
				f.Stale = append(f.Stale, fmt.Sprintf("%s %s of %s refused %v (%s), chosen on the state at sequence %d that %s %s answered, the log at %d",
					short(c.Method), c.CommandID, enc, c.Code, lastMessage(c), p.StateSequence, short(p.Method), p.CommandID, p.Events[len(p.Events)-1].Sequence))
				continue
			}
			refusal, judged := decideOnLog(log[enc], i, commandOf(c.request), c.Subject)
			if judged && refusal != nil {
				f.RefusedOnLog = append(f.RefusedOnLog, fmt.Sprintf("%s %s of %s refused %v (%s); the rules refuse it on the log's state too (%v)",
					short(c.Method), c.CommandID, enc, c.Code, lastMessage(c), refusal))
				continue
			}
			how := "not decided again"
			if judged {
				how = "the rules accept it there"
			}
			c.stale = true
			f.Stale = append(f.Stale, fmt.Sprintf("%s %s of %s refused %v (%s) though chosen on the log's state (%d commands acknowledged before it; %s)",
				short(c.Method), c.CommandID, enc, c.Code, lastMessage(c), i, how))
		}
	}
}

func lastMessage(c *Command) string {
	if len(c.Attempts) == 0 {
		return ""
	}
	m := c.Attempts[len(c.Attempts)-1].Message
	if len(m) > 200 {
		m = m[:200] + "…"
	}
	return m
}

func sequences(evs []AckedEvent) string {
	if len(evs) == 0 {
		return "[]"
	}
	return fmt.Sprintf("[%d..%d]", evs[0].Sequence, evs[len(evs)-1].Sequence)
}

// short is a method's name without its service.
func short(method string) string {
	if i := strings.LastIndexByte(method, '/'); i >= 0 {
		return method[i+1:]
	}
	return method
}

// Audit is one encounter's `fray audit verify`.
type Audit struct {
	Encounter string
	Err       error
	Output    string
}

// AuditFunc runs `fray audit verify` of one encounter.
type AuditFunc func(ctx context.Context, encounter string) (output string, err error)

// AuditAll verifies every encounter of the log, workers at a time.
func AuditAll(ctx context.Context, log Log, workers int, verify AuditFunc) []Audit {
	ids := log.Encounters()
	out := make([]Audit, len(ids))
	next := make(chan int)
	done := make(chan struct{})
	for range max(1, workers) {
		go func() {
			for i := range next {
				o, err := verify(ctx, ids[i])
				out[i] = Audit{Encounter: ids[i], Output: o, Err: err}
			}
			done <- struct{}{}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	for range max(1, workers) {
		<-done
	}
	return out
}

// firstAfter is the end of the first successful attempt begun at or after t (through replica,
// when replica >= 0), or zero.
func firstAfter(cmds []*Command, t time.Time, replica int) time.Time {
	var best time.Time
	for _, c := range cmds {
		for _, a := range c.Attempts {
			if a.Code == codes.OK && !a.Start.Before(t) && (replica < 0 || a.Replica == replica) && (best.IsZero() || a.End.Before(best)) {
				best = a.End
			}
		}
	}
	return best
}

// availability of the calls and commands begun in [from, to).
func availability(cmds []*Command, from, to time.Time) Availability {
	a := Availability{From: from, To: to, Codes: map[string]int{}, Examples: map[string]string{}}
	in := func(t time.Time) bool { return !t.Before(from) && t.Before(to) }
	for _, c := range cmds {
		for _, at := range c.Attempts {
			if !in(at.Start) {
				continue
			}
			a.Attempts++
			if at.notFound {
				a.NotFound++
			}
			if at.Code == 0 {
				a.AttemptsOK++
			} else {
				if a.Codes[at.Code.String()]++; a.Examples[at.Code.String()] == "" {
					a.Examples[at.Code.String()] = at.Message
				}
			}
		}
		if c.Cut || len(c.Attempts) == 0 || !in(c.Start) {
			continue
		}
		a.Commands++
		if c.stale {
			a.Stale++
		}
		switch {
		case c.Acked:
			a.CommandsOK++
		case retryable(c.Code):
			a.GaveUp++
		default:
			a.Refused++
		}
		a.Slowest = max(a.Slowest, c.End.Sub(c.Start))
	}
	return a
}

// outage is the longest stretch in [from, to) without a successful call ending.
func outage(cmds []*Command, from, to time.Time) time.Duration {
	var ends []time.Time
	for _, c := range cmds {
		for _, a := range c.Attempts {
			if a.Code == 0 && a.End.After(from) && a.End.Before(to) {
				ends = append(ends, a.End)
			}
		}
	}
	sortTimes(ends)
	longest, prev := time.Duration(0), from
	for _, e := range ends {
		longest = max(longest, e.Sub(prev))
		prev = e
	}
	return max(longest, to.Sub(prev))
}

func sortTimes(ts []time.Time) { slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) }) }

// Availability is what the clients saw of the calls and commands begun in a window.
type Availability struct {
	From, To time.Time
	// Attempts: calls to one service; Commands: each command with its retries: acknowledged
	// (OK), refused (answered with a code that is not retried: the service's answer), or given
	// up (its budget spent on codes that leave the outcome unknown).
	Attempts, AttemptsOK int
	Commands, CommandsOK int
	Refused, GaveUp      int
	// Codes: the failed attempts by gRPC code; Examples: the first message of each.
	Codes    map[string]int
	Examples map[string]string
	// Slowest is the longest command (first attempt to answer, retries included).
	Slowest time.Duration
	// NotFound: calls answered NotFound for an encounter that exists; Stale: commands refused
	// on a state behind the log (Findings).
	NotFound, Stale int
}

func (a Availability) commandShare() float64 { return share(a.CommandsOK, a.Commands) }

func share(ok, n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(ok) / float64(n)
}

// clip is s cut to n characters.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
