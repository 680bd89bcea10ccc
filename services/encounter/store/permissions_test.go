package store_test

import (
	"context"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// secured is a server enforcing fray's NATS permissions, holding encounter "a" (two records,
// a live seed, a snapshot) written by the encounter user.
func secured(t *testing.T) (*natstest.Secured, []byte) {
	t.Helper()
	s := natstest.StartSecured(t)
	ctx := context.Background()
	st, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	a1, err := st.Append(ctx, "a", 0, "a/1", batch("a", 1, 2))
	require.NoError(t, err)
	_, err = st.Append(ctx, "a", a1.Position, "a/2", batch("a", 3))
	require.NoError(t, err)
	seed := []byte("0123456789abcdef0123456789abcdef")
	require.NoError(t, st.PutSeed(ctx, "a", seed))
	require.NoError(t, st.PutSnapshot(ctx, "a", &encounterv1.Snapshot{Position: a1.Position}))
	return s, seed
}

// The encounter user does all the service does: create the stream and buckets, append,
// load, watch, put and get seeds and snapshots (the whole store and service suites also run
// as this user with FRAY_NATSTEST_SECURED=1).
func TestEncounterUserReadsAndWritesEverything(t *testing.T) {
	s, seed := secured(t)
	ctx := context.Background()
	st, err := store.Open(ctx, s.Encounter, store.Config{}) // again: create or update
	require.NoError(t, err)
	got, err := st.Seed(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, seed, got)
	_, err = st.Snapshot(ctx, "a")
	require.NoError(t, err)
	recs, err := st.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 2)
	ids, err := st.List(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"a"}, ids)
	var watched int
	require.NoError(t, st.Watch(ctx, "a", 0, func(store.Record) error {
		if watched++; watched == 2 {
			return store.ErrStop
		}
		return nil
	}))
}

// The auditor reads the event stream: attach, load, get, list, watch through an ordered
// consumer, and a durable consumer with acks (audit tail).
func TestAuditorReadsTheEventStream(t *testing.T) {
	s, _ := secured(t)
	ctx := context.Background()
	nc, errs := s.Auditor(t)
	st, err := store.Attach(ctx, nc, store.Config{})
	require.NoError(t, err)
	recs, err := st.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 2)
	r, err := st.Get(ctx, recs[1].Position)
	require.NoError(t, err)
	require.Equal(t, uint64(3), r.Batch.GetEvents()[0].GetSequence())
	ids, err := st.List(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"a"}, ids)
	var watched int
	require.NoError(t, st.Watch(ctx, "a", 0, func(store.Record) error {
		if watched++; watched == 2 {
			return store.ErrStop
		}
		return nil
	}))
	_, err = st.Seed(ctx, "a")
	require.ErrorIs(t, err, store.ErrNoBucket, "an attached store has no seeds")

	cons, err := st.JetStream().CreateOrUpdateConsumer(ctx, st.StreamName(), jetstream.ConsumerConfig{
		Durable: "auditor", AckPolicy: jetstream.AckExplicitPolicy,
	})
	require.NoError(t, err)
	m, err := cons.Next()
	require.NoError(t, err)
	require.NoError(t, m.DoubleAck(ctx))
	require.Empty(t, errs, "nothing the tools do was refused")
}

// A client without credentials is the auditor on `fray dev`'s server.
func TestAnonymousIsTheAuditor(t *testing.T) {
	s, _ := secured(t)
	nc, err := nats.Connect(s.Server.ClientURL())
	require.NoError(t, err)
	defer nc.Close()
	st, err := store.Attach(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	_, err = st.Load(context.Background(), "a", 0)
	require.NoError(t, err)
	refused(t, anonymous(t, s), `"$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS.a"`, func(ctx context.Context, nc *nats.Conn) error {
		_, err := nc.RequestWithContext(ctx, "$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS.a", nil)
		return err
	})
}

// anonymous connects without credentials.
func anonymous(t *testing.T, s *natstest.Secured) conn {
	t.Helper()
	errs := make(chan error, 64)
	nc, err := nats.Connect(s.Server.ClientURL(), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case errs <- err:
		default:
		}
	}))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return conn{nc, errs}
}

