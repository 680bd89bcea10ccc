package encounter_test

import (
	"context"
	"crypto/sha256"
	"io"
	"strconv"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// withToken is ctx carrying who's token (as(who) does, on a context of its own).
func withToken(ctx context.Context, who string) context.Context {
	md, _ := metadata.FromOutgoingContext(as(who))
	return metadata.NewOutgoingContext(ctx, md)
}

// narratedDuel plays, on JetStream, a duel between david's Diego and a ruffian the GM hides
// from the start, whose numbers (Puissance 9, Arme de mêlée 7) show in its attacks' rolls
// only to the GM. It returns the client, the encounter and its last sequence.
func narratedDuel(t *testing.T, events uint64) (encounterv1.EncounterServiceClient, string, uint64) {
	t.Helper()
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-narrated-duel"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: js, SnapshotEvery: 8})
	id := create(t, c)
	ruffian := fighter("ruffian", "gm", 6, sword(3))
	ruffian.Hidden = true
	ruffian.GetLoss().Traits["Puissance"] = 9
	ruffian.GetLoss().Talents["Arme de mêlée"] = 7
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), ruffian} {
		f.GetLoss().Armour = 12 // a long duel
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	for {
		if r := step(t, c, id); r.GetState().GetSequence() >= events {
			return c, id, r.GetState().GetSequence()
		}
	}
}

// exported is the encounter's log as who receives it from ExportLog in lang.
func exported(t *testing.T, c encounterv1.EncounterServiceClient, who, id, lang string) ([]*encounterv1.Event, []string) {
	t.Helper()
	s, err := c.ExportLog(as(who), &encounterv1.ExportLogRequest{EncounterId: id, Language: lang})
	require.NoError(t, err)
	var evs []*encounterv1.Event
	var lines []string
	for {
		r, err := s.Recv()
		if err == io.EOF {
			return evs, lines
		}
		require.NoError(t, err)
		evs, lines = append(evs, r.GetEvent()), append(lines, r.GetNarration())
	}
}

// watched is what a watch of who in lang from sequence from receives up to sequence upTo.
func watched(t *testing.T, c encounterv1.EncounterServiceClient, who, id, lang string, from, upTo uint64) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(as(who))
	defer cancel()
	ws, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: from, Language: lang})
	require.NoError(t, err)
	var lines []string
	for want := from; want <= upTo; want++ {
		r, err := ws.Recv()
		require.NoError(t, err)
		require.Equal(t, want, r.GetEvent().GetSequence())
		lines = append(lines, r.GetNarration())
	}
	return lines
}

