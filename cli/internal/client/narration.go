package client

// Narration. The events the CLI prints are told by the rules' narrator (rules/narrate), in the
// language of --lang: the server's narration for the commands that read through the
// encounter service (log, watch), the CLI's own, with the rule systems it is built with, for
// the tools that read the log directly (replay, audit tail) and for the events a command
// caused.

import (
	"context"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesnarrate "github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

// LangFlag is --lang: the language the events are narrated in.
type LangFlag struct{ s *string }

func AddLangFlag(fs *pflag.FlagSet) LangFlag {
	return LangFlag{fs.String("lang", "en", "the language events are narrated in: en (English) or fr (French)")}
}

// Code is the language as the encounter service takes it ("en", "fr"); a usage error for a
// language narration is not written in.
func (l LangFlag) Code() (string, error) {
	tag, err := rulesnarrate.Parse(*l.s)
	if err != nil {
		return "", ShortUsagef("--lang: %v", err)
	}
	return tag.String(), nil
}

// Narrator is the rules' narrator in the language asked.
func (l LangFlag) Narrator() (*rulesnarrate.Narrator, error) {
	tag, err := rulesnarrate.Parse(*l.s)
	if err != nil {
		return nil, ShortUsagef("--lang: %v", err)
	}
	return systems.Registry().Narrator(tag), nil
}

// Narrators narrates the events of every encounter of a log read from the middle (audit
// tail): one narrator per encounter, which first learns the events before the first one
// seen, read from the log, so that combatants are named as in the rest of the CLI.
type Narrators struct {
	Lang LangFlag
	Log  store.Log
	by   map[string]*rulesnarrate.Narrator
}

// Narrate returns the line of ev, shown as the terminal may print it (display).
func (n *Narrators) Narrate(ctx context.Context, ev *encounterv1.Event) (string, error) {
	shown := Display(ev)
	id := ev.GetEncounterId()
	nr := n.by[id]
	if nr == nil {
		var err error
		if nr, err = n.Lang.Narrator(); err != nil {
			return "", err
		}
		if ev.GetSequence() > 1 {
			recs, err := n.Log.Load(ctx, id, 0)
			if err != nil {
				return "", err
			}
		earlier:
			for _, r := range recs {
				for _, e := range r.Batch.GetEvents() {
					if e.GetSequence() >= ev.GetSequence() {
						break earlier
					}
					nr.Learn(Display(e))
				}
			}
		}
		if n.by == nil {
			n.by = map[string]*rulesnarrate.Narrator{}
		}
		n.by[id] = nr
	}
	return nr.Narrate(shown), nil
}

// English is the rules' narrator in English, for what the CLI prints in English only (the
// combatants added, a roll).
func English() *rulesnarrate.Narrator { return systems.Registry().Narrator(rulesnarrate.English) }

// Joining is what the narration of a CombatantAdded says after the combatant: "; joins the
// fight in progress: acts from the next Tour (LOS-039)", or nothing.
func Joining(a *encounterv1.CombatantAdded) string {
	stub := &encounterv1.CombatantAdded{Combatant: &encounterv1.Combatant{Id: "x"}, InProgress: a.GetInProgress(), Watched: a.GetWatched()}
	text := English().Text(&encounterv1.Event{Sequence: 1, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: stub}})
	return strings.TrimPrefix(text, "#1 joins: x")
}

// OutcomeNarrator narrates the events a command caused knowing the state after them, all a
// response holds: the combatants' names, who is hidden, the attack a Ka defender answers. The
// pursuit distance it holds is the one after them: the narration takes none, and tells a
// pursuit action by the distance it leaves.
func OutcomeNarrator(st *encounterv1.EncounterState) *rulesnarrate.Narrator {
	n := English()
	if p := st.GetLoss().GetPursuit(); p != nil {
		st = proto.CloneOf(st)
		st.GetLoss().Pursuit = nil
	}
	n.LearnState(st)
	return n
}
