// Package engine is the encounter state machine shared by every rule system: Decide turns a
// command into events, Evolve folds an event into the state. It does no I/O and reads no clock;
// all randomness comes from the dice.Roller it is given.
package engine

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/fray-rpg/fray/rules/narrate"
	"golang.org/x/text/language"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

// Env is what a decision may use besides the state and the command.
type Env struct {
	// Actor is the principal giving the command: tenant/subject.
	Actor string
	// Tenant is the caller's tenant, set by the service. A creation records it (when empty,
	// the tenant of the state the creation is decided against); any other command is decided
	// only against an encounter of that tenant (NotFound otherwise). Empty: not checked.
	Tenant string
	// Dice is the encounter's dice stream, positioned at the state's dice offset.
	Dice dice.Roller
	// Seed is the encounter's dice seed: its hash is published at creation, the seed itself
	// when the encounter ends.
	Seed []byte
	// RewindState is the state after the event a Rewind returns to, folded from the log by
	// the caller.
	RewindState *encounterv1.EncounterState
	// DiceScheme is the dice scheme a creation records: 0 records dice.Latest. The audit
	// decides a recorded creation again under the scheme its log recorded.
	DiceScheme dice.Scheme
}

// Registry holds the rule systems by id and version.
type Registry struct {
	systems map[string][]System // sorted by version
}

// NewRegistry returns a registry of the given systems.
func NewRegistry(systems ...System) *Registry {
	r := &Registry{systems: map[string][]System{}}
	for _, s := range systems {
		r.systems[s.ID()] = append(r.systems[s.ID()], s)
		slices.SortFunc(r.systems[s.ID()], func(a, b System) int { return int(a.Version()) - int(b.Version()) })
	}
	return r
}

// Lookup finds a system; version 0 means the latest.
func (r *Registry) Lookup(id string, version uint32) (System, error) {
	vs, ok := r.systems[id]
	if !ok {
		known := make([]string, 0, len(r.systems))
		for k := range r.systems {
			known = append(known, k)
		}
		sort.Strings(known)
		if id == "" { // none given: the request is incomplete, nothing is missing here
			return nil, Invalid("", "unknown rule system %q; this resolver knows %v", id, known)
		}
		return nil, NotFound("unknown rule system %q; this resolver knows %v", id, known)
	}
	if version == 0 {
		return vs[len(vs)-1], nil
	}
	for _, s := range vs {
		if s.Version() == version {
			return s, nil
		}
	}
	known := make([]string, len(vs))
	for i, s := range vs {
		known[i] = fmt.Sprint(s.Version())
	}
	return nil, Refused("", "rule system %q version %d is not one this resolver can decide: it knows versions %s (0 or none: the latest, %d)",
		id, version, strings.Join(known, ", "), vs[len(vs)-1].Version())
}

// Rulesets lists every system with its versions.
func (r *Registry) Rulesets() []*rulesetv1.RulesetDescriptor {
	var out []*rulesetv1.RulesetDescriptor
	for _, vs := range r.systems {
		out = append(out, Describe(vs[len(vs)-1]))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Id < out[j].Id })
	return out
}

// Narrator returns a Narrator writing in lang that narrates the events of every system known,
// each encounter with the Teller of the version of the rules it pinned (pinned).
func (r *Registry) Narrator(lang language.Tag) *narrate.Narrator {
	ids := make([]string, 0, len(r.systems))
	for id := range r.systems {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	tellers := make([]narrate.Teller, 0, len(ids))
	for _, id := range ids {
		tellers = append(tellers, pinned{id: id, versions: r.systems[id]})
	}
	return narrate.New(lang, tellers...)
}

// pinned tells a system's part of the narration with the Teller of the version the encounter
// pinned, whose numbers it states: an event's own version (the event being narrated, for the
// sheets and house rules it brings), else the version last learnt from this system's events
// or state, else the latest.
type pinned struct {
	id       string
	versions []System // oldest first
}

// pinnedKey keys the version a Narrator last learnt for a system.
type pinnedKey struct{ id string }

func (p pinned) learnt(n *narrate.Narrator) *uint32 {
	return n.Memory(pinnedKey{p.id}, func() any { return new(uint32) }).(*uint32)
}

func (p pinned) teller(n *narrate.Narrator, ev *encounterv1.Event) narrate.Teller {
	v := *p.learnt(n)
	if ev.GetRuleSystem() == p.id && ev.GetRulesVersion() != 0 {
		v = ev.GetRulesVersion()
	}
	for _, s := range p.versions {
		if s.Version() == v {
			return s.Teller()
		}
	}
	return p.versions[len(p.versions)-1].Teller()
}

func (p pinned) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	return p.teller(n, ev).Event(n, ev)
}

