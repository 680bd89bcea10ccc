// Package gatewaytest sends a browser port of fray (fray dev's --web, the deployment's
// gateway) the hostile calls it must answer well, over real HTTP: compression bombs in every
// protocol and encoding the port accepts, malformed and empty requests, and other Host
// headers (DNS rebinding). Each check reads the answer in the call's own protocol.
package gatewaytest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"
)

// The service of the calls: every port serves it.
const service = "/fray.encounter.v1.EncounterService/"

// BombInflated is what each bomb inflates to: 128 MiB, from a body of about 130 KB — far past
// the 4 MiB a message may hold, small enough to send in any protocol.
const BombInflated = 128 << 20

// Call is an HTTP request of an RPC, as a client of one protocol sends it.
type Call struct {
	Name   string
	Method string // of EncounterService
	Header map[string]string
	Body   []byte
	// HTTP2 sends it over unencrypted HTTP/2, as gRPC needs.
	HTTP2 bool
}

// gzipped is body compressed with gzip, at the best compression (a bomb's).
func gzipped(parts ...[]byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, p := range parts {
		_, _ = w.Write(p)
	}
	_ = w.Close()
	return b.Bytes()
}

// bombBody is gzip of a JSON object whose one string runs to BombInflated bytes: it is
// refused for its size, not for its form, in JSON and (as unknown bytes) in protobuf alike.
// It is gzip members one after the other (a gzip stream may hold several), the same MiB of
// the string 128 times, to make at once.
func bombBody() []byte {
	mib := gzipped(bytes.Repeat([]byte("a"), 1<<20))
	body := gzipped([]byte(`{"name":"`))
	for range BombInflated >> 20 {
		body = append(body, mib...)
	}
	return body
}

// envelope is one message of an enveloped protocol (Connect streams, gRPC, gRPC-web):
// its flags (1: compressed), its length, itself.
func envelope(flags byte, msg []byte) []byte {
	out := make([]byte, 5, 5+len(msg))
	out[0] = flags
	binary.BigEndian.PutUint32(out[1:], uint32(len(msg)))
	return append(out, msg...)
}

// Bombs are the compression bombs of each protocol and codec a browser port accepts, and of
// each place a compression is named: the Connect protocol's Content-Encoding (unary),
// Connect-Content-Encoding with each message's compressed flag (streams), and gRPC's and
// gRPC-web's Grpc-Encoding with the flag.
func Bombs() []Call {
	z := bombBody()
	connect := func(codec string) map[string]string {
		return map[string]string{"Content-Type": "application/" + codec, "Connect-Protocol-Version": "1", "Content-Encoding": "gzip"}
	}
	stream := func(codec string) map[string]string {
		return map[string]string{"Content-Type": "application/connect+" + codec, "Connect-Protocol-Version": "1", "Connect-Content-Encoding": "gzip"}
	}
	grpcs := func(kind, codec string) map[string]string {
		return map[string]string{"Content-Type": "application/" + kind + "+" + codec, "Grpc-Encoding": "gzip", "Te": "trailers"}
	}
	return []Call{
		{Name: "connect unary json", Method: "CreateEncounter", Header: connect("json"), Body: z},
		{Name: "connect unary proto", Method: "CreateEncounter", Header: connect("proto"), Body: z},
		{Name: "connect stream json", Method: "WatchEncounter", Header: stream("json"), Body: envelope(1, z)},
		{Name: "connect stream proto", Method: "WatchEncounter", Header: stream("proto"), Body: envelope(1, z)},
		{Name: "grpc-web json", Method: "CreateEncounter", Header: grpcs("grpc-web", "json"), Body: envelope(1, z)},
		{Name: "grpc-web proto", Method: "CreateEncounter", Header: grpcs("grpc-web", "proto"), Body: envelope(1, z)},
		{Name: "grpc json", Method: "CreateEncounter", Header: grpcs("grpc", "json"), Body: envelope(1, z), HTTP2: true},
		{Name: "grpc proto", Method: "CreateEncounter", Header: grpcs("grpc", "proto"), Body: envelope(1, z), HTTP2: true},
	}
}

