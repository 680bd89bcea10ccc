package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// Values that cannot work are refused at the start, exit code 2, naming the variable or the
// flag; none falls back to its default in silence.
func TestBadSettingsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"not a number", map[string]string{"FRAY_REPLICAS": "abc"}, nil, `encounter: FRAY_REPLICAS: "abc" is not a whole number`},
		{"replicas out of range", map[string]string{"FRAY_REPLICAS": "7"}, nil, "encounter: --replicas (FRAY_REPLICAS) 7: JetStream keeps 1 to 5 replicas of a stream"},
		{"flag out of range", nil, []string{"--replicas", "0"}, "encounter: --replicas (FRAY_REPLICAS) 0: JetStream keeps 1 to 5 replicas of a stream"},
		{"a size", map[string]string{"FRAY_STREAM_MAX_BYTES": "8GiB"}, nil, `encounter: FRAY_STREAM_MAX_BYTES: "8GiB" is not a whole number`},
		{"below -1", map[string]string{"FRAY_SEEDS_MAX_BYTES": "-2"}, nil, "encounter: --seeds-max-bytes (FRAY_SEEDS_MAX_BYTES) -2: must be a size, 0 for the default or -1 for no limit"},
		{"a duration", map[string]string{"FRAY_GRACE": "20"}, nil, `encounter: FRAY_GRACE: "20" is not a duration such as 500ms, 10s, 5m or 1h30m`},
		{"a boolean", map[string]string{"FRAY_APPLY_STORAGE_LIMITS": "yes"}, nil, `encounter: FRAY_APPLY_STORAGE_LIMITS: "yes" is not true or false`},
		{"a rate", map[string]string{"FRAY_RATE_TENANT": "-1"}, nil, "encounter: --rate-tenant (FRAY_RATE_TENANT) -1: must be 0 or more"},
		{"a count", map[string]string{"FRAY_WATCH_BUFFER": "-5"}, nil, "encounter: --watch-buffer (FRAY_WATCH_BUFFER) -5: must be 0 (the default) or more"},
		{"a log level", map[string]string{"FRAY_LOG_LEVEL": "loud"}, nil, `encounter: --log-level (FRAY_LOG_LEVEL) "loud": not debug, info, warn or error`},
		{"a flag", nil, []string{"--replicas", "abc"}, `encounter: invalid value "abc" for flag -replicas: parse error`},
		{"an idle end", map[string]string{"FRAY_IDLE_END": "-1h"}, nil, "encounter: --idle-end (FRAY_IDLE_END) -1h0m0s: a duration of 1s or more (720h: 30 days), or 0 for never"},
		{"an idle end as a number", map[string]string{"FRAY_IDLE_END": "30"}, nil, `encounter: FRAY_IDLE_END: "30" is not a duration`},
		{"a sweep interval", nil, []string{"--idle-sweep-every", "0s"}, "encounter: --idle-sweep-every (FRAY_IDLE_SWEEP_EVERY) 0s: a duration of 1s or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var stderr bytes.Buffer
			require.Equal(t, 2, run(context.Background(), tc.args, &stderr))
			require.Contains(t, stderr.String(), tc.want)
		})
	}
}

func TestHelp(t *testing.T) {
	var stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"--help"}, &stderr))
	for _, v := range []string{"FRAY_REPLICAS", "FRAY_HEALTH_LISTEN", "FRAY_GRACE", "FRAY_NATS_URL", "FRAY_IDLE_END", "FRAY_IDLE_SWEEP_EVERY", "FRAY_IDLE_SWEEP_BATCH"} {
		require.Contains(t, stderr.String(), v)
	}
}
