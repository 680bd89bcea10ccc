package validate

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// requestTypes are the request messages of every fray service, in the order of their
// services' methods.
func requestTypes(tb testing.TB) []protoreflect.MessageType {
	var out []protoreflect.MessageType
	for _, file := range []protoreflect.FileDescriptor{encounterv1.File_fray_encounter_v1_encounter_service_proto, rulesv1.File_fray_rules_v1_rules_service_proto} {
		for i := range file.Services().Len() {
			methods := file.Services().Get(i).Methods()
			for j := range methods.Len() {
				mt, err := protoregistry.GlobalTypes.FindMessageByName(methods.Get(j).Input().FullName())
				if err != nil {
					tb.Fatal(err)
				}
				out = append(out, mt)
			}
		}
	}
	return out
}

// FuzzValidate decodes arbitrary bytes as each request message of the fray services, as the
// server does (its codec), and validates it: never a panic, never a decoding error (garbage
// is marked, then refused by Validate); the same verdict as the reference walk
// (validate_ref_test.go); a refusal is InvalidArgument or ResourceExhausted; a
// request accepted has a well-formed encounter id, if it has one, and is accepted again once
// encoded and decoded.
func FuzzValidate(f *testing.F) {
	types := requestTypes(f)
	seeds := []proto.Message{
		&encounterv1.CreateEncounterRequest{CommandId: "c-1", Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}},
		&encounterv1.GetEncounterRequest{EncounterId: "enc-abc"},
		&encounterv1.GetEncounterRequest{EncounterId: "*"},
		&encounterv1.WatchEncounterRequest{EncounterId: "enc.>"},
		&encounterv1.SubmitRequest{EncounterId: "enc-abc", CommandId: "x", Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}}},
		&encounterv1.AddCombatantRequest{EncounterId: "enc-abc", Combatant: &encounterv1.Combatant{Id: "diego", Name: "Diego\x1b[2J", Controller: "david"}},
		&encounterv1.EndEncounterRequest{EncounterId: "enc-abc", Reason: "done\u202e"},
		&rulesv1.ResolveRequest{Command: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Actor: "dev/gm", State: &encounterv1.EncounterState{EncounterId: "enc-abc", DiceOffset: 1 << 40}},
	}
	for _, m := range seeds {
		b, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		for i, mt := range types {
			if mt.Descriptor().FullName() == m.ProtoReflect().Descriptor().FullName() {
				f.Add(uint16(i), b)
			}
		}
	}
	for i := range types {
		f.Add(uint16(i), []byte{})
		f.Add(uint16(i), []byte{0x0a, 0x02, 0xff, 0xfe}) // field 1, invalid UTF-8
		f.Add(uint16(i), []byte{0xff, 0xff, 0xff})       // not protobuf
	}
	codec := requestCodec{encoding.GetCodecV2("proto")}
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		mt := types[int(which)%len(types)]
		m := mt.New().Interface()
		if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, m); err != nil {
			t.Fatalf("the codec fails on %x as %s: %v", data, mt.Descriptor().FullName(), err)
		}
		err := Request(m)
		if ref := referenceValidate(m); status.Code(ref) != status.Code(err) {
			t.Fatalf("%s: the planned walk says %v, the reference walk %v", mt.Descriptor().FullName(), err, ref)
		}
		if err != nil {
			if c := status.Code(err); c != codes.InvalidArgument && c != codes.ResourceExhausted {
				t.Fatalf("%s refused with %v: %v", mt.Descriptor().FullName(), c, err)
			}
			return
		}
		if fd := mt.Descriptor().Fields().ByName("encounter_id"); fd != nil {
			if id := m.ProtoReflect().Get(fd).String(); id != "" && CheckID("encounter_id", id) != nil {
				t.Fatalf("%s accepted with encounter id %q", mt.Descriptor().FullName(), id)
			}
		}
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatalf("an accepted %s does not encode: %v", mt.Descriptor().FullName(), err)
		}
		again := mt.New().Interface()
		if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, again); err != nil {
			t.Fatal(err)
		}
		if err := Request(again); err != nil {
			t.Fatalf("an accepted %s, encoded and decoded, is refused: %v", mt.Descriptor().FullName(), err)
		}
	})
}