// AtTheLimit is a Connect unary call of CreateEncounter in JSON, compressed with gzip, that
// inflates to exactly size bytes: at most MaxMessageBytes, it is read whole.
func AtTheLimit(size int) Call {
	head, tail := []byte(`{"commandId":"`), []byte(`"}`)
	body := gzipped(head)
	mib := gzipped(bytes.Repeat([]byte("a"), 1<<20))
	pad := size - len(head) - len(tail)
	for ; pad >= 1<<20; pad -= 1 << 20 {
		body = append(body, mib...)
	}
	body = append(body, gzipped(bytes.Repeat([]byte("a"), pad), tail)...)
	return Call{Name: "at the limit", Method: "CreateEncounter", Body: body,
		Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1", "Content-Encoding": "gzip"}}
}

// Answer is an RPC's answer: its HTTP status, and the RPC's code ("ok", "invalid_argument",
// … as the Connect protocol names them) and message, read in the call's protocol.
type Answer struct {
	HTTPStatus    int
	Code, Message string
}

// Send sends c to base (http://host:port) with the Host header host ("" for base's) and
// token ("" for none) and reads its answer.
func Send(t testing.TB, base, host, token string, c Call) Answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+service+c.Method, bytes.NewReader(c.Body))
	require.NoError(t, err)
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if host != "" {
		req.Host = host
	}
	return do(t, client(c.HTTP2), req)
}

// client is an HTTP client of HTTP/1.1, or of unencrypted HTTP/2 (for gRPC).
func client(h2 bool) *http.Client {
	tr := &http.Transport{DisableKeepAlives: true}
	if h2 {
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetUnencryptedHTTP2(true)
	}
	return &http.Client{Transport: tr, Timeout: 2 * time.Minute}
}

func do(t testing.TB, c *http.Client, req *http.Request) Answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(req.Context(), 2*time.Minute)
	defer cancel()
	res, err := c.Do(req.WithContext(ctx))
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := Answer{HTTPStatus: res.StatusCode}
	a.Code, a.Message = rpcStatus(res, body)
	return a
}

// rpcStatus reads the RPC's status from an answer of any of the protocols.
func rpcStatus(res *http.Response, body []byte) (code, msg string) {
	grpcStatus := func(h http.Header) (string, string, bool) {
		s := h.Get("Grpc-Status")
		if s == "" {
			return "", "", false
		}
		n, _ := strconv.Atoi(s)
		m, _ := url.PathUnescape(h.Get("Grpc-Message"))
		if n == 0 {
			return "ok", m, true
		}
		return connect.Code(n).String(), m, true
	}
	if c, m, ok := grpcStatus(res.Header); ok {
		return c, m
	}
	if c, m, ok := grpcStatus(res.Trailer); ok {
		return c, m
	}
	ct := res.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/grpc-web"):
		// The trailers are the last message, flag 0x80: "grpc-status: 8\r\n…".
		for rest := body; len(rest) >= 5; {
			n := int(binary.BigEndian.Uint32(rest[1:5]))
			if len(rest) < 5+n {
				break
			}
			if rest[0]&0x80 != 0 {
				h := http.Header{}
				for _, line := range strings.Split(string(rest[5:5+n]), "\r\n") {
					if k, v, ok := strings.Cut(line, ":"); ok {
						h.Add(strings.TrimSpace(k), strings.TrimSpace(v))
					}
				}
				c, m, _ := grpcStatus(h)
				return c, m
			}
			rest = rest[5+n:]
		}
		return "", string(body)
	case strings.HasPrefix(ct, "application/connect+"):
		// The end of the stream is the last message, flag 0x02: {"error": {…}}.
		for rest := body; len(rest) >= 5; {
			n := int(binary.BigEndian.Uint32(rest[1:5]))
			if len(rest) < 5+n {
				break
			}
			if rest[0]&0x02 != 0 {
				var end struct {
					Error *struct{ Code, Message string } `json:"error"`
				}
				if json.Unmarshal(rest[5:5+n], &end) != nil || end.Error == nil {
					return "ok", ""
				}
				return end.Error.Code, end.Error.Message
			}
			rest = rest[5+n:]
		}
		return "", string(body)
	case res.StatusCode == http.StatusOK:
		return "ok", ""
	}
	var e struct{ Code, Message string }
	if json.Unmarshal(body, &e) != nil || e.Code == "" {
		return "", string(body)
	}
	return e.Code, e.Message
}