// Every read call narrates in English or French, from the events as the caller receives them:
// the lines are those the rules' narrator writes of the caller's view, a watch from a later
// sequence narrates as one from the start would, and the hidden ruffian's numbers reach the GM's
// text only.
func TestReadsAreNarratedInTheLanguageAskedAsTheCallerSeesThem(t *testing.T) {
	c, id, last := narratedDuel(t, 24)
	reg := systems.Registry()
	lines := map[string]map[string][]string{} // who → lang → ExportLog's lines
	for _, who := range []string{"gm", "david"} {
		lines[who] = map[string][]string{}
		for _, lang := range []string{"en", "fr"} {
			evs, got := exported(t, c, who, id, lang)
			require.Len(t, got, int(last))
			tag, err := narrate.Parse(lang)
			require.NoError(t, err)
			n := reg.Narrator(tag)
			for i, ev := range evs {
				require.Equal(t, n.Narrate(ev), got[i], "%s %s: the rules' narration of the event sent", who, lang)
				require.True(t, strings.HasPrefix(got[i], "#"+strconv.FormatUint(ev.GetSequence(), 10)+" "), got[i])
			}
			lines[who][lang] = got
		}
		evs, none := exported(t, c, who, id, "")
		require.Len(t, evs, int(last))
		require.Empty(t, strings.Join(none, ""), "no language, no narration")
	}

	t.Run("watch", func(t *testing.T) {
		for _, lang := range []string{"en", "fr"} {
			for _, from := range []uint64{1, 2, 5, 11, last} {
				require.Equal(t, lines["david"][lang][from-1:], watched(t, c, "david", id, lang, from, last), "%s from %d", lang, from)
			}
		}
		// Live: the next command's events reach every watcher narrated in its language, the
		// watchers of one view and language share the hub's records.
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		watchers := map[string]grpc.ServerStreamingClient[encounterv1.WatchEncounterResponse]{}
		for _, w := range []string{"david en", "david fr", "gm en", "david en again"} {
			who, lang, _ := strings.Cut(w, " ")
			lang, _, _ = strings.Cut(lang, " ")
			ws, err := c.WatchEncounter(withToken(ctx, who), &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: last + 1, Language: lang})
			require.NoError(t, err)
			_, err = ws.Header() // under way: the next event reaches it
			require.NoError(t, err)
			watchers[w] = ws
		}
		step(t, c, id)
		got := map[string][]string{}
		for w, ws := range watchers {
			r, err := ws.Recv()
			require.NoError(t, err)
			require.Equal(t, last+1, r.GetEvent().GetSequence())
			got[w] = []string{r.GetNarration()}
		}
		for _, who := range []string{"gm", "david"} {
			for _, lang := range []string{"en", "fr"} {
				_, all := exported(t, c, who, id, lang)
				lines[who][lang] = all
			}
		}
		require.Equal(t, lines["david"]["en"][last:last+1], got["david en"])
		require.Equal(t, lines["david"]["en"][last:last+1], got["david en again"])
		require.Equal(t, lines["david"]["fr"][last:last+1], got["david fr"])
		require.Equal(t, lines["gm"]["en"][last:last+1], got["gm en"])
	})

	t.Run("get", func(t *testing.T) {
		for _, who := range []string{"gm", "david"} {
			for _, lang := range []string{"en", "fr"} {
				all := lines[who][lang]
				for _, at := range []uint64{0, 1, 2, 9, uint64(len(all)) - 1} {
					r, err := c.GetEncounter(as(who), &encounterv1.GetEncounterRequest{EncounterId: id, AtSequence: at, Language: lang})
					require.NoError(t, err)
					want := at
					if at == 0 {
						want = uint64(len(all))
					}
					require.Equal(t, want, r.GetState().GetSequence())
					require.Equal(t, want, r.GetNarrationSequence())
					require.Equal(t, all[want-1], r.GetNarration(), "%s %s at %d", who, lang, at)
					plain, err := c.GetEncounter(as(who), &encounterv1.GetEncounterRequest{EncounterId: id, AtSequence: at})
					require.NoError(t, err)
					require.Equal(t, r.GetStateSha256(), plain.GetStateSha256(), "the same state with a language or without")
					require.Empty(t, plain.GetNarration())
					require.Zero(t, plain.GetNarrationSequence())
				}
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		for _, who := range []string{"gm", "david"} {
			require.NotEqual(t, lines[who]["en"], lines[who]["fr"], "French is not English")
		}
		gm, player := strings.Join(lines["gm"]["en"], "\n"), strings.Join(lines["david"]["en"], "\n")
		require.Contains(t, gm, "9+7+d10", "the GM sees the ruffian's numbers")
		require.NotContains(t, player, "9+7", "the player does not, even in the text")
		require.NotContains(t, strings.Join(lines["david"]["fr"], "\n"), "9+7")
	})
}

// A language narration is not written in is InvalidArgument with a BadRequest naming the
// field, on each read; "" is no narration, and any English or French is served.
func TestANarrationLanguageNotServedIsInvalidArgument(t *testing.T) {
	c, id, _ := narratedDuel(t, 6)
	for _, lang := range []string{"de", "not a tag!", "zh-Hant"} {
		_, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, Language: lang})
		v := requireBadRequest(t, err, "language")
		require.Contains(t, v.GetDescription(), "en (English) or fr (French)")

		ws, err := c.WatchEncounter(as("gm"), &encounterv1.WatchEncounterRequest{EncounterId: id, Language: lang})
		require.NoError(t, err)
		_, err = ws.Recv()
		requireBadRequest(t, err, "language")

		es, err := c.ExportLog(as("gm"), &encounterv1.ExportLogRequest{EncounterId: id, Language: lang})
		require.NoError(t, err)
		_, err = es.Recv()
		requireBadRequest(t, err, "language")
	}
	for _, lang := range []string{"en-GB", "fr-CA", "FR"} {
		r, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, Language: lang})
		require.NoError(t, err, lang)
		require.NotEmpty(t, r.GetNarration())
	}
}

// Watchers of one view in one language share the narration of each live event: the hub writes
// it once per class of viewer and language, not once per watcher; each receives the line
// ExportLog gives the same caller, and a watcher that asked for no language gets none.
func TestLiveNarrationIsWrittenOncePerViewAndLanguage(t *testing.T) {
	const each, steps = 10, 4
	s := serveWatches(t, jetStream(t), encounter.Options{MaxWatchesPerPrincipal: 5 * each})
	c := s.c
	id := create(t, c)
	ruffian := fighter("ruffian", "gm", 6, sword(3))
	ruffian.Hidden = true
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), ruffian} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	r, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	seq := r.GetState().GetSequence()

	type watch struct {
		who, lang string
		from      uint64
		ws        grpc.ServerStreamingClient[encounterv1.WatchEncounterResponse]
	}
	var watches []*watch
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for _, k := range []struct {
		who, lang string
		from      uint64
	}{{"david", "en", seq + 1}, {"david", "fr", seq + 1}, {"gm", "en", seq + 1}, {"david", "", seq + 1}, {"david", "en", 2}} {
		for range each {
			ws, err := c.WatchEncounter(withToken(ctx, k.who), &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: k.from, Language: k.lang})
			require.NoError(t, err)
			_, err = ws.Header()
			require.NoError(t, err)
			watches = append(watches, &watch{who: k.who, lang: k.lang, from: k.from, ws: ws})
		}
	}
	before := s.svc.WatchNarrations()
	var last uint64
	for range steps {
		last = step(t, c, id).GetState().GetSequence()
	}
	for _, w := range watches {
		_, want := exported(t, c, w.who, id, w.lang)
		var got []string
		for n := w.from; n <= last; n++ {
			r, err := w.ws.Recv()
			require.NoError(t, err)
			require.Equal(t, n, r.GetEvent().GetSequence())
			got = append(got, r.GetNarration())
		}
		require.Equal(t, want[w.from-1:last], got, "%s %q from %d", w.who, w.lang, w.from)
	}
	// Three (view, language) pairs narrate live: david's in English and in French, the GM's.
	require.Equal(t, 3*(last-seq), s.svc.WatchNarrations()-before)
}
