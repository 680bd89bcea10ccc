package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// The scopes a token may grant, beyond calling as its subject.
const (
	// ScopeDelegate lets a client act on behalf of any subject of its own tenant.
	ScopeDelegate = "fray:delegate"
	// ScopeResolve lets a caller (the encounter service) ask the resolver to decide commands.
	ScopeResolve = "fray:resolve"
	// ScopeAdmin makes a caller its tenant's administrator: it lists and ends the tenant's
	// idle encounters (EncounterService.ListIdleEncounters, EndIdleEncounters), whatever its
	// role in them. A caller acting on behalf of another (ScopeDelegate) does not pass it on.
	ScopeAdmin = "fray:admin"
)

// Identity is the authenticated caller of a request, as the authentication interceptor found
// it in a verified token.
type Identity struct {
	// Tenant is the game community or hosting customer the token belongs to.
	Tenant string
	// Subject is the person (or service) the request is for.
	Subject string
	// Scopes are the token's scopes ("fray:resolve", "fray:delegate"…); empty when a client
	// acts on behalf of Subject.
	Scopes []string
	// Client is the token's own subject when it acts on behalf of Subject (a chat bot, a
	// virtual tabletop's server), "" otherwise.
	Client string
	// Encounter, when set, binds the token to that one encounter (an invite's token): it calls
	// only the RPCs about that encounter (auth.BoundUnary), within the role it holds there, and
	// nothing else of its tenant.
	Encounter string
	// Inviter is the principal whose rate budget a bound token's calls draw from (the one who
	// invited, or whom that one's own invite drew from): "" for a token of one's own.
	Inviter string
	// Expires is when the token expires: an invite it mints expires no later.
	Expires time.Time
}

// Budget is the principal whose rate bucket the caller's calls take from: an invite's
// inviter, so that minting principals does not multiply a budget; else the caller itself.
func (i Identity) Budget() string {
	if i.Inviter != "" {
		return i.Inviter
	}
	return i.Principal()
}

// Principal is "tenant/subject": the name the rules engine records and checks.
func (i Identity) Principal() string {
	if i.Subject == "" {
		return ""
	}
	return i.Tenant + "/" + i.Subject
}

// HasScope reports whether the identity holds scope.
func (i Identity) HasScope(scope string) bool { return slices.Contains(i.Scopes, scope) }

type identityKey struct{}

// WithIdentity returns ctx carrying id as the authenticated caller. The authentication
// interceptor calls it; in-process tests may too.
func With(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the authenticated caller of ctx.
func From(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok && id.Subject != ""
}

// Principal returns the authenticated caller's principal, "tenant/subject" ("" when none).
func Principal(ctx context.Context) string {
	id, _ := From(ctx)
	return id.Principal()
}

// Tenant returns the authenticated caller's tenant ("" when none).
func Tenant(ctx context.Context) string {
	id, _ := From(ctx)
	return id.Tenant
}

// MaxNameLength bounds a tenant or a subject.
const MaxNameLength = 128

// CheckName checks that a tenant or subject may be part of a principal: 1 to MaxNameLength
// printable characters, no '/', no spaces.
func CheckName(what, name string) error {
	if name == "" {
		return fmt.Errorf("the %s is empty", what)
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("the %s has %d bytes; at most %d", what, len(name), MaxNameLength)
	}
	for _, r := range name {
		if r == '/' || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return fmt.Errorf("the %s %q has %q: use letters, digits and punctuation other than '/'", what, name, r)
		}
	}
	return nil
}

// Qualify makes name a principal of tenant: a bare name ("david") becomes "tenant/david"; a
// principal ("dev/david") is returned as it is. The empty name stays empty.
func Qualify(tenant, name string) string {
	if name == "" || strings.Contains(name, "/") {
		return name
	}
	return tenant + "/" + name
}

// SplitPrincipal splits "tenant/subject"; ok is false when p is not of that form.
func SplitPrincipal(p string) (tenant, subject string, ok bool) {
	tenant, subject, ok = strings.Cut(p, "/")
	return tenant, subject, ok && tenant != "" && subject != "" && !strings.Contains(subject, "/")
}
