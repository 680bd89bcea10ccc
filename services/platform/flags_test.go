package platform_test

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
)

type testFlags struct {
	replicas int
	maxBytes int64
	rate     float64
	grace    time.Duration
	tls      bool
	addr     string
}

func newTestFlags() (*flag.FlagSet, *testFlags) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &testFlags{}
	fs.IntVar(&f.replicas, "replicas", 1, "replicas (env FRAY_TEST_REPLICAS)")
	fs.Int64Var(&f.maxBytes, "max-bytes", 8, "bytes (env FRAY_TEST_MAX_BYTES; -1: no limit)")
	fs.Float64Var(&f.rate, "rate", 100, "rate (env FRAY_TEST_RATE)")
	fs.DurationVar(&f.grace, "grace", 10*time.Second, "grace (env FRAY_TEST_GRACE)")
	fs.BoolVar(&f.tls, "tls", false, "TLS (env FRAY_TEST_TLS: true or false)")
	fs.StringVar(&f.addr, "addr", "a", "address (env FRAY_TEST_ADDR)")
	return fs, f
}

// A bad value in a flag's environment variable is refused, naming the variable; it never
// falls back to the default in silence.
func TestParseFlagsRefusesBadEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env, value, err string
	}{
		{"FRAY_TEST_REPLICAS", "abc", `FRAY_TEST_REPLICAS: "abc" is not a whole number`},
		{"FRAY_TEST_REPLICAS", "3.5", `FRAY_TEST_REPLICAS: "3.5" is not a whole number`},
		{"FRAY_TEST_MAX_BYTES", "8GiB", `FRAY_TEST_MAX_BYTES: "8GiB" is not a whole number`},
		{"FRAY_TEST_RATE", "fast", `FRAY_TEST_RATE: "fast" is not a number`},
		{"FRAY_TEST_GRACE", "10", `FRAY_TEST_GRACE: "10" is not a duration such as 500ms, 10s, 5m or 1h30m`},
		{"FRAY_TEST_TLS", "yes", `FRAY_TEST_TLS: "yes" is not true or false (or 1, t, T, TRUE, 0, f, F, FALSE)`},
	} {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			fs, _ := newTestFlags()
			require.EqualError(t, platform.ParseFlags(fs, nil), tc.err)
		})
	}
}

func TestParseFlagsTakesTheEnvironment(t *testing.T) {
	t.Setenv("FRAY_TEST_REPLICAS", "3")
	t.Setenv("FRAY_TEST_MAX_BYTES", "-1")
	t.Setenv("FRAY_TEST_RATE", "2.5")
	t.Setenv("FRAY_TEST_GRACE", "20s")
	t.Setenv("FRAY_TEST_TLS", "false")
	t.Setenv("FRAY_TEST_ADDR", "b")
	fs, f := newTestFlags()
	require.NoError(t, platform.ParseFlags(fs, nil))
	require.Equal(t, testFlags{replicas: 3, maxBytes: -1, rate: 2.5, grace: 20 * time.Second, tls: false, addr: "b"}, *f)

	// A flag given on the command line wins over its variable, even a bad one; an empty
	// variable is no value.
	t.Setenv("FRAY_TEST_REPLICAS", "abc")
	t.Setenv("FRAY_TEST_ADDR", "")
	fs, f = newTestFlags()
	require.NoError(t, platform.ParseFlags(fs, []string{"--replicas", "5", "--tls"}))
	require.Equal(t, 5, f.replicas)
	require.True(t, f.tls)
	require.Equal(t, "a", f.addr)
}

func TestFlagErrorNamesTheVariable(t *testing.T) {
	fs, _ := newTestFlags()
	require.NoError(t, platform.ParseFlags(fs, []string{"--replicas", "7"}))
	require.EqualError(t, platform.FlagError(fs, "replicas", "JetStream keeps 1 to 5 replicas of a stream"),
		"--replicas (FRAY_TEST_REPLICAS) 7: JetStream keeps 1 to 5 replicas of a stream")
}

func TestServeFlags(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	f := server.AddServeFlags(fs, server.ResolverConnectionAge)
	t.Setenv("FRAY_GRACE", "0s")
	t.Setenv("FRAY_HEALTH_LISTEN", "127.0.0.1:0")
	require.NoError(t, platform.ParseFlags(fs, nil))
	require.Equal(t, "127.0.0.1:0", f.HealthListen)
	require.EqualError(t, f.Check(fs), "--grace (FRAY_GRACE) 0s: the graceful stop needs some time (such as 10s)")

	require.Equal(t, server.ResolverConnectionAge, f.Age, "the service's own defaults")
	f.Grace = time.Second
	f.Age.Grace = 0
	require.EqualError(t, f.Check(fs), "--max-connection-age-grace (FRAY_MAX_CONNECTION_AGE_GRACE) 0s: calls under way need some time to finish (such as 10s)")
	f.Age.Max = -time.Second
	require.EqualError(t, f.Check(fs), "--max-connection-age (FRAY_MAX_CONNECTION_AGE) -1s: give a duration such as 30s, or 0 for connections that live for ever")
	f.Age.Max = 0
	require.NoError(t, f.Check(fs), "0: connections live for ever, no grace needed")

	srv := server.New(telemetry.NewLogger("text", "error"))
	f.HealthListen = "127.0.0.1:-1"
	require.ErrorContains(t, f.Listen(srv), "--health-listen (FRAY_HEALTH_LISTEN) 127.0.0.1:-1")
}

func TestNewLoggerToRefusesUnknownFormatOrLevel(t *testing.T) {
	_, err := telemetry.NewLoggerTo(io.Discard, "yaml", "info")
	require.EqualError(t, err, `--log-format (FRAY_LOG_FORMAT) "yaml": not text or json`)
	_, err = telemetry.NewLoggerTo(io.Discard, "json", "loud")
	require.EqualError(t, err, `--log-level (FRAY_LOG_LEVEL) "loud": not debug, info, warn or error`)
	_, err = telemetry.NewLoggerTo(io.Discard, "json", "debug")
	require.NoError(t, err)
}
