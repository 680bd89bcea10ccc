// Package examples_test runs the README's "Clients in other languages" as pasted: Python stubs
// generated with protoc, the Python example client playing a fight on a `fray dev` built and
// started here, and the buf templates for Python and TypeScript with the TypeScript stubs
// type-checked by tsc.
package examples_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, from this package's folder.
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// The Debian packages the Python client needs: the Python modules, protoc and its gRPC plugin,
// and the well-known types protoc reads from /usr/include (libprotobuf-dev: only a
// recommendation of protobuf-compiler, which --no-install-recommends leaves out; CI failed so).
var debianPackages = []string{"python3-grpcio", "python3-protobuf", "python3-yaml", "protobuf-compiler", "protobuf-compiler-grpc", "libprotobuf-dev"}

// wellKnownType is one of the well-known types the protos import, where Debian's protoc finds it.
const wellKnownType = "/usr/include/google/protobuf/timestamp.proto"

// debianPython is Debian's python3, whose modules the packages install (the python3 first on
// PATH may be another, a pyenv shim for one).
const debianPython = "/usr/bin/python3"

// skipLoudly skips the test, saying why on stderr too, so that a run of the whole suite shows
// that the example did not run here.
func skipLoudly(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "\n*** %s SKIPPED: %s\n\n", t.Name(), msg)
	t.Skip(msg)
}

// pythonKit is what the Python example needs; it installs the Debian packages when one is
// missing (as root, with apt-get), and skips the test loudly when they cannot be had.
func pythonKit(t *testing.T) {
	t.Helper()
	missing := func() string {
		for _, tool := range []string{"protoc", "grpc_python_plugin"} {
			if _, err := exec.LookPath(tool); err != nil {
				return tool + " is not on PATH"
			}
		}
		if _, err := os.Stat(wellKnownType); err != nil {
			return "protoc's well-known types are missing (" + wellKnownType + ")"
		}
		if out, err := exec.Command(debianPython, "-c", "import grpc, google.protobuf, yaml").CombinedOutput(); err != nil {
			return fmt.Sprintf("%s cannot import grpc, google.protobuf and yaml: %v: %s", debianPython, err, bytes.TrimSpace(out))
		}
		return ""
	}
	why := missing()
	if why == "" {
		return
	}
	if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
		skipLoudly(t, "%s, and the Debian packages (%s) cannot be installed here (no apt-get, or not root)", why, strings.Join(debianPackages, " "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, "apt-get", append([]string{"install", "-y", "--no-install-recommends"}, debianPackages...)...)
	install.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	out, err := install.CombinedOutput()
	if err != nil {
		skipLoudly(t, "%s, and apt-get install %s failed: %v: %s", why, strings.Join(debianPackages, " "), err, lastLines(out, 5))
	}
	if why := missing(); why != "" {
		skipLoudly(t, "after apt-get install %s: %s", strings.Join(debianPackages, " "), why)
	}
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// readmeBlock is the README's indented code block, in the section "## Clients in other
// languages", that contains marker.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	text := clienttest.DocsText(t, root)
	at := strings.Index(text, "\n## Clients in other languages\n")
	require.GreaterOrEqual(t, at, 0, "the README has a section \"Clients in other languages\"")
	section := text[at+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var block []string
	for _, l := range strings.Split(section, "\n") {
		if c, ok := strings.CutPrefix(l, "    "); ok {
			block = append(block, c)
			continue
		}
		if l == "" && len(block) > 0 {
			block = append(block, "")
			continue
		}
		if b := strings.Join(block, "\n"); strings.Contains(b, marker) {
			return b
		}
		block = nil
	}
	if b := strings.Join(block, "\n"); strings.Contains(b, marker) {
		return b
	}
	t.Fatalf("no code block of the README's \"Clients in other languages\" contains %q", marker)
	return ""
}

// buildFray builds the fray command into dir.
func buildFray(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "fray")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cli/cmd/fray")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./cli/cmd/fray: %s", out)
	return bin
}

// startDev starts `fray dev --demo` on free ports and returns its gRPC address; it is stopped
// (interrupted, then waited for) when the test ends.
func startDev(t *testing.T, fray string) string {
	t.Helper()
	data := t.TempDir()
	dev := exec.Command(fray, "dev", "--demo", "--listen", "127.0.0.1:0", "--nats-port", "-1", "--data", data, "--log-level", "error")
	stdout, err := dev.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	dev.Stderr = &stderr
	require.NoError(t, dev.Start())
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = dev.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = dev.Process.Kill()
			<-exited
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		serving := regexp.MustCompile(`^fray dev: serving on (\S+) `)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		exited <- dev.Wait()
	}()
	select {
	case a := <-addr:
		return a
	case err := <-exited:
		exited <- err // for the cleanup
		t.Fatalf("fray dev stopped before serving: %v: %s", err, stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("fray dev did not say where it serves within 2 minutes: %s", stderr.String())
	}
	return ""
}

// bash runs script with bash in dir, failing on the first failing command; it returns what
// the script printed.
func bash(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	require.NoError(t, err, "the README's block:\n%s\nprinted:\n%s", script, out.String())
	return out.String()
}

