// Package load is `fray load`: concurrent encounters, each playing a fight of its rule system
// as the GM and a player would (the player's client answers the attacks on its combatants),
// measured side by side with two anchors on the same servers: a trivial unary RPC (gRPC health
// Check) and a raw conditional JetStream publish.
package load

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Config of one load run.
type Config struct {
	// GM and Player are connections carrying the tokens of the two identities.
	GM, Player grpc.ClientConnInterface
	// Encounters is how many encounters play at once (each its own goroutine).
	Encounters int
	// Duration bounds the run; Commands, when > 0, bounds the commands sent; Fights, when > 0,
	// the fights each encounter plays. The first bound reached ends the run.
	Duration time.Duration
	Commands int64
	Fights   int
	// Systems to play, dealt to the encounters in turn (default: all four).
	Systems []string
	// FightLength ends a fight (EndEncounter) and starts another after this many commands
	// (0: 200), should it not be over before.
	FightLength int
	// Progress, when set, gets a progress line every second, after ProgressLabel.
	Progress      io.Writer
	ProgressLabel string
}

// Stats of one measured operation.
type Stats struct {
	Count     int64            `json:"count"`
	PerSecond float64          `json:"per_second"`
	P50       Duration         `json:"p50"`
	P95       Duration         `json:"p95"`
	P99       Duration         `json:"p99"`
	Max       Duration         `json:"max"`
	Errors    map[string]int64 `json:"errors,omitempty"`
	// Example is one error message of each code.
	Example map[string]string `json:"error_examples,omitempty"`
}

// Duration prints as a Go duration, in JSON too (rounded to 3 or 4 significant digits).
type Duration time.Duration

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	t, err := time.ParseDuration(string(b))
	*d = Duration(t)
	return err
}
func (d Duration) String() string {
	t := time.Duration(d)
	switch {
	case t >= time.Second:
		return t.Round(time.Millisecond).String()
	case t >= time.Millisecond:
		return t.Round(10 * time.Microsecond).String()
	}
	return t.Round(time.Microsecond).String()
}

// SystemReport is the load's figures for one rule system.
type SystemReport struct {
	Stats
	Fights int64 `json:"fights"`
	// PlayerCommands: those the player's client sent (its combatants' actions and reactions).
	PlayerCommands int64 `json:"player_commands"`
}

// Round is one repetition: the load, then the health Check anchor, then the JetStream
// anchor, on the same servers.
type Round struct {
	Elapsed  Duration                 `json:"elapsed"`
	Commands Stats                    `json:"commands"`
	Systems  map[string]*SystemReport `json:"systems"`
	// Fights begun (each fight follows the state its commands return: no reads).
	Fights int64 `json:"fights"`
	// Anchors measured on the same servers, at the same concurrency, right after the load.
	Health    *Stats `json:"health_check,omitempty"`
	JetStream *Stats `json:"jetstream_publish,omitempty"`
	// Skeleton: Submit's topology without fray's own work (skeleton.go).
	Skeleton *Stats `json:"skeleton_submit,omitempty"`
	// Ratios: commands/s ÷ the anchor's calls/s, both of this round.
	RatioHealth    float64 `json:"ratio_to_health_check,omitempty"`
	RatioJetStream float64 `json:"ratio_to_jetstream_publish,omitempty"`
	RatioSkeleton  float64 `json:"ratio_to_skeleton_submit,omitempty"`
	// CPUPerCommand: the process's CPU time over the load divided by the commands (embedded
	// runs only: server and load generator share the process).
	CPUPerCommand Duration `json:"cpu_per_command,omitempty"`
	// CPUPerSkeletonSubmit is the same over the skeleton anchor: what the topology alone
	// costs a command, client included, as CPUPerCommand includes the load generator.
	CPUPerSkeletonSubmit Duration `json:"cpu_per_skeleton_submit,omitempty"`
}

