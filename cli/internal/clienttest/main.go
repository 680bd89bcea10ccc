package clienttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/services/platform/auth"
)

// devAuth verifies the tokens the CLI mints from the test's dev key for --as (Main).
var devAuth *auth.Authenticator

// Main is a test package's TestMain: it makes a dev signing key that the CLI under test finds
// through FRAY_DEV_KEY, as it would find fray dev's, and that the servers of ServeWith verify,
// then runs the tests and exits.
//
//	func TestMain(m *testing.M) { clienttest.Main(m) }
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "fray-cli-test")
	if err != nil {
		panic(err)
	}
	key, _, err := auth.LoadOrCreateDevKey(dir)
	if err != nil {
		panic(err)
	}
	if devAuth, err = auth.NewAuthenticator(auth.DevConfig(key)); err != nil {
		panic(err)
	}
	os.Setenv("FRAY_DEV_KEY", filepath.Join(dir, auth.DevKeyFile))
	os.Unsetenv("FRAY_TOKEN")
	// The CLI's calls wait 2 minutes, not its 10 s default: a busy machine slows a test, it
	// does not fail it (a test of --timeout sets its own).
	os.Setenv("FRAY_TIMEOUT", "2m")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// DevAuth is the authenticator of the servers ServeWith starts: it verifies the tokens minted
// from Main's dev key. It is nil unless the test package's TestMain calls Main.
func DevAuth() *auth.Authenticator { return devAuth }

// ClearEnv keeps the caller's FRAY_* variables out of a test.
func ClearEnv(t *testing.T) {
	for _, k := range []string{"FRAY_ADDR", "FRAY_PRINCIPAL", "FRAY_RULES_ADDR", "FRAY_TOKEN", "FRAY_ON_BEHALF_OF", "FRAY_TLS", "FRAY_TLS_CA"} {
		t.Setenv(k, "")
	}
}
