package gateway

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// MaxMessageBytes bounds a message through the transcoder, as it arrives and once inflated: a
// message of the API is at most a few hundred KiB (a sheet, an export page), and the gRPC
// servers behind accept no more than 4 MiB either.
const MaxMessageBytes = 4 << 20

// errInflatesTooFar is what a compressed message that inflates past MaxMessageBytes gets (a
// new one each time: vanguard may write on an error's metadata).
func errInflatesTooFar() error {
	return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf(
		"a gzip-compressed message inflates to more than %d bytes (4 MiB), the most a message may hold: send less", MaxMessageBytes))
}

// boundedGzip inflates at most MaxMessageBytes of a message, then fails: vanguard's own gzip
// reader inflates all there is into one growing buffer and bounds the compressed bytes only
// (a 127 KB body inflating to 128 MiB would cost 18 s and grow the process by 800 MB). The
// bound is checked as the bytes come, so a bomb costs no more than a message at the limit.
type boundedGzip struct {
	gz   gzip.Reader
	left int64
}

func newBoundedGzip() connect.Decompressor { return &boundedGzip{} }

func (d *boundedGzip) Reset(r io.Reader) error {
	d.left = MaxMessageBytes
	return notGzip(d.gz.Reset(r))
}

func (d *boundedGzip) Read(p []byte) (int, error) {
	if d.left <= 0 {
		return 0, notGzip(d.ends())
	}
	if int64(len(p)) > d.left {
		p = p[:d.left]
	}
	n, err := d.gz.Read(p)
	d.left -= int64(n)
	if d.left == 0 && err == nil {
		// At the limit: say now whether the message ends here, before the reader's buffer,
		// full, grows to take more.
		err = d.ends()
	}
	return n, notGzip(err)
}

// notGzip makes a broken gzip stream the sender's fault (vanguard answered it Unknown).
func notGzip(err error) error {
	var ce *connect.Error
	if err == nil || err == io.EOF || errors.As(err, &ce) {
		return err
	}
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("the message is not valid gzip (%v): compress it whole with gzip, or not at all", err))
}

// ends is io.EOF when the message ends here, errInflatesTooFar when it goes on.
func (d *boundedGzip) ends() error {
	var one [1]byte
	for {
		n, err := d.gz.Read(one[:])
		if n > 0 {
			return errInflatesTooFar()
		}
		if err != nil {
			return err
		}
	}
}

func (d *boundedGzip) Close() error { return d.gz.Close() }

// jsonCodec is vanguard's JSON codec whose refusals of a request are the client's fault
// (InvalidArgument, HTTP 400) and say so: vanguard passes the codec's error on as it is,
// which the browser got as HTTP 500 "unknown: proto: unexpected EOF". It decodes requests
// only: the gRPC servers behind answer in protobuf.
type jsonCodec struct{ *vanguard.JSONCodec }

func newJSONCodec(res vanguard.TypeResolver) vanguard.Codec {
	return jsonCodec{vanguard.NewJSONCodec(res)}
}

func (c jsonCodec) Unmarshal(data []byte, msg proto.Message) error {
	return notJSON(msg.ProtoReflect().Descriptor().FullName(), c.JSONCodec.Unmarshal(data, msg))
}

func (c jsonCodec) UnmarshalField(data []byte, msg proto.Message, field protoreflect.FieldDescriptor) error {
	return notJSON(msg.ProtoReflect().Descriptor().FullName(), c.JSONCodec.UnmarshalField(data, msg, field))
}

func notJSON(name protoreflect.FullName, err error) error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		return err
	}
	// protojson's errors begin "proto:" and a space or a no-break space, at random.
	why := strings.TrimLeft(strings.TrimPrefix(err.Error(), "proto:"), " \u00a0")
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(
		"the request is not a valid %s in JSON (%s): send a JSON object of its fields, {} for none", name, why))
}

// refuseEmpty answers InvalidArgument, in the call's protocol, to a call that carries no
// message at all: an empty body of the Connect protocol's JSON, gRPC-web, gRPC or a Connect
// stream (each method of the API takes exactly one request). vanguard sends such a call on
// without its message and the gRPC server answered Internal ("cardinality violation"). An
// empty body of the Connect protocol's binary protobuf is a message, the empty one, and goes
// on.
func refuseEmpty(h http.Handler) http.Handler {
	ew := connect.NewErrorWriter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !ew.IsSupported(r) || r.ContentLength > 0 {
			h.ServeHTTP(w, r)
			return
		}
		if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/proto" {
			h.ServeHTTP(w, r)
			return
		}
		empty := r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody
		if !empty {
			// Length unknown (chunked, or HTTP/2 without one): look at the first byte. Every
			// client sends its request before it waits for an answer.
			var one [1]byte
			n, err := io.ReadFull(r.Body, one[:])
			switch {
			case n == 1:
				r.Body = struct {
					io.Reader
					io.Closer
				}{io.MultiReader(bytes.NewReader(one[:]), r.Body), r.Body}
			case errors.Is(err, io.EOF):
				empty = true
			default:
				// The body broke off: nothing to answer.
				return
			}
		}
		if !empty {
			h.ServeHTTP(w, r)
			return
		}
		_ = ew.Write(w, r, connect.NewError(connect.CodeInvalidArgument, errors.New(
			"the call carries no request message: send the request (in JSON, an object of its fields, {} for none)")))
	})
}