// Report of a load run: its rounds and, per figure, the min / median / max over them.
type Report struct {
	Encounters int      `json:"encounters"`
	Repeat     int      `json:"repeat"`
	Rounds     []*Round `json:"rounds"`
	Spread     Spread   `json:"spread"`
	CPUNote    string   `json:"cpu_note"`
	Machine    string   `json:"machine,omitempty"`
}

// sample is one timed call.
type sample struct {
	d    time.Duration
	code string // "" when it succeeded
	msg  string
}

// recorder collects samples of one worker.
type recorder struct {
	byKind map[string][]sample
	fights map[string]int64
	player map[string]int64
}

// summarize turns samples into Stats over elapsed.
func summarize(samples []sample, elapsed time.Duration) Stats {
	s := Stats{Count: int64(len(samples))}
	ds := make([]time.Duration, 0, len(samples))
	for _, x := range samples {
		ds = append(ds, x.d)
		if x.code != "" {
			if s.Errors == nil {
				s.Errors, s.Example = map[string]int64{}, map[string]string{}
			}
			s.Errors[x.code]++
			s.Example[x.code] = x.msg
		}
	}
	if elapsed > 0 {
		s.PerSecond = float64(len(samples)) / elapsed.Seconds()
	}
	if len(ds) == 0 {
		return s
	}
	slices.Sort(ds)
	q := func(p float64) Duration {
		i := int(p*float64(len(ds))+0.5) - 1
		return Duration(ds[max(0, min(i, len(ds)-1))])
	}
	s.P50, s.P95, s.P99, s.Max = q(0.50), q(0.95), q(0.99), Duration(ds[len(ds)-1])
	return s
}

func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return status.Code(err).String()
}

