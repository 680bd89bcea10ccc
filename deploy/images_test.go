package deploy

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

var dockerfile = filepath.Join(repoRoot, "Dockerfile")

// The base images a final stage may start from: no shell, no package manager.
var shellFreeBases = []*regexp.Regexp{
	regexp.MustCompile(`^scratch$`),
	regexp.MustCompile(`^gcr\.io/distroless/static(-debian\d+)?:nonroot@sha256:[0-9a-f]{64}$`),
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// finalStages are the stages no other stage starts from or copies from: the images.
func finalStages(stages []Stage) []Stage {
	used := map[string]bool{}
	for _, st := range stages {
		used[st.Base] = true
		for _, in := range st.Body {
			if from, ok := in.Flag("from"); ok {
				used[from] = true
			}
		}
	}
	var out []Stage
	for _, st := range stages {
		if !used[st.Name] {
			out = append(out, st)
		}
	}
	return out
}

func TestDockerfileFinalStagesRunAsNonRootWithoutShell(t *testing.T) {
	stages, err := ParseDockerfile(dockerfile)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, st := range stages {
		names[st.Name] = true
		if st.Base != "scratch" && !names[st.Base] {
			requirePinnedByDigest(t, st.Base)
		}
	}
	finals := finalStages(stages)
	require.NotEmpty(t, finals)
	for _, st := range finals {
		t.Run(st.Name, func(t *testing.T) {
			require.NotEmpty(t, st.Name, "a final stage is a --target: it needs a name")
			require.Truef(t, slices.ContainsFunc(shellFreeBases, func(re *regexp.Regexp) bool { return re.MatchString(st.Base) }),
				"%s starts from %s: only scratch or distroless/static (no shell)", st.Name, st.Base)
			var user string
			var entry []string
			for _, in := range st.Body {
				switch in.Keyword {
				case "RUN", "SHELL", "ONBUILD", "ADD":
					t.Fatalf("line %d: %s in a final stage (needs a shell, or fetches): build in the build stage and COPY --from it", in.Line, in.Keyword)
				case "COPY":
					from, ok := in.Flag("from")
					require.Truef(t, ok && names[from], "line %d: a final stage copies only from a build stage", in.Line)
				case "USER":
					user = in.Args
				case "ENTRYPOINT", "CMD":
					argv, ok := in.Exec()
					require.Truef(t, ok, "line %d: %s in shell form runs /bin/sh: use the exec form [\"/binary\"]", in.Line, in.Keyword)
					if in.Keyword == "ENTRYPOINT" {
						entry = argv
					}
				}
			}
			// A numeric user: the kubelet can only check runAsNonRoot against a number.
			uid, gid, _ := strings.Cut(user, ":")
			n, err := strconv.Atoi(uid)
			require.NoErrorf(t, err, "USER %q: give a numeric user", user)
			require.NotZero(t, n, "USER 0 is root")
			if gid != "" {
				g, err := strconv.Atoi(gid)
				require.NoErrorf(t, err, "USER %q: give a numeric group", user)
				require.NotZero(t, g, "group 0 is root's")
			}
			require.Len(t, entry, 1, "ENTRYPOINT: the binary alone")
		})
	}
}

// A static binary built as the Dockerfile builds it.
type binary struct{ Path, Package string }

var (
	binOnce sync.Once
	binDir  string
	bins    map[string]binary // by the name given to -o
	binErr  error
)

// staticBinaries runs the build stage's `go build` commands as the Dockerfile writes them:
// in their WORKDIR (/src is the repository), with the stage's ENV, for linux on this
// machine's architecture, into a temporary folder. Once per test run.
func staticBinaries(t *testing.T) map[string]binary {
	t.Helper()
	binOnce.Do(func() { bins, binErr = buildAsDockerfile() })
	require.NoError(t, binErr)
	return bins
}

func buildAsDockerfile() (map[string]binary, error) {
	stages, err := ParseDockerfile(dockerfile)
	if err != nil {
		return nil, err
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		return nil, err
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	binDir, err = os.MkdirTemp("", "fray-images-")
	if err != nil {
		return nil, err
	}
	vars := map[string]string{"TARGETOS": "linux", "TARGETARCH": runtime.GOARCH, "BUILDPLATFORM": runtime.GOOS + "/" + runtime.GOARCH}
	out := map[string]binary{}
	for _, st := range stages {
		env := map[string]string{}
		workdir := "/"
		for _, in := range st.Body {
			switch in.Keyword {
			case "ENV":
				pairs, err := EnvPairs(in, vars)
				if err != nil {
					return nil, err
				}
				for k, v := range pairs {
					env[k] = v
				}
			case "WORKDIR":
				if path.IsAbs(in.Args) {
					workdir = path.Clean(in.Args)
				} else {
					workdir = path.Join(workdir, in.Args)
				}
			case "RUN":
				argv, ok := in.Exec()
				if !ok || len(argv) < 2 || argv[0] != "go" || argv[1] != "build" {
					continue
				}
				rel, ok := strings.CutPrefix(workdir, "/src")
				if !ok {
					return nil, fmt.Errorf("line %d: go build in %s, outside /src (the repository)", in.Line, workdir)
				}
				args := slices.Clone(argv[1:])
				i := slices.Index(args, "-o")
				if i < 0 || i+1 >= len(args) {
					return nil, fmt.Errorf("line %d: go build without -o", in.Line)
				}
				name := path.Base(args[i+1])
				args[i+1] = filepath.Join(binDir, name)
				cmd := exec.Command(goCmd, args...)
				cmd.Dir = filepath.Join(root, filepath.FromSlash(rel))
				// The test's own GOFLAGS (say -race) must not reach the build: only the
				// Dockerfile's environment does.
				cmd.Env = append(os.Environ(), "GOFLAGS=")
				for k, v := range env {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				if b, err := cmd.CombinedOutput(); err != nil {
					return nil, fmt.Errorf("line %d: go %s (in %s): %v\n%s", in.Line, strings.Join(args, " "), rel, err, b)
				}
				out[name] = binary{Path: args[i+1], Package: path.Join(rel, args[len(args)-1])}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no RUN [\"go\", \"build\", …] in exec form", dockerfile)
	}
	return out, nil
}

func TestImagesBinariesAreStatic(t *testing.T) {
	bins := staticBinaries(t)
	require.Contains(t, bins, "encounter")
	require.Contains(t, bins, "resolver")
	require.Contains(t, bins, "gateway")
	for name, b := range bins {
		t.Run(name, func(t *testing.T) {
			f, err := elf.Open(b.Path)
			require.NoError(t, err)
			defer f.Close()
			for _, p := range f.Progs {
				require.NotEqualf(t, elf.PT_INTERP, p.Type, "%s asks for a dynamic loader: it would not start on distroless/static", name)
				require.NotEqual(t, elf.PT_DYNAMIC, p.Type, "%s is dynamically linked", name)
			}
			libs, err := f.ImportedLibraries()
			require.NoError(t, err)
			require.Empty(t, libs)
			info, err := buildinfo.ReadFile(b.Path)
			require.NoError(t, err)
			settings := map[string]string{}
			for _, s := range info.Settings {
				settings[s.Key] = s.Value
			}
			require.Equal(t, "0", settings["CGO_ENABLED"])
			require.Equal(t, "true", settings["-trimpath"])
			require.Equal(t, "linux", settings["GOOS"])
		})
	}
}

// Every Deployment runs an image of the Dockerfile: fray-<target>, whose target runs the
// binary built from services/<target>/cmd/<target>.
func TestImagesMatchManifests(t *testing.T) {
	stages, err := ParseDockerfile(dockerfile)
	require.NoError(t, err)
	targets := map[string]Stage{}
	for _, st := range finalStages(stages) {
		targets[st.Name] = st
	}
	r := render(t, overlays[len(overlays)-1].dir)
	require.NotEmpty(t, r.Deployments)
	for _, d := range r.Deployments {
		for _, c := range d.Spec.Template.Spec.Containers {
			repo := imageRepo(c.Image)
			name, ok := strings.CutPrefix(path.Base(repo), "fray-")
			require.Truef(t, ok, "%s runs %s: not an image of the Dockerfile (fray-<target>)", d.Name, c.Image)
			st, ok := targets[name]
			require.Truef(t, ok, "%s runs %s: the Dockerfile has no target %q", d.Name, c.Image, name)
			var entry []string
			var copied []string
			for _, in := range st.Body {
				if in.Keyword == "ENTRYPOINT" {
					entry, _ = in.Exec()
				}
				if in.Keyword == "COPY" {
					copied = append(copied, strings.Fields(in.Args)...)
				}
			}
			require.Equal(t, []string{"/" + name}, entry)
			require.Contains(t, copied, "/out/"+name)
		}
	}
	bins := staticBinaries(t)
	for name := range targets {
		if name == "nats" {
			continue // below
		}
		require.Containsf(t, bins, name, "target %s copies a binary no go build makes", name)
		require.Equal(t, "/services/"+name+"/cmd/"+name, bins[name].Package)
	}
	// The NATS StatefulSet runs fray-nats, whose target runs nats-server built from
	// services/platform's module: the version of its go.mod, the one the tests run.
	nats := r.StatefulSets[0].Spec.Template.Spec.Containers[0]
	require.Equal(t, "fray-nats", path.Base(imageRepo(nats.Image)))
	require.Equal(t, "/nats-server", nats.Command[0])
	st, ok := targets["nats"]
	require.True(t, ok, "the Dockerfile has a target nats")
	require.Contains(t, stageCopies(st), "/out/nats-server")
	b, ok := bins["nats-server"]
	require.True(t, ok, "no go build makes nats-server")
	require.Equal(t, "/services/platform/github.com/nats-io/nats-server/v2", b.Package)
	info, err := buildinfo.ReadFile(b.Path)
	require.NoError(t, err)
	require.Equal(t, "github.com/nats-io/nats-server/v2", info.Main.Path, "the binary is nats-server")
	require.Equal(t, "v"+natsServerVersion(t), info.Main.Version, "the NATS image runs the nats-server of services/platform/go.mod")
}

func stageCopies(st Stage) []string {
	var copied []string
	for _, in := range st.Body {
		if in.Keyword == "COPY" {
			copied = append(copied, strings.Fields(in.Args)...)
		}
	}
	return copied
}

// Every FRAY_ variable the manifests give a service is one its --help names: a misspelt
// variable is silently ignored by the service.
func TestEnvKnownToTheServices(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("runs the linux binaries of the images")
	}
	bins := staticBinaries(t)
	known := map[string]map[string]bool{}
	for _, name := range []string{"encounter", "resolver", "gateway"} {
		out, err := exec.Command(bins[name].Path, "--help").CombinedOutput()
		require.NoErrorf(t, err, "%s --help: %s", name, out)
		known[name] = map[string]bool{}
		for _, v := range regexp.MustCompile(`FRAY_[A-Z0-9_]+`).FindAllString(string(out), -1) {
			known[name][v] = true
		}
	}
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for name := range known {
			c := container(workload(t, r, name), name)
			var vars []string
			for _, e := range c.Env {
				vars = append(vars, e.Name)
			}
			for _, ef := range c.EnvFrom {
				if ef.ConfigMapRef != nil {
					vars = slices.AppendSeq(vars, maps.Keys(r.ConfigMap(ef.ConfigMapRef.Name).Data))
				}
				if ef.SecretRef != nil {
					vars = slices.AppendSeq(vars, maps.Keys(r.Secret(ef.SecretRef.Name).Data))
				}
			}
			for _, v := range vars {
				if !strings.HasPrefix(v, "FRAY_") {
					continue
				}
				require.Truef(t, known[name][v], "%s is given %s, which it does not read (see %s --help)", name, v, name)
			}
		}
	})
}
