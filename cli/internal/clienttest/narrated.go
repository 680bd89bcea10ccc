package clienttest

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesnarrate "github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
)

// Narrated is what a fake encounter service sends a watch of its log: the events from the
// sequence asked on, each narrated by the rules' narrator in the language asked (none when no
// language is asked), learning from the events before as the encounter service does.
func Narrated(req *encounterv1.WatchEncounterRequest, log []*encounterv1.Event) []*encounterv1.WatchEncounterResponse {
	var n *rulesnarrate.Narrator
	if req.GetLanguage() != "" {
		tag, err := rulesnarrate.Parse(req.GetLanguage())
		if err != nil {
			panic(err)
		}
		n = systems.Registry().Narrator(tag)
	}
	var out []*encounterv1.WatchEncounterResponse
	for _, ev := range log {
		r := &encounterv1.WatchEncounterResponse{Event: ev}
		switch {
		case n == nil:
		case ev.GetSequence() >= req.GetFromSequence():
			r.Narration = n.Narrate(ev)
		default:
			n.Learn(ev)
		}
		if ev.GetSequence() >= req.GetFromSequence() {
			out = append(out, r)
		}
	}
	return out
}
