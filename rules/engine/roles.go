package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
)

// Roles per encounter. A principal is "tenant/subject". An encounter belongs to the tenant of
// its creator, and only principals of that tenant may hold a role in it.
//
//   - The GM is the creator (EncounterState.game_master): everything.
//   - A co-GM does everything the GM may do in play: rulings (IsGameMaster), start, rewind,
//     add and remove combatants, command any combatant, hide combatants, open joining, grant
//     and revoke player and observer. Not: grant or revoke co-GM, nor end the encounter (an end
//     reveals the seed and takes no more commands, so it is the one decision a rewind cannot
//     undo; it stays the GM's).
//   - A player commands the combatants it controls (Combatant.controller) and reads. Whoever
//     controls a combatant reads as a player, granted or not.
//   - An observer reads only.
//
// Grants and revokes are recorded events (RoleGranted, RoleRevoked): a grant of player names
// the combatants it controls from then on; a revoke leaves the principal with no role, and the
// combatants it controlled go back to the GM. While the GM or a co-GM keeps the encounter open
// to joining (SetJoining, closed at creation), any principal of the tenant may add combatants
// it controls itself, and so becomes a player. A rewind undoes the fight, not who sits at the
// table: roles, joining and the controllers of the combatants are kept as they are.

// Role is a principal's role in one encounter.
type Role = encounterv1.Role

// The roles, RoleNone for a stranger.
const (
	RoleNone     = encounterv1.Role_ROLE_UNSPECIFIED
	RoleGM       = encounterv1.Role_ROLE_GM
	RoleCoGM     = encounterv1.Role_ROLE_CO_GM
	RolePlayer   = encounterv1.Role_ROLE_PLAYER
	RoleObserver = encounterv1.Role_ROLE_OBSERVER
)

// MaxPrincipalLength bounds a principal.
const MaxPrincipalLength = 256

// RoleOf returns principal's role in st: the GM (the creator), else a granted co-GM, else a
// player (granted, or controlling a combatant), else a granted observer, else RoleNone.
func RoleOf(st *encounterv1.EncounterState, principal string) Role {
	if principal == "" {
		return RoleNone
	}
	if principal == st.GetGameMaster() {
		return RoleGM
	}
	granted := RoleNone
	for _, g := range st.GetRoles() {
		if g.GetPrincipal() == principal {
			granted = g.GetRole()
		}
	}
	switch {
	case granted == RoleCoGM || granted == RolePlayer:
		return granted
	case len(Controls(st, principal)) > 0:
		return RolePlayer
	}
	return granted
}

// IsGameMaster reports whether actor is a GM of the encounter: its GM or a co-GM. Rule
// systems call it for the GM's rulings.
func IsGameMaster(st *encounterv1.EncounterState, actor string) bool {
	r := RoleOf(st, actor)
	return r == RoleGM || r == RoleCoGM
}

// MayRead reports whether principal may read the encounter: any role (a player, an observer,
// a GM).
func MayRead(st *encounterv1.EncounterState, principal string) bool {
	return RoleOf(st, principal) != RoleNone
}

// Controls returns the ids of the combatants whose controller is principal, in the state's
// order (a GM commands every combatant but controls only those whose controller it is).
func Controls(st *encounterv1.EncounterState, principal string) []string {
	var ids []string
	if principal == "" {
		return nil
	}
	for _, c := range st.GetCombatants() {
		if c.GetController() == principal {
			ids = append(ids, c.GetId())
		}
	}
	return ids
}

// TenantOf returns the tenant of a principal "tenant/subject" ("" for a bare name).
func TenantOf(principal string) string {
	t, _, ok := strings.Cut(principal, "/")
	if !ok {
		return ""
	}
	return t
}

// RoleName names a role with its article: "the GM", "a co-GM", "a player", "an observer",
// "no role".
func RoleName(r Role) string {
	switch r {
	case RoleGM:
		return "the GM"
	case RoleCoGM:
		return "a co-GM"
	case RolePlayer:
		return "a player"
	case RoleObserver:
		return "an observer"
	}
	return "no role"
}

// roleArg names a role as the CLI and the messages spell it.
func roleArg(r Role) string {
	switch r {
	case RoleGM:
		return "GM"
	case RoleCoGM:
		return "co-GM"
	case RolePlayer:
		return "player"
	case RoleObserver:
		return "observer"
	}
	return r.String()
}

