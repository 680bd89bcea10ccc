package encounter_test

import (
	"strconv"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// cmdJSON is the Command c spells in protojson.
func cmdJSON(t *testing.T, c string) *encounterv1.Command {
	t.Helper()
	cmd := &encounterv1.Command{}
	require.NoError(t, protojson.Unmarshal([]byte(c), cmd), c)
	return cmd
}

// combatantJSON is the Combatant c spells in protojson.
func combatantJSON(t *testing.T, c string) *encounterv1.Combatant {
	t.Helper()
	cb := &encounterv1.Combatant{}
	require.NoError(t, protojson.Unmarshal([]byte(c), cb), c)
	return cb
}

// requireInfo checks err's code and its ErrorInfo: domain fray, reason, and metadata md ("*"
// for any value).
func requireInfo(t *testing.T, err error, code codes.Code, reason string, md map[string]string) {
	t.Helper()
	require.Error(t, err)
	st := status.Convert(err)
	require.Equal(t, code, st.Code(), st.Message())
	var infos []*errdetails.ErrorInfo
	for _, d := range st.Details() {
		if i, ok := d.(*errdetails.ErrorInfo); ok {
			infos = append(infos, i)
		}
	}
	require.Len(t, infos, 1, "one ErrorInfo: %s", st.Message())
	require.Equal(t, "fray", infos[0].GetDomain())
	require.Equal(t, reason, infos[0].GetReason(), st.Message())
	got := infos[0].GetMetadata()
	for k, v := range md {
		require.Contains(t, got, k, st.Message())
		if v != "*" { // "*": present, whatever its value
			require.Equal(t, v, got[k], "metadata %q of %s", k, st.Message())
		}
	}
	require.Len(t, got, len(md), "metadata %v", got)
}

// The combatants of each rule system's fight: the first the GM's, the second sam's (in
// d20seg, sam's Guetteur has the higher Rapidité and acts first).
var fights = map[string][2]string{
	"ka": {`{"id":"chien","name":"Le chien","controller":"gm","ka":{"spheres":{"Animalité":3,"Humanité":1,"Spiritualité":2},"skills":{"Bagarre":3,"Esquive":4},"encaissement":3,"kaDice":3,"realityPoints":10,"weapons":[{"name":"crocs","sphere":"Animalité","skill":"Bagarre","damage":2}]}}`,
		`{"id":"joshua","name":"Joshua","controller":"sam","ka":{"spheres":{"Animalité":4,"Humanité":3,"Spiritualité":2},"skills":{"Arme à feu":4,"Bagarre":2,"Esquive":2},"encaissement":3,"kaDice":9,"realityPoints":15,"playerCharacter":true,"weapons":[{"name":"crosse","sphere":"Animalité","skill":"Bagarre","damage":3}]}}`},
	"d20seg": {`{"id":"brigand","name":"Brigand","controller":"gm","d20seg":{"rapidite":3,"armour":"ARMOUR_LIGHT","weaponClass":"WEAPON_CLASS_ONE_HANDED","bba":6,"agility":1,"strength":2,"ca":15,"hitPoints":40,"size":"SIZE_M","weapons":[{"name":"épée","dice":"1d8","critical":2}]}}`,
		`{"id":"guetteur","name":"Guetteur","controller":"sam","d20seg":{"rapidite":9,"armour":"ARMOUR_LIGHT","weaponClass":"WEAPON_CLASS_ONE_HANDED","bba":6,"agility":1,"strength":2,"ca":15,"hitPoints":40,"size":"SIZE_M","weapons":[{"name":"épée","dice":"1d8","critical":2}]}}`},
	"feerie": {`{"id":"serpent","name":"Serpent","controller":"gm","feerie":{"vigilance":17,"habilete":15,"puissance":12,"resistance":12,"charme":10,"essence":40,"attributes":[{"name":"morsure","kind":"ATTRIBUTE_KIND_AFFINITY","value":4,"combat":true}]}}`,
		`{"id":"rubezahl","name":"Rübezahl","controller":"sam","feerie":{"vigilance":20,"habilete":18,"puissance":16,"resistance":16,"charme":10,"essence":40,"attributes":[{"name":"bâton","kind":"ATTRIBUTE_KIND_AFFINITY","value":4,"combat":true}]}}`},
}

// fight creates, fills and starts an encounter of system over c: the GM's combatant and sam's.
func fight(t *testing.T, c encounterv1.EncounterServiceClient, system string) string {
	t.Helper()
	resp, err := c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Refus", RuleSystem: system}})
	require.NoError(t, err)
	id := resp.GetEncounterId()
	var who []*encounterv1.Combatant
	if system == "loss" { // fast (Initiative 30: 31-40 PA) acts before slow (9: 10-19 PA), whose weapon costs 20
		who = []*encounterv1.Combatant{fighter("fast", "gm", 30, sword(4)), fighter("slow", "sam", 9, sword(20))}
	} else {
		who = []*encounterv1.Combatant{combatantJSON(t, fights[system][0]), combatantJSON(t, fights[system][1])}
	}
	for _, cb := range who {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: cb})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	return id
}

