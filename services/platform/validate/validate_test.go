package validate_test

import (
	"context"
	"net"
	"strings"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func lossCombatant(mod func(c *encounterv1.Combatant, s *lossv1.Sheet)) *encounterv1.AddCombatantRequest {
	s := &lossv1.Sheet{Kind: lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, Traits: map[string]int32{"Puissance": 6},
		Weapons: []*lossv1.Weapon{{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE}}}
	c := &encounterv1.Combatant{Id: "diego", Name: "Diego de la Vega", Controller: "david", Side: "heroes", Sheet: &encounterv1.Combatant_Loss{Loss: s}}
	if mod != nil {
		mod(c, s)
	}
	return &encounterv1.AddCombatantRequest{EncounterId: "3f2b1c9e-0d4a-4c1e-9a5b-7e6f8d9c0b1a", CommandId: "0123456789abcdef0123456789abcdef", Combatant: c}
}

func submit(cmd *encounterv1.Command) *encounterv1.SubmitRequest {
	return &encounterv1.SubmitRequest{EncounterId: "enc-1", Command: cmd}
}

func withUnknown(m proto.Message, num protowire.Number) proto.Message {
	b := protowire.AppendTag(nil, num, protowire.VarintType)
	m.ProtoReflect().SetUnknown(protowire.AppendVarint(b, 7))
	return m
}

// Each rule of the validation layer: a request that passes and one that fails, with
// InvalidArgument and a message naming the field and what it accepts.
func TestValidate(t *testing.T) {
	long := strings.Repeat("a", 4000)
	big := strings.Repeat("x", 200<<10)
	cases := []struct {
		name string
		req  proto.Message
		want []string // nil: passes
	}{
		{"a good AddCombatant", lossCombatant(nil), nil},
		{"encounter id: a UUID", &encounterv1.GetEncounterRequest{EncounterId: "3f2b1c9e-0d4a-4c1e-9a5b-7e6f8d9c0b1a"}, nil},
		{"encounter id: *", &encounterv1.GetEncounterRequest{EncounterId: "*"}, []string{"encounter_id", `"*"`, "1 to 64 letters, digits, '-' or '_'"}},
		{"encounter id: >", &encounterv1.WatchEncounterRequest{EncounterId: ">"}, []string{"encounter_id", `">"`}},
		{"encounter id: a.b", &encounterv1.ExportLogRequest{EncounterId: "a.b"}, []string{"encounter_id"}},
		{"encounter id: 4,000 characters", &encounterv1.SubmitRequest{EncounterId: long, Command: &encounterv1.Command{Kind: &encounterv1.Command_Start{}}}, []string{"encounter_id", "4000 characters", "1 to 64"}},
		{"encounter id: 64 characters", &encounterv1.StartEncounterRequest{EncounterId: strings.Repeat("a", 64)}, nil},
		{"encounter id: 65 characters", &encounterv1.StartEncounterRequest{EncounterId: strings.Repeat("a", 65)}, []string{"encounter_id", "65 characters"}},
		// Required by the encounter service's access table, not here (TestEveryRPCHasAnAccessRow).
		{"encounter id: missing", &encounterv1.EndEncounterRequest{}, nil},
		{"command id: none (the server picks)", &encounterv1.StartEncounterRequest{EncounterId: "e"}, nil},
		{"command id: 128 characters", &encounterv1.StartEncounterRequest{EncounterId: "e", CommandId: strings.Repeat("c", 128)}, nil},
		{"command id: 129 characters", &encounterv1.StartEncounterRequest{EncounterId: "e", CommandId: strings.Repeat("c", 129)}, []string{"command_id", "129 characters", "1 to 128"}},
		{"command id: CR LF", &encounterv1.StartEncounterRequest{EncounterId: "e", CommandId: "a\r\nNats-Msg-Id: b"}, []string{"command_id", `\r\n`}},
		{"combatant id: *", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Id = "*" }), []string{"combatant.id", `"*"`}},
		{"remove: combatant id >", &encounterv1.RemoveCombatantRequest{EncounterId: "e", CombatantId: ">"}, []string{"combatant_id", `">"`}},
		{"remove: no combatant id", &encounterv1.RemoveCombatantRequest{EncounterId: "e"}, []string{"combatant_id", "required"}},
		{"legal_for: a good id", &encounterv1.GetEncounterRequest{EncounterId: "e", LegalFor: "diego"}, nil},
		{"legal_for: spaces", &encounterv1.GetEncounterRequest{EncounterId: "e", LegalFor: "die go"}, []string{"legal_for"}},
		{"name: accents and spaces", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Loïc l'Ébréché (le 2e)" }), nil},
		{"name: 200 characters", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = strings.Repeat("é", 200) }), nil},
		{"name: 201 characters", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = strings.Repeat("é", 201) }), []string{"combatant.name", "201 characters; at most 200"}},
		{"name: NUL", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\x00" }), []string{"combatant.name", "U+0000", "printable characters only"}},
		{"name: ESC[2J", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\x1b[2J" }), []string{"combatant.name", `\x1b[2J`, "U+001B"}},
		{"name: CR LF", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\r\n#1 GM: ok" }), []string{"combatant.name", "U+000D"}},
		{"name: U+202E", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\u202egnp.exe" }), []string{"combatant.name", "U+202E"}},
		{"name: U+2066", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "\u2066Diego" }), []string{"combatant.name", "U+2066"}},
		{"name: DEL", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\x7f" }), []string{"combatant.name", "U+007F"}},
		{"name: U+2028", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\u2028x" }), []string{"combatant.name", "U+2028"}},
		{"encounter name: ESC", &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "\x1b]0;pwned\x07", RuleSystem: "loss"}}, []string{"encounter.name", "U+001B"}},
		{"create: good", &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "La table", RuleSystem: "loss"}}, nil},
		{"create: no encounter", &encounterv1.CreateEncounterRequest{}, []string{"encounter", "required"}},
		{"controller: 200 KB", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Controller = big }), []string{"combatant.controller", "204800 bytes", "at most 257"}},
		{"controller: tenant/subject", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Controller = "dev/david" }), nil},
		{"controller: a space", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Controller = "da vid" }), []string{"combatant.controller", "letters, digits and punctuation"}},
		{"side: 200 KB", lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Side = big }), []string{"combatant.side", "204800 characters; at most 200"}},
		{"sheet: weapon name ESC", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { s.Weapons[0].Name = "épée\x1b[31m" }), []string{"combatant.loss.weapons[0].name", "U+001B"}},
		{"sheet: map key ESC", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { s.Traits["\x1b[2J"] = 3 }), []string{"combatant.loss.traits key", "U+001B"}},
		{"sheet: 256 weapons", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) {
			s.Weapons = make([]*lossv1.Weapon, 256)
			for i := range s.Weapons {
				s.Weapons[i] = &lossv1.Weapon{Name: "dague"}
			}
		}), nil},
		{"sheet: 257 weapons", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) {
			s.Weapons = make([]*lossv1.Weapon, 257)
			for i := range s.Weapons {
				s.Weapons[i] = &lossv1.Weapon{Name: "dague"}
			}
		}), []string{"combatant.loss.weapons", "257 entries; at most 256"}},
		{"sheet: 257 traits", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) {
			for i := range 257 {
				s.Traits[strings.Repeat("t", i+1)] = 1
			}
		}), []string{"combatant.loss.traits", "at most 256"}},
		{"enum: unknown sheet kind", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { s.Kind = 99 }), []string{"combatant.loss.kind", "99 is not a value of CombatantKind", "COMBATANT_KIND_PLAYER_CHARACTER"}},
		{"enum: unknown weapon kind", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { s.Weapons[0].Kind = -1 }), []string{"combatant.loss.weapons[0].kind", "-1 is not a value of WeaponKind"}},
		{"enum: unknown role", submit(&encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "erin", Role: 42}}}), []string{"command.grant_role.role", "42", "ROLE_OBSERVER"}},
		{"grant: good", submit(&encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "erin", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego"}}}}), nil},
		{"grant: combatant id *", submit(&encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "erin", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"diego", "*"}}}}), []string{"command.grant_role.combatant_ids[1]", `"*"`}},
		{"grant: principal with ESC", submit(&encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "erin\x1b", Role: encounterv1.Role_ROLE_PLAYER}}}), []string{"command.grant_role.principal"}},
		{"submit: no command", submit(nil), []string{"command", "required"}},
		{"end: reason of 1,000 characters", &encounterv1.EndEncounterRequest{EncounterId: "e", Reason: strings.Repeat("r", 1000)}, nil},
		{"end: reason of 1,001 characters", &encounterv1.EndEncounterRequest{EncounterId: "e", Reason: strings.Repeat("r", 1001)}, []string{"reason", "1001 characters; at most 1000"}},
		{"rewind: reason with LF", &encounterv1.RewindEncounterRequest{EncounterId: "e", ToSequence: 2, Reason: "oops\nGM: all dead"}, []string{"reason", "U+000A"}},
		{"loss action: target *", submit(&encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "*", Weapon: "épée"}}}}}), []string{"command.loss.attack.target_id", `"*"`}},
		{"loss action: good", submit(&encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "ruffian-1", Weapon: "épée"}}}}}), nil},
		{"feerie action: combatant id too long", submit(&encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: &feeriev1.Action{CombatantId: long}}}), []string{"command.feerie.combatant_id", "4000 characters"}},
		{"ka action: weapon with ESC", submit(&encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: &kav1.Action{CombatantId: "a", Kind: &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: "b", Weapon: "\x1b[2J"}}}}}), []string{"command.ka.attack.weapon", "U+001B"}},
		{"d20seg action: description 200 KB", submit(&encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: &d20segv1.Action{CombatantId: "a", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: big}}}}}), []string{"command.d20seg.other.description", "at most 1000"}},
		{"unknown field", withUnknown(&encounterv1.GetEncounterRequest{EncounterId: "e"}, 99), []string{"field number 99", "GetEncounterRequest"}},
		{"unknown field in a sheet", lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { withUnknown(s, 500) }), []string{"combatant.loss", "field number 500"}},
		{"list: page token", &encounterv1.ListEncountersRequest{PageToken: "eyJ0IjoxfQ"}, nil},
		{"list: page token 4,000 characters", &encounterv1.ListEncountersRequest{PageToken: long}, []string{"page_token", "next_page_token"}},
		{"describe: loss", &rulesv1.DescribeRulesetRequest{Id: "loss"}, nil},
		{"describe: *", &rulesv1.DescribeRulesetRequest{Id: "*"}, []string{"id", `"*"`}},
		{"roll: good", &rulesv1.RollRequest{Expression: "3d10+4"}, nil},
		{"roll: expression 4,000 characters", &rulesv1.RollRequest{Expression: long}, []string{"expression", "at most 200"}},
		{"roll: seed of 5 bytes", &rulesv1.RollRequest{Expression: "d10", Seed: []byte("short")}, []string{"seed", "32 bytes"}},
		{"resolve: good", resolve(nil), nil},
		{"resolve: encounter id *", resolve(func(r *rulesv1.ResolveRequest) { r.State.EncounterId = "*" }), []string{"state.encounter_id", `"*"`}},
		{"resolve: encounter id 4,000 characters", resolve(func(r *rulesv1.ResolveRequest) { r.State.EncounterId = long }), []string{"state.encounter_id", "4000 characters"}},
		{"resolve: state name as recorded (not re-checked)", resolve(func(r *rulesv1.ResolveRequest) { r.State.Name = "old\x1bname" }), nil},
		{"resolve: state status unknown", resolve(func(r *rulesv1.ResolveRequest) { r.State.Status = 9 }), []string{"state.status", "9 is not a value of EncounterStatus"}},
		{"resolve: command name ESC", resolve(func(r *rulesv1.ResolveRequest) { r.Command.GetCreate().Name = "\x1b[2J" }), []string{"command.create.name", "U+001B"}},
		{"resolve: actor 200 KB", resolve(func(r *rulesv1.ResolveRequest) { r.Actor = big }), []string{"actor", "at most 257"}},
		{"resolve: seed of 5 bytes", resolve(func(r *rulesv1.ResolveRequest) { r.Seed = []byte("short") }), []string{"seed", "32 bytes"}},
		{"resolve: a sheet digest per combatant", resolve(func(r *rulesv1.ResolveRequest) {
			r.State.Combatants = []*encounterv1.Combatant{{Id: "a"}, {Id: "b"}}
			r.SheetSha256 = [][]byte{make([]byte, 32), nil}
		}), nil},
		{"resolve: sheet digests for 2 of 3 combatants", resolve(func(r *rulesv1.ResolveRequest) {
			r.State.Combatants = []*encounterv1.Combatant{{Id: "a"}, {Id: "b"}, {Id: "c"}}
			r.SheetSha256 = [][]byte{make([]byte, 32), nil}
		}), []string{"sheet_sha256", "2 entries for the state's 3 combatants"}},
		{"resolve: a sheet digest of 5 bytes", resolve(func(r *rulesv1.ResolveRequest) {
			r.State.Combatants = []*encounterv1.Combatant{{Id: "a"}, {Id: "b"}}
			r.SheetSha256 = [][]byte{nil, []byte("short")}
		}), []string{"sheet_sha256[1]", "5 bytes: a sha256 has 32"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := validate.Request(tc.req)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			msg := status.Convert(err).Message()
			for _, w := range tc.want {
				require.Contains(t, msg, w)
			}
			require.Less(t, len(msg), 600, "a message never echoes a flood")
			for _, r := range msg {
				require.False(t, r < 0x20 || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069), "the message %q carries a control character", msg)
			}
		})
	}
}