// who describes actor's standing in st for a refusal: "dev/erin is an observer of Ruelle
// sombre", "dev/sam has no role in Ruelle sombre".
func who(st *encounterv1.EncounterState, actor string) string {
	r := RoleOf(st, actor)
	if r == RoleNone {
		return fmt.Sprintf("%s has no role in %s", orAnon(actor), st.GetName())
	}
	return fmt.Sprintf("%s is %s of %s", actor, RoleName(r), st.GetName())
}

// principal validates p as a principal of st's tenant; a bare subject ("david") is one of the
// encounter's tenant ("dev/david").
func principal(st *encounterv1.EncounterState, p, what string) (string, error) {
	if tenant := st.GetTenant(); tenant != "" && !strings.Contains(p, "/") && p != "" {
		p = tenant + "/" + p
	}
	if p == "" || len(p) > MaxPrincipalLength || strings.IndexFunc(p, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return "", Invalid("", "%s %q: a principal is tenant/subject, 1 to %d printable characters without spaces", what, p, MaxPrincipalLength)
	}
	if tenant := st.GetTenant(); tenant != "" {
		t, subject, _ := strings.Cut(p, "/")
		if t != tenant || subject == "" {
			return "", Invalid("", "%s %q is not of this encounter's tenant: %s accepts principals %s/SUBJECT only", what, p, st.GetName(), tenant)
		}
	}
	return p, nil
}

// mayManage checks that actor may grant or revoke role (or change the role of one who holds
// it): the GM or a co-GM, and only the GM for co-GM.
func mayManage(st *encounterv1.EncounterState, actor string, role Role, verb string) error {
	r := RoleOf(st, actor)
	if role == RoleCoGM && r != RoleGM {
		return Forbidden("%s; only the GM (%s) may %s co-GM", who(st, actor), st.GetGameMaster(), verb)
	}
	if r != RoleGM && r != RoleCoGM {
		return Forbidden("%s; only the GM (%s) or a co-GM may %s roles", who(st, actor), st.GetGameMaster(), verb)
	}
	return nil
}

func checkGrantable(st *encounterv1.EncounterState, role Role, p string) error {
	switch role {
	case RolePlayer, RoleObserver, RoleCoGM:
	case RoleGM:
		return Invalid("", "the GM of %s is its creator (%s); grant co-GM to share the table", st.GetName(), st.GetGameMaster())
	default:
		return Invalid("", "a role is player, observer or co-GM")
	}
	if p == st.GetGameMaster() {
		return Invalid("", "%s is the GM of %s", p, st.GetName())
	}
	return nil
}

func decideGrant(st *encounterv1.EncounterState, k *encounterv1.GrantRole, actor string) ([]*encounterv1.Event, error) {
	role := k.GetRole()
	if err := mayManage(st, actor, role, "grant"); err != nil {
		return nil, err
	}
	p, err := principal(st, k.GetPrincipal(), "grant to")
	if err != nil {
		return nil, err
	}
	if err := checkGrantable(st, role, p); err != nil {
		return nil, err
	}
	current := RoleOf(st, p)
	if current == RoleCoGM {
		if err := mayManage(st, actor, RoleCoGM, "change the role of a"); err != nil {
			return nil, err
		}
	}
	var ids []string
	for _, id := range k.GetCombatantIds() {
		if role != RolePlayer {
			return nil, Invalid("", "only a player is granted combatants; %s is granted %s", p, roleArg(role))
		}
		c := FindCombatant(st, id)
		if c == nil {
			return nil, NotFound("there is no combatant %q in %s", id, st.GetName())
		}
		if c.GetController() != p && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if controls := Controls(st, p); role == RoleObserver && len(controls) > 0 {
		return nil, Refused("", "%s controls %s: revoke %s's player role first (its combatants go back to the GM), then grant observer", p, names(st, controls), p)
	}
	if current == role && len(ids) == 0 {
		return nil, Refused("", "%s is %s of %s already", p, RoleName(role), st.GetName())
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_RoleGranted{RoleGranted: &encounterv1.RoleGranted{
		Principal: p, Role: role, CombatantIds: ids,
	}}}}, nil
}

