package enginetest

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
)

// ReadLog reads a log of events in protojson, one a line (a golden log of
// rules/systems/testdata/golden, an export), and requires at least one.
func ReadLog(t testing.TB, path string) []*encounterv1.Event {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []*encounterv1.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		ev := &encounterv1.Event{}
		require.NoError(t, protojson.Unmarshal(sc.Bytes(), ev))
		out = append(out, ev)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out, "%s holds no event", path)
	return out
}

// Golden requires got to equal the file at path, writing got there first when update is set
// (a test's -update flag); how names the command that writes it.
func Golden(t testing.TB, path, got string, update bool, how string) {
	t.Helper()
	if update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "%s writes it", how)
	require.Equal(t, string(want), got)
}
