package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// botDuel is a Les Chants de Loss duel on JetStream between david's Diego (side pcs) and the
// GM's ruffian (side foes), started; it returns the client and the encounter.
func botDuel(t *testing.T) (encounterv1.EncounterServiceClient, string) {
	t.Helper()
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-bot-duel"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }})
	id := create(t, c)
	diego, ruffian := fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))
	diego.Side, ruffian.Side = "pcs", "foes"
	for _, f := range []*encounterv1.Combatant{diego, ruffian} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	return c, id
}

// botChoices is what a bot that takes the first thing offered chooses for a legal action:
// each required choice, by its last name, its first option as a string (a number: its least).
func botChoices(a *encounterv1.LegalCommand) map[string]string {
	choices := map[string]string{}
	for _, ch := range a.GetAction().GetChoices() {
		if !ch.GetRequired() {
			continue
		}
		name := ch.GetField()[strings.LastIndex(ch.GetField(), ".")+1:]
		choices[name] = strconv.Itoa(int(ch.GetMin()))
		if len(ch.GetOptions()) > 0 {
			choices[name] = ch.GetOptions()[0].GetValue()
		}
	}
	return choices
}

// botPick is the action a bot takes: an attack when it may, else the first action offered
// (a reaction when one waits).
func botPick(g *encounterv1.GetEncounterResponse) *encounterv1.LegalCommand {
	var first *encounterv1.LegalCommand
	for _, ca := range g.GetActions() {
		for _, a := range ca.GetActions() {
			if first == nil {
				first = a
			}
			if a.GetCommand().GetLoss().GetAttack() != nil && len(g.GetAwaitingReaction()) == 0 {
				return a
			}
		}
	}
	return first
}

// A bot plays a duel to its end through the API alone, as issue 28 asks: it reads what it may
// do (legal_for_all), submits a legal action's command with its choices as strings, reads the
// French narration of its own command in the answer, and stops when the state says the fight
// is over; the narration of the event that ended it says so, in the Submit's answer, in
// GetEncounter and in a watch, which marks where it is caught up and then goes on live.
func TestABotPlaysADuelToItsEndThroughTheAPI(t *testing.T) {
	c, id := botDuel(t)
	began := time.Now()
	var last *encounterv1.SubmitResponse
	steps := 0
	for ; steps < 1000; steps++ {
		g, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
		require.NoError(t, err)
		if g.GetState().GetFightOver() {
			require.Len(t, g.GetState().GetSidesStanding(), 1, "one side stands when it is over")
			break
		}
		require.Equal(t, []string{"pcs", "foes"}, g.GetState().GetSidesStanding(), "both sides stand while the fight goes on")
		a := botPick(g)
		require.NotNil(t, a, "someone may act in a fight not over (step %d)", steps)
		last, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: a.GetCommand(), Choices: botChoices(a), Language: "fr"})
		require.NoError(t, err, "step %d: %s %v", steps, a.GetAction().GetKey(), botChoices(a))
		require.Len(t, last.GetNarration(), len(last.GetEvents()), "a line per event")
		for i, ev := range last.GetEvents() {
			require.True(t, strings.HasPrefix(last.GetNarration()[i], fmt.Sprintf("#%d ", ev.GetSequence())), last.GetNarration()[i])
		}
	}
	t.Logf("the duel ended after %d commands, in %s", steps, time.Since(began))
	require.True(t, last.GetState().GetFightOver(), "the Submit that ended the fight says so in its state")
	winner := last.GetState().GetSidesStanding()
	require.Len(t, winner, 1)
	lines := last.GetNarration()
	var ended uint64
	for i, l := range lines {
		if strings.Contains(l, "le combat est fini") {
			require.Zero(t, ended, "said once")
			ended = last.GetEvents()[i].GetSequence()
			require.Contains(t, l, "seul le camp "+winner[0]+" tient encore debout")
		}
	}
	require.NotZero(t, ended, "the French narration of the command that ended the fight says so: %q", lines)

	// GetEncounter says it too, and narrates the last event the same way when it ended it.
	g, err := c.GetEncounter(as("david"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true, Language: "en"})
	require.NoError(t, err)
	require.True(t, g.GetState().GetFightOver())
	require.Equal(t, winner, g.GetState().GetSidesStanding())
	if g.GetNarrationSequence() == ended {
		require.Contains(t, g.GetNarration(), "; the fight is over: only side "+winner[0]+" still stands")
	}

	// A watch from the start, in English, with the caught-up marker: the same event says it,
	// and only it; then the marker; then the GM's next command, live.
	ctx, cancel := context.WithTimeout(as("david"), 2*time.Minute)
	defer cancel()
	ws, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, Language: "en", MarkCaughtUp: true})
	require.NoError(t, err)
	seq := last.GetState().GetSequence()
	for want := uint64(1); want <= seq; want++ {
		r, err := ws.Recv()
		require.NoError(t, err)
		require.False(t, r.GetCaughtUp())
		require.Equal(t, want, r.GetEvent().GetSequence())
		require.Equal(t, want == ended, strings.Contains(r.GetNarration(), "the fight is over"), "#%d: %s", want, r.GetNarration())
	}
	r, err := ws.Recv()
	require.NoError(t, err)
	require.True(t, r.GetCaughtUp(), "after the events recorded, the marker: %v", r)
	require.Nil(t, r.GetEvent())
	end, err := c.EndEncounter(as("gm"), &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "Le malfrat est à terre"})
	require.NoError(t, err)
	r, err = ws.Recv()
	require.NoError(t, err)
	require.Equal(t, end.GetEvents()[0].GetSequence(), r.GetEvent().GetSequence(), "the live event after the marker")
	require.NotContains(t, r.GetNarration(), "the fight is over", "an encounter ended is no fight going on")
}

