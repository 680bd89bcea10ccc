package loss

import "github.com/fray-rpg/fray/rules/narrate"

// TestText narrates a Test on its own, for the tests of the narration.
var TestText = testText

// Distance is the pursuit distance a narrator has learnt.
func Distance(n *narrate.Narrator) int32 { return remember(n).distance }