func resolve(mod func(*rulesv1.ResolveRequest)) *rulesv1.ResolveRequest {
	r := &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "enc-1", Tenant: "dev"},
		Command: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "loss"}}},
		Actor:   "dev/gm", Seed: make([]byte, 32)}
	if mod != nil {
		mod(r)
	}
	return r
}

// Every enum field of every message a request may carry is checked: an undefined number is
// refused wherever it sits.
func TestValidateEveryEnumOfACommand(t *testing.T) {
	n := 0
	var visit func(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool)
	visit = func(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			if fd.Kind() == protoreflect.EnumKind && !fd.IsList() && !fd.IsMap() {
				n++
			}
			if fd.Message() != nil {
				visit(fd.Message(), seen)
			}
		}
	}
	visit((&encounterv1.SubmitRequest{}).ProtoReflect().Descriptor(), map[protoreflect.FullName]bool{})
	require.Greater(t, n, 20, "the commands of four systems hold many enums")
}

type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

type echo struct {
	encounterv1.UnimplementedEncounterServiceServer
}

func (echo) GetEncounter(_ context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	return &encounterv1.GetEncounterResponse{State: &encounterv1.EncounterState{EncounterId: req.GetEncounterId()}}, nil
}

// Garbage bytes and invalid UTF-8 sent over a real connection are InvalidArgument (grpc-go
// alone says Internal), and the server goes on serving.
func TestUndecodableRequests(t *testing.T) {
	srv := server.New(telemetry.NewLogger("text", "error"))
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, echo{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.GRPC.Serve(lis) }()
	t.Cleanup(srv.GRPC.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = cc.Close() })

	badUTF8 := protowire.AppendTag(nil, 1, protowire.BytesType)
	badUTF8 = protowire.AppendBytes(badUTF8, []byte("enc\xff\xfe"))
	for name, body := range map[string][]byte{
		"garbage":            {0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02},
		"invalid UTF-8":      badUTF8,
		"truncated length":   {0x0a, 0x7f, 'a'},
		"wrong wire type":    {0x0d, 1, 2, 3, 4},
		"forged mark, empty": protowire.AppendBytes(protowire.AppendTag(nil, protowire.MaxValidNumber, protowire.BytesType), nil),
	} {
		t.Run(name, func(t *testing.T) {
			var out []byte
			err := cc.Invoke(context.Background(), "/fray.encounter.v1.EncounterService/GetEncounter", &body, &out, grpc.ForceCodec(rawCodec{}))
			require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
		})
	}
	r, err := encounterv1.NewEncounterServiceClient(cc).GetEncounter(context.Background(), &encounterv1.GetEncounterRequest{EncounterId: "enc-1"})
	require.NoError(t, err)
	require.Equal(t, "enc-1", r.GetState().GetEncounterId())
}

