//go:build unix

package faults

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Print writes the report as text.
func (r *Report) Print(w io.Writer) {
	p := r.Plan
	fmt.Fprintf(w, "fray faults (%s): 3 NATS nodes (stream R3), 2 resolvers, 2 encounter services; fray load's fights, %d encounters at once, for %v\n",
		p.Name, p.Encounters, r.Elapsed.Round(time.Second))
	route := "each command to the next encounter service in turn"
	if p.Sticky {
		route = "each encounter's commands to one encounter service first (by its id)"
	}
	fmt.Fprintf(w, "client: %s; an unknown outcome (Unavailable, DeadlineExceeded, Aborted, Internal…) sent again with its command id to the other, %v an attempt, %v in all\n",
		route, p.Policy.Attempt, p.Policy.Budget)
	if r.Network != "" {
		fmt.Fprintf(w, "network: %s; resolvers: one DNS name (%s, the run's own name server), an address each, round_robin\n", r.Network, ResolverName)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "%s\n", s)
	}
	fmt.Fprintf(w, "%-52s %7s %20s %20s %7s %6s %8s %8s %9s %7s %8s %5s\n", "window", "length", "calls ok", "commands ok", "refused", "gave up", "slowest", "outage", "recovered", "back", "notfound", "stale")
	row := func(name string, a Availability, f *Fault) {
		out, recov, back := "", "", ""
		if f != nil {
			out = dur(f.Outage)
			recov = dur(f.Recovered)
			if f.replica >= 0 {
				recov = dur(f.RecoveredVia)
			}
			if !f.Back.IsZero() {
				back = dur(f.Back.Sub(f.End))
			} else {
				back = "never"
			}
		}
		slowest := "-"
		if a.Commands > 0 {
			slowest = dur(a.Slowest)
		}
		fmt.Fprintf(w, "%-52s %7s %20s %20s %7d %7d %8s %8s %9s %7s %8d %5d\n", name, dur(a.To.Sub(a.From)),
			ratio(a.AttemptsOK, a.Attempts), ratio(a.CommandsOK, a.Commands), a.Refused, a.GaveUp, slowest, out, recov, back, a.NotFound, a.Stale)
		if len(a.Codes) > 0 {
			fmt.Fprintf(w, "%-52s failed calls: %s\n", "", codeList(a.Codes))
		}
		if f != nil { // what the clients were told during the fault
			for _, c := range slices.Sorted(maps.Keys(a.Examples)) {
				fmt.Fprintf(w, "%-54s%s: %s\n", "", c, clip(a.Examples[c], 110))
			}
			for _, h := range f.Health {
				fmt.Fprintf(w, "%-54shealth of %s (on the node cut off): NOT_SERVING %s after the cut (bound %v), SERVING again %s after it\n", "",
					h.Service, never(h.NotServing), p.NotServingWithin, never(h.Serving))
			}
			if f.Health == nil && f.affected == nil && strings.HasPrefix(f.Kind, "partition") {
				fmt.Fprintf(w, "%-54sno encounter service was on that node\n", "")
			}
			if sp := f.Spread; sp != nil {
				fmt.Fprintf(w, "%-54snew resolver's share of the calls over the last %v: %.1f%% (%s), reached %.0f%% %s after joining the name (bound %v); %d DNS queries meanwhile\n", "",
					spreadWindow, 100*sp.Share, callList(sp.Calls), 100*p.SpreadShare, never(sp.Reached), p.SpreadWithin, sp.Queries)
			}
			for _, n := range f.Notes {
				fmt.Fprintf(w, "%-54s%s\n", "", n)
			}
			if f.Problem != "" {
				fmt.Fprintf(w, "%-54sPROBLEM: %s\n", "", clip(f.Problem, 300))
			}
		}
	}
	row("baseline (no fault)", r.Baseline, nil)
	for i, f := range r.Faults {
		row(fmt.Sprintf("%d. %s %s", i+1, f.Kind, f.Target), f.Window, f)
		row("   after it, until the next", f.After, nil)
	}
	fmt.Fprintf(w, "  calls ok: calls to one service that succeeded; commands ok: commands acknowledged, retries included (refused: answered\n")
	fmt.Fprintf(w, "  with a code not retried; gave up: the retry budget spent); a window counts the calls and commands begun in it, and\n")
	fmt.Fprintf(w, "  ends %v (an attempt) before the next fault;\n", p.Policy.Attempt)
	fmt.Fprintf(w, "  outage: longest stretch without a success from the fault to the next; recovered: first success of a call begun after\n")
	fmt.Fprintf(w, "  the restart / SIGCONT / heal (an encounter service: through it); back: SERVING again, or (NATS) every stream replica\n")
	fmt.Fprintf(w, "  current, or (a resolver) calls reaching it again, or (a scale-up) the new resolver's share reached;\n")
	fmt.Fprintf(w, "  notfound: calls answered NotFound for an encounter the log holds; stale: commands refused by a rule though chosen on the\n")
	fmt.Fprintf(w, "  log's state\n")
	summary := func(label string, fs []*Fault) {
		if len(fs) == 0 {
			return
		}
		var rec, via, win []float64
		var outs []time.Duration
		for _, f := range fs {
			rec = append(rec, f.Recovered.Seconds())
			via = append(via, f.RecoveredVia.Seconds())
			if f.Window.Commands > 0 {
				win = append(win, f.Window.commandShare())
			}
			outs = append(outs, f.Outage)
		}
		fmt.Fprintf(w, "%s (%d): commands ok in the window %s; outage %s; recovered %s",
			label, len(fs), spread(win, "%.1f%%", 100), spreadD(outs), spread(rec, "%.2fs", 1))
		if fs[0].replica >= 0 {
			fmt.Fprintf(w, "; through it %s", spread(via, "%.2fs", 1))
		}
		fmt.Fprintln(w, "  (min / median / max)")
	}
	byKind := map[string][]*Fault{}
	for _, f := range r.Faults {
		byKind[f.Kind] = append(byKind[f.Kind], f)
	}
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		if len(byKind[k]) > 1 {
			summary(k, byKind[k])
		}
	}
	t := r.Total
	fmt.Fprintf(w, "in all: %d commands, %d acknowledged (%.2f%%), %d calls, %d failed",
		t.Commands, t.CommandsOK, 100*t.commandShare(), t.Attempts, t.Attempts-t.AttemptsOK)
	if len(t.Codes) > 0 {
		fmt.Fprintf(w, " (%s)", codeList(t.Codes))
	}
	fmt.Fprintf(w, "; %d commands refused, %d given up\n", t.Refused, t.GaveUp)
	for _, c := range slices.Sorted(maps.Keys(r.Examples)) {
		fmt.Fprintf(w, "  %s: %s\n", c, clip(r.Examples[c], 160))
	}
	if f := r.Findings; f != nil {
		fmt.Fprintf(w, "log: %d encounters (%d ended after the run), %d records, %d events\n", f.Encounters, r.EndedAfter, f.Records, f.Events)
		fmt.Fprintf(w, "acknowledged %d, found in the log %d: lost %d, misplaced %d; duplicated %d; forked %d; refused yet recorded %d (of %d refused); outcome unknown to the client %d (%d of them recorded)\n",
			f.Acked, f.AckedFound, len(f.Lost), len(f.Misplaced), len(f.Duplicated), len(f.Forked), len(f.RefusedButRecorded), f.Refused, f.Unknown, f.UnknownRecorded)
		fmt.Fprintf(w, "told what the log contradicts: %d calls answered NotFound for an encounter that exists, %d commands refused on a stale state, %d acknowledged with a state behind their own events; %d refusals the rules give on the log's state too (the load's own choice, no fault of the cluster)\n",
			len(f.NotFound), len(f.Stale), len(f.StaleAnswers), len(f.RefusedOnLog))
		for _, r := range f.RefusedOnLog[:min(3, len(f.RefusedOnLog))] {
			fmt.Fprintf(w, "  %s\n", clip(r, 300))
		}
		if s := f.Summary(); s != "" {
			fmt.Fprint(w, s)
		}
	}
	for _, rr := range r.Reads {
		fmt.Fprintf(w, "read back through %s: %d encounters, %d behind the log, %d failed", rr.Service, rr.Read, rr.Behind, rr.Failed)
		if rr.Example != "" {
			fmt.Fprintf(w, " (e.g. %s)", rr.Example)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "fray audit verify: %d of %d encounters intact\n", r.Audited-len(r.AuditFailures), r.Audited)
	for _, a := range r.AuditFailures[:min(5, len(r.AuditFailures))] {
		fmt.Fprintf(w, "  %s\n", a)
	}
}

