package d20segcmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
)

// WriteState prints the d20seg part of `fray state`: the round and its segments, each
// combatant's Initiative, hit points, next segment, attacks this round and conditions, the
// spells waiting for the next round, and who acts next.
func WriteState(w io.Writer, st *encounterv1.EncounterState, names *client.Names) {
	sys := rulesOf(w, st)
	ds := st.GetD20Seg()
	round := ds.GetRound()
	switch {
	case st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP || (round == 0 && !ds.GetSurpriseDeclared()):
		fmt.Fprintln(w, "Not started")
	case round == 0:
		first, last := sys.Segments(nil, 0)
		fmt.Fprintf(w, "Surprise round: segments %d to %d (D20-004)\n", first, last)
	default:
		first, last := sys.Segments(nil, round)
		fmt.Fprintf(w, "Round %d: segments %d to %d (D20-013)\n", round, first, last)
	}
	started := st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP && (round > 0 || ds.GetSurpriseDeclared())
	if len(st.GetCombatants()) == 0 {
		fmt.Fprintln(w, "No combatants yet.")
	} else {
		inits := map[int32][]int32{} // the tie orders at each Initiative
		for _, cb := range st.GetCombatants() {
			if cs := ds.GetCombatants()[cb.GetId()]; cs != nil && !client.SheetWithheld(cb) {
				inits[cs.GetInitiative()] = append(inits[cs.GetInitiative()], cs.GetTieOrder()) // a hidden combatant's Initiative is a placeholder
			}
		}
		// Its place among the combatants shown at its Initiative: with someone hidden, the
		// server spaces the tie orders (room for the placeholders).
		tiePlace := func(cs *d20segv1.CombatantState) int32 {
			var before int32
			for _, o := range inits[cs.GetInitiative()] {
				if o < cs.GetTieOrder() {
					before++
				}
			}
			return before
		}
		rows := []string{"  ID\tNAME\tSIDE\tCONTROLLER\tINIT\tHP\tNEXT\tATTACKS\tOTHER"}
		for _, cb := range st.GetCombatants() {
			sh, cs := cb.GetD20Seg(), ds.GetCombatants()[cb.GetId()]
			init, hp, next, attacks := client.Num(sys.Initiative(sh)), "-", "-", "-"
			if cs != nil {
				init = client.Num(cs.GetInitiative())
				if len(inits[cs.GetInitiative()]) > 1 && started {
					init += fmt.Sprintf(" (tie %s)", ordinal(tiePlace(cs)+1))
				}
				hp = fmt.Sprintf("%s/%d", client.Num(cs.GetHitPoints()), sh.GetHitPoints())
			}
			if cs != nil && started {
				attacks = fmt.Sprint(cs.GetAttacksThisRound())
				switch {
				case cs.GetDown():
				case cs.GetEndedTurn() || cs.GetNextSegment() > last(sys, sh, round):
					next = "done"
				default:
					next = "segment " + client.Num(cs.GetNextSegment())
				}
			}
			other := d20OtherText(sys, sh, cs, round, started)
			if client.SheetWithheld(cb) { // the server withheld its numbers: what the table sees
				init, hp = "hidden", client.AppearanceText(cb.GetAppearance())
				if cs.GetNextSegment() == d20seg.HiddenSegment && !cs.GetDown() && !cs.GetEndedTurn() {
					next = "hidden"
				}
				other = strings.TrimPrefix(d20OtherText(sys, nil, cs, round, false)+", hidden by the GM", ", ")
			}
			rows = append(rows, fmt.Sprintf("  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", cb.GetId(), cb.GetName(), client.Dash(cb.GetSide()),
				client.Dash(cb.GetController()), init, hp, next, attacks, other))
		}
		_ = client.Table(w, rows)
	}
	if sp := ds.GetDelayedSpells(); len(sp) > 0 {
		fmt.Fprintf(w, "Taking effect at the start of the next round: %s (D20-019)\n", strings.Join(sp, ", "))
	}
	enc := st.GetEncounterId()
	if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
		return
	}
	if round == 1 && !ds.GetSurpriseDeclared() && !d20AnyoneActed(sys, st) {
		fmt.Fprintf(w, "Before anyone acts, the GM may declare a surprise attack: fray d20 surprise %s --attackers A,B --defender ID[:SITUATION+...] (D20-004)\n", enc)
	}
	if id, seg, free, ok := sys.UpNext(st); ok {
		if free {
			fmt.Fprintf(w, "%s acts next, with its free action, before anyone acts in a segment (D20-004): fray d20 attack|cast|other %s %s ... --free, or end\n", names.Of(id), enc, id)
		} else {
			fmt.Fprintf(w, "%s acts next, at segment %s: fray d20 attack|cast|other|end %s %s ...\n", names.Of(id), client.Num(seg), enc, id)
		}
	}
}