// One refusal of each kind in each rule system reaches the client over gRPC with its code and
// an ErrorInfo: domain fray, a stable reason, the rule ID (and the numbers) in its metadata.
func TestRefusalsCarryErrorInfo(t *testing.T) {
	c := serve(t, store.NewMemory(), encounter.Options{})
	type step struct {
		as  string
		cmd *encounterv1.Command
		// untilPending: given again until a reaction is awaited (a Loss attack that misses
		// awaits none), at most 20 times.
		untilPending bool
	}
	lossPass := func(who string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}
	}
	j := func(s string) *encounterv1.Command { return cmdJSON(t, s) }
	for _, tc := range []struct {
		system, name string
		before       []step
		as           string
		cmd          *encounterv1.Command
		code         codes.Code
		reason       string
		md           map[string]string
	}{
		{"loss", "another system's command", nil, "gm", j(`{"feerie":{"combatantId":"fast","act":{}}}`), codes.InvalidArgument, "INVALID_COMMAND", nil},
		{"loss", "a target that does not exist", nil, "gm", attack("fast", "ghost"), codes.NotFound, "NOT_FOUND", nil},
		{"loss", "another's combatant", nil, "sam", attack("fast", "slow"), codes.PermissionDenied, "NOT_ALLOWED", nil},
		{"loss", "out of turn", nil, "sam", attack("slow", "fast"), codes.FailedPrecondition, "NOT_YOUR_TURN", map[string]string{"rule": "LOS-031"}},
		{"loss", "an answer with no attack", nil, "sam", j(`{"loss":{"combatantId":"slow","react":{"reaction":"REACTION_DODGE"}}}`), codes.FailedPrecondition, "NO_PENDING_REACTION", map[string]string{"rule": "LOS-009"}},
		{"loss", "acting before the answer", []step{{"gm", attack("fast", "slow"), true}}, "gm", attack("fast", "slow"), codes.FailedPrecondition, "REACTION_PENDING", map[string]string{"rule": "LOS-009"}},
		{"loss", "an attack costing more PA than left", []step{{"gm", lossPass("fast"), false}}, "sam", attack("slow", "fast"), codes.FailedPrecondition, "NOT_ENOUGH_ACTION_POINTS", map[string]string{"rule": "LOS-035", "needed": "20", "available": "*"}},
		{"loss", "a refusal by a rule", nil, "gm", j(`{"loss":{"combatantId":"fast","pursuit":{"kind":"PURSUIT_KIND_CHANGE_DISTANCE"}}}`), codes.FailedPrecondition, "RULE_REFUSAL", map[string]string{"rule": "LOS-100"}},

		{"ka", "another system's command", nil, "gm", attack("chien", "joshua"), codes.InvalidArgument, "INVALID_COMMAND", nil},
		{"ka", "a target that does not exist", nil, "sam", j(`{"ka":{"combatantId":"joshua","attack":{"targetId":"ghost","weapon":"crosse"}}}`), codes.NotFound, "NOT_FOUND", nil},
		{"ka", "another's combatant", nil, "sam", j(`{"ka":{"combatantId":"chien","attack":{"targetId":"joshua","weapon":"crocs"}}}`), codes.PermissionDenied, "NOT_ALLOWED", nil},
		{"ka", "out of turn", nil, "gm", j(`{"ka":{"combatantId":"chien","attack":{"targetId":"joshua","weapon":"crocs"}}}`), codes.FailedPrecondition, "NOT_YOUR_TURN", map[string]string{"rule": "KA-014"}},
		{"ka", "an answer with no attack", nil, "gm", j(`{"ka":{"combatantId":"chien","react":{}}}`), codes.FailedPrecondition, "NO_PENDING_REACTION", map[string]string{"rule": "KA-020"}},
		{"ka", "acting before the answer", []step{{"sam", j(`{"ka":{"combatantId":"joshua","attack":{"targetId":"chien","weapon":"crosse"}}}`), false}}, "sam", j(`{"ka":{"combatantId":"joshua","attack":{"targetId":"chien","weapon":"crosse"}}}`), codes.FailedPrecondition, "REACTION_PENDING", map[string]string{"rule": "KA-020"}},
		{"ka", "a refusal by a rule", nil, "sam", j(`{"ka":{"combatantId":"joshua","pickUp":{}}}`), codes.FailedPrecondition, "RULE_REFUSAL", map[string]string{"rule": "KA-032"}},

		{"d20seg", "another system's command", nil, "gm", attack("brigand", "guetteur"), codes.InvalidArgument, "INVALID_COMMAND", nil},
		{"d20seg", "a target that does not exist", nil, "sam", j(`{"d20seg":{"combatantId":"guetteur","attack":{"targetId":"ghost","distanceCm":150}}}`), codes.NotFound, "NOT_FOUND", nil},
		{"d20seg", "another's combatant", nil, "sam", j(`{"d20seg":{"combatantId":"brigand","attack":{"targetId":"guetteur","distanceCm":150}}}`), codes.PermissionDenied, "NOT_ALLOWED", nil},
		{"d20seg", "out of turn", nil, "gm", j(`{"d20seg":{"combatantId":"brigand","attack":{"targetId":"guetteur","distanceCm":150}}}`), codes.FailedPrecondition, "NOT_YOUR_TURN", map[string]string{"rule": "D20-015"}},
		{"d20seg", "a refusal by a rule", nil, "sam", j(`{"d20seg":{"combatantId":"guetteur","attack":{"targetId":"brigand","distanceCm":100000}}}`), codes.FailedPrecondition, "RULE_REFUSAL", map[string]string{"rule": "D20-031"}},

		{"feerie", "another system's command", nil, "gm", attack("serpent", "rubezahl"), codes.InvalidArgument, "INVALID_COMMAND", nil},
		{"feerie", "a target that does not exist", nil, "sam", j(`{"feerie":{"combatantId":"rubezahl","declare":{"intent":{"kind":"ACTIVITY_KIND_MELEE_ATTACK","targetId":"ghost","physical":true}}}}`), codes.NotFound, "NOT_FOUND", nil},
		{"feerie", "another's combatant", nil, "sam", j(`{"feerie":{"combatantId":"serpent","act":{}}}`), codes.PermissionDenied, "NOT_ALLOWED", nil},
		{"feerie", "a refusal by a rule", nil, "sam", j(`{"feerie":{"combatantId":"rubezahl","act":{}}}`), codes.FailedPrecondition, "RULE_REFUSAL", map[string]string{"rule": "FEE-041"}},
	} {
		t.Run(tc.system+"/"+tc.name, func(t *testing.T) {
			id := fight(t, c, tc.system)
			for _, s := range tc.before {
				for n := 1; ; n++ {
					resp, err := c.Submit(as(s.as), &encounterv1.SubmitRequest{EncounterId: id, Command: s.cmd})
					require.NoError(t, err)
					if !s.untilPending || len(resp.GetState().GetPending()) > 0 {
						break
					}
					require.Less(t, n, 20, "no reaction awaited after 20 attacks")
				}
			}
			_, err := c.Submit(as(tc.as), &encounterv1.SubmitRequest{EncounterId: id, Command: tc.cmd})
			requireInfo(t, err, tc.code, tc.reason, tc.md)
		})
	}
}

