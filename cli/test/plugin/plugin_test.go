// Package plugin_test shows issue 27's "Done when": a rule system of its own package (Stick
// fight, stickfight_test.go: one action, one event, a tracker) is registered by one line and
// then plays through the gRPC API, the CLI and the page's tracker with no other file edited.
package plugin_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// patience bounds every wait: generous, so that a busy machine slows the test but does not
// fail it. How long things took is logged, never asserted.
const patience = 2 * time.Minute

// TestAPluginSystemPlaysEverywhere: with the services of `fray dev` in process, Stick fight is
// created, joined and started over gRPC; Aïko pokes Bertil from the pre-filled command of her
// legal action (gRPC), Bertil pokes Cosme from `fray legal --json` and `fray submit` (the CLI,
// which has no code of the system), Cosme pokes Aïko from his button on the page (Chromium).
// Each time the damage is the die the event records, and the tracker — the API's, `fray
// state`'s, the page's — shows the hit points it leaves. Bertil's player commands him and no
// one else, and reads nothing of Aïko once the GM hides her, nor any dice position; at the end every recorded roll is
// derived again from the revealed seed, and the audit decides the log again.
func TestAPluginSystemPlaysEverywhere(t *testing.T) {
	require.Contains(t, systems.IDs(), stickID, "registered by its one line")
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")
	api := dial(t, addr, gmToken)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()

	// ---- gRPC: created, joined, started.
	opts, err := structpb.NewStruct(map[string]any{"hit_points": 30})
	require.NoError(t, err)
	create := &encounterv1.CreateEncounterRequest{CommandId: "create-la-lande", Encounter: &encounterv1.CreateEncounter{
		Name: "La lande", RuleSystem: stickID, Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Plugin{Plugin: opts}},
	}}
	began := time.Now()
	created, err := api.CreateEncounter(ctx, create)
	for status.Code(err) == codes.Unavailable && ctx.Err() == nil { // the event log not reached yet
		time.Sleep(50 * time.Millisecond)
		created, err = api.CreateEncounter(ctx, create)
	}
	require.NoError(t, err)
	t.Logf("created %v after the server listened", time.Since(began).Round(time.Millisecond))
	id := created.GetEncounterId()
	for _, c := range []struct {
		id, name string
		sheet    map[string]any
	}{{"aiko", "Aïko", map[string]any{}}, {"bertil", "Bertil", map[string]any{"hit_points": 20}}, {"cosme", "Cosme", map[string]any{}}} {
		sheet, err := structpb.NewStruct(c.sheet)
		require.NoError(t, err)
		_, err = api.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: &encounterv1.Combatant{
			Id: c.id, Name: c.name, Sheet: &encounterv1.Combatant_Plugin{Plugin: sheet},
		}})
		require.NoError(t, err, c.id)
	}
	// A sheet the system cannot read is refused with its words.
	bad, err := structpb.NewStruct(map[string]any{"hitpoints": 3})
	require.NoError(t, err)
	_, err = api.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: &encounterv1.Combatant{
		Id: "dana", Name: "Dana", Sheet: &encounterv1.Combatant_Plugin{Plugin: bad},
	}})
	require.ErrorContains(t, err, `Stick fight cannot read the sheet of Dana: json: unknown field "hitpoints"`)
	_, err = api.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	got := get(t, api, id)
	require.Equal(t, "Turn of Aïko", got.GetTracker().GetTurn())
	require.Equal(t, []string{"hit points"}, got.GetTracker().GetHeader())
	require.Equal(t, []string{"30/30", "20/20", "30/30"}, cells(got))
	cmd := legal(t, got, "aiko", "poke")
	require.NoError(t, engine.Fill(cmd, "plugin.poke.target_id", "bertil"))
	sub, err := api.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: cmd})
	require.NoError(t, err)
	require.Len(t, sub.GetEvents(), 1, "one event: poked")
	d := damage(t, sub.GetEvents()[0], "aiko", "bertil")
	got = get(t, api, id)
	require.Equal(t, []string{"30/30", fmt.Sprintf("%d/20", 20-d), "30/30"}, cells(got), "Bertil's hit points after %d damage", d)
	require.Equal(t, "Turn of Bertil", got.GetTracker().GetTurn())
	t.Logf("gRPC: Aïko poked Bertil for %d", d)

	// Access and redaction, which the service does by the engine's contract: Pat, Bertil's
	// player, commands Bertil and no one else; the GM hides Aïko, whose numbers Pat no longer
	// reads (her sheet, her tracker row, her hit points in the state); no dice position reaches
	// Pat.
	for _, c := range []*encounterv1.Command{
		{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: "pat", Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"bertil"}}}},
		{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "aiko", Hidden: true}}},
	} {
		_, err = api.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: c})
		require.NoError(t, err)
	}
	pat := dial(t, addr, fray(t, "token", "--addr", addr, "--as", "pat"))
	seen := get(t, pat, id)
	require.Equal(t, []string{"", fmt.Sprintf("%d/20", 20-d), "30/30"}, cells(seen), "Pat reads no number of hidden Aïko")
	for _, c := range seen.GetState().GetCombatants() {
		require.Equal(t, c.GetId() != "aiko", c.GetSheet() != nil, "%s's sheet, as Pat reads it", c.GetId())
	}
	var patState stickState
	require.NoError(t, engine.PluginOf(seen.GetState().GetPlugin(), &patState))
	require.NotContains(t, patState.Left, "aiko", "Aïko's hit points are withheld from Pat")
	require.Contains(t, patState.Left, "cosme")
	require.Equal(t, []string{"bertil"}, seen.GetMayAct(), "Bertil's turn")
	cosme := proto.CloneOf(cmd)
	cosme.GetPlugin().GetFields()["poke"].GetStructValue().GetFields()["combatant_id"] = structpb.NewStringValue("cosme")
	_, err = pat.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: cosme})
	require.Equal(t, codes.PermissionDenied, status.Code(err), "Pat commands Bertil only: %v", err)
	for _, ev := range exportLog(t, pat, id) {
		for _, r := range engine.Rolls(ev) {
			require.Zero(t, r.GetOffset(), "a dice position is the GM's")
			require.NotEmpty(t, r.GetFaces(), "the faces are everyone's")
		}
	}

	// ---- The CLI, which has no code of Stick fight: fray legal prints the pre-filled command
	// as a fray submit line; its required choice filled in as a person would, it is sent as it
	// is; fray state prints the tracker the server drew.
	listed := fray(t, "legal", id, "--addr", addr, "--as", "gm", "--for", "bertil")
	t.Logf("fray legal:\n%s", listed)
	require.Contains(t, listed, "poke — 1d6 damage: 1, targets aiko, cosme [poke]")
	require.Contains(t, listed, "plugin.poke.target_id* (whom to poke): aiko (Aïko), cosme (Cosme)")
	line := regexp.MustCompile(`fray submit (\S+) --command '([^']*)'`).FindStringSubmatch(listed)
	require.NotNil(t, line, "fray legal prints the command to submit")
	require.Equal(t, id, line[1])
	filled := regexp.MustCompile(`"target_id":\s*""`).ReplaceAllString(line[2], `"target_id":"cosme"`)
	require.NotEqual(t, line[2], filled, "the choice left open in the pre-filled command: %s", line[2])
	said := fray(t, "submit", id, "--addr", addr, "--as", "gm", "--command", filled)
	// fray create and fray add take its house rules and sheet as its JSON.
	dir := t.TempDir()
	house, sheet := filepath.Join(dir, "house.yaml"), filepath.Join(dir, "dana.yaml")
	require.NoError(t, os.WriteFile(house, []byte("hit_points: 8\n"), 0o600))
	require.NoError(t, os.WriteFile(sheet, []byte("id: dana\nname: Dana\nplugin: {}\n"), 0o600))
	other := fray(t, "create", "--name", "Le gué", "--system", stickID, "--options", house, "--addr", addr, "--as", "gm")
	fray(t, "add", other, sheet, "--addr", addr, "--as", "gm")
	require.Equal(t, []string{"8/8"}, cells(get(t, api, other)), "Dana's hit points: the house rules' 8")
	events := exportLog(t, api, id)
	d2 := damage(t, events[len(events)-1], "bertil", "cosme")
	require.Contains(t, said, fmt.Sprintf("Bertil pokes Cosme: 1d6 [%d] = %d damage", d2, d2), "the CLI narrates the event")
	state := fray(t, "state", id, "--addr", addr, "--as", "gm")
	require.Contains(t, state, "Turn of Cosme")
	require.Regexp(t, fmt.Sprintf(`Cosme\s.*%d/30`, 30-d2), state, "fray state: Cosme's hit points after %d damage", d2)
	t.Logf("CLI: Bertil poked Cosme for %d", d2)

	// ---- The page: Cosme's button, the target chosen in its form; the tracker shows Aïko's
	// hit points after the die the event records.
	tab := browser(t)
	run(t, tab, chromedp.Navigate(page+"#/encounter/"+id+"?token="+gmToken))
	button := `#actions button.action[data-key="poke"][data-combatant="cosme"]`
	// Settled first: the state and the log shown up to the encounter's last event, so that no
	// refresh draws the buttons again under the clicks.
	last := get(t, api, id).GetState().GetSequence()
	poll(t, tab, fmt.Sprintf(`(() => { const l = document.querySelector('#log li:last-child'); return document.body.dataset.sequence === '%d' && l && l.dataset.sequence === '%d' ? 'yes' : ''; })()`, last, last))
	run(t, tab, chromedp.WaitVisible(chromedp.CSS(button)))
	require.Equal(t, "30/30", text(t, tab, "#c-aiko .tracks dd"))
	// Its cost in the system's unit, from the descriptor ListRulesets gives.
	require.Equal(t, "cost 1 action", text(t, tab, button+" .cost"))
	// The clicks in one script, each element found when it is clicked: a refresh of the page
	// may draw its buttons again at any time, and a node found before it would be gone.
	clicked := time.Now()
	require.Equal(t, "sent", eval(t, tab, `(() => {
		document.querySelector('`+button+`').click(); // opens the form of its choice
		const s = document.querySelector('#choices select[data-field="plugin.poke.target_id"]');
		if (!s) return 'no form';
		s.value = 'aiko';
		s.dispatchEvent(new Event('change', { bubbles: true }));
		document.getElementById('choices-submit').click();
		return 'sent';
	})()`))
	said = poll(t, tab, `Array.from(document.querySelectorAll('#log li .text'), e => e.textContent).find(l => l.includes('Cosme pokes Aïko')) || ''`)
	events = exportLog(t, api, id)
	d3 := damage(t, events[len(events)-1], "cosme", "aiko")
	require.Contains(t, said, fmt.Sprintf("[%d] = %d damage", d3, d3), "the page's log narrates the event")
	want := fmt.Sprintf("%d/30", 30-d3)
	shown := poll(t, tab, fmt.Sprintf(`(() => { const e = document.querySelector('#c-aiko .tracks dd'); return e && e.textContent === %q ? e.textContent : ''; })()`, want))
	require.Equal(t, "hit points", text(t, tab, "#c-aiko .tracks dt"))
	t.Logf("page: Cosme poked Aïko for %d; the tracker showed %s %v after the click", d3, shown, time.Since(clicked).Round(time.Millisecond))

	// ---- Ended: every roll derived again from the revealed seed, the log audited.
	_, err = api.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "done"})
	require.NoError(t, err)
	events = exportLog(t, api, id)
	var seed []byte
	var rolls []*dicev1.Roll
	for _, ev := range events {
		if e := ev.GetEncounterEnded(); e != nil {
			seed = e.GetSeed()
		}
		rolls = append(rolls, engine.Rolls(ev)...)
	}
	require.Len(t, rolls, 3, "the engine finds the rolls in the system's JSON")
	for _, r := range rolls {
		require.NoError(t, dice.Verify(seed, r))
	}
	report, err := systems.Registry().Audit(events)
	require.NoError(t, err)
	require.Equal(t, 3, report.Rolls, "the audit verified the three pokes' dice: %+v", report)

	// The engine's checks of a system, on this fight: the log folds to the state the service
	// shows the GM; in each state, every legal command of every combatant is taken by the
	// rules, each choice's every option filled in its JSON.
	reg := systems.Registry()
	folded, err := reg.Fold(events)
	require.NoError(t, err)
	require.True(t, proto.Equal(reg.View(folded, engine.Viewer{SeesAll: true}), get(t, api, id).GetState()), "the log folds to the state the service holds")
	st := &encounterv1.EncounterState{}
	keys := map[string]int{}
	for _, ev := range events {
		require.NoError(t, reg.Evolve(st, ev))
		for k, n := range enginetest.CheckLegal(t, reg, st) {
			keys[k] += n
		}
		require.Equal(t, stickID, ev.GetRuleSystem())
		if ev.GetPlugin() != nil {
			require.Equal(t, "plugin.poked", enginetest.KindOf(ev))
		}
	}
	require.Equal(t, map[string]int{"poke": 6}, keys, "one poke offered in each state in play: after the start, the role granted, Aïko hidden and each of the three pokes")

	noOtherFile(t)
}

// noOtherFile checks that no file of the repository outside this folder names the system:
// registering it edited no other (a file of a clean clone, or one not yet committed).
func noOtherFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git to list the repository's files")
	}
	top := gitOut(t, "rev-parse", "--show-toplevel")
	here := gitOut(t, "rev-parse", "--show-prefix") // this folder, from top, with its slash
	files := strings.Fields(gitOut(t, "-C", top, "grep", "-l", "-I", "--untracked", "-w", stickID))
	require.NotEmpty(t, files, "at least this folder names it")
	for _, f := range files {
		require.True(t, strings.HasPrefix(f, here), "%s names the test's system: a system of its own package takes no edit elsewhere", f)
	}
	t.Logf("the files naming %s: %v, all in %s", stickID, files, here)
}

func gitOut(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", args...).Output()
	require.NoError(t, err, "git %v", args)
	return strings.TrimSpace(string(out))
}
