package auth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// What fray dev's tokens say: its issuer and audience are fixed, and a name given with --as
// is a subject of DevTenant.
const (
	DevIssuer   = "fray-dev"
	DevAudience = "fray"
	DevTenant   = "dev"
	// DevKeyFile is the dev signing key's file in fray dev's data folder.
	DevKeyFile = "dev-signing-key.jwk"
	// DevTokenTTL is the lifetime of the tokens the CLI mints for --as.
	DevTokenTTL = time.Hour
)

// LoadOrCreateDevKey returns the Ed25519 signing key kept in dir/DevKeyFile, creating it
// (readable by its owner only) the first time.
func LoadOrCreateDevKey(dir string) (Signer, bool, error) {
	path := filepath.Join(dir, DevKeyFile)
	s, err := LoadDevKey(path)
	if err == nil {
		return s, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return Signer{}, false, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Signer{}, false, err
	}
	sum := sha256.Sum256(priv.Public().(ed25519.PublicKey))
	s = Signer{ID: "dev-" + base64.RawURLEncoding.EncodeToString(sum[:6]), Key: priv}
	b64 := base64.RawURLEncoding
	data, err := json.MarshalIndent(jwk{Kty: "OKP", Crv: "Ed25519", Alg: "EdDSA", Use: "sig", Kid: s.ID,
		X: b64.EncodeToString(priv.Public().(ed25519.PublicKey)), D: b64.EncodeToString(priv.Seed())}, "", "  ")
	if err != nil {
		return Signer{}, false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Signer{}, false, fmt.Errorf("dev key folder: %w", err)
	}
	// O_EXCL: two dev servers starting at once over one folder keep the first key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		s, err := LoadDevKey(path)
		return s, false, err
	}
	if err != nil {
		return Signer{}, false, fmt.Errorf("dev key: %w", err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return Signer{}, false, fmt.Errorf("dev key: %w", err)
	}
	return s, true, f.Close()
}

// LoadDevKey reads an Ed25519 private JWK (fray dev's signing key).
func LoadDevKey(path string) (Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Signer{}, err
	}
	var k jwk
	if err := json.Unmarshal(data, &k); err != nil {
		return Signer{}, fmt.Errorf("dev key %s: %w", path, err)
	}
	seed, err := base64.RawURLEncoding.DecodeString(k.D)
	if err != nil || k.Kty != "OKP" || k.Crv != "Ed25519" || len(seed) != ed25519.SeedSize {
		return Signer{}, fmt.Errorf("dev key %s: not an Ed25519 private JWK", path)
	}
	return Signer{ID: k.Kid, Key: ed25519.NewKeyFromSeed(seed)}, nil
}

// DevAuthConfig verifies fray dev's tokens: signed by its key, DevIssuer, DevAudience.
func DevConfig(s Signer) Config {
	return Config{Keys: StaticKeys{s.Public()}, Issuer: DevIssuer, Audience: DevAudience}
}

// DevClaims are the claims of a dev token for subject of tenant.
func DevClaims(tenant, subject string, ttl time.Duration, scopes ...string) TokenClaims {
	return TokenClaims{Issuer: DevIssuer, Audience: DevAudience, Tenant: tenant, Subject: subject, Scopes: scopes, TTL: ttl}
}

// The dev key record: fray dev notes, in a per-user folder, where the key of the server on
// each loopback port is, so that the CLI run from any folder (`--as NAME`) mints its tokens
// from that key.

// devRecordDir is the per-user folder of the records: $FRAY_DEV_RECORDS, else the user's
// config folder's fray/dev, else one in the temporary folder.
func devRecordDir() string {
	if d := os.Getenv("FRAY_DEV_RECORDS"); d != "" {
		return d
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "fray", "dev")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("fray-dev-%d", os.Getuid()))
}