// The refusals the encounter service gives itself carry an ErrorInfo too; invalid input a
// BadRequest; no rule system given is InvalidArgument, an unknown one NotFound.
func TestServiceRefusalsCarryDetails(t *testing.T) {
	c := serve(t, store.NewMemory(), encounter.Options{})
	id := fight(t, c, "loss")

	_, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: "enc-nope"})
	requireInfo(t, err, codes.NotFound, "ENCOUNTER_NOT_FOUND", nil)
	_, err = c.GetEncounter(as("mallory"), &encounterv1.GetEncounterRequest{EncounterId: id})
	requireInfo(t, err, codes.PermissionDenied, "NO_ROLE", nil)
	requireNothingOf(t, err, c, id)
	_, err = c.Submit(as("mallory"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("fast", "slow")})
	requireInfo(t, err, codes.PermissionDenied, "NO_ROLE", nil)
	requireNothingOf(t, err, c, id)
	got, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	stale := got.GetState().GetSequence() - 1
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, ExpectedSequence: &stale, Command: attack("fast", "slow")})
	requireInfo(t, err, codes.FailedPrecondition, "SEQUENCE_MISMATCH", map[string]string{
		"sequence": strconv.FormatUint(got.GetState().GetSequence(), 10), "expected": strconv.FormatUint(stale, 10)})

	_, err = c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "x"}})
	requireInfo(t, err, codes.InvalidArgument, "INVALID_COMMAND", nil)
	require.Equal(t, `unknown rule system ""; this resolver knows [d20seg feerie ka loss]`, status.Convert(err).Message())
	_, err = c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "chess"}})
	requireInfo(t, err, codes.NotFound, "NOT_FOUND", nil)

	// Invalid input: found by the validation layer ("path: why"), or by the service.
	_, err = c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: "a.b"})
	v := requireBadRequest(t, err, "encounter_id")
	require.Equal(t, "encounter_id: "+v.GetDescription(), status.Convert(err).Message())
	_, err = c.ListEncounters(as("gm"), &encounterv1.ListEncountersRequest{PageSize: 100000})
	requireBadRequest(t, err, "page_size")
	_, err = c.ListEncounters(as("gm"), &encounterv1.ListEncountersRequest{PageToken: "zzzz"})
	requireBadRequest(t, err, "page_token")
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id})
	requireBadRequest(t, err, "command")
	other := fighter("other", "acme/eve", 5, sword(4))
	_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: other})
	requireBadRequest(t, err, "combatant.controller")
}

