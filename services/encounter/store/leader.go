package store

// Reads that tell the truth on a replicated stream.
//
// The stream and the buckets allow direct gets: a read is answered by whichever replica
// receives it first (on a cluster, the one on the caller's own NATS node), which keeps reads
// off the leader and fast. But a replica may not yet hold what the leader acknowledged:
// seen in a 3-node cluster, 6.4% of creates read back their own just-appended encounter as
// missing, and for 15 s after a partition healed commands were answered NotFound for
// encounters that existed (issue 22). A replica's answer is a prefix of the log, so a record
// it returns is the record; only its "there is none" and its "this is the last" may be
// stale. Those are settled by the stream's leader, through the JetStream API's message get
// (which only the leader answers), here:
//   - a direct get that finds nothing is asked again of the leader (absence is never taken
//     from a replica);
//   - a last record older than what the caller knows was appended is asked again of the
//     leader (Load's AtLeast);
//   - a caller that must see every record acknowledged before its call asks the leader for
//     the last one (Load's Latest: before a refusal, after a conflict, for a fresh read).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// msgGetRequest is the JetStream API's request for one stored message.
type msgGetRequest struct {
	Seq     uint64 `json:"seq,omitempty"`
	LastFor string `json:"last_by_subj,omitempty"`
	NextFor string `json:"next_by_subj,omitempty"`
}

// msgGetResponse is the JetStream API's answer to a msgGetRequest.
type msgGetResponse struct {
	Error   *jetstream.APIError `json:"error,omitempty"`
	Message *struct {
		Subject  string    `json:"subject"`
		Sequence uint64    `json:"seq"`
		Header   []byte    `json:"hdrs,omitempty"`
		Data     []byte    `json:"data,omitempty"`
		Time     time.Time `json:"time"`
	} `json:"message,omitempty"`
}

// leaderGet asks the leader of the stream streamName for a message (a sequence, the next on
// a subject from a sequence, or the last on a subject), through conn.call: jetstream.ErrMsgNotFound
// when it holds none.
func (c *conn) leaderGet(ctx context.Context, js jetstream.JetStream, streamName string, req msgGetRequest) (*jetstream.RawStreamMsg, error) {
	ctx, end, err := c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	m, err := leaderGet(ctx, c.nc, js, streamName, req)
	return m, end(err)
}

func leaderGet(ctx context.Context, nc *nats.Conn, js jetstream.JetStream, streamName string, req msgGetRequest) (*jetstream.RawStreamMsg, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	prefix := jetstream.DefaultAPIPrefix
	if js != nil && js.Options().APIPrefix != "" {
		prefix = js.Options().APIPrefix
	}
	reply, err := nc.RequestWithContext(ctx, prefix+"STREAM.MSG.GET."+streamName, body)
	if err != nil {
		return nil, err
	}
	var resp msgGetResponse
	if err := json.Unmarshal(reply.Data, &resp); err != nil {
		return nil, fmt.Errorf("the stream leader's answer is not a message: %w", err)
	}
	if resp.Error != nil {
		if resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound {
			return nil, jetstream.ErrMsgNotFound
		}
		return nil, resp.Error
	}
	if resp.Message == nil {
		return nil, jetstream.ErrInvalidJetStreamResponse
	}
	m := resp.Message
	var hdr nats.Header
	if len(m.Header) > 0 {
		if hdr, err = nats.DecodeHeadersMsg(m.Header); err != nil {
			return nil, err
		}
	}
	return &jetstream.RawStreamMsg{Subject: m.Subject, Sequence: m.Sequence, Header: hdr, Data: m.Data, Time: m.Time}, nil
}

// kvEntry is a bucket's entry as the stream's leader holds it.
type kvEntry struct {
	bucket, key string
	m           *jetstream.RawStreamMsg
}

func (e kvEntry) Bucket() string                  { return e.bucket }
func (e kvEntry) Key() string                     { return e.key }
func (e kvEntry) Value() []byte                   { return e.m.Data }
func (e kvEntry) Revision() uint64                { return e.m.Sequence }
func (e kvEntry) Created() time.Time              { return e.m.Time }
func (e kvEntry) Delta() uint64                   { return 0 }
func (e kvEntry) Operation() jetstream.KeyValueOp { return kvOperationOf(e.m.Header) }

