package gateway_test

import (
	"context"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/gateway/gatewaytest"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
)

// A compression bomb, in every protocol and place a compression is named, is refused
// ResourceExhausted having cost the process no more than a message at the limit; a message
// compressed as clients do is served.
func TestBombsAreRefusedAtTheLimit(t *testing.T) {
	base := serve(t, gateway.Config{})
	gatewaytest.RequireBombsRefused(t, base, authtest.Default().Token("gm"))
	gatewaytest.RequireCompressedCallsServed(t, func(t *testing.T, opts ...connect.ClientOption) error {
		c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](
			http.DefaultClient, base+svc+"GetEncounter", append(opts, bearer("gm"))...)
		res, err := c.CallUnary(context.Background(), connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: "enc-1"}))
		if err == nil {
			require.Equal(t, "dev/gm", res.Msg.GetState().GetName())
		}
		return err
	})
}

// A message that inflates to the limit exactly is read whole and reaches the service (whose
// own limit on a request, far lower, refuses it); one byte more is refused as it inflates.
func TestAMessageInflatesToTheLimit(t *testing.T) {
	base := serve(t, gateway.Config{})
	tok := authtest.Default().Token("gm")
	a := gatewaytest.Send(t, base, "", tok, gatewaytest.AtTheLimit(gateway.MaxMessageBytes))
	require.Contains(t, a.Message, "a request may take at most", "%+v", a)
	a = gatewaytest.Send(t, base, "", tok, gatewaytest.AtTheLimit(gateway.MaxMessageBytes+1))
	require.Equal(t, "resource_exhausted", a.Code, "%+v", a)
	require.Contains(t, a.Message, "inflates to more than 4194304 bytes")
}

// Malformed JSON, and a call without its message, are InvalidArgument saying what is wrong.
func TestMalformedRequestsAreInvalidArgument(t *testing.T) {
	gatewaytest.RequireMalformedRefused(t, serve(t, gateway.Config{}), authtest.Default().Token("gm"))
}

// The port answers to its hosts alone: by default the loopback names; as configured
// otherwise; "*" any.
func TestOnlyItsHosts(t *testing.T) {
	gatewaytest.RequireOnlyHosts(t, serve(t, gateway.Config{}), []string{"localhost", "LocalHost:8080", "localhost.", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080"})
	gatewaytest.RequireOnlyHosts(t, serve(t, gateway.Config{Hosts: []string{"table.example", "10.0.0.7:8080"}}), []string{"table.example", "TABLE.example:443", "10.0.0.7"})
	any := serve(t, gateway.Config{Hosts: []string{"*"}})
	a := gatewaytest.Send(t, any, "evil.example", "", gatewaytest.Call{Method: "GetEncounter", Body: []byte(`{}`),
		Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}})
	require.Equal(t, "unauthenticated", a.Code, "%+v", a)
	for _, bad := range []string{"", "https://table.example", "table.example/x", "*.example", "a b", "::1:x"} {
		_, err := gateway.Handler(nil, gateway.Config{Hosts: []string{bad}})
		require.ErrorContains(t, err, "give a host name or an IP address", "%q", bad)
	}
}
