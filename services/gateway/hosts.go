package gateway

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"

	"connectrpc.com/connect"
)

// LoopbackHosts are the names a server on this machine answers to unless told others: those a
// browser here uses to reach it.
var LoopbackHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// hostName is the name of a Host header or of a setting, without its port, brackets or final
// dot, in lower case: "[::1]:8080" is "::1", "Table.Example." is "table.example".
func hostName(h string) string {
	if name, _, err := net.SplitHostPort(h); err == nil {
		h = name
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.ToLower(strings.TrimSuffix(h, "."))
}

// CheckHost refuses an allowed host that is not "*" nor a host name or IP address (a port is
// allowed and ignored).
func CheckHost(h string) error {
	if h == "*" {
		return nil
	}
	name := hostName(h)
	if strings.ContainsAny(h, "/@?#*%, \t") || name == "" || strings.ContainsAny(name, "[]") ||
		(strings.Contains(name, ":") && net.ParseIP(name) == nil) {
		return fmt.Errorf("allowed host %q: give a host name or an IP address, such as table.example, 127.0.0.1 or [::1], or *", h)
	}
	return nil
}

// onlyHosts serves h to requests whose Host is one of hosts (any port), or any when hosts
// holds "*"; others are refused, 421 Misdirected Request (403 PermissionDenied for a call of
// the API), naming the hosts served. A page on another name may not reach this server even
// when its name resolves here (DNS rebinding: evil.example made to resolve to 127.0.0.1
// would let its page drive a fray dev on the visitor's machine, and read its answers, as the
// same origin).
func onlyHosts(h http.Handler, hosts []string) http.Handler {
	if slices.Contains(hosts, "*") {
		return h
	}
	names := map[string]bool{}
	for _, n := range hosts {
		names[hostName(n)] = true
	}
	served := strings.Join(hosts, ", ")
	ew := connect.NewErrorWriter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if names[hostName(r.Host)] {
			h.ServeHTTP(w, r)
			return
		}
		why := fmt.Sprintf("this server answers to the host names %s, not %q: open it under one of those "+
			"(a page under another name that resolves here is refused: DNS rebinding)", served, r.Host)
		if r.Method == http.MethodPost && ew.IsSupported(r) {
			_ = ew.Write(w, r, connect.NewError(connect.CodePermissionDenied, errors.New(why)))
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, why, http.StatusMisdirectedRequest)
	})
}