func (p pinned) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	return p.teller(n, n.Current()).Sheet(n, c)
}

func (p pinned) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	return p.teller(n, n.Current()).Options(n, o)
}

func (p pinned) Learn(n *narrate.Narrator, ev *encounterv1.Event) {
	if ev.GetRuleSystem() == p.id && ev.GetRulesVersion() != 0 {
		*p.learnt(n) = ev.GetRulesVersion()
	}
	p.teller(n, ev).Learn(n, ev)
}

func (p pinned) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {
	if st.GetRuleSystem() == p.id && st.GetRulesVersion() != 0 {
		*p.learnt(n) = st.GetRulesVersion()
	}
	p.teller(n, nil).LearnState(n, st)
}

// Versions lists the versions of a system, oldest first.
func (r *Registry) Versions(id string) []uint32 {
	var out []uint32
	for _, s := range r.systems[id] {
		out = append(out, s.Version())
	}
	return out
}

func (r *Registry) system(st *encounterv1.EncounterState) (System, error) {
	return r.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
}

var combatantID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// MaxNameLength bounds encounter and combatant names.
const MaxNameLength = 200

// Decide validates cmd against st and returns the events it causes, with encounter id,
// sequence, actor, rule system and version filled in. For a create command, st holds only
// the new encounter's id.
func (r *Registry) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env Env) ([]*encounterv1.Event, error) {
	events, _, err := r.decideInto(st, cmd, env, false)
	return events, err
}

// decideInto is Decide, which also returns the state after the events when fold is set (nil
// otherwise). A system command of a Closer is closed on that state (Closer.Close), so the
// events are folded there once, whether fold is set or not.
func (r *Registry) decideInto(st *encounterv1.EncounterState, cmd *encounterv1.Command, env Env, fold bool) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	var (
		events []*encounterv1.Event
		err    error
		sys    System
		own    bool // a command of the rule system, which its Decide decided
	)
	if create := cmd.GetCreate(); create != nil {
		if st.GetSequence() != 0 {
			return nil, nil, Refused("", "encounter %s already exists", st.GetEncounterId())
		}
		if sys, err = r.Lookup(create.GetRuleSystem(), create.GetRulesVersion()); err != nil {
			return nil, nil, err
		}
		events, err = decideCreate(sys, st, create, env)
	} else {
		if st.GetSequence() == 0 || (env.Tenant != "" && env.Tenant != st.GetTenant()) {
			return nil, nil, NotFound("encounter %q does not exist", st.GetEncounterId())
		}
		if sys, err = r.system(st); err != nil {
			return nil, nil, err
		}
		events, err = decide(sys, st, cmd, env, &own)
	}
	if err != nil {
		return nil, nil, err
	}
	for i, ev := range events {
		stamp(ev, sys, st.GetEncounterId(), st.GetSequence()+uint64(i)+1, env.Actor)
	}
	return r.foldDecided(sys, st, events, env, fold, own)
}

// stamp fills in what every event of a decision records besides its payload.
func stamp(ev *encounterv1.Event, sys System, encounter string, sequence uint64, actor string) {
	ev.EncounterId = encounter
	ev.Sequence = sequence
	ev.Actor = actor
	ev.RuleSystem = sys.ID()
	ev.RulesVersion = sys.Version()
}

func decideCreate(sys System, st *encounterv1.EncounterState, c *encounterv1.CreateEncounter, env Env) ([]*encounterv1.Event, error) {
	tenant := env.Tenant
	if tenant == "" {
		tenant = st.GetTenant()
	}
	if tenant != "" && TenantOf(env.Actor) != tenant {
		return nil, Invalid("", "the creator %s is not of tenant %s: an encounter's GM is one of its tenant", orAnon(env.Actor), tenant)
	}
	if c.GetName() == "" || len(c.GetName()) > MaxNameLength {
		return nil, Invalid("", "an encounter needs a name of 1 to %d characters", MaxNameLength)
	}
	if len(env.Seed) != dice.SeedSize {
		return nil, Invalid("", "an encounter needs a %d-byte dice seed", dice.SeedSize)
	}
	scheme := env.DiceScheme
	if scheme == 0 {
		scheme = dice.Latest
	}
	if !scheme.Known() {
		return nil, Invalid("", "dice scheme %d is unknown", scheme)
	}
	opts, err := sys.Options(c.GetOptions())
	if err != nil {
		return nil, err
	}
	return []*encounterv1.Event{{Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{
		Name: c.GetName(), GameMaster: env.Actor, SeedSha256: dice.Commitment(env.Seed), Options: opts, Tenant: tenant,
		DiceScheme: scheme.Recorded(),
	}}}}, nil
}

