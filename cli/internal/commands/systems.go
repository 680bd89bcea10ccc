package commands

// The rule systems the CLI knows: each package registers its part (client.RegisterSystem) from
// its init, and is linked in here, one line each. A new rule system's CLI is its package and
// its line here.
import (
	_ "github.com/fray-rpg/fray/cli/internal/d20segcmd"
	_ "github.com/fray-rpg/fray/cli/internal/feeriecmd"
	_ "github.com/fray-rpg/fray/cli/internal/kacmd"
	_ "github.com/fray-rpg/fray/cli/internal/losscmd"
)