func messageOf(err error) string {
	if err == nil {
		return ""
	}
	return status.Convert(err).Message()
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Run plays the load once and returns its figures (anchors and CPU are the caller's: see
// Command). A create refused for good (the tenant at its cap of open encounters, with no
// RetryInfo saying a wait helps) stops the load: Run returns the figures so far with a
// *StoppedError saying why.
func Run(ctx context.Context, cfg Config) (*Round, error) {
	if cfg.Encounters <= 0 {
		cfg.Encounters = 1
	}
	if len(cfg.Systems) == 0 {
		cfg.Systems = Systems()
	}
	for _, s := range cfg.Systems {
		if _, ok := scripts[s]; !ok {
			if slices.Contains(withoutFight(), s) {
				return nil, fmt.Errorf("rule system %q has no fight in fray load (it plays %s)", s, strings.Join(Systems(), ", "))
			}
			return nil, fmt.Errorf("unknown rule system %q: fray load plays %s", s, strings.Join(Systems(), ", "))
		}
	}
	if cfg.FightLength <= 0 {
		cfg.FightLength = 200
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	gmc := encounterv1.NewEncounterServiceClient(cfg.GM)
	plc := encounterv1.NewEncounterServiceClient(cfg.Player)

	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	deadline, _ := ctx.Deadline()
	// A worker refused for good stops every worker: each would only be refused again.
	var stopped atomic.Pointer[StoppedError]
	ctx, stopAll := context.WithCancel(ctx)
	defer stopAll()
	stop := func(e *StoppedError) {
		if stopped.CompareAndSwap(nil, e) {
			stopAll()
		}
	}
	var sent, failed atomic.Int64
	budget := func() bool {
		if n := sent.Add(1); cfg.Commands > 0 && n > cfg.Commands {
			return false
		}
		// The clock, not ctx.Err alone: the context's timer may fire late on a busy machine,
		// while gRPC already refuses calls past the deadline.
		return ctx.Err() == nil && time.Now().Before(deadline)
	}
	start := time.Now()
	recs := make([]*recorder, cfg.Encounters)
	var wg sync.WaitGroup
	for i := range cfg.Encounters {
		rec := &recorder{byKind: map[string][]sample{}, fights: map[string]int64{}, player: map[string]int64{}}
		recs[i] = rec
		system := cfg.Systems[i%len(cfg.Systems)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{gm: gmc, player: plc, system: system, sc: scripts[system], rec: rec, budget: budget, failed: &failed, fightLength: cfg.FightLength, fights: cfg.Fights, ctx: ctx, deadline: deadline, stop: stop}
			w.run(ctx)
		}()
	}
	done := make(chan struct{})
	if cfg.Progress != nil {
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					n := min(sent.Load(), max(cfg.Commands, sent.Load()))
					el := time.Since(start)
					fmt.Fprintf(cfg.Progress, "\r%s%5.1fs  %d commands  %.0f/s  %d errors   ", cfg.ProgressLabel, el.Seconds(), n, float64(n)/el.Seconds(), failed.Load())
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	elapsed := time.Since(start)
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress)
	}

	rep := &Round{Elapsed: Duration(elapsed), Systems: map[string]*SystemReport{}}
	var all []sample
	bySystem := map[string][]sample{}
	fights, byPlayer := map[string]int64{}, map[string]int64{}
	for _, r := range recs {
		for sys, n := range r.player {
			byPlayer[sys] += n
		}
		for sys, ss := range r.byKind {
			bySystem[sys] = append(bySystem[sys], ss...)
			all = append(all, ss...)
		}
		for sys, n := range r.fights {
			fights[sys] += n
			rep.Fights += n
		}
	}
	rep.Commands = summarize(all, elapsed)
	for _, sys := range cfg.Systems {
		rep.Systems[sys] = &SystemReport{Stats: summarize(bySystem[sys], elapsed), Fights: fights[sys], PlayerCommands: byPlayer[sys]}
	}
	if e := stopped.Load(); e != nil {
		return rep, e
	}
	return rep, nil
}

// StoppedError is why a load stopped before its end: a create refused for good.
type StoppedError struct {
	// Status is the refusal, as the server gave it.
	Status *status.Status
}

func (e *StoppedError) Error() string {
	msg := fmt.Sprintf("the load stopped: the server refuses new encounters (%s: %s), and says no wait helps", e.Status.Code(), e.Status.Message())
	if limitOf(e.Status) == "open_encounters" {
		msg += "; end the tenant's open encounters (their GMs: `fray end`; its administrator: `fray idle end --tenant T --older-than 1m`), or run the load as another tenant (--tenant)"
	}
	return msg
}

// limitOf is the service limit a ResourceExhausted names (ErrorInfo "limit"), or "".
func limitOf(st *status.Status) string {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetMetadata()["limit"]
		}
	}
	return ""
}

// retryAfter is the wait a refusal's RetryInfo asks for (ok false: it has none).
func retryAfter(err error) (time.Duration, bool) {
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			return max(ri.GetRetryDelay().AsDuration(), 0), true
		}
	}
	return 0, false
}

// worker plays fights of one system, one after another, in one encounter at a time.
type worker struct {
	gm, player  encounterv1.EncounterServiceClient
	system      string
	sc          script
	rec         *recorder
	budget      func() bool
	failed      *atomic.Int64
	fightLength int
	fights      int // 0: no bound
	ctx         context.Context
	deadline    time.Time
	stop        func(*StoppedError)
	// failures in a row: each waits longer before the next fight (backoff), so that a server
	// refusing every create is not asked again thousands of times a second.
	failures int
}

// Backoff after failed fights: the first waits backoffMin, each next one twice as long, up
// to backoffMax.
const (
	backoffMin = 10 * time.Millisecond
	backoffMax = time.Second
)

// wait sleeps d, or until the run ends; it reports whether the run goes on.
func (w *worker) wait(d time.Duration) bool {
	t := time.NewTimer(min(d, time.Until(w.deadline)))
	defer t.Stop()
	select {
	case <-t.C:
		return w.ctx.Err() == nil && time.Now().Before(w.deadline)
	case <-w.ctx.Done():
		return false
	}
}

