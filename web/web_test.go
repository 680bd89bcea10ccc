package web_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/web"
)

// The page's built files are those its sources give: sources.sha256, written by build.sh with
// dist/, lists the hash of every source (package.json, the lock, the build's settings, src/
// with the stubs generated from proto/). A source changed, added or removed since the last
// build fails here, without npm: run web/build.sh.
func TestTheBuiltPageMatchesItsSources(t *testing.T) {
	listed := map[string]string{}
	f, err := os.Open("sources.sha256")
	if err != nil {
		t.Fatalf("%v: run web/build.sh", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, path, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("sources.sha256: bad line %q", sc.Text())
		}
		listed[path] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	sources := []string{"package.json", "package-lock.json", "tsconfig.json", "buf.gen.yaml", "build.sh"}
	err = filepath.WalkDir("src", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			sources = append(sources, filepath.ToSlash(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, path := range sources {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		switch want, ok := listed[path]; {
		case !ok:
			stale = append(stale, path+" (new)")
		case want != hex.EncodeToString(sum[:]):
			stale = append(stale, path+" (changed)")
		}
		delete(listed, path)
	}
	for path := range listed {
		stale = append(stale, path+" (removed)")
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Fatalf("the built page (web/dist) is stale against its sources: %s; run web/build.sh and commit web/", strings.Join(stale, ", "))
	}
}

// The embedded assets are the page: index.html loading app.js and style.css.
func TestAssets(t *testing.T) {
	index, err := fs.ReadFile(web.Assets, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`src="app.js"`, `href="style.css"`, `name="viewport"`} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index.html has no %s", want)
		}
	}
	for _, name := range []string{"app.js", "style.css"} {
		if _, err := fs.Stat(web.Assets, name); err != nil {
			t.Error(err)
		}
	}
}

// Where npm can run, the page is built again from its sources in a temporary folder (npm ci,
// the stubs generated from proto/, tsc, esbuild) and must equal the committed files byte for
// byte. Where it cannot, the test says so loudly and skips. Slow (a minute): skipped by -short.
func TestTheBuiltPageIsWhatItsSourcesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the page is not rebuilt")
	}
	for _, tool := range []string{"npm", "node", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "\n!!! SKIPPED %s: %s is not installed: the page cannot be rebuilt to compare\n\n", t.Name(), tool)
			t.Skipf("no %s", tool)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "build.sh", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(b, []byte("npm error")) && (bytes.Contains(b, []byte("ENOTFOUND")) || bytes.Contains(b, []byte("EAI_AGAIN")) || bytes.Contains(b, []byte("ECONNREFUSED"))) {
			fmt.Fprintf(os.Stderr, "\n!!! SKIPPED %s: npm cannot reach its registry: the page cannot be rebuilt to compare\n%s\n", t.Name(), b)
			t.Skip("npm cannot reach its registry")
		}
		t.Fatalf("web/build.sh: %v\n%s", err, b)
	}
	for _, dir := range []string{"dist", "src/gen"} {
		compareTrees(t, filepath.Join(out, dir), dir)
	}
	compareFiles(t, filepath.Join(out, "sources.sha256"), "sources.sha256")
}

func compareTrees(t *testing.T, built, committed string) {
	t.Helper()
	files := map[string]bool{}
	for _, root := range []string{built, committed} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				files[rel] = true
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for rel := range files {
		compareFiles(t, filepath.Join(built, rel), filepath.Join(committed, rel))
	}
}

func compareFiles(t *testing.T, built, committed string) {
	t.Helper()
	a, errA := os.ReadFile(built)
	b, errB := os.ReadFile(committed)
	switch {
	case errA != nil:
		t.Errorf("web/%s is not built any more: run web/build.sh", committed)
	case errB != nil:
		t.Errorf("web/%s is built but not committed: run web/build.sh", committed)
	case !bytes.Equal(a, b):
		t.Errorf("web/%s differs from what its sources build: run web/build.sh", committed)
	}
}
