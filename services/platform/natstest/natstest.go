// Package natstest starts an embedded NATS JetStream server for a test.
package natstest

import (
	"testing"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Start runs a JetStream server on a free loopback port with its own store directory, and
// returns it with a connection. Cleanup closes the connection and shuts the server down
// before the directory is removed.
func Start(t testing.TB) (*server.Server, *nats.Conn) {
	t.Helper()
	dir := t.TempDir() // removed after the cleanups registered below
	ns, err := platform.EmbeddedNATS("127.0.0.1", -1, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return ns, nc
}
