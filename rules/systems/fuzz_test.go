package systems_test

// Fuzz targets over every rule system, starting from the golden logs: sheets
// (CheckCombatant), commands (Decide) and log verification (Audit). Each keeps its seed corpus
// in testdata/fuzz/<name>/; scripts/test.sh runs each for a few seconds. To fuzz longer:
//
//	go test -run '^$' -fuzz '^FuzzDecide$' -fuzztime 5m ./systems/

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// golden is one golden log: its events, its revealed seed, and the state before each of its
// commands with who gave it.
type golden struct {
	events []*encounterv1.Event
	seed   []byte
	before []prepared
}

// prepared is a state a command is decided against.
type prepared struct {
	log    *golden
	at     int // events folded into st
	st     *encounterv1.EncounterState
	actors []string // its GM, its players, a stranger of the tenant, nobody
	cmd    *encounterv1.Command
	actor  int // the index in actors of who gave cmd
}

var (
	goldenOnce sync.Once
	goldens    []*golden
	states     []prepared
	goldenErr  error
)

// loadGoldens reads testdata/golden/*.jsonl and folds each to the state before each command.
func loadGoldens(tb testing.TB) ([]*golden, []prepared) {
	tb.Helper()
	goldenOnce.Do(func() { goldens, states, goldenErr = readGoldens() })
	if goldenErr != nil {
		tb.Fatal(goldenErr)
	}
	return goldens, states
}

func readGoldens() ([]*golden, []prepared, error) {
	reg := systems.Registry()
	paths, err := filepath.Glob("testdata/golden/*.jsonl")
	if err != nil || len(paths) == 0 {
		return nil, nil, errors.Join(err, errors.New("no golden logs in testdata/golden"))
	}
	var logs []*golden
	var all []prepared
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		g := &golden{}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			ev := &encounterv1.Event{}
			if err := protojson.Unmarshal(sc.Bytes(), ev); err != nil {
				f.Close()
				return nil, nil, err
			}
			g.events = append(g.events, ev)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, nil, err
		}
		st := &encounterv1.EncounterState{}
		for i, ev := range g.events {
			if cmd := ev.GetCommand(); cmd != nil {
				actors := []string{st.GetGameMaster()}
				for _, c := range st.GetCombatants() {
					actors = append(actors, c.GetController())
				}
				actors = append(actors, st.GetTenant()+"/stranger", "")
				p := prepared{log: g, at: i, st: proto.CloneOf(st), actors: actors, cmd: cmd}
				for k, a := range actors {
					if a == ev.GetActor() {
						p.actor = k
					}
				}
				g.before = append(g.before, p)
			}
			if err := reg.Evolve(st, ev); err != nil {
				return nil, nil, err
			}
		}
		g.seed = st.GetSeed()
		logs = append(logs, g)
		all = append(all, g.before...)
	}
	return logs, all, nil
}

// ruleError fails unless err is a refusal by the rules (a RuleError).
func ruleError(t *testing.T, what string, err error) {
	t.Helper()
	var re *engine.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("%s: %T %v is not a RuleError", what, err, err)
	}
}

// decideAndFold decides cmd against p's state as actor: a refusal is a RuleError, and what is
// decided folds.
func decideAndFold(t *testing.T, reg *engine.Registry, p prepared, cmd *encounterv1.Command, actor string) {
	t.Helper()
	st := proto.CloneOf(p.st)
	stream, err := dice.NewStreamScheme(dice.SchemeOf(st.GetDiceScheme()), p.log.seed, st.GetDiceOffset())
	if err != nil {
		t.Fatal(err)
	}
	env := engine.Env{Actor: actor, Tenant: st.GetTenant(), Seed: p.log.seed, Dice: stream}
	if rw := cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && rw.GetToSequence() < st.GetSequence() {
		if env.RewindState, err = reg.Fold(p.log.events[:rw.GetToSequence()]); err != nil {
			t.Fatal(err)
		}
	}
	events, err := reg.Decide(st, cmd, env)
	if err != nil {
		ruleError(t, "Decide", err)
		return
	}
	if !proto.Equal(st, p.st) {
		t.Fatalf("Decide changed the state it was given")
	}
	for _, ev := range events {
		if err := reg.Evolve(st, ev); err != nil {
			t.Fatalf("the rules decided %v, which does not fold: %v", ev, err)
		}
	}
}

