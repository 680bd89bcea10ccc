package e2e_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
)

// `fray legal` against the real services: before the start no one may act; then the GM reads
// who may act and every action of the one who does, each with its key, the command line that
// takes it (the CLI's own command and flags, issue 28 item 7) and the choices it leaves open; david reads only Diego's; --for another's combatant is refused; --json
// is the GetEncounterResponse with the commands, and a command taken from it is accepted.
func TestFrayLegalListsKeysAndChoicesAsTheCallerMaySeeThem(t *testing.T) {
	ns, _ := natstest.Start(t)
	srv := server.New(quietLog(), authtest.ServerOptions()...)
	sum := sha256.Sum256([]byte("fray-legal-cli"))
	run, err := encounter.Start(context.Background(), encounter.Config{NATSURL: ns.ClientURL(), ResolverAddr: startResolver(t), Log: quietLog(),
		Options:       encounter.Options{NewSeed: func() []byte { return sum[:] }},
		ResolverToken: auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))}, srv, systems.Registry())
	require.NoError(t, err)
	t.Cleanup(run.Close)
	addr := serveOn(t, srv)
	as := func(who string) []string { return []string{"--addr", addr, "--token", authtest.Default().Token(who)} }
	fray := func(who string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := commands.Run(context.Background(), append(args, as(who)...), &out, &errOut)
		return code, out.String(), errOut.String()
	}

	id := cli(t, append([]string{"create", "--name", "Ruelle"}, as("gm")...)...)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	cli(t, append([]string{"add", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml")}, as("gm")...)...)
	require.Equal(t, "No one may act now.", cli(t, append([]string{"legal", id}, as("gm")...)...))
	cli(t, append([]string{"start", id}, as("gm")...)...)

	gm := cli(t, append([]string{"legal", id}, as("gm")...)...)
	require.Equal(t, "May act now: Diego.\n"+
		"Diego may:\n"+
		"  attack with épée: 4 PA, targets ruffian (LOS-035) [attack]\n"+
		"      fray attack "+id+" diego TARGET --weapon épée\n"+
		"        TARGET* (the target): ruffian (Le malfrat)\n"+
		"        --effect NAME, repeatable (Exploits declared: each effect costs its Exploits, at most 5 in all (LOS-010)): "+
		"extra-damage (extra damage, 1), feint (Feint, 1), take-advantage (Take the advantage, 1), aim-limb (Aim at a limb, 1), "+
		"two-weapons (Two weapons, 2), moulinet (Moulinet, 2), overthrow (Overthrow, 2), aim-zone (Aim at a precise zone, 2), "+
		"disarm (Disarm, 3), aim-point (Aim at a precise point, 3), neutralise (Neutralise, 4), storm-of-blades (Storm of blades, 4), "+
		"kill-outright (Kill outright, 5); costs at most 5 in all\n"+
		"        --fursa N (Fursa spent, +5 each (LOS-004)): 0 to 2\n"+
		"        --inspiration VERTU=N (Inspiration spent by Vertu, +5 each (LOS-004): one entry per Vertu): Courage=1 (1 Inspiration of Courage)\n"+
		"  moving: 2 PA (LOS-035) [move]\n"+
		"      fray act "+id+" diego move\n"+
		"  picking up an object: 2 PA (LOS-035) [pick up an object]\n"+
		"      fray act "+id+" diego pick-up\n"+
		"  a social Talent: 1 PA (LOS-035) [social Talent]\n"+
		"      fray act "+id+" diego social\n"+
		"  wait — act later, at a phase from 1 to 11 (LOS-040) [wait]\n"+
		"      fray wait "+id+" diego PHASE\n"+
		"        PHASE* (the phase to act at): 1 to 11\n"+
		"  speak (LOS-035) [speak]\n"+
		"      fray act "+id+" diego speak\n"+
		"  pass (LOS-033) [pass]\n"+
		"      fray pass "+id+" diego", gm)

	david := cli(t, append([]string{"legal", id}, as("david")...)...)
	require.NotContains(t, david, "Le malfrat may:")
	require.Equal(t, strings.Contains(gm, "Diego may:"), strings.Contains(david, "Diego may:"))
	code, _, stderr := fray("david", "legal", id, "--for", "ruffian")
	require.NotZero(t, code)
	require.Contains(t, stderr, "david does not control Le malfrat")

	// The bot's way: the JSON response, its first action's command with its first target.
	var resp encounterv1.GetEncounterResponse
	require.NoError(t, protojson.Unmarshal([]byte(cli(t, append([]string{"legal", id, "--json"}, as("gm")...)...)), &resp))
	require.Len(t, resp.GetActions(), 1)
	first := resp.GetActions()[0]
	var attack *encounterv1.LegalCommand
	for _, l := range first.GetActions() {
		if l.GetAction().GetKey() == "attack" {
			attack = l
		}
	}
	require.NotNil(t, attack)
	cmd := attack.GetCommand()
	cmd.GetLoss().GetAttack().TargetId = attack.GetAction().GetChoices()[0].GetOptions()[0].GetValue()
	b, err := protojson.Marshal(cmd)
	require.NoError(t, err)
	cli(t, append([]string{"submit", id, "--command", string(b)}, as("gm")...)...)
	one := cli(t, append([]string{"legal", id, "--for", first.GetCombatantId()}, as("gm")...)...)
	require.NotContains(t, one, "May act now")
}
