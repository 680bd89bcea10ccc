package systems_test

// Benchmarks of each rule system's hot path: one typical command decided and folded
// (Registry.ResolveWith: the dice stream positioned, Decide, one clone, Evolve) on a mid-fight
// state. Each reports cpu-ns/op besides ns/op: the process's CPU time per op. benchstat-friendly:
//
//	go test ./systems/ -run '^$' -bench . -benchmem -count 5 > new.txt && benchstat old.txt new.txt

import (
	"crypto/sha256"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
)

// step is one command of a benchmark, with who gives it.
type step struct {
	actor string
	cmd   *encounterv1.Command
}

// benchSteps resolves each step in turn from st, b.N times, and fails if any is refused.
func benchSteps(b *testing.B, reg *engine.Registry, st *encounterv1.EncounterState, seed []byte, steps []step) {
	b.Helper()
	run := func() error {
		cur := st
		for _, s := range steps {
			_, next, err := reg.ResolveWith(cur, s.cmd, engine.Env{Actor: s.actor, Tenant: st.GetTenant(), Seed: seed})
			if err != nil {
				return err
			}
			cur = next
		}
		return nil
	}
	if err := run(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0, ok := processCPU()
	b.ResetTimer()
	for range b.N {
		_ = run()
	}
	b.StopTimer()
	if cpu1, ok1 := processCPU(); ok && ok1 {
		// The process's CPU time (GC included) per op: less sensitive than ns/op to other
		// work on a shared machine, which stretches wall time without using this process's CPU.
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// goldenSteps finds, in the golden log of system, the first command that first picks out, and
// returns the state before it with it and the n-1 commands after it.
func goldenSteps(b *testing.B, system string, first func(*encounterv1.Command) bool, n int) (*encounterv1.EncounterState, []byte, []step) {
	b.Helper()
	logs, _ := loadGoldens(b)
	for _, g := range logs {
		if g.events[0].GetRuleSystem() != system {
			continue
		}
		for i, p := range g.before {
			if !first(p.cmd) || i+n > len(g.before) {
				continue
			}
			var steps []step
			for _, q := range g.before[i : i+n] {
				steps = append(steps, step{q.actors[q.actor], q.cmd})
			}
			return p.st, g.seed, steps
		}
	}
	b.Fatalf("no such command in the golden log of %s", system)
	return nil, nil, nil
}

// BenchmarkLossAttackDodge: a Loss attack, then the defender's dodge, which rolls the damage
// (P5 of issue 13), with 2, 4 (the golden fight) and 6 combatants.
func BenchmarkLossAttackDodge(b *testing.B) {
	for _, n := range []int{2, 6} {
		b.Run(fmt.Sprintf("combatants=%d", n), func(b *testing.B) {
			reg, st, seed, steps := lossFight(b, n)
			benchSteps(b, reg, st, seed, steps)
		})
	}
	b.Run("golden", func(b *testing.B) {
		st, seed, steps := goldenSteps(b, "loss", func(c *encounterv1.Command) bool {
			return c.GetLoss().GetAttack() != nil
		}, 2)
		if steps[1].cmd.GetLoss().GetReact() == nil {
			b.Fatal("the golden attack is not followed by a reaction")
		}
		benchSteps(b, systems.Registry(), st, seed, steps)
	})
}

// BenchmarkFeerieAdvance: the countdown moves on to the next rank, whose actions resolve.
func BenchmarkFeerieAdvance(b *testing.B) {
	st, seed, steps := goldenSteps(b, "feerie", func(c *encounterv1.Command) bool {
		return c.GetFeerie().GetAdvance() != nil
	}, 1)
	benchSteps(b, systems.Registry(), st, seed, steps)
}

// BenchmarkFeerieDeclare: an action declared for the round.
func BenchmarkFeerieDeclare(b *testing.B) {
	st, seed, steps := goldenSteps(b, "feerie", func(c *encounterv1.Command) bool {
		return c.GetFeerie().GetDeclare() != nil
	}, 1)
	benchSteps(b, systems.Registry(), st, seed, steps)
}

// BenchmarkKaAttackReact: a Ka attack declared, then answered (the cards drawn).
func BenchmarkKaAttackReact(b *testing.B) {
	st, seed, steps := goldenSteps(b, "ka", func(c *encounterv1.Command) bool {
		return c.GetKa().GetAttack() != nil
	}, 2)
	if steps[1].cmd.GetKa().GetReact() == nil {
		b.Fatal("the golden attack is not followed by a reaction")
	}
	benchSteps(b, systems.Registry(), st, seed, steps)
}

// BenchmarkD20SegAttack: a d20seg attack, rolled and applied.
func BenchmarkD20SegAttack(b *testing.B) {
	st, seed, steps := goldenSteps(b, "d20seg", func(c *encounterv1.Command) bool {
		return c.GetD20Seg().GetAttack() != nil
	}, 1)
	benchSteps(b, systems.Registry(), st, seed, steps)
}

// BenchmarkResolvePass: the cheapest command through Registry.ResolveWith (a Loss pass), the
// engine's own cost around a system's decision.
func BenchmarkResolvePass(b *testing.B) {
	reg, st, seed, steps := lossFight(b, 2)
	pass := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{
		CombatantId: steps[0].cmd.GetLoss().GetCombatantId(), Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}
	benchSteps(b, reg, st, seed, []step{{"bench/gm", pass}})
}

// BenchmarkFold folds the golden Loss log from the empty state.
func BenchmarkFold(b *testing.B) {
	logs, _ := loadGoldens(b)
	reg := systems.Registry()
	for _, g := range logs {
		b.Run(g.events[0].GetRuleSystem(), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := reg.Fold(g.events); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(g.events)), "ns/event")
		})
	}
}

