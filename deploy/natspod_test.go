package deploy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// natsPod is the NATS configuration as a pod of the StatefulSet "nats" sees it, laid out
// under a temporary root: each volume of the container nats (the projected ConfigMaps at
// /etc/nats, the Secrets) at its mount path under root, and the absolute paths the
// configuration gives to the Secrets' files rewritten under root; its environment set.
type natsPod struct {
	root string
	w    Workload
	c    *corev1.Container
}

// conf is the path of the configuration the container runs.
func (p *natsPod) conf() string { return filepath.Join(p.root, "etc/nats/nats.conf") }

func layNATSPod(t *testing.T, r *Rendered) *natsPod {
	t.Helper()
	w := workload(t, r, "nats")
	c := container(w, "nats")
	require.NotNil(t, c)
	require.Equal(t, []string{"/nats-server", "--config", "/etc/nats/nats.conf"}, c.Command)
	p := &natsPod{root: t.TempDir(), w: w, c: c}
	write := func(dir string, data map[string]string, what string) {
		require.NoError(t, os.MkdirAll(dir, 0o700))
		for k, v := range data {
			require.NoFileExists(t, filepath.Join(dir, k), "%s: two sources give %s", what, k)
			require.NoError(t, os.WriteFile(filepath.Join(dir, k), []byte(v), 0o600))
		}
	}
	secretData := func(name string) map[string]string {
		s := r.Secret(name)
		require.NotNilf(t, s, "no Secret %s", name)
		out := map[string]string{}
		for k, v := range s.Data {
			out[k] = string(v)
		}
		return out
	}
	var secretMounts []string
	for _, m := range c.VolumeMounts {
		i := slices.IndexFunc(w.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
		dir := filepath.Join(p.root, m.MountPath)
		if i < 0 {
			require.Containsf(t, w.Claims, m.Name, "%s mounts no volume %s", c.Name, m.Name)
			continue
		}
		v := w.Template.Spec.Volumes[i]
		switch {
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				require.NotNil(t, src.ConfigMap, "the NATS configuration projects ConfigMaps only")
				cm := r.ConfigMap(src.ConfigMap.Name)
				require.NotNilf(t, cm, "no ConfigMap %s", src.ConfigMap.Name)
				write(dir, cm.Data, m.MountPath)
			}
		case v.ConfigMap != nil:
			write(dir, r.ConfigMap(v.ConfigMap.Name).Data, m.MountPath)
		case v.Secret != nil:
			write(dir, secretData(v.Secret.SecretName), m.MountPath)
			secretMounts = append(secretMounts, m.MountPath)
		}
	}
	require.FileExists(t, p.conf())
	// The configuration names the Secrets' files by their absolute paths in the pod.
	slices.SortFunc(secretMounts, func(a, b string) int { return len(b) - len(a) })
	confs, err := filepath.Glob(filepath.Join(p.root, "etc/nats/*.conf"))
	require.NoError(t, err)
	for _, f := range confs {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		s := string(b)
		for _, m := range secretMounts {
			s = strings.ReplaceAll(s, `"`+m+`/`, `"`+filepath.Join(p.root, m)+`/`)
		}
		require.NoError(t, os.WriteFile(f, []byte(s), 0o600))
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			t.Setenv(e.Name, e.Value)
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.name":
			t.Setenv(e.Name, w.Name+"-0")
		default:
			t.Fatalf("%s: an environment variable from %v", e.Name, e.ValueFrom)
		}
	}
	require.Empty(t, c.EnvFrom, "NATS takes no secret from the environment")
	return p
}

// placeholderNKey is a public NKey placeholder of users.conf, naming its user.
var placeholderNKey = regexp.MustCompile(`"REPLACE-ME[^"]*-(encounter|auditor)-user"`)