// kvOperationOf is what a bucket's record did to its key (the KV-Operation header, or the
// marker a limit or a purge left).
func kvOperationOf(h nats.Header) jetstream.KeyValueOp {
	switch h.Get(kvOperation) {
	case "DEL":
		return jetstream.KeyValueDelete
	case "PURGE":
		return jetstream.KeyValuePurge
	}
	switch h.Get(jetstream.MarkerReasonHeader) {
	case "MaxAge", "Purge":
		return jetstream.KeyValuePurge
	case "Remove":
		return jetstream.KeyValueDelete
	}
	return jetstream.KeyValuePut
}

// latest is the key's entry as the bucket's leader holds it: jetstream.ErrKeyNotFound if it
// has none or the last one deleted it. For a read whose answer must be the newest (before a
// compare-and-set, or when a replica said there was none).
func (k kv) latest(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	bucket := k.KeyValue.Bucket()
	m, err := k.c.leaderGet(ctx, k.js, "KV_"+bucket, msgGetRequest{LastFor: "$KV." + bucket + "." + key})
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, jetstream.ErrKeyNotFound
	}
	if err != nil {
		return nil, err
	}
	e := kvEntry{bucket: bucket, key: key, m: m}
	if e.Operation() != jetstream.KeyValuePut {
		return nil, jetstream.ErrKeyNotFound
	}
	return e, nil
}

// peerSeenWithin is how recently a copy of the stream must have been heard from by its
// leader to count toward the quorum Check asks for: the leader hears from each copy at every
// heartbeat (about every second) and more often under writes.
const peerSeenWithin = 3 * time.Second

// Check tells whether this connection can use the event stream now: its leader answers (the
// JetStream API's stream info, which only the leader gives) and hears from a quorum of its
// copies, so an append would be acknowledged. A node cut off from its peers fails it: its
// clients' requests reach no leader, or one that has lost its quorum and not yet stepped
// down (its reads may be stale, its writes never acknowledged). An *UnavailableError, or
// the API's error, when it cannot.
func (s *JetStream) Check(ctx context.Context) error {
	return s.stream.quorum(ctx)
}

// quorum asks the stream's leader whether it hears from a quorum of its copies (Check).
func (s stream) quorum(ctx context.Context) error {
	info, err := s.Info(ctx)
	if err != nil {
		return err
	}
	c := info.Cluster
	if c == nil || len(c.Replicas) == 0 { // a single copy: its answer is the leader's
		return nil
	}
	if c.Leader == "" {
		return &UnavailableError{Why: "the event stream has no leader"}
	}
	heard := 1 // the leader
	for _, p := range c.Replicas {
		if !p.Offline && p.Active < peerSeenWithin {
			heard++
		}
	}
	if copies := len(c.Replicas) + 1; heard < copies/2+1 {
		return &UnavailableError{Why: fmt.Sprintf("the event stream's leader %s has heard from %d of its %d copies within %s: no quorum", c.Leader, heard, copies, peerSeenWithin)}
	}
	return nil
}

// confirmLeader shows, after a read from the stream's leader, that no other leader can have
// recorded anything the read missed, so that its "none" or "last" may be answered to a
// client (a refusal decided on it, a NotFound). It asks that leader, after the read, whether
// it has heard from a quorum of its copies within peerSeenWithin (3 s): a copy that answered
// it then was following it, and a copy elects another leader only after hearing from none
// for an election timeout (nats-server: at least 4 s). So when the quorum is there, no other
// leader existed at the read, and every acknowledged record went through the one that
// answered. A single copy needs no showing. Seen in the fault-injection run (cli/test/faults):
// the leader of a routes-only partition refused a command on a state its successor had moved
// past ("no PA left this Tour"), a refusal untrue for the log.
func (s stream) confirmLeader(ctx context.Context) error {
	if s.CachedInfo().Config.Replicas <= 1 {
		return nil
	}
	if err := s.quorum(ctx); err != nil {
		if ue := (*UnavailableError)(nil); errors.As(err, &ue) {
			return &UnavailableError{Why: "the event stream's leader cannot show it still leads (" + ue.Why + ")"}
		}
		return err
	}
	return nil
}

// indexGet reads a key of the index bucket: with latest, as the bucket's leader holds it —
// for a compare-and-set that lost to another writer, which a lagging copy would have it
// lose again and again (issue 31: a tenant's count fell behind under concurrent creates).
func (s *JetStream) indexGet(ctx context.Context, key string, latest bool) (jetstream.KeyValueEntry, error) {
	if w, ok := s.index.(kv); ok && latest {
		return w.latest(ctx, key)
	}
	return s.index.Get(ctx, key)
}
