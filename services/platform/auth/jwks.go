package auth

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// KeySet finds the public key that verifies a token, by its key id.
type KeySet interface {
	// Key returns the key of id ("" when the token names none) and the one algorithm it
	// verifies ("EdDSA" or "RS256").
	Key(ctx context.Context, kid string) (PublicKey, error)
}

// PublicKey is one verification key of a key set.
type PublicKey struct {
	ID  string
	Alg string // EdDSA or RS256
	Key crypto.PublicKey
}

// ErrUnknownKey is returned (wrapped) by a KeySet for a key id it does not hold.
var ErrUnknownKey = errors.New("unknown key id")

// jwk is one JSON Web Key (RFC 7517), public or private: Ed25519 (kty OKP) or RSA.
type jwk struct {
	Kty string `json:"kty"`
	Kid string `json:"kid,omitempty"`
	Alg string `json:"alg,omitempty"`
	Use string `json:"use,omitempty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	D   string `json:"d,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
}

// ParseJWKS reads a JSON Web Key Set: the Ed25519 (EdDSA) and RSA (RS256) signing keys in
// it. Keys of other types or uses are skipped; a key whose own alg is another is skipped.
func ParseJWKS(data []byte) ([]PublicKey, error) {
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("not a JSON Web Key Set: %w", err)
	}
	var out []PublicKey
	for i, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		pk, err := k.public()
		if err != nil {
			return nil, fmt.Errorf("key %d (kid %q): %w", i, k.Kid, err)
		}
		if pk.Alg == "" {
			continue
		}
		out = append(out, pk)
	}
	if len(out) == 0 {
		return nil, errors.New("the key set holds no Ed25519 (EdDSA) or RSA (RS256) signing key")
	}
	return out, nil
}

func (k jwk) public() (PublicKey, error) {
	b64 := base64.RawURLEncoding
	switch k.Kty {
	case "OKP":
		if k.Crv != "Ed25519" || (k.Alg != "" && k.Alg != "EdDSA") {
			return PublicKey{}, nil
		}
		x, err := b64.DecodeString(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return PublicKey{}, errors.New("x is not a base64url Ed25519 public key")
		}
		return PublicKey{ID: k.Kid, Alg: "EdDSA", Key: ed25519.PublicKey(x)}, nil
	case "RSA":
		if k.Alg != "" && k.Alg != "RS256" {
			return PublicKey{}, nil
		}
		n, err1 := b64.DecodeString(k.N)
		e, err2 := b64.DecodeString(k.E)
		if err1 != nil || err2 != nil || len(n) < 256 || len(e) == 0 || len(e) > 4 {
			return PublicKey{}, errors.New("n and e are not a base64url RSA public key of 2048 bits or more")
		}
		return PublicKey{ID: k.Kid, Alg: "RS256", Key: &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}}, nil
	}
	return PublicKey{}, nil
}

// PublicJWK returns the public JWK of an Ed25519 or RSA public key.
func PublicJWK(kid string, key crypto.PublicKey) (map[string]string, error) {
	b64 := base64.RawURLEncoding
	switch k := key.(type) {
	case ed25519.PublicKey:
		return map[string]string{"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig", "kid": kid, "x": b64.EncodeToString(k)}, nil
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
			"n": b64.EncodeToString(k.N.Bytes()), "e": b64.EncodeToString(big.NewInt(int64(k.E)).Bytes())}, nil
	}
	return nil, fmt.Errorf("%T is neither an Ed25519 nor an RSA public key", key)
}

// MarshalJWKS returns the JSON Web Key Set of keys.
func MarshalJWKS(keys ...PublicKey) ([]byte, error) {
	set := struct {
		Keys []map[string]string `json:"keys"`
	}{}
	for _, k := range keys {
		j, err := PublicJWK(k.ID, k.Key)
		if err != nil {
			return nil, err
		}
		set.Keys = append(set.Keys, j)
	}
	return json.MarshalIndent(set, "", "  ")
}

// StaticKeys is a key set that never changes (fray dev's key).
type StaticKeys []PublicKey

// Key implements KeySet.
func (s StaticKeys) Key(_ context.Context, kid string) (PublicKey, error) { return pick(s, kid) }

