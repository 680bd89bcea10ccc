package resolver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Every roll of a real scheme-2 log (the golden fights of rules/systems, recorded under the
// scheme every new encounter gets, their seeds revealed at the end) is re-derived through
// Roll, given its expression, offset and scheme and the revealed seed: the same faces, total,
// draws and scheme (issue 28, item 15). Without the scheme, Roll draws scheme 1's stream,
// which gives other faces.
func TestRollRederivesASchemeTwoLog(t *testing.T) {
	c := client(t)
	ctx := authtest.As("florence")
	logs, err := filepath.Glob("../../rules/systems/testdata/golden/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	rolls, differ := 0, 0
	for _, path := range logs {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var events []*encounterv1.Event
		var seed []byte
		var scheme uint32
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			ev := &encounterv1.Event{}
			require.NoError(t, protojson.Unmarshal([]byte(line), ev), path)
			events = append(events, ev)
			if created := ev.GetEncounterCreated(); created != nil {
				scheme = created.GetDiceScheme()
			}
			if s := ev.GetEncounterEnded().GetSeed(); len(s) > 0 {
				seed = s
			}
		}
		require.EqualValues(t, dice.Scheme2, scheme, "%s: a scheme-2 log", path)
		require.Len(t, seed, dice.SeedSize, "%s: its seed revealed", path)
		for _, ev := range events {
			for _, r := range engine.Rolls(ev) {
				got, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: r.GetExpression(), Seed: seed, Offset: r.GetOffset(), Scheme: r.GetScheme()})
				require.NoError(t, err, "%s #%d: %v", path, ev.GetSequence(), r)
				require.True(t, proto.Equal(r, got.GetRoll()), "%s #%d: re-derived %v, recorded %v", path, ev.GetSequence(), got.GetRoll(), r)
				rolls++
				one, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: r.GetExpression(), Seed: seed, Offset: r.GetOffset()})
				require.NoError(t, err)
				if !proto.Equal(r, one.GetRoll()) {
					differ++
				}
			}
		}
	}
	t.Logf("%d rolls of %d scheme-2 logs re-derived through Roll; %d of them differ under scheme 1", rolls, len(logs), differ)
	require.Positive(t, rolls)
	require.Equal(t, rolls, differ, "a scheme-1 roll is never taken for the recorded scheme-2 one (the scheme differs at least)")

	// A scheme a log never holds is refused; scheme 2 reaches far beyond scheme 1's bound.
	for _, bad := range []*rulesv1.RollRequest{
		{Expression: "1d10", Scheme: 3},
		{Expression: "1d10", Scheme: 2, Offset: dice.Scheme2.MaxOffset() + 1},
	} {
		_, err := c.Roll(ctx, bad)
		require.Equal(t, codes.InvalidArgument, status.Code(err), bad.String())
	}
	far, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: "1d10", Seed: make([]byte, dice.SeedSize), Offset: resolver.MaxRollOffset + 1, Scheme: 2})
	require.NoError(t, err)
	require.NoError(t, dice.Verify(make([]byte, dice.SeedSize), far.GetRoll()))
}
