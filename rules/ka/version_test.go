package ka_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func protojsonText(t *testing.T, m proto.Message) string {
	b, err := protojson.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

// Each released version is a value of its own (issue 26): with two numbers of version 2
// changed — the seuil de réussite (KA-005) and the terror factor (KA-034) — version 1's golden
// log folds to the state it was recorded with and passes the audit, its narration reads as it
// was written, told by version 2's Teller, and the odds of each of its attacks are those of
// the released rules; the same attacks under the changed version 2 have other odds.
func TestAChangedVersion2LeavesVersion1(t *testing.T) {
	n := ka.New(ka.Latest).Numbers()
	n.SimpleThreshold, n.TerrorFactor = 12, 4
	changed := engine.NewRegistry(ka.New(1), ka.WithNumbers(2, n))
	released := engine.NewRegistry(ka.Released()...)
	events := ntGolden(t)

	st, err := changed.Fold(events)
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join("..", "systems", "testdata", "golden", "ka-v1.sha256"))
	require.NoError(t, err)
	require.Equal(t, strings.TrimSpace(string(sum)), hex.EncodeToString(engine.Hash(st)))
	_, err = changed.Audit(events)
	require.NoError(t, err)

	v1, err := changed.Lookup(ka.ID, 1)
	require.NoError(t, err)
	require.True(t, proto.Equal(ka.New(1).Describe(), v1.Describe()))
	v2, err := changed.Lookup(ka.ID, 0)
	require.NoError(t, err)
	require.Equal(t, uint32(2), v2.Describe().GetVersion())
	require.Contains(t, protojsonText(t, v2.Describe()), "below 12 and Animalité × 4: Abysse")
	require.NotContains(t, protojsonText(t, v1.Describe()), "below 12")

	for _, view := range []string{"gm", "player"} {
		for _, lang := range narrate.Languages() {
			name := fmt.Sprintf("ka-v1.%s.%s.txt", view, lang)
			got := ntNarrateLog(t, changed, events, view == "player", lang)
			enginetest.Golden(t, filepath.Join("testdata", "narration", name), got, false, "")
		}
	}

	attacks, differ := 0, 0
	st = &encounterv1.EncounterState{}
	for _, ev := range events {
		if cmd := ev.GetCommand(); cmd.GetKa().GetAttack() != nil {
			attacks++
			want, err := odds.Of(released, st, cmd, ev.GetActor())
			require.NoError(t, err)
			got, err := odds.Of(changed, st, cmd, ev.GetActor())
			require.NoError(t, err)
			require.True(t, proto.Equal(want, got), "the odds of the attack of event %d", ev.GetSequence())
			v2 := proto.CloneOf(st)
			v2.RulesVersion = 2
			other, err := odds.Of(changed, v2, cmd, ev.GetActor())
			require.NoError(t, err)
			if !proto.Equal(want, other) {
				differ++
			}
		}
		require.NoError(t, released.Evolve(st, ev))
	}
	require.Positive(t, attacks)
	require.Equal(t, attacks, differ, "a seuil de réussite of 12 changes the odds of every attack of version 2")
}