// heap is the process's heap after two collections (the second empties the pools the first
// kept): bytes in use, and bytes ever allocated.
func heap() (inUse, allocated uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, m.TotalAlloc
}

// MaxBombAllocated is what a bomb may cost the process, in bytes allocated while it is
// answered: a message at the limit (4 MiB) is read into a buffer that doubles as it fills,
// 8 MiB in all; the rest is slack for the call itself and the process's other work (twice
// that under the race detector). A bomb inflated in full costs 4 times what it inflates to
// (512 MiB for BombInflated).
const MaxBombAllocated = 16 << 20 * allocFactor

// MaxHeapGrowth is how much more heap the process may hold once a bomb is answered.
const MaxHeapGrowth = 4 << 20

// RequireBombsRefused sends each of Bombs to base, served by this process (the test's own),
// with token (one the service accepts, so that each bomb gets as far as its reading): each
// must be answered ResourceExhausted naming the limit, and the process allocate less than
// MaxBombAllocated while answering it and hold less than MaxHeapGrowth more heap after.
func RequireBombsRefused(t *testing.T, base, token string) {
	t.Helper()
	for _, c := range Bombs() {
		t.Run(c.Name, func(t *testing.T) {
			t.Logf("%d bytes, inflating to %d", len(c.Body), BombInflated)
			inUse0, alloc0 := heap()
			began := time.Now()
			a := Send(t, base, "", token, c)
			took := time.Since(began)
			inUse1, alloc1 := heap()
			allocated := alloc1 - alloc0
			grew := int64(inUse1) - int64(inUse0)
			t.Logf("answered in %v: HTTP %d, %s: %s; allocated %.1f MiB, heap in use %+.1f MiB",
				took, a.HTTPStatus, a.Code, a.Message, float64(allocated)/(1<<20), float64(grew)/(1<<20))
			require.Equal(t, "resource_exhausted", a.Code, "%+v", a)
			require.Contains(t, a.Message, "4194304", "the refusal names the limit")
			require.Less(t, allocated, uint64(MaxBombAllocated), "the bomb's cost is bounded, not what it inflates to")
			require.Less(t, grew, int64(MaxHeapGrowth), "nothing of the bomb is held")
		})
	}
}

// RequireCompressedCallsServed checks that calls whose messages are compressed with gzip, as
// clients send them, are still served: call makes one with the options of a Connect client
// (the protocol, the codec, gzip) in the Connect protocol's JSON (the page's) and binary, and
// in gRPC-web's, and must succeed.
func RequireCompressedCallsServed(t *testing.T, call func(t *testing.T, opts ...connect.ClientOption) error) {
	t.Helper()
	for _, tc := range []struct {
		name string
		opts []connect.ClientOption
	}{
		{"connect json", []connect.ClientOption{connect.WithProtoJSON()}},
		{"connect proto", nil},
		{"grpc-web json", []connect.ClientOption{connect.WithGRPCWeb(), connect.WithProtoJSON()}},
		{"grpc-web proto", []connect.ClientOption{connect.WithGRPCWeb()}},
	} {
		t.Run("gzip "+tc.name, func(t *testing.T) {
			require.NoError(t, call(t, append(tc.opts, connect.WithSendGzip(), connect.WithCompressMinBytes(0))...))
		})
	}
}

