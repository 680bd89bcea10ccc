package e2e_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// rawBytes sends a request's bytes as they are: what a hostile client puts on the wire.
type rawBytes struct{}

func (rawBytes) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawBytes) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawBytes) Name() string { return "proto" }

// hostileCase is one request a hostile caller sends, and the code it must get.
type hostileCase struct {
	name string
	want codes.Code
	do   func(ctx context.Context, id string) error
}

// reusedCommandID is recorded once by TestHostileRequests before the cases run.
const reusedCommandID = "hostile-reused-1"

// hostileCases: wildcard and 4,000-character ids on every RPC that takes an id, control
// characters in names, unknown enum values, garbage bytes, 200 KB fields, dice positions past
// any an encounter can reach, and a command id reused for another command.
func hostileCases(c encounterv1.EncounterServiceClient, rc rulesv1.RulesServiceClient, cc, rcc *grpc.ClientConn) []hostileCase {
	long := strings.Repeat("a", 4000)
	big := strings.Repeat("x", 200<<10)
	var cases []hostileCase
	add := func(name string, do func(ctx context.Context, id string) error) {
		cases = append(cases, hostileCase{name, codes.InvalidArgument, do})
	}
	start := &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
	seed := dice.NewSeed()
	for _, bad := range []struct{ name, id string }{{"*", "*"}, {">", ">"}, {"4,000 characters", long}, {"a.b", "a.b"}} {
		idRPCs := []struct {
			rpc string
			do  func(ctx context.Context, id string) error
		}{
			{"GetEncounter", func(ctx context.Context, id string) error {
				_, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
				return err
			}},
			{"WatchEncounter", func(ctx context.Context, id string) error {
				s, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
				if err != nil {
					return err
				}
				return first(s.Recv)
			}},
			{"ExportLog", func(ctx context.Context, id string) error {
				s, err := c.ExportLog(ctx, &encounterv1.ExportLogRequest{EncounterId: id})
				if err != nil {
					return err
				}
				return first(s.Recv)
			}},
			{"Submit", func(ctx context.Context, id string) error {
				_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: grant("erin", encounterv1.Role_ROLE_OBSERVER)})
				return err
			}},
			{"AddCombatant", func(ctx context.Context, id string) error {
				_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: ruffian(0)})
				return err
			}},
			{"RemoveCombatant", func(ctx context.Context, id string) error {
				_, err := c.RemoveCombatant(ctx, &encounterv1.RemoveCombatantRequest{EncounterId: id, CombatantId: "diego"})
				return err
			}},
			{"StartEncounter", func(ctx context.Context, id string) error {
				_, err := c.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id})
				return err
			}},
			{"EndEncounter", func(ctx context.Context, id string) error {
				_, err := c.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id})
				return err
			}},
			{"RewindEncounter", func(ctx context.Context, id string) error {
				_, err := c.RewindEncounter(ctx, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: 1})
				return err
			}},
			{"Resolve", func(_ context.Context, id string) error {
				_, err := rc.Resolve(authtest.As("encounter-service", identity.ScopeResolve), &rulesv1.ResolveRequest{
					State: &encounterv1.EncounterState{EncounterId: id, Tenant: authtest.Tenant}, Command: start, Actor: "dev/gm", Seed: seed})
				return err
			}},
		}
		for _, r := range idRPCs {
			add(fmt.Sprintf("%s, encounter id %s", r.rpc, bad.name), func(ctx context.Context, _ string) error { return r.do(ctx, bad.id) })
		}
		// The other ids: a combatant's, a command's, legal_for.
		add("RemoveCombatant, combatant id "+bad.name, func(ctx context.Context, id string) error {
			_, err := c.RemoveCombatant(ctx, &encounterv1.RemoveCombatantRequest{EncounterId: id, CombatantId: bad.id})
			return err
		})
		add("GetEncounter, legal_for "+bad.name, func(ctx context.Context, id string) error {
			_, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id, LegalFor: bad.id})
			return err
		})
		add("Submit, command id "+bad.name, func(ctx context.Context, id string) error {
			_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, CommandId: bad.id, Command: start})
			return err
		})
		add("AddCombatant, combatant id "+bad.name, func(ctx context.Context, id string) error {
			r := ruffian(0)
			r.Id = bad.id
			_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
			return err
		})
		add("Submit, attack target "+bad.name, func(ctx context.Context, id string) error {
			_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: lossCmd(&lossv1.Action{CombatantId: "diego",
				Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: bad.id, Weapon: "épée"}}})})
			return err
		})
	}

	for _, n := range []struct{ name, s string }{
		{"NUL", "Diego\x00"}, {"ESC[2J", "Diego\x1b[2J"}, {"CR LF", "Diego\r\n#9 GM: forged"}, {"U+202E", "Diego\u202egnp.exe"},
	} {
		add("AddCombatant, name with "+n.name, func(ctx context.Context, id string) error {
			r := ruffian(0)
			r.Name = n.s
			_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
			return err
		})
		add("CreateEncounter, name with "+n.name, func(ctx context.Context, _ string) error {
			_, err := c.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: n.s, RuleSystem: "loss"}})
			return err
		})
		add("EndEncounter, reason with "+n.name, func(ctx context.Context, id string) error {
			_, err := c.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: n.s})
			return err
		})
	}

	add("AddCombatant, sheet kind 99", func(ctx context.Context, id string) error {
		r := ruffian(0)
		r.GetLoss().Kind = 99
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
		return err
	})
	add("AddCombatant, weapon kind -1", func(ctx context.Context, id string) error {
		r := ruffian(0)
		r.GetLoss().Weapons[0].Kind = -1
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
		return err
	})
	add("Submit, grant role 42", func(ctx context.Context, id string) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: grant("erin", 42)})
		return err
	})
	add("Submit, loss reaction 77", func(ctx context.Context, id string) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: lossCmd(&lossv1.Action{CombatantId: "diego",
			Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: 77}}})})
		return err
	})
	add("AddCombatant, appearance 9", func(ctx context.Context, id string) error {
		r := ruffian(0)
		r.Appearance = 9
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
		return err
	})

	badUTF8 := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("enc\xff\xfe"))
	withID := func(id string, rest []byte) []byte {
		b := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), id)
		return append(b, rest...)
	}
	for _, g := range []struct {
		name string
		body func(id string) []byte
	}{
		{"garbage", func(string) []byte { return []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02, 0x03} }},
		{"invalid UTF-8 in encounter_id", func(string) []byte { return badUTF8 }},
		{"a truncated field", func(id string) []byte { return withID(id, []byte{0x22, 0x7f, 0x01}) }},
		{"invalid UTF-8 in a nested name", func(id string) []byte {
			// SubmitRequest{encounter_id: id, command: {create: {name: "\xff"}}}; AddCombatant alike.
			name := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("\xff\xfe"))
			create := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), name)
			return withID(id, protowire.AppendBytes(protowire.AppendTag(nil, 4, protowire.BytesType), create))
		}},
	} {
		for _, m := range []string{"GetEncounter", "Submit", "AddCombatant", "CreateEncounter", "EndEncounter"} {
			add(fmt.Sprintf("%s, %s", m, g.name), func(ctx context.Context, id string) error {
				body, out := g.body(id), []byte(nil)
				return cc.Invoke(ctx, "/fray.encounter.v1.EncounterService/"+m, &body, &out, grpc.ForceCodec(rawBytes{}))
			})
		}
		for _, m := range []string{"WatchEncounter", "ExportLog"} {
			add(fmt.Sprintf("%s, %s", m, g.name), func(ctx context.Context, id string) error {
				s, err := cc.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/fray.encounter.v1.EncounterService/"+m, grpc.ForceCodec(rawBytes{}))
				if err != nil {
					return err
				}
				body := g.body(id)
				if err := s.SendMsg(&body); err != nil && err != io.EOF {
					return err
				}
				_ = s.CloseSend()
				var out []byte
				return s.RecvMsg(&out)
			})
		}
		add("Resolve, "+g.name, func(_ context.Context, id string) error {
			body, out := g.body(id), []byte(nil)
			return rcc.Invoke(authtest.As("encounter-service", identity.ScopeResolve), "/fray.rules.v1.RulesService/Resolve", &body, &out, grpc.ForceCodec(rawBytes{}))
		})
	}

	for _, f := range []struct {
		field string
		set   func(*encounterv1.Combatant)
	}{
		{"controller", func(c *encounterv1.Combatant) { c.Controller = big }},
		{"side", func(c *encounterv1.Combatant) { c.Side = big }},
		{"name", func(c *encounterv1.Combatant) { c.Name = big }},
		{"weapon name", func(c *encounterv1.Combatant) { c.GetLoss().Weapons[0].Name = big }},
		{"trait key", func(c *encounterv1.Combatant) { c.GetLoss().Traits[big] = 3 }},
	} {
		add("AddCombatant, 200 KB "+f.field, func(ctx context.Context, id string) error {
			r := ruffian(0)
			f.set(r)
			_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: r})
			return err
		})
	}
	add("CreateEncounter, 200 KB name", func(ctx context.Context, _ string) error {
		_, err := c.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: big, RuleSystem: "loss"}})
		return err
	})
	add("EndEncounter, 200 KB reason", func(ctx context.Context, id string) error {
		_, err := c.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: big})
		return err
	})
	add("RewindEncounter, 200 KB reason", func(ctx context.Context, id string) error {
		_, err := c.RewindEncounter(ctx, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: 1, Reason: big})
		return err
	})
	add("Submit, 200 KB grant principal", func(ctx context.Context, id string) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: grant(big, encounterv1.Role_ROLE_OBSERVER)})
		return err
	})
	add("Submit, 257 combatant ids in a grant", func(ctx context.Context, id string) error {
		g := grant("erin", encounterv1.Role_ROLE_PLAYER)
		for i := range 257 {
			g.GetGrantRole().CombatantIds = append(g.GetGrantRole().CombatantIds, fmt.Sprintf("c%d", i))
		}
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: g})
		return err
	})
	add("Submit, unknown field 99 in the command", func(ctx context.Context, id string) error {
		cmd := grant("erin", encounterv1.Role_ROLE_OBSERVER)
		cmd.ProtoReflect().SetUnknown(protowire.AppendBytes(protowire.AppendTag(nil, 99, protowire.BytesType), []byte(big[:1000])))
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: cmd})
		return err
	})
	add("Roll, 4,000-character expression", func(ctx context.Context, _ string) error {
		_, err := rc.Roll(ctx, &rulesv1.RollRequest{Expression: long})
		return err
	})
	add("DescribeRuleset, id *", func(ctx context.Context, _ string) error {
		_, err := rc.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "*"})
		return err
	})
	for _, off := range []struct {
		name       string
		offset     uint64
		highWater  uint64
		diceScheme uint32
	}{
		{"dice_offset 2^62", 1 << 62, 0, 2},
		{"dice_high_water 2^40", 0, 1 << 40, 2},
		{"dice_offset 2^36 under dice scheme 1", 1 << 36, 0, 0},
		{"dice scheme 9", 0, 0, 9},
	} {
		add("Resolve, "+off.name, func(_ context.Context, id string) error {
			_, err := rc.Resolve(authtest.As("encounter-service", identity.ScopeResolve), &rulesv1.ResolveRequest{
				State: &encounterv1.EncounterState{EncounterId: "enc-offsets", Tenant: authtest.Tenant, Sequence: 5, DiceOffset: off.offset,
					DiceHighWater: off.highWater, DiceScheme: off.diceScheme, RuleSystem: "loss", RulesVersion: 1,
					Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE},
				Command: start, Actor: "dev/gm", Seed: seed})
			return err
		})
	}
	cases = append(cases, hostileCase{"Submit, command id reused for another command", codes.AlreadyExists, func(ctx context.Context, id string) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, CommandId: reusedCommandID, Command: grant("erin", encounterv1.Role_ROLE_CO_GM)})
		return err
	}})
	return cases
}

