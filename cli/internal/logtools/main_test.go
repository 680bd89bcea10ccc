package logtools_test

import (
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
)

// TestMain gives the CLI under test a dev signing key the test servers verify.
func TestMain(m *testing.M) { clienttest.Main(m) }