// lossFight is a started Loss fight of n combatants (half on each side, all the GM's), and the
// steps of the first attack of the Tour and the defender's dodge.
func lossFight(b *testing.B, n int) (*engine.Registry, *encounterv1.EncounterState, []byte, []step) {
	b.Helper()
	reg := systems.Registry()
	s := sha256.Sum256([]byte("fray bench loss"))
	seed := s[:]
	const gm = "bench/gm"
	st := &encounterv1.EncounterState{EncounterId: "bench", Tenant: "bench"}
	do := func(cmd *encounterv1.Command) {
		b.Helper()
		_, next, err := reg.ResolveWith(st, cmd, engine.Env{Actor: gm, Tenant: "bench", Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		st = next
	}
	do(&encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{
		Name: "bench", RuleSystem: "loss"}}})
	score := func(trait, talent string) *lossv1.Score { return &lossv1.Score{Trait: trait, Talent: talent} }
	for i := range n {
		side := []string{"héros", "malfrats"}[i%2]
		do(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{
			Combatant: &encounterv1.Combatant{Id: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("Combattant %d", i), Side: side,
				Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
					Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
					Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
					Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
					Initiative: int32(8 - i),
					Weapons: []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 3,
						Attack: score("Puissance", "Arme de mêlée")}},
					Dodge: score("Agilité", "Esquive"), Parry: score("Puissance", "Arme de mêlée"),
				}}}}}})
	}
	do(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	// Whoever acts first attacks the next combatant; the defender dodges.
	for i := range n {
		a, d := fmt.Sprintf("c%d", i), fmt.Sprintf("c%d", (i+1)%n)
		attack := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: a,
			Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: d}}}}}
		_, next, err := reg.ResolveWith(st, attack, engine.Env{Actor: gm, Tenant: "bench", Seed: seed})
		if err != nil || next.GetLoss().GetPending() == nil {
			continue
		}
		dodge := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: d,
			Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_DODGE}}}}}
		return reg, st, seed, []step{{gm, attack}, {gm, dodge}}
	}
	b.Fatal("no one may attack")
	return nil, nil, nil, nil
}