// FindCombatant returns the combatant with id, or nil.
func FindCombatant(st *encounterv1.EncounterState, id string) *encounterv1.Combatant {
	for _, c := range st.GetCombatants() {
		if c.GetId() == id {
			return c
		}
	}
	return nil
}

// MayCommand checks that actor may command the combatant: its controller, the GM or a co-GM.
func MayCommand(st *encounterv1.EncounterState, actor, id string) error {
	c := FindCombatant(st, id)
	if c == nil {
		return NotFound("there is no combatant %q in this encounter", id)
	}
	if IsGameMaster(st, actor) || (actor != "" && actor == c.GetController()) {
		return nil
	}
	if RoleOf(st, actor) == RolePlayer {
		return Forbidden("%s does not control %s (controller: %s; the GM is %s)", actor, c.GetName(), c.GetController(), st.GetGameMaster())
	}
	return Forbidden("%s; only the GM, a co-GM or %s's player may command %s", who(st, actor), c.GetName(), c.GetName())
}

func orAnon(actor string) string {
	if actor == "" {
		return "an anonymous caller"
	}
	return actor
}

// decide decides a command of a running or set-up encounter; own is set when it is one of the
// rule system's commands, which the system decided.
func decide(sys System, st *encounterv1.EncounterState, cmd *encounterv1.Command, env Env, own *bool) ([]*encounterv1.Event, error) {
	if st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		return nil, Refused("", "encounter %q has ended; it takes no more commands", st.GetName())
	}
	gmOnly := gmOnlyOf(st, env.Actor)
	switch k := cmd.GetKind().(type) {
	case *encounterv1.Command_Create:
		return nil, Refused("", "encounter %s already exists", st.GetEncounterId())
	case *encounterv1.Command_AddCombatant:
		return decideAdd(sys, st, k.AddCombatant, env)
	case *encounterv1.Command_RemoveCombatant:
		return decideRemove(sys, st, k.RemoveCombatant, env, gmOnly)
	case *encounterv1.Command_Start:
		return decideStart(sys, st, env, gmOnly)
	case *encounterv1.Command_End:
		return decideEnd(st, k.End, env) // end.go
	case *encounterv1.Command_Rewind:
		return decideRewind(st, k.Rewind, env, gmOnly)
	case *encounterv1.Command_GrantRole:
		return decideGrant(st, k.GrantRole, env.Actor)
	case *encounterv1.Command_RevokeRole:
		return decideRevoke(st, k.RevokeRole, env.Actor)
	case *encounterv1.Command_SetJoining:
		return decideJoining(st, k.SetJoining, gmOnly)
	case *encounterv1.Command_SetHidden:
		return decideSetHidden(st, k.SetHidden, gmOnly)
	case nil:
		return nil, Invalid("", "empty command")
	default:
		if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
			return nil, Refused("", "encounter %q has not started yet", st.GetName())
		}
		*own = true
		return sys.Decide(st, cmd, env)
	}
}

// gmOnlyOf refuses what only the GM or a co-GM of st may do, when actor is neither.
func gmOnlyOf(st *encounterv1.EncounterState, actor string) func(what string) error {
	return func(what string) error {
		if !IsGameMaster(st, actor) {
			return Forbidden("%s; only the GM (%s) or a co-GM may %s", who(st, actor), st.GetGameMaster(), what)
		}
		return nil
	}
}

func one(ev *encounterv1.Event) []*encounterv1.Event { return []*encounterv1.Event{ev} }

