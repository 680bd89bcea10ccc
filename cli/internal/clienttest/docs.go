package clienttest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// DocsText is what a newcomer reads, for the tests that paste its command blocks: README.md,
// then every docs/*.md (by name), of the repository at root ("../../.." from a package of
// cli/internal). The README keeps its front door; the tutorial, odds, clients, log tools,
// operating, security and versions moved to docs/ (issue 28), and a block is found by what
// its paragraph says wherever it lives.
func DocsText(t *testing.T, root string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	parts := []string{string(raw)}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n")
}
