package engine_test

import (
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

// An end for idleness is the encounter service's alone (engine.IdleActor), and says how long
// the encounter was idle, a valid duration of more than zero; the GM ends without one.
func TestAnEndForIdleness(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	_, err := apply(t, reg, st, create("Bivouac", "loss", 0), env("gm"))
	require.NoError(t, err)
	end := func(idle *durationpb.Duration) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: "idle", Idle: idle}}}
	}
	hour := durationpb.New(time.Hour)
	for _, c := range []struct {
		name  string
		actor string
		idle  *durationpb.Duration
		code  engine.Code
	}{
		{"the GM, for idleness", "gm", hour, engine.CodePermission},
		{"a player, for idleness", "david", hour, engine.CodePermission},
		{"idle for no time", engine.IdleActor, durationpb.New(0), engine.CodeInvalid},
		{"idle for less than no time", engine.IdleActor, durationpb.New(-time.Second), engine.CodeInvalid},
		{"idle for a duration that is none", engine.IdleActor, &durationpb.Duration{Seconds: 1, Nanos: -1}, engine.CodeInvalid},
		{"the service, without saying it is for idleness", engine.IdleActor, nil, engine.CodePermission},
	} {
		_, err := reg.Decide(st, end(c.idle), env(c.actor))
		re := requireCode(t, err, c.code)
		t.Logf("%s: %s", c.name, re.Msg)
	}
	for _, idle := range []*durationpb.Duration{durationpb.New(time.Nanosecond), hour} {
		evs, err := reg.Decide(proto.CloneOf(st), end(idle), env(engine.IdleActor))
		require.NoError(t, err, "idle %v", idle.AsDuration())
		require.True(t, proto.Equal(idle, evs[0].GetEncounterEnded().GetIdle()))
		require.Equal(t, engine.IdleActor, evs[0].GetActor())
	}
}
