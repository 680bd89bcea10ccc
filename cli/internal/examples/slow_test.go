package examples_test

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain: the clients in other languages (Python and TypeScript stubs generated, the Python
// client playing a fight) are one of the suite's slow families (docs/testing.md): `go test
// -short` skips the package; scripts/test.sh runs it on its own after the fast tests.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("cli/internal/examples: a slow family, skipped under -short")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