// decideAdd adds a combatant: by the GM, or by a player for a combatant they control once the
// GM opened the encounter to joining.
func decideAdd(sys System, st *encounterv1.EncounterState, a *encounterv1.AddCombatant, env Env) ([]*encounterv1.Event, error) {
	c := a.GetCombatant()
	if c == nil {
		return nil, Invalid("", "add combatant: no combatant given")
	}
	inProgress := st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE
	if _, ok := sys.(Joiner); inProgress && !ok {
		return nil, Refused("", "in %s, combatants join an encounter before it starts", sys.Name())
	}
	if a.GetWatched() && !inProgress {
		return nil, Invalid("", "only a newcomer to a fight in progress has watched it")
	}
	c = proto.CloneOf(c)
	if c.Controller == "" {
		c.Controller = env.Actor
	}
	controller, err := principal(st, c.GetController(), "controller")
	if err != nil {
		return nil, err
	}
	c.Controller = controller
	if !IsGameMaster(st, env.Actor) && c.Controller != env.Actor {
		return nil, Forbidden("%s may only add combatants they control themselves; the GM (%s) may add any", orAnon(env.Actor), st.GetGameMaster())
	}
	if !combatantID.MatchString(c.GetId()) {
		return nil, Invalid("", "combatant id %q: use 1 to 64 letters, digits, '-' or '_'", c.GetId())
	}
	if c.GetName() == "" || len(c.GetName()) > MaxNameLength {
		return nil, Invalid("", "combatant %s needs a name of 1 to %d characters", c.GetId(), MaxNameLength)
	}
	if FindCombatant(st, c.GetId()) != nil {
		return nil, Refused("", "there is already a combatant %q in this encounter", c.GetId())
	}
	if c.GetHidden() && !IsGameMaster(st, env.Actor) {
		return nil, Forbidden("only the GM (%s) may add a hidden combatant", st.GetGameMaster())
	}
	if !IsGameMaster(st, env.Actor) && !st.GetJoiningOpen() {
		return nil, Refused("", "the GM (%s) has not opened %s to joining: until then only the GM or a co-GM adds combatants", st.GetGameMaster(), st.GetName())
	}
	c.Appearance = encounterv1.Appearance_APPEARANCE_UNSPECIFIED // shown in reads, never recorded
	if err := sys.CheckCombatant(st, c); err != nil {
		return nil, err
	}
	return one(&encounterv1.Event{Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{
		Combatant: c, Watched: a.GetWatched(), InProgress: inProgress,
	}}}), nil
}

// decideRemove removes a combatant (GM only), with what the system follows a removal with in
// a fight under way.
func decideRemove(sys System, st *encounterv1.EncounterState, r *encounterv1.RemoveCombatant, env Env, gmOnly func(string) error) ([]*encounterv1.Event, error) {
	if err := gmOnly("remove a combatant"); err != nil {
		return nil, err
	}
	id := r.GetCombatantId()
	if FindCombatant(st, id) == nil {
		return nil, NotFound("there is no combatant %q in this encounter", id)
	}
	removed := &encounterv1.Event{Payload: &encounterv1.Event_CombatantRemoved{CombatantRemoved: &encounterv1.CombatantRemoved{CombatantId: id}}}
	fu, ok := sys.(FollowUp)
	if !ok || st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
		return one(removed), nil
	}
	next := proto.CloneOf(st)
	if err := evolveWith(sys, next, removed); err != nil {
		return nil, err
	}
	more, err := fu.FollowUp(next, env)
	if err != nil {
		return nil, err
	}
	return append(one(removed), more...), nil
}

// decideStart starts a set-up encounter of two combatants or more (GM only), with what the
// system starts a fight with.
func decideStart(sys System, st *encounterv1.EncounterState, env Env, gmOnly func(string) error) ([]*encounterv1.Event, error) {
	if err := gmOnly("start the encounter"); err != nil {
		return nil, err
	}
	if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP {
		return nil, Refused("", "encounter %q has already started", st.GetName())
	}
	if len(st.GetCombatants()) < 2 {
		return nil, Refused("", "a fight needs at least two combatants; %q has %d", st.GetName(), len(st.GetCombatants()))
	}
	started := &encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}}
	next := proto.CloneOf(st)
	if err := evolveWith(sys, next, started); err != nil {
		return nil, err
	}
	more, err := sys.Start(next, env)
	if err != nil {
		return nil, err
	}
	return append(one(started), more...), nil
}

// decideRewind takes the encounter back to an earlier event (GM only), from the state after
// it that the caller read (env.RewindState).
func decideRewind(st *encounterv1.EncounterState, r *encounterv1.Rewind, env Env, gmOnly func(string) error) ([]*encounterv1.Event, error) {
	if err := gmOnly("rewind the encounter"); err != nil {
		return nil, err
	}
	to := r.GetToSequence()
	if to < 1 || to >= st.GetSequence() {
		return nil, Invalid("", "encounter %q is at event %d: rewind to an event from 1 to %d", st.GetName(), st.GetSequence(), st.GetSequence()-1)
	}
	past := env.RewindState
	if past.GetSequence() != to || past.GetEncounterId() != st.GetEncounterId() {
		return nil, Invalid("", "rewinding to event %d needs the state after it", to)
	}
	return one(&encounterv1.Event{Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{
		ToSequence: to, Reason: r.GetReason(), State: keepTable(past, st),
		DiceOffset: max(st.GetDiceOffset(), st.GetDiceHighWater()),
	}}}), nil
}

