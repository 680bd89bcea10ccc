// Package gateway serves fray's gRPC services to browsers: the Connect protocol (unary and
// server streaming over fetch) and gRPC-web, transcoded by connectrpc's vanguard into calls of
// the very grpc.Server that serves gRPC, so that every call goes through the same
// interceptors (bearer-token authentication, rate limits, validation, logging, shutdown) and
// the same handlers. It also serves the page's built assets at / and answers CORS preflights
// for the origins it is told to allow.
package gateway

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"github.com/rs/cors"
	"google.golang.org/grpc"
)

// Config of the browser gateway.
type Config struct {
	// Assets are served at / (the page: index.html and what it loads); nil serves no page.
	Assets fs.FS
	// AllowedOrigins may call the API from another origin (CORS): full origins such as
	// "https://table.example" or "http://localhost:5173", or "*" for any. The page served
	// here at / is same-origin and needs none.
	AllowedOrigins []string
	// Hosts are the names (host names or IP addresses; any port) the page and the API are
	// served under; others are refused (DNS rebinding). "*" serves any; none: LoopbackHosts.
	Hosts []string
	// Log notes the HTTP server's own errors (each call is logged by the gRPC server).
	Log *slog.Logger
}

// check refuses origins and hosts that are not ones.
func (cfg Config) check() error {
	for _, o := range cfg.AllowedOrigins {
		if err := CheckOrigin(o); err != nil {
			return err
		}
	}
	for _, h := range cfg.Hosts {
		if err := CheckHost(h); err != nil {
			return err
		}
	}
	return nil
}

// Browser-facing services are every service of the gRPC server but reflection (a browser
// has no use for it, and it answers without a token).
func browserServices(g *grpc.Server) []string {
	var names []string
	for name := range g.GetServiceInfo() {
		if !strings.HasPrefix(name, "grpc.reflection.") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Handler serves the services registered on g (register them all first) to browsers and the
// page at /. A call is handed to g.ServeHTTP as gRPC: g's interceptors authenticate it from
// its Authorization header, exactly as a gRPC call's metadata.
func Handler(g *grpc.Server, cfg Config) (http.Handler, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return serveServices(endWithStatus(g), browserServices(g), cfg)
}

// endWithStatus gives every call h ends without a gRPC status one: Unavailable. The gRPC
// server closes a call it serves over HTTP (ServeHTTP) at once when it stops, sometimes
// before the status its handler returned is written; the browser is then told to call
// again (a watch resumes from its last event) rather than of a protocol error.
func endWithStatus(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if w.Header().Get("Grpc-Status") == "" && r.Context().Err() == nil {
			w.Header().Set(http.TrailerPrefix+"Grpc-Status", "14")
			w.Header().Set(http.TrailerPrefix+"Grpc-Message", url.PathEscape("the server is shutting down; call again"))
		}
	})
}

// ProxyHandler serves the named services (full names, such as
// "fray.encounter.v1.EncounterService") to browsers and the page at /, each call transcoded
// to gRPC and sent to backend (Backend: the encounter service of a deployment), which
// authenticates it from the Authorization header passed along, as any gRPC call; and the
// services of own, each served by its own handler (a grpc.Server of the gateway's own).
func ProxyHandler(backend http.Handler, services []string, own map[string]http.Handler, cfg Config) (http.Handler, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	var list []*vanguard.Service
	for _, name := range services {
		list = append(list, vanguard.NewService(name, backend))
	}
	for name, h := range own {
		list = append(list, vanguard.NewService(name, endWithStatus(h)))
	}
	return transcoder(list, cfg)
}

// serveServices transcodes the browsers' calls of names for h, a gRPC server or proxy.
func serveServices(h http.Handler, names []string, cfg Config) (http.Handler, error) {
	var services []*vanguard.Service
	for _, name := range names {
		services = append(services, vanguard.NewService(name, h))
	}
	return transcoder(services, cfg)
}