func pick(keys []PublicKey, kid string) (PublicKey, error) {
	if kid == "" {
		if len(keys) == 1 {
			return keys[0], nil
		}
		return PublicKey{}, fmt.Errorf("%w: the token names none (no kid header)", ErrUnknownKey)
	}
	for _, k := range keys {
		if k.ID == kid {
			return k, nil
		}
	}
	// Not the ids it holds: a refusal says what is wrong with the token, not what keys exist.
	return PublicKey{}, fmt.Errorf("%w %q", ErrUnknownKey, kid)
}

// JWKSOptions tune a JWKS source.
type JWKSOptions struct {
	// MinRefresh is the least time between two loads caused by an unknown key id (default
	// 10s; negative: none), so that tokens with made-up key ids cannot make the service
	// hammer the source.
	MinRefresh time.Duration
	// MaxAge is how long a loaded set is used before it is loaded again (default 5 minutes),
	// so that removed keys stop verifying.
	MaxAge time.Duration
	// Client fetches an https URL (default: a client with a 10s timeout).
	Client *http.Client
	// Now is the clock (tests).
	Now func() time.Time
}

// JWKS is a key set loaded from a file or an https URL, loaded again when a token names a key
// id it does not hold (a new key of a rotation) and when it is older than MaxAge.
type JWKS struct {
	source string
	opts   JWKSOptions

	mu     sync.Mutex
	keys   []PublicKey
	loaded time.Time // when keys were loaded
	tried  time.Time // the last load, successful or not
}

// NewJWKS loads the key set at source: a file path, or an https URL (http only on loopback).
func NewJWKS(ctx context.Context, source string, opts JWKSOptions) (*JWKS, error) {
	if opts.MinRefresh == 0 {
		opts.MinRefresh = 10 * time.Second
	}
	if opts.MinRefresh < 0 {
		opts.MinRefresh = 0
	}
	if opts.MaxAge == 0 {
		opts.MaxAge = 5 * time.Minute
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if strings.HasPrefix(source, "http://") {
		u, err := url.Parse(source)
		if err != nil {
			return nil, fmt.Errorf("JWKS URL %q: %w", source, err)
		}
		if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("JWKS URL %q: use https (plain http only on loopback)", source)
		}
	}
	j := &JWKS{source: source, opts: opts}
	if err := j.load(ctx); err != nil {
		return nil, err
	}
	return j, nil
}

func (j *JWKS) isURL() bool {
	return strings.HasPrefix(j.source, "https://") || strings.HasPrefix(j.source, "http://")
}

func (j *JWKS) read(ctx context.Context) ([]byte, error) {
	if !j.isURL() {
		return os.ReadFile(j.source)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.source, nil)
	if err != nil {
		return nil, err
	}
	resp, err := j.opts.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", j.source, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
}

// load reads the set; on failure the keys loaded before stay.
func (j *JWKS) load(ctx context.Context) error {
	j.mu.Lock()
	j.tried = j.opts.Now()
	j.mu.Unlock()
	data, err := j.read(ctx)
	if err != nil {
		return fmt.Errorf("JWKS %s: %w", j.source, err)
	}
	keys, err := ParseJWKS(data)
	if err != nil {
		return fmt.Errorf("JWKS %s: %w", j.source, err)
	}
	j.mu.Lock()
	j.keys, j.loaded = keys, j.opts.Now()
	j.mu.Unlock()
	return nil
}

// Keys returns the keys loaded.
func (j *JWKS) Keys() []PublicKey {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.keys)
}

// Key implements KeySet.
func (j *JWKS) Key(ctx context.Context, kid string) (PublicKey, error) {
	j.mu.Lock()
	now := j.opts.Now()
	stale := now.Sub(j.loaded) >= j.opts.MaxAge && now.Sub(j.tried) >= j.opts.MinRefresh
	keys := j.keys
	j.mu.Unlock()
	if stale {
		// Too old: load again before answering, so that a removed key stops verifying. If the
		// source cannot be read, the keys loaded before stay in use until it can.
		if err := j.load(ctx); err == nil {
			keys = j.Keys()
		}
	}
	k, err := pick(keys, kid)
	if err == nil || !errors.Is(err, ErrUnknownKey) || kid == "" {
		return k, err
	}
	// A key id not seen yet: perhaps a rotation added it. Load again, at most once per
	// MinRefresh.
	j.mu.Lock()
	again := now.Sub(j.tried) >= j.opts.MinRefresh
	j.mu.Unlock()
	if !again {
		return k, err
	}
	if lerr := j.load(ctx); lerr != nil {
		return k, err // the keys loaded before stay; the refusal does not name the source
	}
	return pick(j.Keys(), kid)
}