// TestThePythonExamplePlaysAFight pastes the README's Python block: stubs generated with
// protoc into a temporary folder, then examples/python/fight.py against a `fray dev --demo`
// built and started here, with a token from `fray token`. The client plays the fight with the
// server's pre-filled legal commands, prints the server's narration, ends the encounter and
// verifies the revealed seed against the published sha256.
func TestThePythonExamplePlaysAFight(t *testing.T) {
	pythonKit(t)
	block := readmeBlock(t, "examples/python/fight.py")
	require.Contains(t, block, "protoc -I proto", "the block generates the stubs with protoc")

	bin := t.TempDir()
	fray := buildFray(t, bin)
	// The README runs the client with Debian's python3 by its path (issue 28: the python3 first
	// on a PATH may be a pyenv's), and the fray built at the root (./fray).
	require.Contains(t, block, "PYTHONPATH=$out "+debianPython+" examples/python/fight.py")
	script := strings.ReplaceAll(block, "./fray ", fray+" ")
	// And in French, as the README says it may, with the same stubs: one command.
	last := strings.Split(strings.TrimSpace(script), "\n")
	script += "\necho '== fr'\n" + last[len(last)-1] + " --language fr --steps 1\n"
	addr := startDev(t, fray)

	both := bash(t, root, script, "FRAY_ADDR="+addr, "TMPDIR="+t.TempDir(), "PATH="+bin+":"+os.Getenv("PATH"))
	t.Logf("the example printed:\n%s", both)
	out, fr, ok := strings.Cut(both, "== fr\n")
	require.True(t, ok)
	for _, want := range []string{
		`(?m)^#1 Rencontre « Ruelle sombre » créée par dev/gm`,
		`(?m)^> diego: attack$`,
		`(?m)^#6 Diego attaque Le malfrat à l'épée \(4 PA\)`,
		`(?m)^seed verified: `,
	} {
		require.Regexp(t, want, fr)
	}
	for _, want := range []string{
		fmt.Sprintf(`(?m)^#1 Encounter "Ruelle sombre" created by dev/gm, loss v%d`, loss.Latest), // a new encounter gets the latest rules
		`(?m)^#2 joins: Diego \(diego\)`,
		`(?m)^#3 joins: Le malfrat \(ruffian\)`,
		`(?m)^#5 Tour 1 \(Séquence 1\): Diego 8\+d10\[\d+(,\d+)*\] = \d+ PA; Le malfrat`,
		`(?m)^> diego: attack$`,
		`(?m)^#\d+ Diego attacks Le malfrat with épée \(4 PA\)`,
		`(?m)^> ruffian: (dodge|parry|take the blow)$`,
		`(?m)^#\d+ Encounter ended \(example over\); dice seed revealed: [0-9a-f]{64}$`,
		`(?m)^seed verified: sha256\([0-9a-f]{64}\) = [0-9a-f]{64}$`,
	} {
		require.Regexp(t, want, out)
	}
	require.NotContains(t, out, "(event ", "every event is narrated by the server")
}

// TestTheBufTemplatesGeneratePythonAndTypeScript pastes the README's buf block: buf from
// tools/, the Python template into examples/python/gen, protoc-gen-es from the lock file
// (npm ci) and the TypeScript template into examples/typescript/gen, then tsc type-checks the
// stubs with examples/typescript/command.ts (both gen folders are ignored by git); in a
// temporary copy of the files it reads.
func TestTheBufTemplatesGeneratePythonAndTypeScript(t *testing.T) {
	pythonKit(t) // the Python template runs protoc's built-in generators and grpc_python_plugin
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipLoudly(t, "%s is not on PATH: the TypeScript stubs need Node.js 20 or later and npm", tool)
		}
	}
	block := readmeBlock(t, "buf.gen.ts.yaml")
	require.Contains(t, block, "buf.gen.python.yaml")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "npm", "ping").CombinedOutput(); err != nil {
		skipLoudly(t, "the npm registry cannot be reached (npm ping: %v: %s): npm ci cannot install protoc-gen-es", err, lastLines(out, 3))
	}
	// In a copy of what the block reads, so that runs at the same time in one checkout do not
	// share node_modules/ and gen/ folders.
	dir := t.TempDir()
	copyTree(t, dir, "proto", "tools/go.mod", "tools/go.sum", "buf.yaml", "buf.gen.python.yaml", "buf.gen.ts.yaml",
		"examples/typescript/package.json", "examples/typescript/package-lock.json",
		"examples/typescript/tsconfig.json", "examples/typescript/command.ts")
	if _, err := os.Stat(filepath.Join(root, ".bin", "buf")); err == nil {
		// The tools scripts/check-proto.sh installed: go install then finds them up to date
		// rather than linking buf again (most of a minute on a busy machine).
		copyTree(t, dir, ".bin")
	}
	bash(t, dir, block)

	pyi, err := os.ReadFile(filepath.Join(dir, "examples", "python", "gen", "fray", "loss", "v1", "loss_pb2.pyi"))
	require.NoError(t, err)
	require.Contains(t, string(pyi), "pass_turn: Pass", "the type stubs hold the renamed field")
	_, err = os.Stat(filepath.Join(dir, "examples", "python", "gen", "fray", "encounter", "v1", "encounter_service_pb2_grpc.py"))
	require.NoError(t, err, "grpc_python_plugin wrote the gRPC client")
	ts, err := os.ReadFile(filepath.Join(dir, "examples", "typescript", "gen", "fray", "loss", "v1", "loss_pb.ts"))
	require.NoError(t, err)
	require.Contains(t, string(ts), `case: "passTurn"`)
}

// copyTree copies the files and folders paths (relative to the repository's root) into dir.
func copyTree(t *testing.T, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		err := filepath.WalkDir(filepath.Join(root, p), func(src string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(root, src)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			dst := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, info.Mode().Perm())
		})
		require.NoError(t, err, "copy %s", p)
	}
}
