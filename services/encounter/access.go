package encounter

// Who may call what: each RPC's access, declared once in accessTable (the shape of Temporal's
// MethodMetadata), read by the service's one interceptor (intercept.go) and, for the role a
// caller holds in an encounter, where the encounter's state is held (read, command.decide).

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/identity"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// scope is what an RPC is about.
type scope int

const (
	// scopeEncounter: one encounter of the caller's tenant, which its request names
	// (encounter_id, required); the caller needs a role in it (access.role).
	scopeEncounter scope = iota + 1
	// scopeTenant: the caller's own, within its tenant (its list, a new encounter).
	scopeTenant
	// scopeTenantAdmin: a tenant's administration: a token holding identity.ScopeAdmin, for
	// the tenant its request names, which must be the token's own.
	scopeTenantAdmin
)

// access is what an RPC needs of its caller.
type access struct {
	scope  scope
	writes bool // it records events (a command, a creation, an end)
	// role is the least role in the encounter (scopeEncounter). Any role may read it and
	// give it commands: the rules refuse each role what it may not do (an observer's attack,
	// a player's start), saying why; a stranger is refused here, told nothing of it.
	role engine.Role
	// joins: a stranger of the tenant may add a combatant it controls (the rules accept it
	// while the GM keeps the encounter open to joining).
	joins bool
}

// accessTable is every RPC of EncounterService, declared once: an RPC without a row is
// refused (TestEveryRPCHasAnAccessRow keeps it whole). Each row has its line of comment, which
// keeps gofmt from aligning the rows together: a new RPC's row is a diff of its own two lines.
var accessTable = map[string]access{
	// A new encounter, its caller its GM.
	encounterv1.EncounterService_CreateEncounter_FullMethodName: {scope: scopeTenant, writes: true},
	// The caller's own encounters.
	encounterv1.EncounterService_ListEncounters_FullMethodName: {scope: scopeTenant},
	// The rule systems an encounter may be created with.
	encounterv1.EncounterService_ListRulesets_FullMethodName: {scope: scopeTenant},
	// A stranger may join with a combatant of its own while the GM keeps it open.
	encounterv1.EncounterService_AddCombatant_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver, joins: true},
	// Any command; the rules refuse each role what it may not do.
	encounterv1.EncounterService_Submit_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver, joins: true},
	// The GM's, as the rules decide.
	encounterv1.EncounterService_RemoveCombatant_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver},
	// The GM's, as the rules decide.
	encounterv1.EncounterService_StartEncounter_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver},
	// The GM's, as the rules decide.
	encounterv1.EncounterService_EndEncounter_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver},
	// The GM's, as the rules decide.
	encounterv1.EncounterService_RewindEncounter_FullMethodName: {scope: scopeEncounter, writes: true, role: engine.RoleObserver},
	// The state, as the caller's role lets it see it.
	encounterv1.EncounterService_GetEncounter_FullMethodName: {scope: scopeEncounter, role: engine.RoleObserver},
	// Odds from the state as the caller sees it.
	encounterv1.EncounterService_GetOdds_FullMethodName: {scope: scopeEncounter, role: engine.RoleObserver},
	// The events, redacted for the caller.
	encounterv1.EncounterService_WatchEncounter_FullMethodName: {scope: scopeEncounter, role: engine.RoleObserver},
	// The log, redacted for the caller.
	encounterv1.EncounterService_ExportLog_FullMethodName: {scope: scopeEncounter, role: engine.RoleObserver},
	// A tenant's administrator's.
	encounterv1.EncounterService_ListIdleEncounters_FullMethodName: {scope: scopeTenantAdmin},
	// A tenant's administrator's.
	encounterv1.EncounterService_EndIdleEncounters_FullMethodName: {scope: scopeTenantAdmin, writes: true},
}

// methodOf is the RPC each request type is the request of: the handlers find their row by
// what they are given, whether called over gRPC or in-process.
var methodOf = func() map[string]string {
	out := map[string]string{}
	sd := encounterv1.File_fray_encounter_v1_encounter_service_proto.Services().ByName("EncounterService")
	for i := range sd.Methods().Len() {
		m := sd.Methods().Get(i)
		out[string(m.Input().FullName())] = "/" + string(sd.FullName()) + "/" + string(m.Name())
	}
	return out
}()

// accessOf is the access of the RPC req is the request of.
func accessOf(req proto.Message) access {
	return accessTable[methodOf[string(req.ProtoReflect().Descriptor().FullName())]]
}

// rank orders the roles, a stranger lowest.
func rank(r engine.Role) int {
	switch r {
	case engine.RoleGM:
		return 4
	case engine.RoleCoGM:
		return 3
	case engine.RolePlayer:
		return 2
	case engine.RoleObserver:
		return 1
	}
	return 0
}

// admits refuses who when its role in st is below the RPC's (a stranger's command that adds
// a combatant passes where the RPC lets strangers join: the rules decide). The refusal names
// only what the caller gave (the id): nothing of the encounter, not even its name or its GM,
// is told to one who may not read it.
func (a access) admits(st *encounterv1.EncounterState, who caller, cmd *encounterv1.Command) error {
	if rank(engine.RoleOf(st, who.principal)) >= rank(a.role) || (a.joins && cmd.GetAddCombatant() != nil) {
		return nil
	}
	what := "only its GM, co-GMs, players and observers read it"
	if a.writes {
		what = "only its GM, co-GMs and players give it commands"
	}
	return noRole(st.GetEncounterId(), who, what)
}

// caller is the authenticated caller: its principal "tenant/subject" and its tenant.
type caller struct{ principal, tenant string }

// callerOf is the caller as the authentication interceptor found it in the request's token.
func callerOf(ctx context.Context) (caller, error) {
	id, ok := identity.From(ctx)
	if !ok || id.Principal() == "" {
		return caller{}, status.Error(codes.Unauthenticated, "no identity: send a bearer token (\"authorization: Bearer <JWT>\"); under fray dev, `fray token --as NAME` mints one")
	}
	return caller{principal: id.Principal(), tenant: id.Tenant}, nil
}

// encounterRequest is a request naming its encounter.
type encounterRequest interface {
	proto.Message
	GetEncounterId() string
}

// read returns the entry and the state (not to be changed: states.go) of the encounter req
// names, as its stream's leader holds it (other replicas' changes included), if the caller
// may read it by req's access: NotFound for another tenant's, as for a missing one.
func (s *Service) read(ctx context.Context, req encounterRequest) (*entry, *encounterv1.EncounterState, caller, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return nil, nil, caller{}, err
	}
	id := req.GetEncounterId()
	e, err := s.entry(ctx, id, true)
	if err != nil {
		return nil, nil, who, err
	}
	e.mu.Lock()
	st := e.state
	e.mu.Unlock()
	if st.GetTenant() == "" || st.GetTenant() != who.tenant {
		return nil, nil, who, noEncounter(id)
	}
	if err := accessOf(req).admits(st, who, nil); err != nil {
		return nil, nil, who, err
	}
	return e, st, who, nil
}

// viewer is what principal may see of st: everything for a GM or a co-GM, the combatants it
// controls whole, the others as the table sees them.
func viewer(st *encounterv1.EncounterState, principal string) engine.Viewer {
	v := engine.Viewer{SeesAll: engine.IsGameMaster(st, principal), Controls: map[string]bool{}}
	for _, id := range engine.Controls(st, principal) {
		v.Controls[id] = true
	}
	return v
}
