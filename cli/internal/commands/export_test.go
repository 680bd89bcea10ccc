package commands

import (
	"io"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// What the tests of package commands_test (which import cli/internal/clienttest, itself
// importing this package) read of this package's unexported names.

// WriteState prints `fray state` of resp (writeState).
func WriteState(w io.Writer, resp *encounterv1.GetEncounterResponse, forID string) {
	writeState(w, resp, forID)
}

// GrantRoleSynopsis is the synopsis `fray grant` shows for roles.
const GrantRoleSynopsis = grantRoleSynopsis

// ResumeAttempts is how many times in a row a broken watch tries to resume.
const ResumeAttempts = resumeAttempts

// QuickResume makes a broken watch resume after a millisecond until t ends.
func QuickResume(t *testing.T) {
	t.Cleanup(func() { resumeWait = backoff })
	resumeWait = func(int) time.Duration { return time.Millisecond }
}
