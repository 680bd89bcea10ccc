package commands_test

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// Every registered system has its group in `fray help`; the members of Les Chants de Loss, the
// flat system, run under `fray loss` and, hidden, without it, with the same usage.
func TestSystemsRegisterTheirGroups(t *testing.T) {
	_, help, _ := clienttest.Run(t, "help")
	systems := client.Systems()
	require.Len(t, systems, 4)
	require.Equal(t, "loss", systems[0].ID, "the default system first")
	for _, s := range systems {
		require.Regexp(t, `(?m)^  `+s.Group+`  +`+regexp.QuoteMeta(s.Summary)+`$`, help)
	}
	loss, ok := client.SystemByID("loss")
	require.True(t, ok)
	require.True(t, loss.Flat)
	root := commands.Root()
	for _, m := range loss.Actions {
		code, grouped, errOut := clienttest.Run(t, "help", "loss", m.Name)
		require.Equal(t, 0, code, errOut)
		require.True(t, strings.HasPrefix(grouped, "usage: fray loss "+m.Name+" "), grouped)
		if m.Name == "grant" {
			continue // fray grant grants roles too
		}
		require.NotRegexp(t, `(?m)^  `+m.Name+` `, help, "the flat %s is hidden", m.Name)
		flat, _, err := root.Find([]string{m.Name})
		require.NoError(t, err)
		require.True(t, flat.Hidden, m.Name)
		code, alone, errOut := clienttest.Run(t, "help", m.Name)
		require.Equal(t, 0, code, errOut)
		require.Equal(t, strings.Replace(grouped, "fray loss "+m.Name, "fray "+m.Name, 1), alone)
	}
	code, _, errOut := clienttest.Run(t, "atack", "e", "a", "b")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `unknown subcommand "atack"; did you mean attack?`)
}

// A system the commands could not send, or one registered twice, is refused when registered:
// the per-system oneofs need an arm named after it.
func TestRegisterSystemRefusesWhatCannotWork(t *testing.T) {
	write := func(io.Writer, *encounterv1.EncounterState, *client.Names) {}
	text := func(string, string, int32, []string, string, string) string { return "" }
	require.PanicsWithValue(t, `client.RegisterSystem("chess"): fray.encounter.v1.Command has no arm "chess"`, func() {
		client.RegisterSystem(client.System{ID: "chess", Group: "chess", WriteState: write, LegalText: text,
			Options: "clock: 5m", Sheet: "{elo}", State: "the board"})
	})
	require.Panics(t, func() {
		client.RegisterSystem(client.System{ID: "ka", Group: "ka2", WriteState: write, LegalText: text,
			Options: "deck: standard", Sheet: "{spheres}", State: "its round"})
	}, "ka is registered by kacmd")
	require.Panics(t, func() { client.RegisterSystem(client.System{ID: "ka", Group: "ka"}) }, "no state table")
	require.Len(t, client.Systems(), 4, "none of these was kept")
}
