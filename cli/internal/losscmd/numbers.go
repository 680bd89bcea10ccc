package losscmd

import (
	"fmt"

	"github.com/fray-rpg/fray/rules/loss"
)

// latest are the numbers of the version of the rules a new encounter gets, which the help
// states (a version is a value of the rules package: the help never writes a number again);
// `fray rules --encounter ENC` gives those of the version an encounter pinned.
var latest = loss.New(loss.Latest).Numbers

// pa writes a cost in Points d'Action: "3 PA".
func pa(n int32) string { return fmt.Sprintf("%d PA", n) }

// versionNote ends a command's help that states numbers: which version's they are.
var versionNote = fmt.Sprintf("Costs and numbers here are those of version %d of the rules; fray rules --encounter ENC\ngives those of the version an encounter pinned.", loss.Latest)

// tripFlag is the help of --trip: what a trip does in the latest version (LOS-035).
func tripFlag() string {
	if latest.TripFells {
		return fmt.Sprintf("trip the target instead of a blow (%s); on a success it falls: it must stand up (%s) at its next action (LOS-035)",
			pa(latest.ManoeuvreCost), pa(latest.StandUpCost))
	}
	return fmt.Sprintf("trip the target instead of a blow (%s); no automatic effect: the GM applies the fall with --prone, --target-prone (LOS-035)", pa(latest.ManoeuvreCost))
}
