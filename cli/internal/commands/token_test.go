package commands_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/stretchr/testify/require"
)

// fray token mints from the dev key: the subject, tenant, scopes and lifetime asked for, a
// token that the dev server's authenticator accepts.
func TestTokenMintsFromTheDevKey(t *testing.T) {
	clienttest.ClearEnv(t)
	before := time.Now()
	code, out, errOut := clienttest.Run(t, "token", "--as", "david", "--scope", "fray:delegate other", "--ttl", "5m")
	after := time.Now()
	require.Equal(t, 0, code, errOut)
	id, err := clienttest.DevAuth().Verify(context.Background(), strings.TrimSpace(out))
	require.NoError(t, err)
	// 5 minutes after a moment of the command, to the second of the token's exp.
	require.False(t, id.Expires.Before(before.Add(5*time.Minute).Truncate(time.Second)), "%v", id.Expires)
	require.False(t, id.Expires.After(after.Add(5*time.Minute)), "%v", id.Expires)
	id.Expires = time.Time{}
	require.Equal(t, identity.Identity{Tenant: "dev", Subject: "david", Scopes: []string{"fray:delegate", "other"}}, id)

	code, out, errOut = clienttest.Run(t, "token", "--as", "guild/rita")
	require.Equal(t, 0, code, errOut)
	id, err = clienttest.DevAuth().Verify(context.Background(), strings.TrimSpace(out))
	require.NoError(t, err)
	require.Equal(t, "guild/rita", id.Principal())

	code, out, errOut = clienttest.Run(t, "token", "--jwks")
	require.Equal(t, 0, code, errOut)
	keys, err := auth.ParseJWKS([]byte(out))
	require.NoError(t, err)
	require.Len(t, keys, 1)
	require.Equal(t, "EdDSA", keys[0].Alg)

	code, _, errOut = clienttest.Run(t, "token", "--as", "a b")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "the subject \"a b\" has ' '")
	code, _, errOut = clienttest.Run(t, "token", "--ttl", "-1s")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "positive duration")

	// At most the longest lifetime the services accept (the resolver token of the deployment's
	// instructions is 720h); longer is a usage error, not a token every call refuses.
	code, out, errOut = clienttest.Run(t, "token", "--as", "encounter", "--scope", identity.ScopeResolve, "--ttl", "720h")
	require.Equal(t, 0, code, errOut)
	_, err = clienttest.DevAuth().Verify(context.Background(), strings.TrimSpace(out))
	require.NoError(t, err)
	code, _, errOut = clienttest.Run(t, "token", "--ttl", "721h")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "at most 720h0m0s")
}

// --token takes precedence over --as; --on-behalf-of names the person a delegating client
// acts for; without a dev key and a token the call goes without one and is refused.
func TestTokenFlags(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	mint := func(subject string, scopes ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, "token", "--as", subject, "--scope", strings.Join(scopes, " "))
		require.Equal(t, 0, code, errOut)
		return strings.TrimSpace(out)
	}
	code, _, errOut := clienttest.Run(t, "create", "--addr", addr, "--as", "florence", "--token", mint("zoe"), "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	t.Setenv("FRAY_TOKEN", mint("yann"))
	code, _, errOut = clienttest.Run(t, "create", "--addr", addr, "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	t.Setenv("FRAY_TOKEN", "")
	code, _, errOut = clienttest.Run(t, "create", "--addr", addr, "--token", mint("discord-bot", identity.ScopeDelegate), "--on-behalf-of", "david", "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	code, _, errOut = clienttest.Run(t, "create", "--addr", addr, "--as", "guild/rita", "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	var got []string
	for _, c := range f.Requests() {
		got = append(got, c.Principal...)
	}
	require.Equal(t, []string{"dev/zoe", "dev/yann", "dev/david", "guild/rita"}, got)

	code, _, errOut = clienttest.Run(t, "create", "--addr", addr, "--token", mint("florence"), "--on-behalf-of", "david", "--name", "Ruelle")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `PermissionDenied: dev/florence may not act on behalf of others: its token lacks the "fray:delegate" scope`)

	// No dev key to be found, no token: the server says what it wants.
	t.Setenv("FRAY_DEV_KEY", "")
	t.Setenv("FRAY_DEV_RECORDS", t.TempDir())
	t.Chdir(t.TempDir())
	code, _, errOut = clienttest.Run(t, "list", "--addr", addr)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `fray list: Unauthenticated: no token: send the metadata "authorization: Bearer <JWT>"`)
	code, _, errOut = clienttest.Run(t, "token", "--addr", addr)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no dev signing key found for "+addr+": start `fray dev`")
	_, err := os.Stat(".fray")
	require.True(t, os.IsNotExist(err), "the CLI creates no key")
}

// Issue 28, item 12: when no fray dev is noted as serving on --addr, fray token signs with the
// key of ./.fray and says so on stderr, naming the file (a token the server at --addr may
// refuse); the token alone goes to stdout. With FRAY_DEV_KEY it says nothing.
func TestTokenSaysWhichKeyItFellBackTo(t *testing.T) {
	clienttest.ClearEnv(t)
	t.Setenv("FRAY_DEV_KEY", "")
	t.Setenv("FRAY_DEV_RECORDS", t.TempDir())
	dir := t.TempDir()
	t.Chdir(dir)
	_, _, err := auth.LoadOrCreateDevKey(".fray")
	require.NoError(t, err)
	code, out, errOut := clienttest.Run(t, "token", "--as", "david", "--addr", "127.0.0.1:7070")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, 1, strings.Count(out, "\n"), "the token alone on stdout: %q", out)
	want := filepath.Join(dir, ".fray", auth.DevKeyFile)
	require.Equal(t, "fray token: no fray dev is noted as serving on 127.0.0.1:7070; signed with "+want+", the key in this folder (--key FILE or FRAY_DEV_KEY to choose)\n", errOut)

	t.Setenv("FRAY_DEV_KEY", want)
	code, _, errOut = clienttest.Run(t, "token", "--as", "david", "--addr", "127.0.0.1:7070")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut)
}
