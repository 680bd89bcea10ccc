package client

// Printing what the server sends: a name, a reason, a prompt or an error message comes from
// other people (a player names a combatant, the GM gives a reason), so before the CLI prints it
// every character that could drive the terminal or reorder the line (control characters: NUL,
// ESC, CR, LF, TAB, DEL, C1; bidirectional marks, overrides and isolates; line separators) is
// written as its Go escape, "Diego\x1b[2J" as the ten characters `Diego\x1b[2J`. The rest of
// the text is printed as it is. Every response of the CLI's connections is escaped this way
// (Printable on each string of each message, see dial), as is every error it reports; --json
// output keeps the data and escapes those characters in JSON (\u001b).

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Unprintable reports whether r must not reach a terminal as it is.
func Unprintable(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	}
	return false
}

// Printable returns s with its control and bidirectional characters (and invalid UTF-8)
// written as Go escapes (\x00, \x1b, \r, \n, \u202e); s itself when it has none.
func Printable(s string) string {
	clean := true
	for i, r := range s {
		if Unprintable(r) || (r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD")) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Unprintable(r):
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// PrintableJSON escapes, in JSON text, the characters Printable escapes: JSON's \uXXXX keeps
// the data as it is while the terminal shows only plain text. Outside strings JSON holds
// none of them but the newlines and indentation, which stay.
func PrintableJSON(b []byte) []byte {
	s := string(b)
	var out strings.Builder
	for _, r := range s {
		if Unprintable(r) && r != '\n' {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}

// printableMessage escapes, in place, every string of m (and every string key of its maps).
func printableMessage(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				switch fd.Kind() {
				case protoreflect.StringKind:
					if s := l.Get(i).String(); Printable(s) != s {
						l.Set(i, protoreflect.ValueOfString(Printable(s)))
					}
				case protoreflect.MessageKind, protoreflect.GroupKind:
					printableMessage(l.Get(i).Message())
				}
			}
		case fd.IsMap():
			mp := v.Map()
			type kv struct {
				k protoreflect.MapKey
				v protoreflect.Value
			}
			var renamed []kv
			mp.Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Kind() == protoreflect.StringKind {
					if s := mv.String(); Printable(s) != s {
						mv = protoreflect.ValueOfString(Printable(s))
						mp.Set(k, mv)
					}
				} else if fd.MapValue().Message() != nil {
					printableMessage(mv.Message())
				}
				if fd.MapKey().Kind() == protoreflect.StringKind {
					if s := k.String(); Printable(s) != s {
						renamed = append(renamed, kv{k, mv})
					}
				}
				return true
			})
			for _, e := range renamed {
				mp.Clear(e.k)
				mp.Set(protoreflect.ValueOfString(Printable(e.k.String())).MapKey(), e.v)
			}
		case fd.Kind() == protoreflect.StringKind:
			if s := v.String(); Printable(s) != s {
				m.Set(fd, protoreflect.ValueOfString(Printable(s)))
			}
		case fd.Message() != nil:
			printableMessage(v.Message())
		}
		return true
	})
}

// printableStatus is err with its status message escaped.
func printableStatus(err error) error {
	if err == nil {
		return nil
	}
	s, ok := status.FromError(err)
	if !ok || Printable(s.Message()) == s.Message() {
		return err
	}
	p := s.Proto()
	p.Message = Printable(p.GetMessage())
	return status.ErrorProto(p)
}

// printableUnary escapes every string of a response and the message of an error.
func printableUnary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if err := invoker(ctx, method, req, reply, cc, opts...); err != nil {
		return printableStatus(err)
	}
	if m, ok := reply.(proto.Message); ok {
		printableMessage(m.ProtoReflect())
	}
	return nil
}

func printableStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, printableStatus(err)
	}
	return printableClientStream{s}, nil
}

type printableClientStream struct{ grpc.ClientStream }

func (s printableClientStream) RecvMsg(m any) error {
	if err := s.ClientStream.RecvMsg(m); err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return printableStatus(err)
	}
	if pm, ok := m.(proto.Message); ok {
		printableMessage(pm.ProtoReflect())
	}
	return nil
}

// Display is a copy of m, read from the log rather than through the CLI's connections, with
// every string escaped for the terminal.
func Display[T proto.Message](m T) T {
	c := proto.CloneOf(m)
	printableMessage(c.ProtoReflect())
	return c
}
