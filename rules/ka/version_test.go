package ka_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
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

// Each event is told with the numbers of the version that decided it (KA-034's factor here):
// a Teller of a version 2 whose factor is 4 tells a version 2 event with 4, a version 1 event
// with version 1's 3, and an event of no version or of a version it does not know with the
// latest released; the zero Teller tells each released version with its own numbers.
func TestTheTellerTellsEachEventWithItsVersionsNumbers(t *testing.T) {
	n := ka.New(ka.Latest).Numbers()
	n.TerrorFactor = 4
	fails := &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gunner",
		Draw: ntDraw(ka.Animalite, 2, "", 0, 41, []string{"+3 encaissement", "-4 situation"}, ntEpee6)}}}
	tell := func(teller narrate.Teller, version uint32) string {
		ev := ntEv(31, fails)
		ev.RulesVersion = version
		s, ok := teller.Event(ntNarrator(narrate.English), ev)
		require.True(t, ok)
		return s
	}
	for _, c := range []struct {
		teller  narrate.Teller
		version uint32
		want    string
	}{
		{ka.WithNumbers(2, n).Teller(), 2, "Animalité × 4 = 8"},
		{ka.WithNumbers(2, n).Teller(), 1, "Animalité × 3 = 6"},
		{ka.WithNumbers(2, n).Teller(), 0, "Animalité × 3 = 6"},
		{ka.WithNumbers(2, n).Teller(), 99, "Animalité × 3 = 6"},
		{ka.WithNumbers(1, n).Teller(), 1, "Animalité × 4 = 8"},
		{ka.WithNumbers(1, n).Teller(), 2, "Animalité × 3 = 6"},
		{ka.Teller{}, 1, "Animalité × 3 = 6"},
		{ka.Teller{}, 0, "Animalité × 3 = 6"},
	} {
		require.Contains(t, tell(c.teller, c.version), c.want, "version %d", c.version)
	}
}

// The descriptor's tables are the version's numbers (KA-002, KA-006, KA-024, KA-033): those of
// version 1 as the catalogue gives them, and other numbers give other rows.
func TestDescribeTablesAreTheVersionsNumbers(t *testing.T) {
	rows := func(d *rulesetv1.RulesetDescriptor) map[string][]string {
		out := map[string][]string{}
		for _, tb := range d.GetTables() {
			for _, r := range tb.GetRows() {
				out[tb.GetRule()] = append(out[tb.GetRule()], strings.Join(r.GetCells(), " | "))
			}
		}
		for _, a := range d.GetActions() {
			out[a.GetName()] = []string{a.GetDescription(), a.GetCost()}
		}
		for _, o := range d.GetOptions() {
			out[o.GetName()] = []string{o.GetDefaultValue()}
		}
		return out
	}
	for _, version := range []uint32{1, 2} {
		got := rows(ka.New(version).Describe())
		require.Equal(t, []string{"< 0 | failure | —", "0–9 | normal | +1", "10–19 | great | +5", "20+ | exceptional | +10"}, got["KA-006"])
		require.Equal(t, []string{"1–5 | 1", "6–10 | 2", "11–15 | 3", "16–20 | 4", "… | one more per 5"}, got["KA-024"])
		require.Equal(t, []string{"ace–10 | its number", "valet, cavalier, dame, roi | 10, and draw again"}, got["KA-002"])
		require.Equal(t, []string{"Animalité; −n for n targets (up to 5, −1 for one), +6 damage each; one target +12", "1 action"}, got["burst"])
		require.Equal(t, "1 action, −1 per action already taken", got["attack"][1])
		require.Equal(t, "the Maître de Ka calls for Animalité + encaissement; below 10 and Animalité × 3: Abysse", got["terror"][0])
		require.Equal(t, []string{"10,20"}, got["success_levels"])
		require.Equal(t, []string{"1,5,10"}, got["success_bonus"])
		require.Equal(t, []string{"5,10,15,20"}, got["ka_table"])
	}
	n := ka.New(1).Numbers()
	n.SuccessLevels, n.SuccessBonus, n.KaTable, n.FaceValue = []int32{8, 16, 24}, []int32{1, 4, 8, 12}, []int32{4, 10}, 11
	n.BurstMalus, n.MaxBurstTargets, n.BurstPerBullet, n.BurstSingle, n.ActionMalus = 2, 4, 7, 14, 2
	got := rows(ka.WithNumbers(2, n).Describe())
	require.Equal(t, []string{"< 0 | failure | —", "0–7 | normal | +1", "8–15 | great | +4", "16–23 | exceptional | +8", "24+ | level 4 | +12"}, got["KA-006"])
	require.Equal(t, []string{"1–4 | 1", "5–10 | 2", "… | one more per 6"}, got["KA-024"])
	require.Equal(t, "valet, cavalier, dame, roi | 11, and draw again", got["KA-002"][1])
	require.Equal(t, "Animalité; −2n for n targets (up to 4, −2 for one), +7 damage each; one target +14", got["burst"][0])
	require.Equal(t, "1 action, −2 per action already taken", got["attack"][1])
	require.Equal(t, []string{"8,16,24"}, got["success_levels"])
	require.Equal(t, []string{"1,4,8,12"}, got["success_bonus"])
	require.Equal(t, []string{"4,10"}, got["ka_table"])
}
