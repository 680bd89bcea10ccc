//go:build linux

package natsconn_test

import (
	"context"
	"syscall"
	"testing"

	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// The embedded server's store limit is EmbeddedMaxStore, not nats-server's 75% of the free
// disk: a stream declaring more bytes than the disk has free (as fray's 8 GiB event stream
// does on a disk with little room) is created; JetStream reserves the bytes without writing.
// Before, `fray dev` on a disk with under ~14 GB free never served ("insufficient storage
// resources available").
func TestTheEmbeddedServerReservesMoreThanTheFreeDisk(t *testing.T) {
	dir := t.TempDir()
	var fs syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &fs))
	free := int64(fs.Bavail) * int64(fs.Bsize)
	declared := free + 1<<30
	require.Less(t, declared, int64(natsconn.EmbeddedMaxStore), "this disk is larger than the limit the test checks")

	ns, err := natsconn.Embedded("127.0.0.1", -1, dir)
	require.NoError(t, err)
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	nc, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	_, err = js.CreateStream(context.Background(), jetstream.StreamConfig{Name: "LARGE", Subjects: []string{"large.>"}, Storage: jetstream.FileStorage, MaxBytes: declared})
	require.NoError(t, err, "a stream of %d GiB on a disk with %d GiB free", declared>>30, free>>30)
	t.Logf("created a stream of %d GiB on a disk with %d GiB free", declared>>30, free>>30)
}
