package natsconn

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// EmbeddedOption configures an embedded NATS server.
type EmbeddedOption func(*server.Options)

// Users are the passwords of fray's two NATS users (EncounterUser, AuditorUser).
type Users struct {
	Encounter string `json:"encounter"`
	Auditor   string `json:"auditor"`
}

// WithUsers makes the embedded server enforce fray's permissions (EncounterPermissions,
// AuditorPermissions) for the two users with these passwords. A client that gives no
// credentials is taken for the auditor: the log tools work without a password, and read the
// event stream but never a seed.
func WithUsers(u Users) EmbeddedOption {
	return func(o *server.Options) {
		o.Users = []*server.User{
			{Username: EncounterUser, Password: u.Encounter, Permissions: EncounterPermissions()},
			{Username: AuditorUser, Password: u.Auditor, Permissions: AuditorPermissions()},
		}
		o.NoAuthUser = AuditorUser
	}
}

// MaxPayload is the largest message fray's NATS servers take (max_payload; NATS's default
// is 1 MiB): a snapshot holds an encounter's state, up to 4 MiB, and the ids of the commands
// recorded so far. The embedded server, deploy/nats/nats-server.conf and deploy/k8s all set it
// (their tests check it).
const MaxPayload = 8 << 20

// EmbeddedMaxStore is the embedded server's JetStream store limit: the disk itself, not
// nats-server's default of 75% of the disk's free space at start. fray's stream and buckets
// declare their retention in bytes (8 GiB of events, 2 GiB of snapshots…), which JetStream
// reserves against that limit when they are created, without writing anything: with the
// default, `fray dev` and every test's server refused to create them ("insufficient storage
// resources available") on a disk with less than about 14 GB free, and the service stayed
// NOT_SERVING. A disk that does fill is JetStream's write error then, as it would be anyway.
const EmbeddedMaxStore = 1 << 40 // 1 TiB

// Embedded starts a NATS server with JetStream on host:port (port -1 picks a free one),
// storing its data in dir (its store limit EmbeddedMaxStore). Shut it down with Shutdown then
// WaitForShutdown before removing dir.
func Embedded(host string, port int, dir string, opts ...EmbeddedOption) (*server.Server, error) {
	o := &server.Options{
		ServerName:        "fray-embedded",
		Host:              host,
		Port:              port,
		JetStream:         true,
		JetStreamMaxStore: EmbeddedMaxStore,
		StoreDir:          dir,
		NoSigs:            true,
		NoLog:             true,
		MaxPayload:        MaxPayload,
	}
	for _, opt := range opts {
		opt(o)
	}
	if port > 0 {
		// A taken port: said at once, not as a server that never becomes ready.
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("embedded NATS: %s is in use (another fray dev, or a NATS server?): %w", addr, ErrPortInUse)
		}
		l.Close()
	}
	ns, err := server.NewServer(o)
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

// ErrPortInUse: the embedded server's port is taken.
var ErrPortInUse = errors.New("address in use")

// NewUsers makes two random passwords.
func NewUsers() Users {
	pw := func() string {
		b := make([]byte, 24)
		_, _ = rand.Read(b) // never fails (crypto/rand)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return Users{Encounter: pw(), Auditor: pw()}
}

// LoadUsers reads the passwords kept in file (JSON), or makes new ones and writes them
// there (mode 0600), so that they stay the same across restarts.
func LoadUsers(file string) (Users, error) {
	var u Users
	b, err := os.ReadFile(file)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &u); err != nil || u.Encounter == "" || u.Auditor == "" {
			return Users{}, fmt.Errorf("%s does not hold the NATS passwords (delete it to make new ones): %v", file, err)
		}
		return u, nil
	case !errors.Is(err, fs.ErrNotExist):
		return Users{}, err
	}
	u = NewUsers()
	b, _ = json.MarshalIndent(u, "", "  ")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return Users{}, err
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o600); err != nil {
		return Users{}, err
	}
	return u, nil
}

