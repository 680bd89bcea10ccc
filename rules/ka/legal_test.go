package ka_test

import "github.com/fray-rpg/fray/rules/engine/enginetest"

// What every combatant may do is checked in every state of a running fight these tests decide
// a command on (enginetest.CheckLegal): each legal action keyed as Describe names it, its
// pre-filled command taken with its required choices filled from their first option.
func init() { enginetest.LegalEveryState = true }
