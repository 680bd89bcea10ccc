package gateway

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Invite tokens' lifetimes.
const (
	DefaultInviteTTL = 12 * time.Hour
	MaxInviteTTL     = 7 * 24 * time.Hour
)

// InviteConfig is what serving invites takes: a signer whose tokens the services accept
// (fray dev's key: issuer auth.DevIssuer, audience auth.DevAudience), and the
// encounter service, called as the inviter.
type InviteConfig struct {
	Signer           auth.Signer
	Issuer, Audience string
	// Encounters is called with the inviter's own token (its authorization metadata
	// forwarded): the grant is the inviter's, authorised by the encounter service as any.
	Encounters encounterv1.EncounterServiceClient
	// PageURL, when set, returns the base URL of the page ("http://127.0.0.1:8080/"), "" when
	// none is served: the invites' links start with it.
	PageURL func() string
	// Now is the clock (tests).
	Now func() time.Time
}

// Invites serves fray.invite.v1.InviteService.
type Invites struct {
	invitev1.UnimplementedInviteServiceServer
	cfg InviteConfig
}

// NewInvites checks cfg and returns its InviteService.
func NewInvites(cfg InviteConfig) (*Invites, error) {
	if cfg.Signer.Key == nil || cfg.Issuer == "" || cfg.Audience == "" || cfg.Encounters == nil {
		return nil, errors.New("invites need a signer, the issuer and audience of its tokens, and the encounter service")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Invites{cfg: cfg}, nil
}

// Register serves the invites on g, and lets a token bound to an encounter (an invite's) call
// CreateInvite about it: an invite mints invites within the inviter's own rights and expiry.
func (s *Invites) Register(g grpc.ServiceRegistrar) {
	auth.AllowBound(invitev1.InviteService_CreateInvite_FullMethodName)
	invitev1.RegisterInviteServiceServer(g, s)
}

// CreateInvite grants the role to a new principal, as the caller, and mints its token: bound
// to the encounter (auth.EncounterClaim: good for that encounter only, and nothing once
// the role is revoked), expiring no later than the caller's own token, and drawing from the
// caller's rate budget (auth.InviterClaim: the caller's own inviter's, if it was invited).
// The GM and co-GMs invite, and only players and observers: never more than the inviter has.
func (s *Invites) CreateInvite(ctx context.Context, r *invitev1.CreateInviteRequest) (*invitev1.CreateInviteResponse, error) {
	caller, ok := identity.From(ctx)
	if !ok {
		return nil, status.Error(codes.Unauthenticated, "an invite is the GM's: send a token")
	}
	if err := checkInvite(r); err != nil {
		return nil, err
	}
	ttl := DefaultInviteTTL
	if r.GetTtl() != nil {
		ttl = r.GetTtl().AsDuration()
	}
	// An invite never outlives the token that mints it.
	now := s.cfg.Now()
	expires := now.Add(ttl)
	if !caller.Expires.IsZero() && caller.Expires.Before(expires) {
		expires = caller.Expires
	}
	if expires.Sub(now) < time.Second {
		return nil, status.Error(codes.Unauthenticated, "your token expires now: an invite never outlives the token that mints it; get a fresh token")
	}
	out := forwardCredentials(ctx)
	got, err := s.cfg.Encounters.GetEncounter(out, &encounterv1.GetEncounterRequest{EncounterId: r.GetEncounterId()})
	if err != nil {
		return nil, err
	}
	st := got.GetState()
	if !mayInvite(st, caller.Principal()) {
		return nil, status.Errorf(codes.PermissionDenied, "only the GM and co-GMs of %s invite; %s is not one of them", st.GetName(), caller.Principal())
	}
	commandID := r.GetCommandId()
	if commandID == "" {
		commandID = "invite-" + randomSuffix()
	}
	subject, err := s.inviteSubject(r, caller.Principal(), commandID)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "the invited principal could not be named: %v", err)
	}
	principal := caller.Tenant + "/" + subject
	res, err := s.cfg.Encounters.Submit(out, &encounterv1.SubmitRequest{
		EncounterId: r.GetEncounterId(), CommandId: commandID,
		Command: &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{
			Principal: principal, Role: r.GetRole(), CombatantIds: r.GetCombatantIds(),
		}}},
	})
	if err != nil {
		return nil, err
	}
	tok, err := s.cfg.Signer.Mint(auth.TokenClaims{
		Issuer: s.cfg.Issuer, Audience: s.cfg.Audience, Tenant: caller.Tenant, Subject: subject,
		TTL: expires.Sub(now), IssuedAt: now,
		Encounter: r.GetEncounterId(), Inviter: caller.Budget(),
	})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "the invite's role is granted, but its token could not be minted: %v", err)
	}
	resp := &invitev1.CreateInviteResponse{
		Principal: principal, Token: tok, ExpiresAt: timestamppb.New(expires.Truncate(time.Second)), Events: res.GetEvents(),
	}
	if s.cfg.PageURL != nil {
		resp.Url = InviteURL(s.cfg.PageURL(), r.GetEncounterId(), tok)
	}
	return resp, nil
}

