package engine_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// versioned is Loss under another id and version, whose descriptor and narration say which.
type versioned struct {
	engine.System
	id string
	v  uint32
}

func (s versioned) ID() string      { return s.id }
func (s versioned) Version() uint32 { return s.v }
func (s versioned) Describe() *rulesetv1.RulesetDescriptor {
	return &rulesetv1.RulesetDescriptor{Id: s.id, Version: s.v}
}
func (s versioned) Teller() narrate.Teller { return versionTeller{s.System.Teller(), s.v} }

type versionTeller struct {
	narrate.Teller
	v uint32
}

func (t versionTeller) Event(_ *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	return fmt.Sprint("told by version ", t.v), ev.GetLoss() != nil
}

// A registry keeps each system's versions oldest first, whatever order they are given in:
// version 0 looks up the latest, Rulesets describes each system by its latest version, sorted
// by id, and the Narrator tells each system's events with its latest version's Teller.
func TestRegistryOrdersVersions(t *testing.T) {
	reg := engine.NewRegistry(versioned{loss.New(1), "zeta", 3}, versioned{loss.New(1), "alpha", 2},
		versioned{loss.New(1), "zeta", 1}, versioned{loss.New(1), "zeta", 2}, versioned{loss.New(1), "alpha", 1})
	require.Equal(t, []uint32{1, 2, 3}, reg.Versions("zeta"))
	require.Equal(t, []uint32{1, 2}, reg.Versions("alpha"))
	for v, want := range map[uint32]uint32{0: 3, 1: 1, 2: 2, 3: 3} {
		s, err := reg.Lookup("zeta", v)
		require.NoError(t, err)
		require.Equal(t, want, s.Version(), "version %d", v)
	}
	_, err := reg.Lookup("zeta", 4)
	re := requireCode(t, err, engine.CodePrecondition)
	require.Contains(t, re.Msg, "it knows versions 1, 2, 3 (0 or none: the latest, 3)")

	var got []string
	for _, d := range reg.Rulesets() {
		got = append(got, fmt.Sprint(d.GetId(), " ", d.GetVersion()))
	}
	require.Equal(t, []string{"alpha 2", "zeta 3"}, got)

	n := reg.Narrator(language.English)
	ev := &encounterv1.Event{Sequence: 7, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}}
	require.Equal(t, "#7 told by version 2", n.Text(ev), "alpha, the first by id, at its latest version")

	// An encounter's events are told by the version it pinned: the event's own, then, for an
	// event that names none, the version last learnt from the system's events or state.
	pinnedEv := &encounterv1.Event{Sequence: 8, RuleSystem: "alpha", RulesVersion: 1, Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}}
	require.Equal(t, "#8 told by version 1", n.Narrate(pinnedEv))
	require.Equal(t, "#7 told by version 1", n.Text(ev), "the version learnt")
	n = reg.Narrator(language.English)
	n.LearnState(&encounterv1.EncounterState{RuleSystem: "alpha", RulesVersion: 1})
	require.Equal(t, "#7 told by version 1", n.Text(ev), "the version of the state learnt")
	n.LearnState(&encounterv1.EncounterState{RuleSystem: "alpha", RulesVersion: 9})
	require.Equal(t, "#7 told by version 2", n.Text(ev), "a version the registry does not keep: the latest")
}

// followUp is Loss with a FollowUp: it records the state it is given and answers with more.
type followUp struct {
	engine.System
	seen *encounterv1.EncounterState
	more []*encounterv1.Event
	err  error
}

func (f *followUp) FollowUp(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	f.seen = proto.CloneOf(st)
	return f.more, f.err
}

// The GM's removal of a combatant from a running fight of a system with a FollowUp: the
// system is asked, on the state with the combatant gone, for the events that follow, which
// come after the removal; its refusal refuses the removal. Before the fight starts it is not
// asked.
func TestRemovalMidFightAsksTheFollowUp(t *testing.T) {
	fu := &followUp{System: loss.New(1)}
	reg := engine.NewRegistry(fu)
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Ruelle", "loss", 0), combatant("a", "A", "gm"), combatant("b", "B", "gm"), combatant("c", "C", "gm")} {
		_, err := apply(t, reg, st, cmd, env("gm"))
		require.NoError(t, err)
	}
	remove := func(id string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}}
	}
	evs, err := reg.Decide(st, remove("c"), env("gm"))
	require.NoError(t, err)
	require.Len(t, evs, 1)
	require.Nil(t, fu.seen, "not asked before the fight")
	_, err = apply(t, reg, st, start, env("gm"))
	require.NoError(t, err)

	hidden := &encounterv1.Event{Payload: &encounterv1.Event_CombatantHidden{CombatantHidden: &encounterv1.CombatantHidden{CombatantId: "a", Hidden: true}}}
	fu.more = []*encounterv1.Event{hidden}
	evs, err = reg.Decide(st, remove("c"), env("gm"))
	require.NoError(t, err)
	require.Len(t, evs, 2)
	require.Equal(t, "c", evs[0].GetCombatantRemoved().GetCombatantId())
	require.True(t, evs[1].GetCombatantHidden().GetHidden())
	require.Equal(t, []uint64{st.GetSequence() + 1, st.GetSequence() + 2}, []uint64{evs[0].GetSequence(), evs[1].GetSequence()})
	require.NotNil(t, fu.seen)
	require.Nil(t, engine.FindCombatant(fu.seen, "c"), "asked on the state without the removed combatant")
	require.Len(t, fu.seen.GetCombatants(), 2)

	fu.err = engine.Refused("", "no")
	_, err = reg.Decide(st, remove("c"), env("gm"))
	require.Equal(t, fu.err, err)
}

// ByName picks an item by name: the only one when none is named; with several and none named
// the choice is invalid, naming them; an unknown name is not found, naming them too.
func TestByName(t *testing.T) {
	one := []*lossv1.Weapon{{Name: "épée"}}
	w, err := engine.ByName(one, "", "Diego", "weapon")
	require.NoError(t, err)
	require.Equal(t, "épée", w.GetName())
	two := []*lossv1.Weapon{{Name: "épée"}, {Name: "dague"}}
	w, err = engine.ByName(two, "dague", "Diego", "weapon")
	require.NoError(t, err)
	require.Equal(t, "dague", w.GetName())
	_, err = engine.ByName(two, "", "Diego", "weapon")
	re := requireCode(t, err, engine.CodeInvalid)
	require.Equal(t, "Diego has several weapons [épée dague]: name the one to use", re.Msg)
	_, err = engine.ByName(two, "hache", "Diego", "weapon")
	re = requireCode(t, err, engine.CodeNotFound)
	require.Equal(t, `Diego has no weapon "hache" (weapons: [épée dague])`, re.Msg)
}

// A recorded command the rules refuse when decided again is a divergence at its event.
func TestAuditARefusedCommand(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	log := cloneLog(recordFight(t, reg, true))
	log[1].GetCommand().GetAddCombatant().GetCombatant().Id = "bad id!"
	log[1].CommandDigest = nil
	_, err := reg.Audit(log)
	var d *engine.Divergence
	require.ErrorAs(t, err, &d)
	require.Equal(t, uint64(2), d.Sequence)
	require.Contains(t, d.Reason, `the rules refuse the recorded command: combatant id "bad id!"`)
}
