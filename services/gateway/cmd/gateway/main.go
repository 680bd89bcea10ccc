// Command gateway serves fray to browsers in a deployment: the page at / and the encounter
// service's API over the Connect protocol and gRPC-web, each call transcoded to gRPC and sent
// to the encounter service (over TLS), which authenticates it from its bearer token as any
// gRPC call. It holds no key and no state.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/fray-rpg/fray/gen/fray/encounter/v1" // the services' schemas
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr, nil)
	stop()
	os.Exit(code)
}

// The services a browser reaches through the gateway.
var services = []string{"fray.encounter.v1.EncounterService"}

// run serves until ctx is done; its exit code: 2 for bad flags or settings, 1 for a failure.
// ready, when set, is called with the listener's address.
func run(ctx context.Context, args []string, stderr io.Writer, ready func(addr string)) int {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8080", "HTTP listen address of the page and the browser API, plain HTTP/1.1 and h2c: put your Ingress's TLS in front of it (env FRAY_GATEWAY_LISTEN)")
	backend := fs.String("encounter-addr", "127.0.0.1:7072", "the encounter service's gRPC address, host:port (env FRAY_ENCOUNTER_ADDR)")
	ca := fs.String("encounter-ca", "", "CA certificate (PEM) of the encounter service's TLS; TLS unless --encounter-addr is on loopback without it (env FRAY_ENCOUNTER_CA)")
	serverName := fs.String("encounter-server-name", "", "the name the encounter service's certificate must hold (default: the host of --encounter-addr; env FRAY_ENCOUNTER_SERVER_NAME)")
	origins := fs.String("origins", "", "other origins whose pages may call the API (CORS), comma-separated, such as https://table.example; default: the page's own only (env FRAY_WEB_ORIGINS)")
	hosts := fs.String("allowed-hosts", strings.Join(gateway.LoopbackHosts, ","), "the host names (or IP addresses) browsers reach the gateway under, comma-separated, any port: your Ingress's, such as table.example; a request for another Host is refused with 421 (DNS rebinding); * for any (env FRAY_GATEWAY_ALLOWED_HOSTS)")
	grace := fs.Duration("grace", 10*time.Second, "graceful stop timeout (env FRAY_GRACE)")
	logFormat := fs.String("log-format", "text", "text or json (env FRAY_LOG_FORMAT)")
	logLevel := fs.String("log-level", "info", "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gateway [flags]\n\nServes fray's page at / and EncounterService to browsers (Connect, gRPC-web), each call\nsent on to the encounter service, which checks its \"Authorization: Bearer <JWT>\" header.\n/healthz answers 200 while it serves.\n\n")
		fs.PrintDefaults()
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "gateway: %v\n", err)
		return 2
	}
	if err := platform.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return fail(err)
	}
	log, err := telemetry.NewLoggerTo(stderr, *logFormat, *logLevel)
	if err != nil {
		return fail(err)
	}
	if *grace <= 0 {
		return fail(platform.FlagError(fs, "grace", "the graceful stop needs some time (such as 10s)"))
	}
	if _, _, err := net.SplitHostPort(*backend); err != nil {
		return fail(platform.FlagError(fs, "encounter-addr", "give host:port, such as encounter:7072"))
	}
	allowed, names := list(*origins), list(*hosts)
	if len(names) == 0 {
		return fail(platform.FlagError(fs, "allowed-hosts", "name the hosts browsers reach the gateway under, such as table.example, or * for any"))
	}
	for _, h := range names {
		if err := gateway.CheckHost(h); err != nil {
			return fail(platform.FlagError(fs, "allowed-hosts", "%v", err))
		}
	}
	h, err := handler(*backend, *ca, *serverName, gateway.Config{AllowedOrigins: allowed, Hosts: names, Log: log})
	if err != nil {
		return fail(err)
	}
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "addr", *listen, "err", err)
		return 1
	}
	log.Info("gateway serving the page and the browser API", "addr", lis.Addr().String(), "encounter", *backend, "hosts", names)
	if ready != nil {
		ready(lis.Addr().String())
	}
	if err := gateway.Serve(ctx, lis, h, log, *grace); err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	log.Info("gateway stopped")
	return 0
}

// list is a comma-separated setting's items.
func list(s string) []string {
	var items []string
	for _, i := range strings.Split(s, ",") {
		if i = strings.TrimSpace(i); i != "" {
			items = append(items, i)
		}
	}
	return items
}

// noInvites is the InviteService of a deployment: it mints no tokens.
type noInvites struct {
	invitev1.UnimplementedInviteServiceServer
}

func (noInvites) CreateInvite(context.Context, *invitev1.CreateInviteRequest) (*invitev1.CreateInviteResponse, error) {
	return nil, status.Error(codes.Unimplemented, "this deployment makes no invites: its tokens come from your identity provider; "+
		"get one there for the invited principal, grant it the role (fray grant ENCOUNTER PRINCIPAL player --combatants ID), "+
		"and send the link https://HOST/#/encounter/ENCOUNTER?token=TOKEN")
}

// handler is the page and the API (sent on to the encounter service at addr) as cfg says
// but for its assets, and /healthz under any host (the kubelet's probes name the pod's IP).
func handler(addr, ca, serverName string, cfg gateway.Config) (http.Handler, error) {
	var tlsConf *tls.Config
	if ca != "" || serverName != "" || !server.IsLoopback(addr) {
		c, err := gateway.BackendTLS(ca, serverName)
		if err != nil {
			return nil, err
		}
		tlsConf = c
	}
	cfg.Assets = pageAssets()
	// InviteService answers, so that the page's invite form says why there is none.
	own := grpc.NewServer()
	invitev1.RegisterInviteServiceServer(own, noInvites{})
	api, err := gateway.ProxyHandler(gateway.Backend(addr, tlsConf), services,
		map[string]http.Handler{"fray.invite.v1.InviteService": own},
		cfg)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.Handle("/", api)
	return mux, nil
}
