// Package auth verifies who calls: the bearer token of each request (a JWT signed by a key of
// a JWKS file or URL, or fray dev's own key), a client acting on behalf of a subject of its
// tenant, and a token bound to one encounter (an invite's), which calls only about that
// encounter (bound.go). It also mints tokens (token.go) and keeps fray dev's key (devkey.go).
// The caller it finds is an identity.Identity in the request's context.
package auth