// FuzzDecide decides an arbitrary command (bytes decoded as a Command), by one of its GM,
// its players, a stranger or nobody, against the state before any command of any golden log:
// never a panic, a refusal is a RuleError, and what is decided folds.
func FuzzDecide(f *testing.F) {
	_, all := loadGoldens(f)
	for i, p := range all {
		b, err := proto.Marshal(p.cmd)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint16(i), uint16(p.actor), b)
	}
	reg := systems.Registry()
	f.Fuzz(func(t *testing.T, which, who uint16, data []byte) {
		cmd := &encounterv1.Command{}
		if proto.Unmarshal(data, cmd) != nil {
			return
		}
		p := all[int(which)%len(all)]
		decideAndFold(t, reg, p, cmd, p.actors[int(who)%len(p.actors)])
	})
}

// FuzzCheckCombatant checks an arbitrary sheet (bytes decoded as a Combatant) with each
// system, against its golden encounter before its first combatant joined: never a panic, a
// refusal is a RuleError; the GM adding a sheet it accepts is refused by a RuleError or
// decided into events that fold.
func FuzzCheckCombatant(f *testing.F) {
	logs, _ := loadGoldens(f)
	var created []prepared // each system's encounter as created
	for _, g := range logs {
		created = append(created, g.before[1])
		for _, ev := range g.events {
			if c := ev.GetCombatantAdded().GetCombatant(); c != nil {
				b, err := proto.Marshal(c)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint16(len(created)-1), b)
			}
		}
	}
	reg := systems.Registry()
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		c := &encounterv1.Combatant{}
		if proto.Unmarshal(data, c) != nil {
			return
		}
		p := created[int(which)%len(created)]
		sys, err := reg.Lookup(p.st.GetRuleSystem(), p.st.GetRulesVersion())
		if err != nil {
			t.Fatal(err)
		}
		if err := sys.CheckCombatant(proto.CloneOf(p.st), c); err != nil {
			ruleError(t, "CheckCombatant", err)
			return
		}
		add := &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}
		decideAndFold(t, reg, p, add, p.st.GetGameMaster())
	})
}

// shortLog is the golden log's first commands up to event n (at least), then its end: a
// short log that audits, as a seed the fuzzer mutates quickly.
func shortLog(g *golden, n int) []*encounterv1.Event {
	for n < len(g.events) && g.events[n].GetCommand() == nil {
		n++
	}
	out := slices.Clone(g.events[:n])
	end := proto.CloneOf(g.events[len(g.events)-1])
	end.Sequence = uint64(n + 1)
	return append(out, end)
}

// FuzzAudit audits an arbitrary log (bytes decoded as an EventBatch): never a panic; a log
// the audit passes folds. Its seeds are short logs that audit (a fuzzer minimizes slowly
// what is long).
func FuzzAudit(f *testing.F) {
	logs, _ := loadGoldens(f)
	reg := systems.Registry()
	for _, g := range logs {
		for _, n := range []int{1, 4, 12} {
			events := shortLog(g, n)
			if _, err := reg.Audit(events); err != nil {
				f.Fatalf("%s, %d events: %v", g.events[0].GetRuleSystem(), len(events), err)
			}
			b, err := proto.Marshal(&encounterv1.EventBatch{Events: events})
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		batch := &encounterv1.EventBatch{}
		if proto.Unmarshal(data, batch) != nil {
			return
		}
		if _, err := reg.Audit(batch.GetEvents()); err != nil {
			return
		}
		if _, err := reg.Fold(batch.GetEvents()); err != nil {
			t.Fatalf("the audit passes a log that does not fold: %v", err)
		}
	})
}
