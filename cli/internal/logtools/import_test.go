package logtools_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// fray import creates the stream with --replicas when it is missing, and never changes an
// existing one: asked for 3 replicas of a one-replica stream whose operator raised its bytes,
// it imports, says what differs, and leaves the stream exactly as it was.
func TestImportNeverChangesAnExistingStream(t *testing.T) {
	ctx := context.Background()
	s := natstest.StartSecured(t)
	url := s.Server.ClientURL()
	golden := func(system string) string {
		return filepath.Join("..", "..", "..", "rules", "systems", "testdata", "golden", system+"-v1.jsonl")
	}
	as := []string{"--nats-url", url, "--nats-user", natsconn.EncounterUser, "--nats-password", s.Users.Encounter}

	code, stdout, stderr := runFray(append([]string{"import", golden("loss"), "--replicas", "1"}, as...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "imported")
	require.Contains(t, stderr, "created stream")
	js, err := jetstream.New(s.Encounter)
	require.NoError(t, err)
	stream, err := js.Stream(ctx, "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	cfg := stream.CachedInfo().Config
	require.Equal(t, 1, cfg.Replicas)
	require.True(t, cfg.DenyDelete)
	_, err = js.KeyValue(ctx, "FRAY_SEEDS")
	require.ErrorIs(t, err, jetstream.ErrBucketNotFound, "import makes the stream only")

	cfg.MaxBytes = 20 << 30 // an operator's
	_, err = js.UpdateStream(ctx, cfg)
	require.NoError(t, err)
	before, err := js.Stream(ctx, "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	code, stdout, stderr = runFray(append([]string{"import", golden("ka"), "--replicas", "3"}, as...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "imported")
	require.Contains(t, stderr, "replicas 1 (these settings: 3)")
	require.Contains(t, stderr, "max bytes 20 GiB (these settings: 8 GiB)")
	after, err := js.Stream(ctx, "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	require.Equal(t, before.CachedInfo().Config, after.CachedInfo().Config, "the stream is as it was")

	code, _, stderr = runFray(append([]string{"import", golden("feerie"), "--replicas", "7"}, as...)...)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--replicas 7: JetStream keeps 1 to 5 replicas of a stream")
}