// RequireMalformedRefused sends base malformed and empty requests in JSON, in each protocol,
// with token (one the service accepts: a stream is authenticated before its message is
// read): each is answered InvalidArgument (HTTP 400 in the Connect protocol) with a message
// that says what is wrong. An empty body of the Connect protocol's binary protobuf is the
// empty message: it reaches the service, which, without a token, asks for one.
func RequireMalformedRefused(t *testing.T, base, token string) {
	t.Helper()
	unary := func(body string, gz bool) Call {
		c := Call{Method: "CreateEncounter", Body: []byte(body),
			Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}}
		if gz {
			c.Body = gzipped(c.Body)
			c.Header["Content-Encoding"] = "gzip"
		}
		return c
	}
	for _, tc := range []struct {
		name, want string
		call       Call
	}{
		{"cut short", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(`{"commandId":`, false)},
		{"an open brace", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(`{`, false)},
		{"an array", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(`[]`, false)},
		{"a wrong type", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(`{"commandId":7}`, false)},
		{"gzip of a cut one", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(`{"commandId":`, true)},
		{"gzip of nothing", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", unary(``, true)},
		{"gzip cut short", "gzip", Call{Method: "CreateEncounter", Body: gzipped([]byte(`{"commandId":"x"}`))[:12],
			Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1", "Content-Encoding": "gzip"}}},
		{"an empty body", "carries no request message", unary(``, false)},
		{"a stream without its message", "carries no request message", Call{Method: "WatchEncounter",
			Header: map[string]string{"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"}}},
		{"a stream's message cut short", "not a valid fray.encounter.v1.WatchEncounterRequest in JSON", Call{Method: "WatchEncounter",
			Header: map[string]string{"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"}, Body: envelope(0, []byte(`{"encounterId":`))}},
		{"grpc-web without its message", "carries no request message", Call{Method: "CreateEncounter",
			Header: map[string]string{"Content-Type": "application/grpc-web+json"}}},
		{"grpc-web's message cut short", "not a valid fray.encounter.v1.CreateEncounterRequest in JSON", Call{Method: "CreateEncounter",
			Header: map[string]string{"Content-Type": "application/grpc-web+json"}, Body: envelope(0, []byte(`{"commandId"`))}},
		{"grpc without its message", "carries no request message", Call{Method: "CreateEncounter", HTTP2: true,
			Header: map[string]string{"Content-Type": "application/grpc+json", "Te": "trailers"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Send(t, base, "", token, tc.call)
			t.Logf("HTTP %d, %s: %s", a.HTTPStatus, a.Code, a.Message)
			require.Equal(t, "invalid_argument", a.Code, "%+v", a)
			require.Contains(t, a.Message, tc.want)
			if tc.call.Header["Content-Type"] == "application/json" {
				require.Equal(t, http.StatusBadRequest, a.HTTPStatus)
			}
		})
	}
	a := Send(t, base, "", "", Call{Method: "GetEncounter",
		Header: map[string]string{"Content-Type": "application/proto", "Connect-Protocol-Version": "1"}})
	require.Equal(t, "unauthenticated", a.Code, "an empty message in binary reaches the service: %+v", a)
}

// RequireOnlyHosts checks that base serves the page and the API under each of allowed (Host
// headers, with or without a port) and refuses every other: the page with 421 Misdirected
// Request, a call of the API PermissionDenied (HTTP 403), each naming the hosts it serves.
func RequireOnlyHosts(t *testing.T, base string, allowed []string) {
	t.Helper()
	get := func(host string) (int, string) {
		req, err := http.NewRequest(http.MethodGet, base+"/", nil)
		require.NoError(t, err)
		req.Host = host
		res, err := client(false).Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	api := Call{Method: "GetEncounter", Body: []byte(`{"encounterId":"e"}`),
		Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}}
	for _, h := range allowed {
		code, body := get(h)
		require.NotEqual(t, http.StatusMisdirectedRequest, code, "Host %s: %s", h, body)
		a := Send(t, base, h, "", api)
		require.Equal(t, "unauthenticated", a.Code, "Host %s reaches the service: %+v", h, a)
	}
	_, port, err := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	for _, h := range []string{"evil.example", "evil.example:" + port, "localhost.evil.example", "127.0.0.1.nip.io:" + port, "[::2]:" + port} {
		code, body := get(h)
		require.Equal(t, http.StatusMisdirectedRequest, code, "Host %s: %s", h, body)
		require.Contains(t, body, "answers to the host names")
		require.Contains(t, body, h)
		a := Send(t, base, h, "", api)
		require.Equal(t, http.StatusForbidden, a.HTTPStatus, "Host %s: %+v", h, a)
		require.Equal(t, "permission_denied", a.Code)
		require.Contains(t, a.Message, "answers to the host names")
		grpcWeb := Call{Method: "GetEncounter", Body: envelope(0, []byte(`{"encounterId":"e"}`)),
			Header: map[string]string{"Content-Type": "application/grpc-web+json"}}
		require.Equal(t, "permission_denied", Send(t, base, h, "", grpcWeb).Code, "Host %s over gRPC-web", h)
	}
}