// InviteURL is the link opening the page at base on the encounter with the token, in the
// fragment ("" when base is).
func InviteURL(base, encounterID, token string) string {
	if base == "" {
		return ""
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + "#/encounter/" + url.PathEscape(encounterID) + "?token=" + url.QueryEscape(token)
}

func checkInvite(r *invitev1.CreateInviteRequest) error {
	switch r.GetRole() {
	case encounterv1.Role_ROLE_PLAYER:
		if len(r.GetCombatantIds()) == 0 {
			return invalid("combatant_ids", "a player is invited to play combatants: name at least one")
		}
	case encounterv1.Role_ROLE_OBSERVER:
		if len(r.GetCombatantIds()) > 0 {
			return invalid("combatant_ids", "an observer controls no combatant")
		}
	default:
		return invalid("role", "invite a player (ROLE_PLAYER) or an observer (ROLE_OBSERVER); grant co-GM with `fray grant`")
	}
	if ttl := r.GetTtl(); ttl != nil {
		if err := ttl.CheckValid(); err != nil || ttl.AsDuration() <= 0 || ttl.AsDuration() > MaxInviteTTL {
			return invalid("ttl", fmt.Sprintf("an invite is valid for a positive time of at most %s", MaxInviteTTL))
		}
	}
	if n := r.GetName(); n != "" {
		if len(n) > 48 || strings.IndexFunc(n, func(c rune) bool { return !nameRune(c) }) >= 0 {
			return invalid("name", fmt.Sprintf("%q: a name of at most 48 letters, digits, '-', '_' or '.'", n))
		}
	}
	return nil
}

func nameRune(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || c == '-' || c == '_' || c == '.'
}

// invalid is InvalidArgument with the field named in a BadRequest, as the services refuse.
func invalid(field, msg string) error {
	return refusal.BadRequest(field, "%s", msg)
}

// mayInvite: the GM and co-GMs.
func mayInvite(st *encounterv1.EncounterState, p string) bool {
	if st.GetGameMaster() == p {
		return true
	}
	for _, g := range st.GetRoles() {
		if g.GetPrincipal() == p && g.GetRole() == encounterv1.Role_ROLE_CO_GM {
			return true
		}
	}
	return false
}

// inviteSubject is the name asked for, or the first combatant's id, or "observer", with a
// suffix the signer's key draws from the invite's encounter, inviter and command id: a retry
// of the same invite names the same principal (and the encounter service records its grant
// once), and no one without the key can aim a suffix at a principal that exists already.
func (s *Invites) inviteSubject(r *invitev1.CreateInviteRequest, inviter, commandID string) (string, error) {
	name := r.GetName()
	if name == "" && len(r.GetCombatantIds()) > 0 {
		name = slug(r.GetCombatantIds()[0])
	}
	if name == "" {
		name = "observer"
	}
	sum := sha256.Sum256([]byte("fray invite\x00" + r.GetEncounterId() + "\x00" + inviter + "\x00" + commandID))
	// Ed25519 and RSA PKCS #1 v1.5 signatures are deterministic: a keyed function of sum.
	var opts crypto.SignerOpts = crypto.SHA256
	if _, ok := s.cfg.Signer.Key.(ed25519.PrivateKey); ok {
		opts = crypto.Hash(0)
	}
	sig, err := s.cfg.Signer.Key.Sign(rand.Reader, sum[:], opts)
	if err != nil {
		return "", err
	}
	suffix := sha256.Sum256(sig)
	return name + "-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(suffix[:8])), nil
}

// slug keeps a combatant id's name characters, at most 32.
func slug(id string) string {
	var b strings.Builder
	for _, c := range id {
		if b.Len() >= 32 {
			break
		}
		if nameRune(c) {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "player"
	}
	return b.String()
}

func randomSuffix() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
}

// forwardCredentials is ctx with the caller's authorization (and delegation) metadata as the
// outgoing call's: the nested calls are the caller's own.
func forwardCredentials(ctx context.Context) context.Context {
	in, _ := metadata.FromIncomingContext(ctx)
	out := metadata.MD{}
	for _, k := range []string{auth.AuthorizationKey, auth.OnBehalfOfKey} {
		if v := in.Get(k); len(v) > 0 {
			out.Set(k, v...)
		}
	}
	return metadata.NewOutgoingContext(ctx, out)
}
