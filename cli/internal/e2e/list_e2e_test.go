package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
)

// startEncounterAt serves EncounterService as startEncounter does and returns its address.
func startEncounterAt(t *testing.T, natsURL, resolverAddr string) string {
	srv := server.New(quietLog(), authtest.ServerOptions()...)
	run, err := encounter.Start(context.Background(), encounter.Config{NATSURL: natsURL, ResolverAddr: resolverAddr, Log: quietLog(),
		ResolverToken: auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))}, srv, systems.Registry())
	require.NoError(t, err)
	t.Cleanup(run.Close)
	return serveOn(t, srv)
}

// fray list pages (--page-size, --page-token, --all) and lists only the caller's encounters
// with its role; a player's fray log, state and watch read the player's view.
func TestFrayListPagesAndAPlayerReads(t *testing.T) {
	ns, _ := natstest.Start(t)
	addr := startEncounterAt(t, ns.ClientURL(), startResolver(t))
	c := encounterv1.NewEncounterServiceClient(dial(t, addr))
	var ids []string
	for _, name := range []string{"Première", "Deuxième", "Troisième"} {
		r, err := c.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
		require.NoError(t, err)
		ids = append(ids, r.GetEncounterId())
	}
	f := &fight{t: t, c: c, id: ids[0]}
	d, r := diego(0, 0), ruffian(0)
	r.Hidden = true
	for _, p := range []*encounterv1.Combatant{d, r} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: f.id, Combatant: p})
		require.NoError(t, err)
	}
	_, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)

	gm := []string{"--addr", addr, "--token", authtest.Default().Token("gm")}
	david := []string{"--addr", addr, "--token", authtest.Default().Token("david")}
	code, out, errOut := frayCLI(append([]string{"list", "--page-size", "2"}, gm...)...)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^ID\s+NAME\s+SYSTEM\s+STATUS\s+EVENTS\s+ROLE\s+LAST ACTIVE$`, out)
	require.Regexp(t, ids[0]+`\s+Première\s+loss\s+active\s+\d+\s+GM\s`, out, "the most recently active first")
	require.Contains(t, out, ids[2])
	require.NotContains(t, out, ids[1])
	token := regexp.MustCompile(`More: fray list --page-token (\S+) \(or --all\)`).FindStringSubmatch(out)
	require.Len(t, token, 2, out)
	code, out, errOut = frayCLI(append([]string{"list", "--page-token", token[1]}, gm...)...)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, ids[1])
	require.NotContains(t, out, "More:")
	code, out, errOut = frayCLI(append([]string{"list", "--all", "--page-size", "1"}, gm...)...)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, 4, strings.Count(out, "\n"), out)
	code, _, errOut = frayCLI(append([]string{"list", "--page-size", "500"}, gm...)...)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give 1 to 200")
	code, _, errOut = frayCLI(append([]string{"list", "--page-token", "nonsense"}, gm...)...)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "InvalidArgument")

	code, out, errOut = frayCLI(append([]string{"list"}, david...)...)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, ids[0]+`\s+Première\s+loss\s+active\s+\d+\s+player\s`, out)
	require.Equal(t, 2, strings.Count(out, "\n"), "david plays in one encounter only")

	// The player reads the fight: the hidden ruffian by its name, never its sheet.
	for _, cmd := range [][]string{{"log", f.id}, {"state", f.id}} {
		code, out, errOut = frayCLI(append(cmd, david...)...)
		require.Equal(t, 0, code, errOut)
		require.Contains(t, out, "Le malfrat")
		require.NotContains(t, out, "dague", "the hidden ruffian's weapon")
	}
	_, err = c.EndEncounter(as("gm"), &encounterv1.EndEncounterRequest{EncounterId: f.id})
	require.NoError(t, err)
	code, out, errOut = frayCLI(append([]string{"watch", f.id}, david...)...)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Le malfrat")
	require.NotContains(t, out, "dague")
	// A stranger is told what it lacks.
	code, _, errOut = frayCLI("state", f.id, "--addr", addr, "--token", authtest.Default().Token("sam"))
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "PermissionDenied: dev/sam has no role in encounter "+f.id)
	require.NotContains(t, errOut, "Première", "nothing of the encounter told to one who may not read it")
}