// devRecordName names the record of a server address; "" when the address is not on
// loopback (only a local dev server's key is looked up).
func devRecordName(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return ""
	}
	if ip := net.ParseIP(host); host != "localhost" && host != "" && (ip == nil || !ip.IsLoopback()) {
		return ""
	}
	return "port-" + port + ".json"
}

// RecordDevKey notes that the dev server on addr signs with the key at keyPath; the returned
// function removes the note.
func RecordDevKey(addr, keyPath string) (func(), error) { return RecordDevServer(addr, keyPath, "") }

// RecordDevServer is RecordDevKey noting also the address of the page the dev server serves
// (page, "" for none), which `fray invite --gm` links to (FindDevPage).
func RecordDevServer(addr, keyPath, page string) (func(), error) {
	name := devRecordName(addr)
	if name == "" {
		return func() {}, nil
	}
	abs, err := filepath.Abs(keyPath)
	if err != nil {
		return nil, err
	}
	dir := devRecordDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dev key record: %w", err)
	}
	rec := map[string]string{"addr": addr, "key": abs}
	if page != "" {
		rec["page"] = page
	}
	data, _ := json.Marshal(rec)
	path := filepath.Join(dir, name)
	tmp := path + ".tmp" + fmt.Sprint(os.Getpid())
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return nil, fmt.Errorf("dev key record: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("dev key record: %w", err)
	}
	return func() {
		// Only ours: another dev server may have taken the port since.
		if b, err := os.ReadFile(path); err == nil && string(b) == string(data) {
			_ = os.Remove(path)
		}
	}, nil
}

// FindDevPage is the address of the page the dev server on addr serves, as it noted it, if it
// serves one.
func FindDevPage(addr string) (string, bool) {
	name := devRecordName(addr)
	if name == "" {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(devRecordDir(), name))
	if err != nil {
		return "", false
	}
	var rec struct{ Page string }
	if json.Unmarshal(b, &rec) != nil || rec.Page == "" {
		return "", false
	}
	return rec.Page, true
}

// FindDevKey returns the path of the dev signing key of the dev server on addr: the file
// $FRAY_DEV_KEY names, else, for a loopback address, the one fray dev recorded for addr's
// port, else .fray/DevKeyFile in the current folder. ok is false when there is none.
func FindDevKey(addr string) (string, bool) {
	path, _, ok := FindDevKeyFrom(addr)
	return path, ok
}

// Where FindDevKeyFrom found a dev key.
const (
	DevKeyFromEnv      = "FRAY_DEV_KEY"
	DevKeyFromRecord   = "recorded"
	DevKeyFromFallback = "fallback"
)

// FindDevKeyFrom is FindDevKey, saying where the key came from: DevKeyFromEnv, DevKeyFromRecord
// (fray dev serving on addr noted it) or DevKeyFromFallback (./.fray of the current folder,
// which may be another server's: a caller says so).
func FindDevKeyFrom(addr string) (path, from string, ok bool) {
	if p := os.Getenv("FRAY_DEV_KEY"); p != "" {
		return p, DevKeyFromEnv, true
	}
	name := devRecordName(addr)
	if name == "" {
		return "", "", false // not a local dev server
	}
	if b, err := os.ReadFile(filepath.Join(devRecordDir(), name)); err == nil {
		var rec struct{ Key string }
		if json.Unmarshal(b, &rec) == nil && rec.Key != "" {
			if _, err := os.Stat(rec.Key); err == nil {
				return rec.Key, DevKeyFromRecord, true
			}
		}
	}
	p := filepath.Join(".fray", DevKeyFile)
	if _, err := os.Stat(p); err == nil {
		return p, DevKeyFromFallback, true
	}
	return "", "", false
}

// DevSubject splits an --as name: "david" is subject david of DevTenant, "other/david" of
// tenant other.
func DevSubject(name string) (tenant, subject string) {
	if t, s, ok := strings.Cut(name, "/"); ok {
		return t, s
	}
	return DevTenant, name
}
