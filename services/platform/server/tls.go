package server

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// ServerTLS is the server option serving TLS with the certificate (chain) and key in PEM
// files; none when both are empty.
func ServerTLS(certFile, keyFile string) ([]grpc.ServerOption, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("TLS needs both --tls-cert and --tls-key")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate: %w", err)
	}
	return []grpc.ServerOption{grpc.Creds(credentials.NewTLS(&tls.Config{
		Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12,
	}))}, nil
}

// ClientTLS is the transport of a client that verifies the server: against the CA
// certificates in the PEM file caFile, or the system roots when caFile is "".
func ClientTLS(caFile string) (credentials.TransportCredentials, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s holds no PEM certificate", caFile)
		}
		cfg.RootCAs = pool
	}
	return credentials.NewTLS(cfg), nil
}

// Transport chooses a client's transport: TLS verified against caFile when it is given, or
// against the system roots when useTLS is set or addr is not on loopback; plaintext only to
// a loopback address (fray dev). secure tells which.
func Transport(addr, caFile string, useTLS bool) (creds credentials.TransportCredentials, secure bool, err error) {
	if caFile != "" || useTLS || !IsLoopback(addr) {
		c, err := ClientTLS(caFile)
		return c, true, err
	}
	return insecure.NewCredentials(), false, nil
}

// IsLoopback reports whether addr (host:port) names a loopback host.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
