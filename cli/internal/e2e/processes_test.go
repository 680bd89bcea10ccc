package e2e_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// build compiles a service binary of the repository into dir.
func build(t *testing.T, dir, module, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = filepath.Join("..", "..", "..", module)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, string(b))
	return out
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

func waitServing(t *testing.T, cc *grpc.ClientConn, service string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		r, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{Service: service}, grpc.WaitForReady(true))
		if err == nil && r.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return
		}
		require.NoError(t, ctx.Err(), "%s never became SERVING (last: %v)", service, err)
	}
}

// The services run as separate processes against an external NATS server, and stop
// gracefully on SIGTERM, ending open watch streams.
func TestServicesAsSeparateProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the service binaries")
	}
	ns, _ := natstest.Start(t)
	bin := t.TempDir()
	resolverBin := build(t, bin, "services/resolver", "./cmd/resolver")
	encounterBin := build(t, bin, "services/encounter", "./cmd/encounter")

	// Production settings: tokens verified against a JWKS file, TLS on both services with a
	// CA of the test's own, the encounter service's token for the resolver in a file.
	secrets := t.TempDir()
	jwks := authtest.Default().WriteJWKS(t, secrets)
	tlsFiles := authtest.NewTLS(t, secrets)
	tokenFile := filepath.Join(secrets, "resolver-token")
	require.NoError(t, os.WriteFile(tokenFile, []byte(authtest.Default().Token("encounter-service", identity.ScopeResolve)+"\n"), 0o600))
	security := []string{"--jwks", jwks, "--token-issuer", authtest.Issuer, "--token-audience", authtest.Audience, "--tls-cert", tlsFiles.Cert, "--tls-key", tlsFiles.Key}

	resolverAddr, encounterAddr := freeAddr(t), freeAddr(t)
	// The plaintext health ports of the kubelet's probes (deploy/k8s): one by flag, one by
	// its variable.
	resolverHealth, encounterHealth := freeAddr(t), freeAddr(t)
	var resolverLog, encounterLog bytes.Buffer
	resolverProc := exec.Command(resolverBin, append([]string{"--listen", resolverAddr, "--health-listen", resolverHealth}, security...)...)
	resolverProc.Stderr = &resolverLog
	require.NoError(t, resolverProc.Start())
	encounterProc := exec.Command(encounterBin, append([]string{"--listen", encounterAddr, "--nats-url", ns.ClientURL(), "--resolver", resolverAddr, "--log-format", "json",
		"--resolver-ca", tlsFiles.CA, "--resolver-token-file", tokenFile}, security...)...)
	encounterProc.Stderr = &encounterLog
	encounterProc.Env = append(os.Environ(), "FRAY_HEALTH_LISTEN="+encounterHealth)
	require.NoError(t, encounterProc.Start())
	t.Cleanup(func() { _ = resolverProc.Process.Kill(); _ = encounterProc.Process.Kill() })

	creds, err := server.ClientTLS(tlsFiles.CA)
	require.NoError(t, err)
	cc, err := grpc.NewClient(encounterAddr, grpc.WithTransportCredentials(creds))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	waitServing(t, cc, encounterv1.EncounterService_ServiceDesc.ServiceName)
	// The health ports answer in plaintext, without a token, for the services and the whole
	// server, as the probes ask.
	for addr, service := range map[string]string{resolverHealth: "fray.rules.v1.RulesService", encounterHealth: encounterv1.EncounterService_ServiceDesc.ServiceName} {
		hc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(t, err)
		waitServing(t, hc, service)
		waitServing(t, hc, "")
		require.NoError(t, hc.Close())
	}
	c := encounterv1.NewEncounterServiceClient(cc)
	f := newFight(t, c, "Deux processus", diego(0, 0), ruffian(0))
	require.Equal(t, int32(1), f.state().GetState().GetLoss().GetTour())

	// SIGTERM: the open watch ends, the process exits cleanly after draining NATS.
	require.NoError(t, encounterProc.Process.Signal(syscall.SIGTERM))
	watched := <-f.watched // the stream ended
	require.LessOrEqual(t, len(watched), len(f.events))
	for i, ev := range watched {
		require.Equal(t, f.events[i].GetEventId(), ev.GetEventId(), "in order, none missing before the end")
	}
	require.NoError(t, encounterProc.Wait(), encounterLog.String())
	require.Contains(t, encounterLog.String(), "encounter service stopped")

	require.NoError(t, resolverProc.Process.Signal(syscall.SIGTERM))
	require.NoError(t, resolverProc.Wait(), resolverLog.String())
	require.Contains(t, resolverLog.String(), "resolver stopped")
}
