package browser_test

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain: the pages in a real browser (Chromium) are one of the suite's slow families
// (docs/testing.md): `go test -short` skips the package; scripts/test.sh runs it on its own
// after the fast tests.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("cli/internal/browser: a slow family, skipped under -short")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