// Submit fills a legal action's choices from strings, in the field's type: a target by its
// short name or its whole path, an enum list by short forms or names; a choice it cannot fill
// is InvalidArgument with a BadRequest naming the choice, and nothing is recorded.
func TestSubmitFillsChoicesFromStrings(t *testing.T) {
	c, id := botDuel(t)
	g, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
	require.NoError(t, err)
	attacker := g.GetMayAct()[0]
	var attack *encounterv1.LegalCommand
	for _, ca := range g.GetActions() {
		for _, a := range ca.GetActions() {
			if ca.GetCombatantId() == attacker && a.GetCommand().GetLoss().GetAttack() != nil && attack == nil {
				attack = a
			}
		}
	}
	require.NotNil(t, attack)
	target := map[string]string{"diego": "ruffian", "ruffian": "diego"}[attacker]
	seq := g.GetState().GetSequence()
	for _, bad := range []struct {
		choices     map[string]string
		field, says string
	}{
		{map[string]string{"target_id": target, "exploits": "many"}, "choices[exploits]", `"many" is not one of`},
		{map[string]string{"target_id": target, "fursa": "lots"}, "choices[fursa]", "not a whole number"},
		{map[string]string{"target": target}, "choices[target]", "no field of a loss.attack command is so named"},
		{map[string]string{"loss.react.reaction": "dodge"}, "choices[loss.react.reaction]", "no field of a loss.attack command"},
		{map[string]string{"target_id": target, "unseen": "maybe"}, "choices[unseen]", "not true or false"},
	} {
		_, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack.GetCommand(), Choices: bad.choices})
		v := requireBadRequest(t, err, bad.field)
		require.Contains(t, v.GetDescription(), bad.says)
	}
	g, err = c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, seq, g.GetState().GetSequence(), "nothing recorded")

	r, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack.GetCommand(),
		Choices: map[string]string{"loss.attack.target_id": target, "exploits": "extra-damage, EXPLOIT_EFFECT_EXTRA_DAMAGE", "fursa": "0", "unseen": "false"}})
	require.NoError(t, err)
	var declared *lossv1.Attack
	for _, ev := range r.GetEvents() {
		if a := ev.GetCommand().GetLoss().GetAttack(); a != nil {
			declared = a
		}
	}
	require.Equal(t, target, declared.GetTargetId())
	require.Equal(t, []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE, lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE}, declared.GetExploits())
	require.Empty(t, r.GetNarration(), "no language, no narration")
}