func decideRevoke(st *encounterv1.EncounterState, k *encounterv1.RevokeRole, actor string) ([]*encounterv1.Event, error) {
	role := k.GetRole()
	if err := mayManage(st, actor, role, "revoke"); err != nil {
		return nil, err
	}
	p, err := principal(st, k.GetPrincipal(), "revoke from")
	if err != nil {
		return nil, err
	}
	if role == RoleGM {
		return nil, Invalid("", "the GM of %s (%s) is its creator, for good", st.GetName(), st.GetGameMaster())
	}
	if err := checkGrantable(st, role, p); err != nil {
		return nil, err
	}
	if current := RoleOf(st, p); current != role {
		return nil, Refused("", "%s is not %s of %s: %s", p, RoleName(role), st.GetName(), who(st, p))
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_RoleRevoked{RoleRevoked: &encounterv1.RoleRevoked{
		Principal: p, Role: role, CombatantIds: Controls(st, p),
	}}}}, nil
}

func decideJoining(st *encounterv1.EncounterState, k *encounterv1.SetJoining, gmOnly func(string) error) ([]*encounterv1.Event, error) {
	if err := gmOnly("open or close it to joining"); err != nil {
		return nil, err
	}
	if st.GetJoiningOpen() == k.GetOpen() {
		if k.GetOpen() {
			return nil, Refused("", "%s is open to joining already", st.GetName())
		}
		return nil, Refused("", "%s is closed to joining already", st.GetName())
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_JoiningSet{JoiningSet: &encounterv1.JoiningSet{Open: k.GetOpen()}}}}, nil
}

// names lists the names of the combatants ids.
func names(st *encounterv1.EncounterState, ids []string) string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, FindCombatant(st, id).GetName())
	}
	return strings.Join(out, ", ")
}

// setController makes p the controller of the combatants ids, and of their pending reactions.
func setController(st *encounterv1.EncounterState, ids []string, p string) {
	for _, id := range ids {
		changeCombatant(st, id, func(c *encounterv1.Combatant) { c.Controller = p })
	}
	// The pending reactions are shared with the state before (fork): changed in copies.
	pending := slices.Clone(st.GetPending())
	for i, r := range pending {
		if slices.Contains(ids, r.GetCombatantId()) {
			pending[i] = proto.CloneOf(r)
			pending[i].Controller = p
		}
	}
	st.Pending = pending
}

// evolveRoles folds the role events.
func evolveRoles(st *encounterv1.EncounterState, ev *encounterv1.Event) {
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_RoleGranted:
		g := p.RoleGranted
		st.Roles = slices.DeleteFunc(st.Roles, func(r *encounterv1.RoleGrant) bool { return r.GetPrincipal() == g.GetPrincipal() })
		st.Roles = append(st.Roles, &encounterv1.RoleGrant{Principal: g.GetPrincipal(), Role: g.GetRole()})
		setController(st, g.GetCombatantIds(), g.GetPrincipal())
	case *encounterv1.Event_RoleRevoked:
		r := p.RoleRevoked
		st.Roles = slices.DeleteFunc(st.Roles, func(g *encounterv1.RoleGrant) bool { return g.GetPrincipal() == r.GetPrincipal() })
		setController(st, r.GetCombatantIds(), st.GetGameMaster())
	case *encounterv1.Event_JoiningSet:
		st.JoiningOpen = p.JoiningSet.GetOpen()
	}
}

// keepTable returns past with who sits at the table as it is in now: the tenant, the roles,
// joining, and the controllers of the combatants. A combatant that exists now keeps its
// controller of now; one that does not (removed since) keeps its past controller if that
// principal is still a GM or a player now, else goes to the GM.
func keepTable(past, now *encounterv1.EncounterState) *encounterv1.EncounterState {
	out := proto.CloneOf(past)
	out.Tenant = now.GetTenant()
	out.GameMaster = now.GetGameMaster()
	out.JoiningOpen = now.GetJoiningOpen()
	out.Roles = nil
	for _, g := range now.GetRoles() {
		out.Roles = append(out.Roles, proto.CloneOf(g))
	}
	for _, c := range out.GetCombatants() {
		controller := c.GetController()
		if cur := FindCombatant(now, c.GetId()); cur != nil {
			controller = cur.GetController()
		} else if r := RoleOf(now, controller); r != RoleGM && r != RoleCoGM && r != RolePlayer {
			controller = now.GetGameMaster()
		}
		setController(out, []string{c.GetId()}, controller)
	}
	return out
}