// never is a duration, or "never" when negative.
func never(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return dur(d)
}

func callList(calls []int64) string {
	var cs []string
	for _, c := range calls {
		cs = append(cs, strconv.FormatInt(c, 10))
	}
	return "calls " + strings.Join(cs, " / ")
}

func ratio(ok, n int) string {
	if n == 0 {
		return "0/0      -"
	}
	return fmt.Sprintf("%d/%d %5.1f%%", ok, n, 100*share(ok, n))
}

func codeList(m map[string]int) string {
	var cs []string
	for _, c := range slices.Sorted(maps.Keys(m)) {
		cs = append(cs, fmt.Sprintf("%s %d", c, m[c]))
	}
	return strings.Join(cs, ", ")
}

func dur(d time.Duration) string {
	switch {
	case d < 0:
		return "none"
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// spread is min / median / max of xs, each times scale in format; negatives (none) are
// reported apart.
func spread(xs []float64, format string, scale float64) string {
	var ok []float64
	none := 0
	for _, x := range xs {
		if x < 0 {
			none++
			continue
		}
		ok = append(ok, x*scale)
	}
	s := "-"
	if len(ok) > 0 {
		slices.Sort(ok)
		s = fmt.Sprintf(format+" / "+format+" / "+format, ok[0], ok[len(ok)/2], ok[len(ok)-1])
	}
	if none > 0 {
		s += fmt.Sprintf(" (%d never)", none)
	}
	return s
}

func spreadD(ds []time.Duration) string {
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = d.Seconds()
	}
	return spread(xs, "%.2fs", 1)
}