// Every hostile request the issue lists, through gRPC against the real services: each gets
// its code (InvalidArgument, AlreadyExists for a reused command id), records nothing (the
// stream holds as many messages as before), and the service is healthy afterwards (health
// SERVING, a normal Get answers); then a churn of watches leaves no consumer behind.
func TestHostileRequests(t *testing.T) {
	ns, nc := natstest.Start(t)
	raddr := startResolver(t)
	addr := startEncounterAt(t, ns.ClientURL(), raddr)
	cc, rcc := dial(t, addr), dial(t, raddr)
	c, rc := encounterv1.NewEncounterServiceClient(cc), rulesv1.NewRulesServiceClient(rcc)
	health := healthpb.NewHealthClient(cc)
	gm := as("gm")
	id := roleFixture(t, c, true)

	js, err := jetstream.New(nc)
	require.NoError(t, err)
	messages := func() uint64 {
		s, err := js.Stream(context.Background(), "FRAY_ENCOUNTERS")
		require.NoError(t, err)
		info, err := s.Info(context.Background())
		require.NoError(t, err)
		return info.State.Msgs
	}
	first, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: reusedCommandID, Command: grant("frank", encounterv1.Role_ROLE_OBSERVER)})
	require.NoError(t, err)
	want, err := c.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	cases := hostileCases(c, rc, cc, rcc)
	var table strings.Builder
	counts := map[codes.Code]int{}
	for _, hc := range cases {
		before := messages()
		err := hc.do(gm, id)
		code := status.Code(err)
		counts[code]++
		fmt.Fprintf(&table, "  %-62s %s\n", hc.name, code)
		require.Equal(t, hc.want, code, "%s: %v", hc.name, err)
		msg := status.Convert(err).Message()
		require.Less(t, len(msg), 1000, "%s: the message does not echo the flood", hc.name)
		require.Equal(t, before, messages(), "%s: nothing recorded", hc.name)

		h, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{})
		require.NoError(t, err, hc.name)
		require.Equal(t, healthpb.HealthCheckResponse_SERVING, h.GetStatus(), hc.name)
		got, err := c.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err, "%s: a normal Get still works", hc.name)
		require.True(t, proto.Equal(want.GetState(), got.GetState()), "%s: the encounter is unchanged", hc.name)
	}
	// The same command resent under its id still gets its recorded events.
	again, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: reusedCommandID, Command: grant("frank", encounterv1.Role_ROLE_OBSERVER)})
	require.NoError(t, err)
	require.Equal(t, first.GetEvents()[0].GetEventId(), again.GetEvents()[0].GetEventId())

	// Watch churn: watches opened and cancelled leave no consumer behind, and then another
	// user's watch is served.
	consumers := func() int {
		s, err := js.Stream(context.Background(), "FRAY_ENCOUNTERS")
		require.NoError(t, err)
		info, err := s.Info(context.Background())
		require.NoError(t, err)
		return info.State.Consumers
	}
	baseline := consumers()
	const churn = 1000
	sem := make(chan struct{}, 4) // well under the 16 watches one caller may hold while cancelled ones are let go
	errs := make(chan error, churn)
	for range churn {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			ctx, cancel := context.WithCancel(gm)
			s, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
			if err == nil {
				_, err = s.Recv() // the first event: the watch is under way
			}
			cancel()
			errs <- err
		}()
	}
	for range churn {
		require.NoError(t, <-errs)
	}
	require.Eventually(t, func() bool { return consumers() == baseline }, 2*time.Minute, 20*time.Millisecond,
		"%d watches opened and cancelled leave no consumer behind", churn)
	ws, err := c.WatchEncounter(as("erin"), &encounterv1.WatchEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	ev, err := ws.Recv()
	require.NoError(t, err, "after the churn another user's watch is served")
	require.Equal(t, uint64(1), ev.GetEvent().GetSequence())
	fmt.Fprintf(&table, "  %-62s %s\n", fmt.Sprintf("%d watches opened and cancelled, then another user's", churn), codes.OK)

	// The service still records: a normal command goes through.
	_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: grant("erin", encounterv1.Role_ROLE_PLAYER)})
	require.NoError(t, err)
	t.Logf("hostile requests over gRPC: %d cases, codes %v\n%s", len(cases), counts, table.String())
}
