package deploy

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// The overlay deploy/k8s/README.md tells operators to write, built over prod with files of
// its own: it renders, replaces every placeholder, keeps every reference whole, and its NATS
// configuration still parses.
func TestTheREADMEOverlay(t *testing.T) {
	readme, err := os.ReadFile("k8s/README.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(readme), "\n## Your overlay\n")
	require.True(t, ok, "the README has a section \"Your overlay\"")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(after)
	require.NotNil(t, m, "a yaml block in \"Your overlay\"")
	const prodPath = "../fray/deploy/k8s/overlays/prod"
	require.Contains(t, m[1], "- "+prodPath+"\n")

	var k types.Kustomization
	require.NoError(t, yaml.UnmarshalStrict([]byte(m[1]), &k))
	prod, err := filepath.Abs("k8s/overlays/prod")
	require.NoError(t, err)
	dir := t.TempDir()
	rel, err := filepath.Rel(dir, prod) // kustomize takes relative paths only
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(strings.Replace(m[1], prodPath, filepath.ToSlash(rel), 1)), 0o600))
	// The operator's files: what NATS reads must be real (it parses them: keys, certificates);
	// the rest a value of the operator's own.
	cr := credentials(t)
	real := map[string]string{
		"users.conf":          "ENCOUNTER_NKEY: " + cr.user["encounter"].pub + "\nAUDITOR_NKEY: " + cr.user["auditor"].pub + "\n",
		"encounter.nk":        cr.user["encounter"].seed,
		"nats-routes-tls.crt": cr.route.certPEM,
		"nats-routes-tls.key": cr.route.keyPEM,
		"nats-routes-ca.crt":  cr.ca.certPEM,
		"nats-tls.crt":        cr.client.certPEM,
		"nats-tls.key":        cr.client.keyPEM,
	}
	write := func(src string, env bool) {
		name := src
		if _, file, ok := strings.Cut(src, "="); ok {
			name = file
		}
		require.False(t, env, "%s: the overlay takes no environment file (no password)", name)
		content, ok := real[name]
		if !ok {
			content = "a value of the operator's own for " + name + "\n"
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600))
	}
	var gens []types.GeneratorArgs
	for _, g := range k.ConfigMapGenerator {
		gens = append(gens, g.GeneratorArgs)
	}
	for _, g := range k.SecretGenerator {
		gens = append(gens, g.GeneratorArgs)
	}
	for _, g := range gens {
		for _, f := range g.FileSources {
			write(f, false)
		}
		for _, f := range g.EnvSources {
			write(f, true)
		}
	}

	r, err := Render(dir)
	require.NoError(t, err)
	base := render(t, "k8s/overlays/prod")
	require.Len(t, r.Secrets, len(base.Secrets))
	for _, s := range r.Secrets {
		for key, v := range s.Data {
			require.NotContainsf(t, string(v), "REPLACE-ME", "Secret %s key %s is still a placeholder", s.Name, key)
		}
		want := base.Secret(s.Name[:len(s.Name)-11]) // less kustomize's hash
		require.NotNil(t, want, s.Name)
		require.Equal(t, len(want.Data), len(s.Data), "Secret %s keeps its keys", s.Name)
		for key := range want.Data {
			require.Contains(t, s.Data, key, "Secret %s", s.Name)
		}
	}
	for _, c := range r.ConfigMaps {
		for key, v := range c.Data {
			require.NotContainsf(t, v, "REPLACE-ME", "ConfigMap %s key %s is still a placeholder", c.Name, key)
		}
	}
	checkReferences(t, r)
	for _, w := range r.Workloads() {
		for _, c := range w.Template.Spec.Containers {
			if strings.Contains(c.Image, "fray-") {
				require.True(t, strings.HasPrefix(c.Image, "registry.example.com/fray/fray-"), c.Image)
			}
		}
	}
	opts, _ := natsOptions(t, r)
	require.Len(t, opts.Nkeys, 2)
	require.NotNil(t, opts.TLSConfig)
	require.NotNil(t, opts.Cluster.TLSConfig)
	for name := range real {
		require.Containsf(t, m[1], name, "the overlay gives %s", name)
	}
}
