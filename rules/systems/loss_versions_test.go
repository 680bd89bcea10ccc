package systems

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// lossV1As2 is version 1 of Les Chants de Loss registered as version 2: it decides a log of
// version 2 as version 1 would have.
type lossV1As2 struct{ loss.System }

func (lossV1As2) Version() uint32 { return 2 }

// Version 2 of Les Chants de Loss changed decisions: its golden log, audited with version 1's
// decisions, diverges, first where Diego dodges the ruffian's counter blow with a
// Counter-attack of his own, which version 1 refused (LOS-062).
func TestLossV2LogFailsTheV1Audit(t *testing.T) {
	events, _ := readGolden(t, loss.ID, 2)
	_, err := Registry().Audit(events)
	require.NoError(t, err, "version 2's own rules pass it")

	_, err = engine.NewRegistry(lossV1As2{loss.New(1)}).Audit(events)
	var d *engine.Divergence
	require.ErrorAs(t, err, &d, "version 1's decisions are not version 2's")
	var first uint64 // the dodge of a counter blow with a Counter-attack
	for _, ev := range events {
		if a := ev.GetCommand().GetLoss(); a.GetReact() != nil && len(a.GetReact().GetEffects()) > 0 && first == 0 {
			if r := ev.GetLoss().GetDefenceRolled(); r != nil && r.GetDefenderId() == "diego" {
				first = ev.GetSequence()
			}
		}
	}
	require.NotZero(t, first, "the log of version 2 holds a counter-attack on a counter blow")
	require.Equal(t, first, d.Sequence, "the first divergence: %v", d)
	require.Contains(t, d.Reason, "a counter-attack cannot itself be countered (LOS-062)")
	t.Logf("version 1 audits the log of version 2: %v", d)
}

// A number of version 2 changed (here the Difficulty each Exploit adds) leaves version 1
// alone: its golden log folds to the same state and passes the audit, its narration is the
// same word for word, and the odds of each of its attacks are the same.
func TestLossV2NumbersLeaveV1Alone(t *testing.T) {
	v2 := loss.New(2)
	v2.ExploitStep = 7
	changed := engine.NewRegistry(loss.New(1), v2)
	events, hash := readGolden(t, loss.ID, 1)
	enginetest.CheckGoldenLog(t, changed, loss.New(1), enginetest.GoldenLog{Log: events, Hash: hash})
	for _, lang := range narrate.Languages() {
		want, err := os.ReadFile(filepath.Join("testdata", "narration", "loss-v1."+lang.String()+".txt"))
		require.NoError(t, err)
		n := changed.Narrator(lang)
		var b strings.Builder
		for _, ev := range events {
			b.WriteString(n.Narrate(ev) + "\n")
		}
		require.Equal(t, string(want), b.String(), "the narration of version 1 in %v", lang)
	}

	attacks := 0
	for i, ev := range events {
		cmd := ev.GetCommand()
		if cmd.GetLoss().GetAttack() == nil {
			continue
		}
		st, err := Registry().Fold(events[:i])
		require.NoError(t, err)
		want, err := odds.Of(Registry(), st, cmd, ev.GetActor())
		require.NoError(t, err)
		got, err := odds.Of(changed, st, cmd, ev.GetActor())
		require.NoError(t, err)
		require.True(t, proto.Equal(want, got), "the odds of the attack of event %d", ev.GetSequence())
		attacks++
	}
	require.Positive(t, attacks)

	// The changed number is read: the same attack under version 2 has other odds.
	st, cmd, actor := lossV2Attack(t, events)
	want, err := odds.Of(Registry(), st, cmd, actor)
	require.NoError(t, err)
	got, err := odds.Of(changed, st, cmd, actor)
	require.NoError(t, err)
	require.False(t, proto.Equal(want, got), "version 2's odds read its numbers")
}

// lossV2Attack is the state before the first attack of the golden log of version 1 with an
// Exploit, replayed as a log of version 2, with its command and actor.
func lossV2Attack(t *testing.T, events []*encounterv1.Event) (*encounterv1.EncounterState, *encounterv1.Command, string) {
	t.Helper()
	var v2 []*encounterv1.Event
	for _, ev := range events {
		ev = proto.CloneOf(ev)
		ev.RulesVersion = 2
		if a := ev.GetCommand().GetLoss().GetAttack(); a != nil && len(a.GetExploits()) > 0 {
			st, err := Registry().Fold(v2)
			require.NoError(t, err)
			return st, ev.GetCommand(), ev.GetActor()
		}
		v2 = append(v2, ev)
	}
	t.Fatal("the golden log of version 1 holds no attack with an Exploit")
	return nil, nil, ""
}
