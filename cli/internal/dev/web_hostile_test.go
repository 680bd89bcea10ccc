package dev_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/gateway/gatewaytest"
	"github.com/stretchr/testify/require"
)

// fray dev's page port, reachable without a token, is a browser's: a compression bomb in any
// protocol is refused at 4 MiB inflated, having cost fray dev no more than a message at that
// limit (unbounded, 128 MiB inflated would grow the process by about 800 MB); compressed
// calls are served; malformed JSON and calls without their message are InvalidArgument; a
// page under another host name than fray dev's own is refused (DNS rebinding).
func TestTheWebPortIsNoBrowsersPlaything(t *testing.T) {
	addr, page := startWeb(t)
	base := strings.TrimSuffix(page, "/")
	token := strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm"))
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))

	t.Run("bombs", func(t *testing.T) { gatewaytest.RequireBombsRefused(t, base, token) })
	t.Run("compressed", func(t *testing.T) {
		gatewaytest.RequireCompressedCallsServed(t, func(t *testing.T, opts ...connect.ClientOption) error {
			c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](
				http.DefaultClient, page+"fray.encounter.v1.EncounterService/GetEncounter", append(opts, connect.WithInterceptors(authHeader(token)))...)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := c.CallUnary(ctx, connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: id}))
			if err == nil {
				require.Equal(t, "Ruelle sombre", res.Msg.GetState().GetName())
			}
			return err
		})
	})
	t.Run("malformed", func(t *testing.T) { gatewaytest.RequireMalformedRefused(t, base, token) })
	t.Run("hosts", func(t *testing.T) {
		gatewaytest.RequireOnlyHosts(t, base, []string{strings.TrimPrefix(base, "http://"), "localhost:8080", "LOCALHOST", "[::1]:8080", "127.0.0.1"})
	})
}
