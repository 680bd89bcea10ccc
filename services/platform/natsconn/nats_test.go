package natsconn_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func requireSamePermissions(t *testing.T, want, got *server.Permissions) {
	t.Helper()
	require.Equal(t, sorted(want.Publish.Allow), sorted(got.Publish.Allow), "publish allow")
	require.Equal(t, sorted(want.Publish.Deny), sorted(got.Publish.Deny), "publish deny")
	require.Equal(t, sorted(want.Subscribe.Allow), sorted(got.Subscribe.Allow), "subscribe allow")
	require.Equal(t, sorted(want.Subscribe.Deny), sorted(got.Subscribe.Deny), "subscribe deny")
}

// deploy/nats/permissions.conf, as deploy/nats/nats-server.conf includes it, is a valid
// nats-server configuration giving exactly the permissions `fray dev`'s embedded server
// enforces, and no anonymous access.
func TestPermissionsConfIsWhatDevEnforces(t *testing.T) {
	t.Setenv("FRAY_NATS_ENCOUNTER_PASSWORD", "enc-secret")
	t.Setenv("FRAY_NATS_AUDITOR_PASSWORD", "aud-secret")
	opts, err := server.ProcessConfigFile(filepath.Join("..", "..", "..", "deploy", "nats", "nats-server.conf"))
	require.NoError(t, err)
	require.True(t, opts.JetStream)
	require.EqualValues(t, natsconn.MaxPayload, opts.MaxPayload)
	require.Empty(t, opts.NoAuthUser, "a deployment refuses anonymous clients")
	require.Len(t, opts.Users, 2)
	users := map[string]*server.User{}
	for _, u := range opts.Users {
		users[u.Username] = u
	}
	require.Equal(t, "enc-secret", users[natsconn.EncounterUser].Password)
	require.Equal(t, "aud-secret", users[natsconn.AuditorUser].Password)
	requireSamePermissions(t, natsconn.EncounterPermissions(), users[natsconn.EncounterUser].Permissions)
	requireSamePermissions(t, natsconn.AuditorPermissions(), users[natsconn.AuditorUser].Permissions)

	// The server starts from it.
	opts.Port, opts.StoreDir, opts.NoLog, opts.NoSigs = -1, t.TempDir(), true, true
	ns, err := server.NewServer(opts)
	require.NoError(t, err)
	ns.Start()
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	require.True(t, ns.ReadyForConnections(10*time.Second))
}

// The embedded server's passwords are made once and kept, readable by their owner only.
func TestLoadNATSUsersKeepsThePasswords(t *testing.T) {
	file := filepath.Join(t.TempDir(), "data", "nats-users.json")
	first, err := natsconn.LoadUsers(file)
	require.NoError(t, err)
	require.NotEmpty(t, first.Encounter)
	require.NotEmpty(t, first.Auditor)
	require.NotEqual(t, first.Encounter, first.Auditor)
	info, err := os.Stat(file)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	again, err := natsconn.LoadUsers(file)
	require.NoError(t, err)
	require.Equal(t, first, again)

	require.NoError(t, os.WriteFile(file, []byte("{}"), 0o600))
	_, err = natsconn.LoadUsers(file)
	require.ErrorContains(t, err, "does not hold the NATS passwords")
}

func TestNATSAuthOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		auth natsconn.Auth
		n    int
		err  string
	}{
		{"anonymous", natsconn.Auth{}, 0, ""},
		{"user and password", natsconn.Auth{User: "auditor", Password: "x"}, 1, ""},
		{"token", natsconn.Auth{Token: "t"}, 1, ""},
		{"password alone", natsconn.Auth{Password: "x"}, 0, "needs a user name"},
		{"certificate without key", natsconn.Auth{TLSCert: "c.pem"}, 0, "both --nats-tls-cert and --nats-tls-key"},
		{"missing nkey seed", natsconn.Auth{NKey: "/nonexistent/seed"}, 0, "NKey seed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := tc.auth.Options()
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, opts, tc.n)
		})
	}
}

// The embedded server (fray dev's) takes messages of MaxPayload, as a deployment's do: a
// snapshot of a state at the encounter limit fits.
func TestEmbeddedNATSTakesTheSnapshotsPayload(t *testing.T) {
	ns, err := natsconn.Embedded("127.0.0.1", -1, t.TempDir())
	require.NoError(t, err)
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	nc, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	defer nc.Close()
	require.EqualValues(t, natsconn.MaxPayload, nc.MaxPayload())
	require.NoError(t, nc.Publish("big", make([]byte, natsconn.MaxPayload-1024)))
	require.NoError(t, nc.Flush())
}
