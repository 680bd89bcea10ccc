package identity_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/stretchr/testify/require"
)

// A tenant's or a subject's name: printable, no '/', no space, at most MaxNameLength bytes;
// each refusal says what is wrong with it.
func TestCheckName(t *testing.T) {
	require.NoError(t, identity.CheckName("subject", "diego-de-la-vega"))
	require.NoError(t, identity.CheckName("subject", "Élodie"))
	require.NoError(t, identity.CheckName("tenant", strings.Repeat("a", identity.MaxNameLength)))
	for name, want := range map[string]string{
		"": "the subject is empty",
		strings.Repeat("a", identity.MaxNameLength+1): "has 129 bytes; at most 128",
		"dev/gm":    `has '/'`,
		"two words": `has ' '`,
		"bell\a":    `has '\a'`,
	} {
		err := identity.CheckName("subject", name)
		require.Error(t, err, "%q", name)
		require.Contains(t, err.Error(), want, "%q", name)
	}
}

// A bare name is qualified by the tenant; a principal is kept as it is; "tenant/subject" splits
// only when both parts are there and the subject has no '/'.
func TestQualifyAndSplitPrincipal(t *testing.T) {
	require.Equal(t, "dev/david", identity.Qualify("dev", "david"))
	require.Equal(t, "other/david", identity.Qualify("dev", "other/david"))
	require.Empty(t, identity.Qualify("dev", ""))
	tenant, subject, ok := identity.SplitPrincipal("dev/david")
	require.True(t, ok)
	require.Equal(t, []string{"dev", "david"}, []string{tenant, subject})
	for _, p := range []string{"david", "/david", "dev/", "dev/a/b", ""} {
		_, _, ok := identity.SplitPrincipal(p)
		require.False(t, ok, "%q", p)
	}
}

// The caller rides in the context; an invite's calls draw from its inviter's budget; an
// identity without a subject is nobody.
func TestTheCallerInTheContext(t *testing.T) {
	ctx := context.Background()
	_, ok := identity.From(ctx)
	require.False(t, ok)
	require.Empty(t, identity.Principal(ctx))
	_, ok = identity.From(identity.With(ctx, identity.Identity{Tenant: "dev"}))
	require.False(t, ok, "no subject: nobody")

	invited := identity.Identity{Tenant: "dev", Subject: "diego-x1", Encounter: "enc-1", Inviter: "dev/gm", Scopes: []string{identity.ScopeAdmin}}
	ctx = identity.With(ctx, invited)
	got, ok := identity.From(ctx)
	require.True(t, ok)
	require.Equal(t, "dev/diego-x1", got.Principal())
	require.Equal(t, "dev/gm", got.Budget())
	require.Equal(t, "dev", identity.Tenant(ctx))
	require.True(t, got.HasScope(identity.ScopeAdmin))
	require.False(t, got.HasScope(identity.ScopeResolve))
	own := identity.Identity{Tenant: "dev", Subject: "gm"}
	require.Equal(t, "dev/gm", own.Budget(), "one's own budget")
}