// call times one command.
func (w *worker) call(f func() error) error {
	t := time.Now()
	err := f()
	if err != nil && (w.ctx.Err() != nil || !time.Now().Before(w.deadline)) {
		return err // cut by the end of the run: not a figure
	}
	w.rec.byKind[w.system] = append(w.rec.byKind[w.system], sample{d: time.Since(t), code: codeOf(err), msg: messageOf(err)})
	if err != nil {
		w.failed.Add(1)
	}
	return err
}

func (w *worker) run(ctx context.Context) {
	for n := 0; (w.fights == 0 || n < w.fights) && w.budget(); n++ {
		err := w.fight(ctx)
		if err == nil {
			w.failures = 0
			continue
		}
		if ctx.Err() != nil {
			return
		}
		// A refusal that says when to try again is waited for; a create refused for good
		// stops the load; any other failure waits longer each time it comes again.
		if d, ok := retryAfter(err); ok {
			if !w.wait(d) {
				return
			}
			continue
		}
		if st := status.Convert(err); st.Code() == codes.ResourceExhausted && errors.Is(err, errCreate) {
			w.stop(&StoppedError{Status: st})
			return
		}
		if !w.wait(min(backoffMin<<min(w.failures, 16), backoffMax)) {
			return
		}
		w.failures++
	}
}

// errCreate marks a fight's failed create (createError).
var errCreate = errors.New("create refused")

// createError is a refused create: the server's status, marked errCreate.
type createError struct{ err error }

func (e createError) Error() string              { return e.err.Error() }
func (e createError) Unwrap() []error            { return []error{e.err, errCreate} }
func (e createError) GRPCStatus() *status.Status { return status.Convert(e.err) }

// fight creates an encounter, adds the combatants, starts it, plays until nobody can act or
// FightLength commands, and ends it; an encounter it created is ended whatever happens after
// (a refused command, the end of the run), so that no fight leaves one open toward the
// tenant's cap. The first command is already in the budget.
func (w *worker) fight(ctx context.Context) (err error) {
	var id string
	err = w.call(func() error {
		r, err := w.gm.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{CommandId: newID(),
			Encounter: &encounterv1.CreateEncounter{Name: "load " + w.system, RuleSystem: w.system}})
		id = r.GetEncounterId()
		return err
	})
	if err != nil {
		return createError{err}
	}
	ended := false
	defer func() {
		if !ended {
			// Outside the budget, and past the run's end if need be (not a figure then).
			end := w.end(ctx, id)
			if err == nil {
				err = end
			}
		}
	}()
	for _, c := range w.sc.combatants(PlayerSubject) {
		if !w.budget() {
			return ctx.Err()
		}
		if err := w.call(func() error {
			_, err := w.gm.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, CommandId: newID(), Combatant: c})
			return err
		}); err != nil {
			return err
		}
	}
	if !w.budget() {
		return ctx.Err()
	}
	var st *encounterv1.EncounterState
	if err := w.call(func() error {
		r, err := w.gm.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: newID()})
		st = r.GetState()
		return err
	}); err != nil {
		return err
	}
	w.rec.fights[w.system]++
	// The player's reads are views: the GM's state is what the next command is chosen from,
	// so a command the player sent is followed by the state it returned, which for these
	// fights (nothing hidden) is the same.
	for range w.fightLength {
		cmd, by, ok := w.sc.next(registry, st)
		if !ok {
			break
		}
		if !w.budget() {
			return ctx.Err()
		}
		c := w.gm
		if by == player {
			c = w.player
		}
		err := w.call(func() error {
			r, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, CommandId: newID(), Command: cmd})
			if err == nil {
				st = r.GetState()
				if by == player {
					w.rec.player[w.system]++
				}
			}
			return err
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			break // refused: this fight ends here
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// The end is not in the budget: a fight begun is closed.
	ended = true
	return w.end(ctx, id)
}

// endTimeout bounds the end of a fight cut by the end of the run.
const endTimeout = 10 * time.Second

// end ends the encounter id (the end of the run does not cut it).
func (w *worker) end(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancel()
	return w.call(func() error {
		_, err := w.gm.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "load"})
		return err
	})
}
