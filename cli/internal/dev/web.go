package dev

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"slices"
	"strings"
	"syscall"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// DefaultWeb is where `fray dev` serves the page and the browser API unless told otherwise.
const DefaultWeb = "127.0.0.1:8080"

// webServer is fray dev's browser listener and invites: url is the page's address ("" when
// none is served).
type webServer struct {
	url   string
	done  chan error
	conns []*grpc.ClientConn
}

// close waits for the browser listener to stop (ctx done) and closes the invites' connection.
func (w *webServer) close() {
	if w.done != nil {
		<-w.done
	}
	for _, c := range w.conns {
		c.Close()
	}
}

// listenWeb registers the InviteService on srv (its tokens minted with the dev key; it calls
// the encounter service at grpcAddr as the inviter), then, when cfg.Web is set, serves srv's
// services to browsers and the page there until ctx is done. Call it before srv serves.
func listenWeb(ctx context.Context, cfg Config, srv *server.Server, key auth.Signer, grpcAddr string) (*webServer, error) {
	w := &webServer{}
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	w.conns = append(w.conns, conn)
	invites, err := gateway.NewInvites(gateway.InviteConfig{
		Signer: key, Issuer: auth.DevIssuer, Audience: auth.DevAudience,
		Encounters: encounterv1.NewEncounterServiceClient(conn),
		// Read once the listener is up, before any call is served.
		PageURL: func() string { return w.url },
	})
	if err != nil {
		w.close()
		return nil, err
	}
	invites.Register(srv.GRPC)
	if cfg.Web == "" {
		return w, nil
	}
	if !server.IsLoopback(cfg.Web) {
		w.close()
		return nil, fmt.Errorf("fray dev serves the page on loopback only (not --web %s): it serves plaintext; put a TLS proxy in front of it (deploy/k8s does) to serve a network", cfg.Web)
	}
	h, err := gateway.Handler(srv.GRPC, gateway.Config{Assets: pageAssets(), AllowedOrigins: cfg.WebOrigins, Hosts: webHosts(cfg.Web), Log: cfg.Log})
	if err != nil {
		w.close()
		return nil, err
	}
	lis, err := net.Listen("tcp", cfg.Web)
	if err != nil {
		if cfg.WebOptional && errors.Is(err, syscall.EADDRINUSE) {
			cfg.Log.Warn("the page is not served: its address is in use; --web ADDR serves it elsewhere", "web", cfg.Web)
			return w, nil
		}
		w.close()
		return nil, fmt.Errorf("listen on --web %s: %w", cfg.Web, err)
	}
	w.url, w.done = "http://"+lis.Addr().String()+"/", make(chan error, 1)
	go func() {
		err := gateway.Serve(ctx, lis, h, cfg.Log, cfg.Grace)
		if err != nil {
			cfg.Log.Error("the page's listener", "web", cfg.Web, "err", err)
		}
		w.done <- err
	}()
	cfg.Log.Info("fray serving the page and the browser API", "url", w.url)
	return w, nil
}

// webHosts are the names the page is served under: the loopback names and --web's own host
// (127.0.0.2, say); a page under any other name is refused, even one that resolves to this
// machine (DNS rebinding: a page of evil.example made to resolve to 127.0.0.1 would drive this
// fray dev as the same origin).
func webHosts(web string) []string {
	hosts := append([]string(nil), gateway.LoopbackHosts...)
	host, _, err := net.SplitHostPort(web)
	if err == nil && host != "" && !slices.ContainsFunc(hosts, func(h string) bool { return strings.EqualFold(strings.Trim(h, "[]"), host) }) {
		hosts = append(hosts, host)
	}
	return hosts
}

// webFlags reads --web (off: none; the default address: optional) and --web-origins.
func webFlags(fs *flag.FlagSet, cfg *Config, origins string) error {
	if strings.EqualFold(cfg.Web, "off") {
		cfg.Web = ""
	}
	cfg.WebOptional = cfg.Web == DefaultWeb
	if cfg.Web != "" && !server.IsLoopback(cfg.Web) {
		return platform.FlagError(fs, "web", "fray dev serves the page on loopback only, such as "+DefaultWeb)
	}
	cfg.WebOrigins = nil
	for _, o := range strings.Split(origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			if err := gateway.CheckOrigin(o); err != nil {
				return platform.FlagError(fs, "web-origins", "%v", err)
			}
			cfg.WebOrigins = append(cfg.WebOrigins, o)
		}
	}
	return nil
}
