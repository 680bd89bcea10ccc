package systems

import (
	"fmt"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// TestAnIdleEndIsDecidedFoldedAndAuditedByEverySystem ends each golden fight for idleness at
// every command boundary (in setup, mid-fight with reactions pending, between rounds), as the
// encounter service's sweep does: decided for engine.IdleActor, folded by the system's own
// Evolve, narrated in English and French, and the log so ended passes the audit with the
// seed it reveals.
func TestAnIdleEndIsDecidedFoldedAndAuditedByEverySystem(t *testing.T) {
	reg := Registry()
	idle := durationpb.New(720 * time.Hour)
	for _, rs := range reg.Rulesets() {
		system := rs.GetId()
		for _, version := range reg.Versions(system) {
			t.Run(fmt.Sprintf("%s/v%d", system, version), func(t *testing.T) {
				events, _ := readGolden(t, system, version)
				last := events[len(events)-1]
				seed := last.GetEncounterEnded().GetSeed()
				require.NotEmpty(t, seed, "the golden log ends with the GM's end")
				log := events[:len(events)-1]
				ended := 0
				for cut := 1; cut <= len(log); cut++ {
					if cut < len(log) && log[cut].GetCommand() == nil {
						continue // inside a command's events: not a boundary
					}
					prefix := log[:cut]
					st, err := reg.Fold(prefix)
					require.NoError(t, err)
					end := &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Idle: idle, Reason: "idle"}}}
					env := engine.Env{Actor: engine.IdleActor, Seed: seed, Tenant: st.GetTenant()}

					// No one but the service ends for idleness, the GM included.
					_, _, err = reg.ResolveWith(st, end, engine.Env{Actor: st.GetGameMaster(), Seed: seed, Tenant: st.GetTenant()})
					re, ok := engine.AsRuleError(err)
					require.True(t, ok, "after event %d: %v", cut, err)
					require.Equal(t, engine.CodePermission, re.Code)
					require.Contains(t, re.Msg, "only the encounter service does")
					// Nor does the service end without saying it is for idleness.
					_, _, err = reg.ResolveWith(st, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}, env)
					require.Error(t, err)

					decided, next, err := reg.ResolveWith(st, end, env)
					require.NoError(t, err, "an idle end after event %d", cut)
					require.Len(t, decided, 1)
					ev := decided[0]
					require.Equal(t, engine.IdleActor, ev.GetActor())
					require.Equal(t, uint64(cut+1), ev.GetSequence())
					require.True(t, proto.Equal(idle, ev.GetEncounterEnded().GetIdle()))
					require.Equal(t, seed, ev.GetEncounterEnded().GetSeed())
					require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, next.GetStatus())

					// Recorded as the service records it, the log folds to the same state and
					// passes the audit.
					ev.CommandId, ev.EventId, ev.Command = fmt.Sprintf("idle-end-%d", cut), "idle", end
					ev.Time = timestamppb.New(prefix[len(prefix)-1].GetTime().AsTime().Add(720 * time.Hour))
					whole := append(append([]*encounterv1.Event{}, prefix...), ev)
					folded, err := reg.Fold(whole)
					require.NoError(t, err)
					require.Equal(t, engine.Hash(next), engine.Hash(folded))
					rep, err := reg.Audit(whole)
					require.NoError(t, err, "the log ended for idleness after event %d passes the audit", cut)
					require.Equal(t, len(whole), rep.Events)

					// Nothing more is taken after it, not even a second idle end.
					_, _, err = reg.ResolveWith(folded, end, env)
					require.Error(t, err)

					if cut == len(log) {
						for lang, want := range map[string]string{"en": "Encounter ended for idleness: no event for 30 days (idle); dice seed revealed: ",
							"fr": "Fin de la rencontre pour inactivité : aucun événement depuis 30 jours (idle) ; graine des dés révélée : "} {
							tag, err := narrate.Parse(lang)
							require.NoError(t, err)
							n := reg.Narrator(tag)
							var line string
							for _, e := range whole {
								line = n.Narrate(e)
							}
							require.True(t, strings.Contains(line, want), "%s: %q", lang, line)
						}
					}
					ended++
				}
				require.Greater(t, ended, 10, "ended at many points of the fight")
			})
		}
	}
}
