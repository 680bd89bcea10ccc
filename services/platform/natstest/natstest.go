// Package natstest starts an embedded NATS JetStream server for a test.
package natstest

import (
	"errors"
	"os"
	"regexp"
	"sync"
	"testing"

	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// SecuredEnv, set to 1, makes Start enforce fray's NATS permissions and return the encounter
// service's connection: `FRAY_NATSTEST_SECURED=1 go test ./services/encounter/...` runs the
// whole suite as the service user, failing on any subject it is refused.
const SecuredEnv = "FRAY_NATSTEST_SECURED"

// Start runs a JetStream server on a free loopback port with its own store directory, and
// returns it with a connection. Cleanup closes the connection and shuts the server down
// before the directory is removed.
func Start(t testing.TB) (*server.Server, *nats.Conn) {
	t.Helper()
	if os.Getenv(SecuredEnv) == "1" {
		s := StartSecured(t)
		return s.Server, s.Encounter
	}
	ns := start(t)
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return ns, nc
}

func start(t testing.TB, opts ...natsconn.EmbeddedOption) *server.Server {
	t.Helper()
	dir := t.TempDir() // removed after the cleanups registered below
	ns, err := natsconn.Embedded("127.0.0.1", -1, dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	return ns
}

// Secured is a server enforcing fray's NATS users and permissions, as `fray dev` runs it.
type Secured struct {
	Server *server.Server
	Users  natsconn.Users
	// Encounter is connected as the encounter service (with its inbox); the test fails if
	// the server refuses it anything.
	Encounter *nats.Conn
}

// erasing: the service may not delete or purge messages or streams; a test trying it is
// refused, as it should be.
var erasing = regexp.MustCompile(`Publish to "\$JS\.API\.STREAM\.(MSG\.DELETE|PURGE|DELETE)\.`)

// StartSecured runs a server with the encounter and auditor users (random passwords), and
// connects as the encounter service.
func StartSecured(t testing.TB) *Secured {
	t.Helper()
	users := natsconn.NewUsers()
	s := &Secured{Server: start(t, natsconn.WithUsers(users)), Users: users}
	var mu sync.Mutex
	var refused []error
	opts := append(natsconn.EncounterOptions(),
		nats.UserInfo(natsconn.EncounterUser, users.Encounter),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) && !erasing.MatchString(err.Error()) {
				mu.Lock()
				refused = append(refused, err)
				mu.Unlock()
			}
		}))
	s.Encounter = s.connect(t, opts...)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, err := range refused {
			t.Errorf("the encounter service's NATS user was refused: %v", err)
		}
	})
	return s
}

// Auditor connects as the auditor; errs receives the server's asynchronous errors
// (permission violations).
func (s *Secured) Auditor(t testing.TB) (nc *nats.Conn, errs <-chan error) {
	t.Helper()
	ch := make(chan error, 64)
	nc = s.connect(t, nats.UserInfo(natsconn.AuditorUser, s.Users.Auditor),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case ch <- err:
			default:
			}
		}))
	return nc, ch
}

func (s *Secured) connect(t testing.TB, opts ...nats.Option) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.Server.ClientURL(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