// transcoder serves services to browsers, the page at / and CORS as cfg says, under cfg's
// hosts.
func transcoder(services []*vanguard.Service, cfg Config) (http.Handler, error) {
	page := http.NotFoundHandler()
	if cfg.Assets != nil {
		page = assets(cfg.Assets)
	}
	t, err := vanguard.NewTranscoder(services,
		vanguard.WithDefaultServiceOptions(
			// The gRPC server forces its proto codec (validate.RequestCodec): vanguard turns
			// the browsers' JSON into protobuf for it.
			vanguard.WithTargetCodecs(vanguard.CodecProto),
			vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
			// The compressed bytes of a message; boundedGzip bounds them inflated.
			vanguard.WithMaxMessageBufferBytes(MaxMessageBytes),
		),
		// gzip is the one compression vanguard knows: replaced, not added to.
		vanguard.WithCompression(vanguard.CompressionGzip, func() connect.Compressor { return gzip.NewWriter(io.Discard) }, newBoundedGzip),
		vanguard.WithCodec(newJSONCodec),
		vanguard.WithUnknownHandler(page),
	)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	hosts := cfg.Hosts
	if len(hosts) == 0 {
		hosts = LoopbackHosts
	}
	return onlyHosts(withCORS(refuseEmpty(t), cfg.AllowedOrigins), hosts), nil
}

// CheckOrigin refuses an allowed origin that is not "*" nor scheme://host[:port].
func CheckOrigin(o string) error {
	if o == "*" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("allowed origin %q: give scheme://host[:port], such as https://table.example, or *", o)
	}
	return nil
}

// The headers of the Connect, gRPC and gRPC-web protocols that browsers send and read
// (connectrpc.com/cors's lists), plus the token and delegation headers.
var (
	allowedHeaders = []string{
		"Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms", "Connect-Accept-Encoding",
		"Connect-Content-Encoding", "Content-Encoding", "Accept-Encoding", "Grpc-Timeout",
		"X-Grpc-Web", "X-User-Agent", "Authorization", "Fray-On-Behalf-Of",
	}
	exposedHeaders = []string{
		"Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin", "Content-Encoding",
		"Connect-Content-Encoding", "Connect-Accept-Encoding",
	}
)

// withCORS answers preflights and sets CORS headers for origins; none: same origin only
// (a cross-origin browser gets no CORS headers, so it cannot read any answer).
func withCORS(h http.Handler, origins []string) http.Handler {
	if len(origins) == 0 {
		return h
	}
	return cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost},
		AllowedHeaders: allowedHeaders,
		ExposedHeaders: exposedHeaders,
		// Tokens go in the Authorization header, never in cookies.
		AllowCredentials: false,
		MaxAge:           7200,
	}).Handler(h)
}

// contentSecurityPolicy of the page: its own files, no inline script, no other origin.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// assets serves the page: files as they are, / as index.html, never a listing of a folder;
// every answer says not to sniff types nor send a referrer (the page's address holds the
// token in its fragment, which browsers never send, but a referrer policy costs nothing).
func assets(files fs.FS) http.Handler {
	fsrv := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		// The page holds a token and shows what players typed (names, speech): only its own
		// scripts run, and it talks to its own origin alone.
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/") && r.URL.Path != "/" {
			if _, err := fs.Stat(files, strings.Trim(r.URL.Path, "/")+"/index.html"); err != nil {
				http.NotFound(w, r)
				return
			}
		}
		if r.URL.Path == "/" || strings.HasSuffix(r.URL.Path, ".html") {
			// The page changes with the server: never a stale one.
			h.Set("Cache-Control", "no-cache")
		}
		fsrv.ServeHTTP(w, r)
	})
}

// NewHTTPServer is an http.Server for h speaking HTTP/1.1 (browsers' fetch over plain HTTP)
// and unencrypted HTTP/2 (gRPC clients), with bounded header reads and idle connections and
// no write timeout (WatchEncounter streams last).
func NewHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	s := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	if log != nil {
		s.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	}
	s.Protocols = new(http.Protocols)
	s.Protocols.SetHTTP1(true)
	s.Protocols.SetUnencryptedHTTP2(true)
	return s
}

// Serve serves h on lis until ctx is done, then stops gracefully within grace. Open streams
// end when the gRPC server behind h shuts down (server.Server ends them), so that both
// stop together.
func Serve(ctx context.Context, lis net.Listener, h http.Handler, log *slog.Logger, grace time.Duration) error {
	s := NewHTTPServer(h, log)
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := s.Shutdown(sctx); err != nil {
		s.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
