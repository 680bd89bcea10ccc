package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBadSettingsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"a duration", map[string]string{"FRAY_GRACE": "soon"}, `resolver: FRAY_GRACE: "soon" is not a duration`},
		{"no grace", map[string]string{"FRAY_GRACE": "0s"}, "resolver: --grace (FRAY_GRACE) 0s: the graceful stop needs some time"},
		{"a log format", map[string]string{"FRAY_LOG_FORMAT": "yaml"}, `resolver: --log-format (FRAY_LOG_FORMAT) "yaml": not text or json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var stderr bytes.Buffer
			require.Equal(t, 2, run(context.Background(), nil, &stderr))
			require.Contains(t, stderr.String(), tc.want)
		})
	}
}

func TestHelp(t *testing.T) {
	var stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"--help"}, &stderr))
	require.Contains(t, stderr.String(), "FRAY_HEALTH_LISTEN")
}
