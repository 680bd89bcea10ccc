package systems_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestResolveReplaysGoldenLogs: every command of every golden log, resolved again with
// Registry.ResolveWith (the resolver's path: the real dice stream, one decision, the state
// after it) against the state before it, gives the events the log records and the state that
// folding them gives, hash included, and leaves the state it was given as it was.
func TestResolveReplaysGoldenLogs(t *testing.T) {
	logs, _ := loadGoldens(t)
	reg := systems.Registry()
	for _, g := range logs {
		t.Run(g.events[0].GetRuleSystem(), func(t *testing.T) {
			for k, p := range g.before {
				end := len(g.events)
				if k+1 < len(g.before) {
					end = g.before[k+1].at
				}
				recorded := g.events[p.at:end]
				env := engine.Env{Actor: recorded[0].GetActor(), Tenant: g.events[0].GetEncounterCreated().GetTenant(), Seed: g.seed}
				if rw := p.cmd.GetRewind(); rw != nil {
					past, err := reg.Fold(g.events[:rw.GetToSequence()])
					require.NoError(t, err)
					env.RewindState = past
				}
				st := proto.CloneOf(p.st)
				if p.at == 0 { // a creation is decided against the new encounter's id and tenant
					st = &encounterv1.EncounterState{EncounterId: recorded[0].GetEncounterId(), Tenant: env.Tenant}
				}
				before := proto.CloneOf(st)
				what := fmt.Sprintf("command %d (event %d): %v", k, recorded[0].GetSequence(), p.cmd)
				events, next, err := reg.ResolveWith(st, p.cmd, env)
				require.NoError(t, err, what)
				require.True(t, proto.Equal(before, st), "%s: ResolveWith left the state it was given alone", what)
				require.Len(t, events, len(recorded), what)
				folded := proto.CloneOf(p.st)
				for i, ev := range recorded {
					want := proto.CloneOf(ev)
					want.EventId, want.Time, want.CommandId, want.Command, want.CommandDigest = "", nil, "", nil, nil
					require.True(t, proto.Equal(want, events[i]), "%s: event %d\n  resolved %v\n  recorded %v", what, i, events[i], want)
					require.NoError(t, reg.Evolve(folded, ev))
				}
				require.True(t, proto.Equal(folded, next), "%s: the state resolved\n  %v\nis not the state folded\n  %v", what, next, folded)
				require.Equal(t, engine.Hash(folded), engine.Hash(next), what)
			}
		})
	}
}