// A request over MaxRequestBytes is ResourceExhausted before any field is looked at.
func TestValidateRequestSize(t *testing.T) {
	req := lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) {
		c.Name = strings.Repeat("n", validate.MaxRequestBytes)
	})
	err := validate.Request(req)
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), "at most 262144")
}

// Invalid input carries a BadRequest whose one field violation names the field's path and
// says why, the message unchanged ("path: why").
func TestInvalidInputCarriesBadRequest(t *testing.T) {
	for _, tc := range []struct {
		req   any
		field string
	}{
		{&encounterv1.GetEncounterRequest{EncounterId: "*"}, "encounter_id"},
		// A missing encounter_id is no longer validate.Request's to refuse: the encounter
		// service's access table says which RPCs need one (services/encounter access_test.go,
		// errors_test.go check its BadRequest).
		{lossCombatant(func(c *encounterv1.Combatant, _ *lossv1.Sheet) { c.Name = "Diego\x1b[2J" }), "combatant.name"},
		{lossCombatant(func(_ *encounterv1.Combatant, s *lossv1.Sheet) { s.Weapons[0].Name = "épée\x00" }), "combatant.loss.weapons[0].name"},
		{submit(&encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "*"}}}}}), "command.loss.attack.target_id"},
	} {
		err := validate.Request(tc.req)
		require.Equal(t, codes.InvalidArgument, status.Code(err))
		var br *errdetails.BadRequest
		for _, d := range status.Convert(err).Details() {
			if b, ok := d.(*errdetails.BadRequest); ok {
				br = b
			}
		}
		require.NotNil(t, br, err.Error())
		require.Len(t, br.GetFieldViolations(), 1)
		v := br.GetFieldViolations()[0]
		require.Equal(t, tc.field, v.GetField())
		require.Equal(t, tc.field+": "+v.GetDescription(), status.Convert(err).Message())
	}
}