func ordinal(n int32) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// rulesOf is the d20 segment rules at the version the encounter pinned (0: the latest). A
// version this fray does not know yet, from a newer server, is shown with the latest one it
// knows, and says so.
func rulesOf(w io.Writer, st *encounterv1.EncounterState) d20seg.System {
	v := st.GetRulesVersion()
	if v == 0 {
		v = d20seg.Latest
	}
	for _, s := range d20seg.Released() {
		if s.Version() == v {
			return s.(d20seg.System)
		}
	}
	fmt.Fprintf(w, "(the encounter is at version %d of the rules; this fray knows them up to version %d, whose numbers it shows: update fray)\n", v, d20seg.Latest)
	return d20seg.New(d20seg.Latest)
}

// last is the last segment a combatant may use in a round (D20-004, D20-013, D20-014).
func last(sys d20seg.System, sh *d20segv1.Sheet, round int32) int32 {
	_, l := sys.Segments(sh, round)
	return l
}

// d20OtherText: a combatant's conditions, ", "-separated.
func d20OtherText(sys d20seg.System, sh *d20segv1.Sheet, cs *d20segv1.CombatantState, round int32, started bool) string {
	var parts []string
	add := func(on bool, text string) {
		if on {
			parts = append(parts, text)
		}
	}
	add(cs.GetDown(), "DOWN (D20-044)")
	add(cs.GetEndedTurn(), "ended its turn")
	add(cs.GetSurprised(), "surprised: flat-footed, no action in the surprise round (D20-004, D20-006)")
	add(cs.GetFreeActionLeft(), "free action left (D20-004)")
	add(round == 0 && cs.GetBystander(), "neither attacker nor defender: no part in the surprise round (D20-003)")
	if xs := sh.GetExtraSegments(); len(xs) > 0 {
		seg := make([]string, len(xs))
		for i, x := range slices.Sorted(slices.Values(xs)) {
			seg[i] = client.Num(x)
		}
		add(true, "extra segments "+strings.Join(seg, ", ")+" (D20-014)")
	}
	if cs != nil && started && !cs.GetDown() && !cs.GetEndedTurn() && cs.GetNextSegment() <= last(sys, sh, round) && !(round == 0 && (cs.GetSurprised() || cs.GetBystander())) {
		add(true, fmt.Sprintf("next attack costs %s (BBA %d, D20-017)", client.SegmentsText(sys.AttackCost(sh.GetBba(), cs.GetAttacksThisRound())), sh.GetBba()))
	}
	return strings.Join(parts, ", ")
}

// d20AnyoneActed reports whether anyone has acted in the round.
func d20AnyoneActed(sys d20seg.System, st *encounterv1.EncounterState) bool {
	ds := st.GetD20Seg()
	for _, cb := range st.GetCombatants() {
		cs := ds.GetCombatants()[cb.GetId()]
		withheld := client.SheetWithheld(cb) && cs.GetNextSegment() == d20seg.HiddenSegment // its segment is not shown
		first, _ := sys.Segments(cb.GetD20Seg(), ds.GetRound())
		if (cs.GetNextSegment() != first && !withheld) || cs.GetAttacksThisRound() > 0 || cs.GetEndedTurn() {
			return true
		}
	}
	return false
}

// LegalText: "attack with épée longue at segment 0: 4 segments (D20-017)".
func LegalText(name, desc string, cost int32, targets []string, weapon, rule string) string {
	costText := ""
	if cost > 0 {
		costText = client.SegmentsText(cost)
	}
	return client.LegalLine(name, desc, costText, targets, weapon, rule)
}
