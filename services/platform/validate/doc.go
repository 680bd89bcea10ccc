// Package validate checks every request before its handler runs: ids, names and free text
// (no control or bidirectional characters), list and map sizes, the request's size, and the
// state a client sends the resolver's stateless RPCs. An invalid request is InvalidArgument
// with a google.rpc.BadRequest naming the field, an undecodable one too (RequestCodec), never
// Internal. The server (package server) puts Unary and Stream last before the handlers.
package validate
