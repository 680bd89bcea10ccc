package gateway_test

import (
	"testing"

	"github.com/fray-rpg/fray/services/gateway"
	"github.com/stretchr/testify/require"
)

func TestInviteURL(t *testing.T) {
	for _, tc := range []struct{ base, enc, token, want string }{
		{"http://127.0.0.1:8080/", "enc-1", "a.b-c_d", "http://127.0.0.1:8080/#/encounter/enc-1?token=a.b-c_d"},
		{"https://table.example", "enc 2", "x+y", "https://table.example/#/encounter/enc%202?token=x%2By"},
		{"", "enc-1", "tok", ""},
	} {
		require.Equal(t, tc.want, gateway.InviteURL(tc.base, tc.enc, tc.token))
	}
}

func TestNewInvitesNeedsASignerAndTheEncounterService(t *testing.T) {
	_, err := gateway.NewInvites(gateway.InviteConfig{Issuer: "fray-dev", Audience: "fray"})
	require.ErrorContains(t, err, "signer")
}
