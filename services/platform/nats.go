package platform

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbeddedNATS starts a NATS server with JetStream on host:port (port -1 picks a free one),
// storing its data in dir. Shut it down with Shutdown then WaitForShutdown before removing dir.
func EmbeddedNATS(host string, port int, dir string) (*server.Server, error) {
	ns, err := server.NewServer(&server.Options{
		ServerName: "fray-embedded",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   dir,
		NoSigs:     true,
		NoLog:      true,
	})
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS did not become ready on %s:%d", host, port)
	}
	return ns, nil
}
