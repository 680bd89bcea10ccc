package gateway

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
)

// Backend is a reverse proxy speaking gRPC (HTTP/2) to addr (host:port): over TLS checked
// against tlsConf when it is set, in plaintext (h2c) otherwise. Each call's headers go along
// as they are, its Authorization header with them; answers and trailers are streamed back
// as they come (a WatchEncounter lasts).
func Backend(addr string, tlsConf *tls.Config) http.Handler {
	target := &url.URL{Scheme: "http", Host: addr}
	t := &http.Transport{TLSClientConfig: tlsConf, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 4}
	t.Protocols = new(http.Protocols)
	if tlsConf != nil {
		target.Scheme = "https"
		t.Protocols.SetHTTP2(true)
	} else {
		t.Protocols.SetUnencryptedHTTP2(true)
	}
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = addr
		},
		Transport:     t,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			// A gRPC answer: the transcoder tells the browser in its protocol.
			w.Header().Set("Content-Type", "application/grpc")
			w.Header().Set("Grpc-Status", "14") // Unavailable
			w.Header().Set("Grpc-Message", url.PathEscape("the encounter service cannot be reached: "+err.Error()))
			w.WriteHeader(http.StatusOK)
		},
	}
}

// BackendTLS is the TLS configuration reaching a backend whose certificate caFile's CA
// signed ("" for the system's roots), for the name serverName ("" for the address's host).
func BackendTLS(caFile, serverName string) (*tls.Config, error) {
	conf := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if caFile == "" {
		return conf, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("the backend's CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("the backend's CA file " + caFile + " holds no PEM certificate")
	}
	conf.RootCAs = pool
	return conf, nil
}