// Evolve folds one event into st. Events must come in sequence.
func (r *Registry) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	if ev.GetSequence() != st.GetSequence()+1 {
		return fmt.Errorf("event %d of encounter %s comes after event %d: the log has a gap", ev.GetSequence(), ev.GetEncounterId(), st.GetSequence())
	}
	if c := ev.GetEncounterCreated(); c != nil {
		st.EncounterId = ev.GetEncounterId()
		st.RuleSystem = ev.GetRuleSystem()
		st.RulesVersion = ev.GetRulesVersion()
	}
	sys, err := r.system(st)
	if err != nil {
		return err
	}
	return evolveWith(sys, st, ev)
}

func evolveWith(sys System, st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		st.Name = p.EncounterCreated.GetName()
		st.GameMaster = p.EncounterCreated.GetGameMaster()
		st.SeedSha256 = p.EncounterCreated.GetSeedSha256()
		st.Options = proto.CloneOf(p.EncounterCreated.GetOptions())
		st.Tenant = p.EncounterCreated.GetTenant()
		st.DiceScheme = p.EncounterCreated.GetDiceScheme()
		st.Status = encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP
	case *encounterv1.Event_CombatantAdded:
		// The slice may be shared with the state before (Fork): a new one.
		st.Combatants = append(slices.Clip(st.Combatants), proto.CloneOf(p.CombatantAdded.GetCombatant()))
	case *encounterv1.Event_CombatantRemoved:
		st.Combatants = slices.DeleteFunc(slices.Clone(st.Combatants), func(c *encounterv1.Combatant) bool {
			return c.GetId() == p.CombatantRemoved.GetCombatantId()
		})
	case *encounterv1.Event_EncounterStarted:
		st.Status = encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE
	case *encounterv1.Event_EncounterEnded:
		st.Status = encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED
		st.Seed = p.EncounterEnded.GetSeed()
		st.Pending = nil
	case *encounterv1.Event_CombatantHidden:
		changeCombatant(st, p.CombatantHidden.GetCombatantId(), func(c *encounterv1.Combatant) { c.Hidden = p.CombatantHidden.GetHidden() })
	case *encounterv1.Event_EncounterRewound:
		// Everything is as recorded in the event (the state after to_sequence, with the table
		// of now), except the dice: the stream goes on from dice_offset, the furthest position
		// ever used, so no die is rolled twice (a rewind recorded before dice_offset existed
		// goes back to the restored state's offset). Only the sequence moves on.
		past := p.EncounterRewound.GetState()
		if past.GetSequence() != p.EncounterRewound.GetToSequence() {
			return fmt.Errorf("event %d rewinds to %d with a state of event %d", ev.GetSequence(), p.EncounterRewound.GetToSequence(), past.GetSequence())
		}
		high := max(st.GetDiceHighWater(), st.GetDiceOffset(), p.EncounterRewound.GetDiceOffset())
		proto.Reset(st)
		proto.Merge(st, past)
		st.Sequence = ev.GetSequence()
		st.DiceOffset = max(past.GetDiceOffset(), p.EncounterRewound.GetDiceOffset())
		st.DiceHighWater = high
		return nil
	case *encounterv1.Event_RoleGranted, *encounterv1.Event_RoleRevoked, *encounterv1.Event_JoiningSet:
		evolveRoles(st, ev)
	}
	if err := sys.Evolve(st, ev); err != nil {
		return err
	}
	if ev.GetSequence() != 0 {
		st.Sequence = ev.GetSequence()
	}
	advanceDice(sys, st, ev)
	return nil
}

// Fold replays events from the empty state.
func (r *Registry) Fold(events []*encounterv1.Event) (*encounterv1.EncounterState, error) {
	st := &encounterv1.EncounterState{}
	for _, ev := range events {
		if err := r.Evolve(st, ev); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// Hash is the sha256 of the deterministic encoding of st.
func Hash(st *encounterv1.EncounterState) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(st)
	if err != nil {
		panic(fmt.Sprintf("marshal state: %v", err)) // a valid message always marshals
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// Legal lists what a combatant may do now.
func (r *Registry) Legal(st *encounterv1.EncounterState, combatant string) ([]*rulesetv1.LegalAction, error) {
	sys, err := r.system(st)
	if err != nil {
		return nil, err
	}
	if FindCombatant(st, combatant) == nil {
		return nil, NotFound("there is no combatant %q in this encounter", combatant)
	}
	if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
		return nil, nil
	}
	return Actions(sys.LegalCommands(st, combatant)), nil
}
