package engine

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"golang.org/x/text/language"
)

// A LegalWords system words its legal actions in a language: a legal action's name and
// description, its choices' descriptions and its options' labels are narrated text, told in
// the language the reader asked for (issue 28); its key, command, choice fields and option
// values never change. Rewrite a's words in lang; English leaves them as they are. A system
// without it is told in English.
type LegalWords interface {
	LegalWords(a *rulesetv1.LegalAction, lang language.Tag)
}

// WordLegal words the legal actions of st's system in lang, each once (a response may hold
// one twice: its legal and its actions).
func (r *Registry) WordLegal(st *encounterv1.EncounterState, lang language.Tag, actions ...*rulesetv1.LegalAction) {
	sys, err := r.system(st)
	if err != nil {
		return
	}
	w, ok := sys.(LegalWords)
	if !ok {
		return
	}
	done := map[*rulesetv1.LegalAction]bool{}
	for _, a := range actions {
		if a != nil && !done[a] {
			done[a] = true
			w.LegalWords(a, lang)
		}
	}
}