// fill replaces every placeholder of the pod's files with working test credentials: the
// users' public NKeys in users.conf, the routes' certificate, key and CA, the client port's
// certificate and key. A placeholder it does not know fails the test.
func (p *natsPod) fill(t *testing.T, cr *testCreds) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(p.root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "REPLACE-ME") {
			return err
		}
		routes := strings.Contains(path, "routes")
		var out string
		switch name := filepath.Base(path); {
		case name == "users.conf":
			out = placeholderNKey.ReplaceAllStringFunc(string(b), func(s string) string {
				return `"` + cr.user[placeholderNKey.FindStringSubmatch(s)[1]].pub + `"`
			})
		case name == "ca.crt":
			out = cr.ca.certPEM
		case name == "tls.crt" && routes:
			out = cr.route.certPEM
		case name == "tls.key" && routes:
			out = cr.route.keyPEM
		case name == "tls.crt":
			out = cr.client.certPEM
		case name == "tls.key":
			out = cr.client.keyPEM
		default:
			t.Fatalf("%s: a placeholder this test cannot fill", path)
		}
		require.NotContains(t, out, "REPLACE-ME", path)
		return os.WriteFile(path, []byte(out), 0o600)
	}))
}

// natsOptions parses the NATS configuration as a pod of the StatefulSet sees it, its
// placeholders filled with test credentials, with nats-server's own parser.
func natsOptions(t *testing.T, r *Rendered) (*server.Options, Workload) {
	t.Helper()
	p := layNATSPod(t, r)
	p.fill(t, credentials(t))
	opts, err := server.ProcessConfigFile(p.conf())
	require.NoError(t, err)
	return opts, p.w
}

// pemPair is a certificate and its key, PEM-encoded, and the parsed certificate.
type pemPair struct {
	certPEM, keyPEM string
	cert            *x509.Certificate
	key             *ecdsa.PrivateKey
}

// nkeyPair is a user's NKey: its seed (what its client holds) and its public key.
type nkeyPair struct{ seed, pub string }

// testCreds are what an operator would put in place of the placeholders: a CA, the routes'
// certificate (CN=nats-route, for *.nats-headless, localhost and 127.0.0.1), the client
// port's (nats, localhost, 127.0.0.1), and the two users' NKeys.
type testCreds struct {
	ca, route, client pemPair
	user              map[string]nkeyPair
}

var (
	credsOnce sync.Once
	creds     *testCreds
	credsErr  error
)

func credentials(t *testing.T) *testCreds {
	t.Helper()
	credsOnce.Do(func() { creds, credsErr = newCreds() })
	require.NoError(t, credsErr)
	return creds
}

func newCreds() (*testCreds, error) {
	ca, err := newCert("fray test CA", nil, nil, nil)
	if err != nil {
		return nil, err
	}
	cr := &testCreds{ca: ca, user: map[string]nkeyPair{}}
	loopback := []net.IP{net.IPv4(127, 0, 0, 1)}
	if cr.route, err = newCert("nats-route", &ca, []string{"*.nats-headless", "localhost"}, loopback); err != nil {
		return nil, err
	}
	if cr.client, err = newCert("nats", &ca, []string{"nats", "localhost"}, loopback); err != nil {
		return nil, err
	}
	for _, u := range []string{"encounter", "auditor"} {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return nil, err
		}
		seed, _ := kp.Seed()
		pub, _ := kp.PublicKey()
		cr.user[u] = nkeyPair{seed: string(seed), pub: pub}
	}
	return cr, nil
}

// newCert makes a certificate for cn (a CA when parent is nil), valid for both ends of a
// TLS connection.
func newCert(cn string, parent *pemPair, dns []string, ips []net.IP) (pemPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return pemPair{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return pemPair{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		DNSNames:     dns,
		IPAddresses:  ips,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	signer, signerKey := tmpl, key
	if parent == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage |= x509.KeyUsageCertSign
		tmpl.ExtKeyUsage = nil
	} else {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		return pemPair{}, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return pemPair{}, err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return pemPair{}, err
	}
	return pemPair{
		certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		keyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})),
		cert:    cert, key: key,
	}, nil
}
