package encounter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fill sets every field of m (a repeated or map field to one entry), down to depth levels of
// messages, and of a oneof its first field.
func fill(m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() && o.Fields().Get(0) != fd {
			continue
		}
		switch {
		case fd.IsList():
			l := m.Mutable(fd).List()
			if fd.Message() != nil {
				if depth > 0 {
					e := l.NewElement()
					fill(e.Message(), depth-1)
					l.Append(e)
				}
			} else {
				l.Append(scalar(fd))
			}
		case fd.IsMap():
			mv := m.Mutable(fd).Map()
			k := scalar(fd.MapKey()).MapKey()
			if fd.MapValue().Message() != nil {
				if depth > 0 {
					v := mv.NewValue()
					fill(v.Message(), depth-1)
					mv.Set(k, v)
				}
			} else {
				mv.Set(k, scalar(fd.MapValue()))
			}
		case fd.Message() != nil:
			if depth > 0 {
				fill(m.Mutable(fd).Message(), depth-1)
			}
		default:
			m.Set(fd, scalar(fd))
		}
	}
}

// scalar is a value of fd's kind that is not its zero.
func scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(fd.Enum().Values().Get(fd.Enum().Values().Len() - 1).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(7)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(7)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(7)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(7)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(7)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(7)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString("x")
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{7})
	}
	panic(fd.Kind().String())
}

// An entry's state, once it was the entry's, is never changed: commands, the refresh after
// another replica's append, hiding and rewinding all replace it. So answers, snapshots and
// reads use it without a copy.
func TestStatesHandedOutAreNeverChanged(t *testing.T) {
	b := store.NewMemory()
	reg := systems.Registry()
	svc := New(b, b, LocalDecider{Registry: reg}, reg, Options{})
	rival := New(b, b, LocalDecider{Registry: reg}, reg, Options{}) // another replica
	gm := authtest.Identity("gm")
	created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()

	type kept struct{ st, was *encounterv1.EncounterState }
	var all []kept
	keep := func() {
		e, err := svc.entry(context.Background(), id, false)
		require.NoError(t, err)
		e.mu.Lock()
		all = append(all, kept{e.state, proto.CloneOf(e.state)})
		require.Equal(t, proto.Size(e.state), e.stateBytes, "the size account measured")
		e.mu.Unlock()
	}
	cmd := func(s *Service, c *encounterv1.Command) {
		t.Helper()
		_, err := s.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: c})
		require.NoError(t, err)
		keep()
	}
	fighter := func(id, controller string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: &encounterv1.Combatant{
			Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
				Kind: lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, Traits: map[string]int32{"Puissance": 6, "Agilité": 5},
				Talents: map[string]int32{"Arme de mêlée": 6, "Esquive": 5}, Initiative: 8,
				Weapons: []*lossv1.Weapon{{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 4, Damage: 3}},
				Dodge:   &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			}}}}}}
	}
	keep()
	cmd(svc, fighter("diego", "david"))
	cmd(svc, fighter("ruffian", "gm"))
	cmd(svc, &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "ruffian", Hidden: true}}})
	cmd(svc, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	_, err = rival.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}}})
	require.NoError(t, err)
	cmd(svc, &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "ruffian"}}}) // after a conflict: refreshed
	cmd(svc, &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: 3}}})
	cmd(svc, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}})
	require.Len(t, all, 8)
	for i, k := range all {
		require.True(t, proto.Equal(k.was, k.st), "state %d changed", i)
		if i > 0 {
			require.NotSame(t, all[i-1].st, k.st)
		}
	}
}

// stateSizes measures what proto.Size does, each combatant once while states hold it.
func TestStateSizesMeasureWhatProtoSizeDoes(t *testing.T) {
	st := &encounterv1.EncounterState{}
	fill(st.ProtoReflect(), 4)
	st.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1})
	big := proto.CloneOf(st.GetCombatants()[0])
	big.Name = strings.Repeat("n", 300) // a length past one byte's varint
	st.Combatants = append(st.Combatants, big)
	var z stateSizes
	reg := systems.Registry()
	require.Equal(t, proto.Size(st), z.of(reg, st))
	require.Len(t, z.combatants, 2)

	// A combatant changed is replaced, in a new slice (as the engine does).
	next := reg.Fork(st)
	next.Combatants = slices.Clone(next.Combatants)
	next.Combatants[0] = &encounterv1.Combatant{Id: "other"}
	next.GetLoss().Tour++
	require.Equal(t, proto.Size(next), z.of(reg, next))
	require.Equal(t, proto.Size(st), z.of(reg, st))
	require.Equal(t, proto.Size(&encounterv1.EncounterState{}), z.of(reg, &encounterv1.EncounterState{}))

	// Sizes of combatants no state holds any more are forgotten.
	for i := range 20 {
		next.Combatants[0] = &encounterv1.Combatant{Id: fmt.Sprint(i)}
		require.Equal(t, proto.Size(next), z.of(reg, next))
	}
	require.LessOrEqual(t, len(z.combatants), 2*len(next.Combatants)+8)
}

// A state handed out — to a watcher joining, a read, a command's answer — is read while later
// commands run on its encounter, and none of them writes into it: run with -race, a write in
// place is a race with the reader, and the state read is still what it was.
func TestAStateHandedOutIsNotChangedByLaterCommands(t *testing.T) {
	b := store.NewMemory()
	reg := systems.Registry()
	svc := New(b, b, LocalDecider{Registry: reg}, reg, Options{SnapshotEvery: 2, Snapshots: b})
	gm := authtest.Identity("gm")
	created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	submit := func(c *encounterv1.Command) {
		t.Helper()
		_, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: c})
		require.NoError(t, err)
	}
	for _, who := range []string{"diego", "ruffian"} {
		submit(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: &encounterv1.Combatant{
			Id: who, Name: who, Controller: "gm", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
				Kind: lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, Traits: map[string]int32{"Puissance": 6, "Agilité": 5},
				Talents: map[string]int32{"Arme de mêlée": 6, "Esquive": 5}, Initiative: 8,
				Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			}}}}}})
	}
	submit(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})

	e, err := svc.entry(context.Background(), id, false)
	require.NoError(t, err)
	e.mu.Lock()
	held := e.state // as the watch hub and a read are given it: no copy
	e.mu.Unlock()
	want := proto.CloneOf(held)
	// The watcher reads all along: the commands start after its first read and stop being
	// sent only after a read that began after the last of them, so reads overlap the commands
	// however the goroutines are scheduled (on a busy machine the reader could start late and
	// see none of them: "read 0 times", issue 24).
	stop, done := make(chan struct{}), make(chan struct{})
	var reads atomic.Int64
	go func() { // a watcher reading the state it was handed, all along
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = proto.Marshal(held)
			for _, c := range held.GetCombatants() {
				_ = c.GetHidden()
			}
			reads.Add(1)
		}
	}()
	waitReads := func(n int64) {
		t.Helper()
		require.Eventually(t, func() bool { return reads.Load() >= n }, time.Minute, time.Millisecond, "the watcher's reads")
	}
	waitReads(1)
	for i := range 12 {
		submit(&encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "ruffian", Hidden: i%2 == 0}}})
	}
	submit(&encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: 3}}})
	waitReads(reads.Load() + 2) // one read whole after the last command
	close(stop)
	<-done
	t.Logf("the held state was read %d times while 13 commands ran", reads.Load())
	require.True(t, proto.Equal(want, held), "the state handed out was changed")
	e.mu.Lock()
	require.NotSame(t, held, e.state, "the commands replaced the entry's state")
	e.mu.Unlock()
}