// Auth is how a client authenticates to NATS and checks its TLS certificate; all empty:
// anonymously, in plaintext (a server without authorization, or `fray dev`'s, where an
// anonymous client is the auditor).
type Auth struct {
	// User and Password, or Token.
	User, Password, Token string
	// Creds is a credentials file (user JWT and NKey seed, operator mode).
	Creds string
	// NKey is a file holding an NKey seed.
	NKey string
	// TLSCA verifies the server's certificate; TLSCert and TLSKey are a client certificate.
	TLSCA, TLSCert, TLSKey string
}

// AddFlags registers --nats-user, --nats-password, --nats-token, --nats-creds, --nats-nkey, --nats-tls-ca,
// --nats-tls-cert and --nats-tls-key, each with its FRAY_NATS_… environment fallback.
func (a *Auth) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&a.User, "nats-user", platform.Env("FRAY_NATS_USER", ""), "NATS user name (env FRAY_NATS_USER)")
	fs.StringVar(&a.Password, "nats-password", platform.Env("FRAY_NATS_PASSWORD", ""), "NATS password (env FRAY_NATS_PASSWORD)")
	fs.StringVar(&a.Token, "nats-token", platform.Env("FRAY_NATS_TOKEN", ""), "NATS authentication token (env FRAY_NATS_TOKEN)")
	fs.StringVar(&a.Creds, "nats-creds", platform.Env("FRAY_NATS_CREDS", ""), "NATS credentials file: user JWT and NKey seed (env FRAY_NATS_CREDS)")
	fs.StringVar(&a.NKey, "nats-nkey", platform.Env("FRAY_NATS_NKEY", ""), "file holding a NATS NKey seed (env FRAY_NATS_NKEY)")
	fs.StringVar(&a.TLSCA, "nats-tls-ca", platform.Env("FRAY_NATS_TLS_CA", ""), "CA certificate verifying the NATS server's (env FRAY_NATS_TLS_CA)")
	fs.StringVar(&a.TLSCert, "nats-tls-cert", platform.Env("FRAY_NATS_TLS_CERT", ""), "client certificate for NATS (env FRAY_NATS_TLS_CERT)")
	fs.StringVar(&a.TLSKey, "nats-tls-key", platform.Env("FRAY_NATS_TLS_KEY", ""), "client certificate key for NATS (env FRAY_NATS_TLS_KEY)")
}

// Options are the nats.Connect options of a.
func (a Auth) Options() ([]nats.Option, error) {
	var opts []nats.Option
	if a.Password != "" && a.User == "" {
		return nil, errors.New("a NATS password needs a user name (--nats-user)")
	}
	if a.User != "" {
		opts = append(opts, nats.UserInfo(a.User, a.Password))
	}
	if a.Token != "" {
		opts = append(opts, nats.Token(a.Token))
	}
	if a.Creds != "" {
		opts = append(opts, nats.UserCredentials(a.Creds))
	}
	if a.NKey != "" {
		opt, err := nats.NkeyOptionFromSeed(a.NKey)
		if err != nil {
			return nil, fmt.Errorf("NATS NKey seed %s: %w", a.NKey, err)
		}
		opts = append(opts, opt)
	}
	if a.TLSCA != "" {
		opts = append(opts, nats.RootCAs(a.TLSCA))
	}
	if (a.TLSCert == "") != (a.TLSKey == "") {
		return nil, errors.New("a NATS client certificate needs both --nats-tls-cert and --nats-tls-key")
	}
	if a.TLSCert != "" {
		opts = append(opts, nats.ClientCert(a.TLSCert, a.TLSKey))
	}
	return opts, nil
}

// EncounterOptions are the options every connection of the encounter service takes: its
// own reply inbox, where no one else may subscribe (the seeds it reads travel there).
func EncounterOptions() []nats.Option {
	return []nats.Option{nats.CustomInboxPrefix(EncounterInboxPrefix)}
}
