package faults

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Attempt is one call to one encounter service.
type Attempt struct {
	Start, End time.Time
	Replica    int
	Code       codes.Code
	Message    string
	// notFound: NotFound for an encounter the log holds (Check).
	notFound bool
}

// Command is one command as the client saw it: its attempts (the same command id each time)
// and, once acknowledged, where the service said it was recorded.
type Command struct {
	Method    string
	Encounter string
	CommandID string
	Start     time.Time
	End       time.Time
	Attempts  []Attempt
	// Acked: an attempt succeeded. Events are the sequences and event ids it answered with;
	// StateSequence the sequence of the state it answered with (0: none).
	Acked         bool
	Events        []AckedEvent
	StateSequence uint64
	// Code is the last attempt's (codes.OK when acked).
	Code codes.Code
	// Cut: the run ended while it was being sent (not a figure).
	Cut bool
	// stale: refused on a state behind the log (Check).
	stale bool
	// Subject sent it; request: what it asked, kept when a rule refused it (to decide it
	// again on the log's state).
	Subject string
	request any
}

// AckedEvent is one event of an acknowledged command.
type AckedEvent struct {
	Sequence uint64
	EventID  string
}

// Recorder keeps every command sent through its clients.
type Recorder struct {
	mu       sync.Mutex
	commands []*Command
	// lastOK: by replica, the start of the latest successful attempt.
	lastOK map[int]time.Time
}

// noteOK notes a successful attempt begun at start through replica.
func (r *Recorder) noteOK(replica int, start time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastOK == nil {
		r.lastOK = map[int]time.Time{}
	}
	if start.After(r.lastOK[replica]) {
		r.lastOK[replica] = start
	}
}

// succeededSince reports whether an attempt begun at or after t succeeded (through replica,
// if replica >= 0).
func (r *Recorder) succeededSince(t time.Time, replica int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, last := range r.lastOK {
		if (replica < 0 || i == replica) && !last.Before(t) {
			return true
		}
	}
	return false
}

func (r *Recorder) add(c *Command) {
	r.mu.Lock()
	r.commands = append(r.commands, c)
	r.mu.Unlock()
}

// Commands are the commands recorded so far.
func (r *Recorder) Commands() []*Command {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Command(nil), r.commands...)
}

// RetryPolicy is how a client retries a command whose outcome it does not know.
type RetryPolicy struct {
	// Attempt bounds each call (the services set no deadline of their own).
	Attempt time.Duration
	// Budget bounds a command's attempts together.
	Budget time.Duration
	// Backoff is the pause before the second attempt, doubled up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
}

// retryable codes leave the command's outcome unknown, or say the service could not serve it
// now: it is sent again, with the same command id, to the next encounter service. Every other
// code is the command's answer (a refusal) and ends it.
func retryable(c codes.Code) bool {
	switch c {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted, codes.Internal, codes.Unknown, codes.Canceled, codes.ResourceExhausted:
		return true
	}
	return false
}

// Spread is a client connection over several encounter services: each command goes to the
// next one in turn, and a command whose outcome is unknown goes again, with its command id, to
// the one after, until it is answered or its budget is spent. Every attempt and command is
// recorded. It implements grpc.ClientConnInterface for fray load's fights.
type Spread struct {
	Conns  []grpc.ClientConnInterface
	Policy RetryPolicy
	Rec    *Recorder
	// Sticky sends every command of an encounter to the same service first (chosen by its id),
	// as a client with affinity would; otherwise each command goes to the next in turn.
	Sticky bool
	// Subject is the identity of the spread's token.
	Subject string
	next    atomic.Uint64
	// closers: the connections Close closes.
	closers []interface{ Close() error }
}

// commandRequest is what every command request has.
type commandRequest interface {
	GetCommandId() string
	GetEncounterId() string
}

type eventsReply interface {
	GetEvents() []*encounterv1.Event
}

type stateReply interface {
	GetState() *encounterv1.EncounterState
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// setCommandID gives a command without an id one, so that its retries are the same command.
func setCommandID(req any) {
	switch r := req.(type) {
	case *encounterv1.EndEncounterRequest:
		if r.CommandId == "" {
			r.CommandId = newID()
		}
	case *encounterv1.SubmitRequest:
		if r.CommandId == "" {
			r.CommandId = newID()
		}
	case *encounterv1.CreateEncounterRequest:
		if r.CommandId == "" {
			r.CommandId = newID()
		}
	case *encounterv1.AddCombatantRequest:
		if r.CommandId == "" {
			r.CommandId = newID()
		}
	case *encounterv1.StartEncounterRequest:
		if r.CommandId == "" {
			r.CommandId = newID()
		}
	}
}

// Invoke sends one unary call, a command, through the services in turn.
func (s *Spread) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	cr, ok := args.(commandRequest)
	if !ok { // a read: once, to the next service
		i := int(s.next.Add(1) % uint64(len(s.Conns)))
		return s.Conns[i].Invoke(ctx, method, args, reply, opts...)
	}
	setCommandID(args)
	c := &Command{Method: method, Encounter: cr.GetEncounterId(), CommandID: cr.GetCommandId(), Start: time.Now(), Subject: s.Subject}
	defer func() { c.End = time.Now(); s.Rec.add(c) }()
	first := int(s.next.Add(1) % uint64(len(s.Conns)))
	if s.Sticky && c.Encounter != "" {
		h := fnv.New32a()
		h.Write([]byte(c.Encounter))
		first = int(h.Sum32() % uint32(len(s.Conns)))
	}
	backoff := s.Policy.Backoff
	var err error
	for n := 0; ; n++ {
		i := (first + n) % len(s.Conns)
		actx, cancel := context.WithTimeout(ctx, s.Policy.Attempt)
		a := Attempt{Start: time.Now(), Replica: i}
		err = s.Conns[i].Invoke(actx, method, args, reply, opts...)
		cancel()
		a.End = time.Now()
		st := status.Convert(err)
		a.Code, a.Message = st.Code(), st.Message()
		if ctx.Err() != nil && err != nil { // the run ended: not the service's answer
			c.Cut = true
			c.Code = a.Code
			return err
		}
		c.Attempts = append(c.Attempts, a)
		c.Code = a.Code
		if err == nil {
			s.Rec.noteOK(i, a.Start)
			c.Acked = true
			if r, ok := reply.(*encounterv1.CreateEncounterResponse); ok {
				c.Encounter = r.GetEncounterId()
			}
			if r, ok := reply.(eventsReply); ok {
				for _, ev := range r.GetEvents() {
					c.Events = append(c.Events, AckedEvent{Sequence: ev.GetSequence(), EventID: ev.GetEventId()})
				}
			}
			if r, ok := reply.(stateReply); ok {
				c.StateSequence = r.GetState().GetSequence()
			}
			return nil
		}
		if ruleRefusal(a.Code) {
			if m, ok := args.(proto.Message); ok {
				c.request = proto.Clone(m)
			}
		}
		if !retryable(a.Code) || time.Since(c.Start)+backoff >= s.Policy.Budget {
			return err
		}
		if sleep(ctx, backoff) != nil {
			c.Cut = true
			return err
		}
		backoff = min(2*backoff, s.Policy.MaxBackoff)
	}
}

// NewStream is not used by the fights.
func (s *Spread) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, errors.New("faults: streams are not spread")
}

var _ grpc.ClientConnInterface = (*Spread)(nil)

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