type conn struct {
	nc   *nats.Conn
	errs <-chan error
}

// refused runs try and requires the server to refuse it: a permissions violation naming
// subject reaches the client (which then stops waiting for an answer), and try fails.
func refused(t *testing.T, c conn, subject string, try func(ctx context.Context, nc *nats.Conn) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- try(ctx, c.nc) }()
	select {
	case err := <-c.errs:
		require.ErrorIs(t, err, nats.ErrPermissionViolation)
		require.Contains(t, err.Error(), subject)
	case err := <-done:
		require.Failf(t, "not refused", "%s: %v", subject, err)
	}
	cancel()
	require.Error(t, <-done)
}

// The auditor can never read a live seed (nor a snapshot), whichever way it asks, and cannot
// write the log: every attempt is a permissions violation.
func TestAuditorCannotReadSeedsNorWriteTheLog(t *testing.T) {
	s, seed := secured(t)
	request := func(subject, body string) func(ctx context.Context, nc *nats.Conn) error {
		return func(ctx context.Context, nc *nats.Conn) error {
			_, err := nc.RequestWithContext(ctx, subject, []byte(body))
			return err
		}
	}
	js := func(ctx context.Context, nc *nats.Conn) jetstream.JetStream {
		j, err := jetstream.New(nc)
		require.NoError(t, err)
		return j
	}
	cases := []struct {
		name, subject string
		try           func(ctx context.Context, nc *nats.Conn) error
	}{
		{"open the seed bucket (KV)", "$JS.API.STREAM.INFO.KV_FRAY_SEEDS", func(ctx context.Context, nc *nats.Conn) error {
			_, err := js(ctx, nc).KeyValue(ctx, "FRAY_SEEDS")
			return err
		}},
		{"KV get of a seed (direct get by subject)", "$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS.a",
			request("$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS.a", "")},
		{"direct get on the KV stream", "$JS.API.DIRECT.GET.KV_FRAY_SEEDS",
			request("$JS.API.DIRECT.GET.KV_FRAY_SEEDS", `{"last_by_subj":"$KV.FRAY_SEEDS.a"}`)},
		{"message get on the KV stream", "$JS.API.STREAM.MSG.GET.KV_FRAY_SEEDS",
			request("$JS.API.STREAM.MSG.GET.KV_FRAY_SEEDS", `{"last_by_subj":"$KV.FRAY_SEEDS.a"}`)},
		{"list the bucket's keys (stream info with subjects)", "$JS.API.STREAM.INFO.KV_FRAY_SEEDS",
			request("$JS.API.STREAM.INFO.KV_FRAY_SEEDS", `{"subjects_filter":">"}`)},
		{"watch the bucket (ordered consumer)", "$JS.API.CONSUMER.CREATE.KV_FRAY_SEEDS", func(ctx context.Context, nc *nats.Conn) error {
			cons, err := js(ctx, nc).OrderedConsumer(ctx, "KV_FRAY_SEEDS", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"$KV.FRAY_SEEDS.>"}})
			if err != nil {
				return err
			}
			_, err = cons.Next(jetstream.FetchMaxWait(10 * time.Second))
			return err
		}},
		{"durable consumer on the KV stream", "$JS.API.CONSUMER.CREATE.KV_FRAY_SEEDS.tap",
			request("$JS.API.CONSUMER.CREATE.KV_FRAY_SEEDS.tap", `{"stream_name":"KV_FRAY_SEEDS","config":{"durable_name":"tap","ack_policy":"none"}}`)},
		{"snapshot of the KV stream", "$JS.API.STREAM.SNAPSHOT.KV_FRAY_SEEDS",
			request("$JS.API.STREAM.SNAPSHOT.KV_FRAY_SEEDS", `{"deliver_subject":"_INBOX.snap"}`)},
		{"a stream sourcing the bucket", "$JS.API.STREAM.CREATE.COPY", func(ctx context.Context, nc *nats.Conn) error {
			_, err := js(ctx, nc).CreateStream(ctx, jetstream.StreamConfig{Name: "COPY", Sources: []*jetstream.StreamSource{{Name: "KV_FRAY_SEEDS"}}})
			return err
		}},
		{"KV get of a snapshot", "$JS.API.DIRECT.GET.KV_FRAY_SNAPSHOTS.$KV.FRAY_SNAPSHOTS.a",
			request("$JS.API.DIRECT.GET.KV_FRAY_SNAPSHOTS.$KV.FRAY_SNAPSHOTS.a", "")},
		{"subscribe to the seeds' subjects", `Subscription to "$KV.FRAY_SEEDS.>"`, func(ctx context.Context, nc *nats.Conn) error {
			sub, err := nc.SubscribeSync("$KV.FRAY_SEEDS.>")
			if err != nil {
				return err
			}
			_, err = sub.NextMsgWithContext(ctx)
			return err
		}},
		{"subscribe to the service's inbox", `Subscription to "_INBOX_FRAY_ENCOUNTER.>"`, func(ctx context.Context, nc *nats.Conn) error {
			sub, err := nc.SubscribeSync(natsconn.EncounterInboxPrefix + ".>")
			if err != nil {
				return err
			}
			_, err = sub.NextMsgWithContext(ctx)
			return err
		}},
		{"overwrite a seed", `Publish to "$KV.FRAY_SEEDS.a"`, func(ctx context.Context, nc *nats.Conn) error {
			_, err := js(ctx, nc).Publish(ctx, "$KV.FRAY_SEEDS.a", []byte("chosen"))
			return err
		}},
		{"append to the log", `Publish to "fray.enc.a"`, func(ctx context.Context, nc *nats.Conn) error {
			_, err := js(ctx, nc).Publish(ctx, "fray.enc.a", []byte("forged"))
			return err
		}},
		{"append to a new encounter", `Publish to "fray.enc.b"`, func(ctx context.Context, nc *nats.Conn) error {
			_, err := js(ctx, nc).Publish(ctx, "fray.enc.b", []byte("forged"))
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc, errs := s.Auditor(t) // a connection per case: no stray retries from another
			refused(t, conn{nc, errs}, tc.subject, tc.try)
		})
	}

	// Meanwhile the service put a new seed: it went nowhere the auditor could see, and the
	// log and the seed are what the service wrote.
	ctx := context.Background()
	st, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	require.NoError(t, st.PutSeed(ctx, "b", seed))
	got, err := st.Seed(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, seed, got)
	recs, err := st.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 2)
	_, err = st.Load(ctx, "b", 0)
	require.ErrorIs(t, err, store.ErrNotFound)
}

// The auditor may create consumers on the event stream, and a push consumer names its own
// delivery subject, which no permission checks: one aimed at a seed's subject delivers
// nothing (the bucket's stream is no interest to a push consumer, nor would it store what a
// consumer delivers), so the seed stays the service's.
func TestAuditorPushConsumerCannotWriteASeed(t *testing.T) {
	s, seed := secured(t)
	ctx := context.Background()
	nc, errs := s.Auditor(t)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	cons, err := js.CreateConsumer(ctx, "FRAY_ENCOUNTERS", jetstream.ConsumerConfig{
		DeliverSubject: "$KV.FRAY_SEEDS.a", AckPolicy: jetstream.AckNonePolicy,
	})
	require.NoError(t, err)
	st, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	recs, err := st.Load(ctx, "a", 0)
	require.NoError(t, err)
	_, err = st.Append(ctx, "a", recs[len(recs)-1].Position, "a/3", batch("a", 4))
	require.NoError(t, err)
	info, err := cons.Info(ctx)
	require.NoError(t, err)
	require.False(t, info.PushBound, "no interest on a bucket's subject")
	require.Zero(t, info.Delivered.Stream)
	got, err := st.Seed(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, seed, got)
	require.Empty(t, errs)
}