// requireBadRequest checks that err is InvalidArgument with a BadRequest of one violation,
// of field; it returns it.
func requireBadRequest(t *testing.T, err error, field string) *errdetails.BadRequest_FieldViolation {
	t.Helper()
	st := status.Convert(err)
	require.Equal(t, codes.InvalidArgument, st.Code(), st.Message())
	var br *errdetails.BadRequest
	for _, d := range st.Details() {
		if b, ok := d.(*errdetails.BadRequest); ok {
			br = b
		}
	}
	require.NotNil(t, br, st.Message())
	require.Len(t, br.GetFieldViolations(), 1)
	v := br.GetFieldViolations()[0]
	require.Equal(t, field, v.GetField(), st.Message())
	require.Contains(t, st.Message(), v.GetDescription())
	return v
}

// A refusal decided by the resolver service over gRPC reaches the client with the same ErrorInfo as one
// decided in-process: the encounter service passes the resolver's status on.
func TestRefusalsThroughARemoteResolverCarryErrorInfo(t *testing.T) {
	url, auth := natsFor(t)
	rules := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	rulesv1.RegisterRulesServiceServer(rules.GRPC, resolver.New(systems.Registry()))
	c, _, _ := startService(t, encounter.Config{NATSURL: url, NATS: auth, ResolverAddr: serveOn(t, rules)})
	id := fight(t, c, "loss")
	_, err := c.Submit(as("sam"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("slow", "fast")})
	requireInfo(t, err, codes.FailedPrecondition, "NOT_YOUR_TURN", map[string]string{"rule": "LOS-031"})
	require.Contains(t, status.Convert(err).Message(), "it is not Slow's turn")
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: cmdJSON(t, `{"feerie":{"combatantId":"fast","act":{}}}`)})
	requireInfo(t, err, codes.InvalidArgument, "INVALID_COMMAND", nil)
	require.Equal(t, "Les Chants de Loss does not know this command", status.Convert(err).Message())
}

// requireNothingOf: a refusal to one with no role in the encounter tells nothing of it but
// what the caller gave — neither its name nor its GM (issue 23: a member of the tenant
// learned both from the refusal).
func requireNothingOf(t *testing.T, err error, c encounterv1.EncounterServiceClient, id string) {
	t.Helper()
	got, gerr := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, gerr)
	msg := status.Convert(err).Message()
	require.Contains(t, msg, id)
	require.NotContains(t, msg, got.GetState().GetName(), "the encounter's name")
	require.NotContains(t, msg, got.GetState().GetGameMaster(), "its GM")
	require.NotContains(t, msg, "gm", "its GM's subject")
}
