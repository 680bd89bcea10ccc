package kacmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
)

// WriteState prints the Ka part of `fray state`: the round and pass, the deck and its
// discard, each combatant's Ka dice, points de réalité, actions and conditions, and who acts
// next.
func WriteState(w io.Writer, st *encounterv1.EncounterState, names *client.Names) {
	ks := st.GetKa()
	if ks.GetRound() == 0 {
		fmt.Fprintln(w, "Not started")
	} else {
		fmt.Fprintf(w, "Round %d, pass %d\n", ks.GetRound(), ks.GetPassNumber())
	}
	left := int(ks.GetDeckCount()) // the deck has no order, only its count (KA-003)
	if ks.GetRound() > 0 || left+len(ks.GetDiscard()) > 0 {
		s := fmt.Sprintf("Deck: %s left, %d in the discard (KA-003)", client.Plural(left, "card"), len(ks.GetDiscard()))
		down := 0
		var cards []string
		for _, c := range ks.GetDiscard() {
			if client.FaceDown(c) {
				down++
				cards = append(cards, "face down")
			} else {
				cards = append(cards, client.CardText(c))
			}
		}
		if down > 0 {
			s += fmt.Sprintf(", %d of them face down (drawn behind the screen)", down)
		}
		fmt.Fprintln(w, s)
		if len(cards) > 0 { // what is left is the rest of the 56, in no order: it is public
			fmt.Fprintln(w, "Discard, in the order drawn: "+strings.Join(cards, ", "))
		}
	}
	if len(st.GetCombatants()) == 0 {
		fmt.Fprintln(w, "No combatants yet.")
	} else {
		rows := []string{"  ID\tNAME\tSIDE\tCONTROLLER\tANIMALITÉ\tKA\tRÉALITÉ\tACTIONS\tOTHER"}
		for _, cb := range st.GetCombatants() {
			sh := cb.GetKa()
			cs := ks.GetCombatants()[cb.GetId()]
			kaDice, reality, actions := "-", "-", "-"
			animalite := fmt.Sprint(sh.GetSpheres()[ka.Animalite])
			withheld := client.SheetWithheld(cb) // the GM hides it: its numbers are withheld
			switch {
			case withheld:
				animalite, kaDice, reality = "hidden", "hidden", "hidden"
			case cs != nil:
				kaDice = fmt.Sprintf("%d/%d", cs.GetKaDice(), sh.GetKaDice())
				reality = fmt.Sprintf("%d/%d", cs.GetRealityPoints(), sh.GetRealityPoints())
			}
			switch {
			case cs != nil && ks.GetRound() > 0 && withheld:
				actions = fmt.Sprintf("hidden, %d taken", cs.GetActionsTaken())
			case cs != nil && ks.GetRound() > 0:
				actions = fmt.Sprintf("%d left, %d taken", cs.GetActionsLeft(), cs.GetActionsTaken())
			}
			other := kaOtherText(rulesOf(st.GetRulesVersion()), sh, cs)
			if withheld {
				other = strings.TrimSuffix(client.AppearanceText(cb.GetAppearance())+", "+kaSeenText(cs), ", ")
			}
			rows = append(rows, fmt.Sprintf("  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", cb.GetId(), cb.GetName(), client.Dash(cb.GetSide()),
				client.Dash(cb.GetController()), animalite, kaDice, reality, actions, other))
		}
		_ = client.Table(w, rows)
	}
	if p := ks.GetPending(); p != nil {
		s := fmt.Sprintf("Attack declared, waiting for an answer before any card is drawn: %s on %s (KA-020)", names.Of(p.GetAttackerId()), names.Of(p.GetDefenderId()))
		var answered []string
		for _, a := range p.GetAnswers() {
			answered = append(answered, names.KaAnnouncedText(a))
		}
		if len(answered) > 0 {
			s += "; already answered: " + strings.Join(answered, "; ")
		}
		if len(p.GetQueuedIds()) > 0 {
			var then []string
			for _, id := range p.GetQueuedIds() {
				then = append(then, names.Of(id))
			}
			s += "; then " + client.AndList(then) + " (KA-033)"
		}
		fmt.Fprintln(w, s)
	}
	enc := st.GetEncounterId()
	switch {
	case st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE || ks.GetPending() != nil || ks.GetRound() == 0:
	default:
		next := kaUpNext(st)
		verbs := "attack|disarm|pass"
		for _, id := range next {
			if len(ks.GetCombatants()[id].GetWeaponsLost()) > 0 { // a weapon to pick up (KA-032)
				verbs = "attack|disarm|pickup|pass"
			}
		}
		switch len(next) {
		case 0:
		case 1:
			fmt.Fprintf(w, "Pass %d: %s acts next: fray ka %s %s %s ...\n", ks.GetPassNumber(), names.Of(next[0]), verbs, enc, next[0])
		default:
			who := make([]string, len(next))
			for i, id := range next {
				who[i] = names.Of(id)
			}
			fmt.Fprintf(w, "Pass %d: %s act next, at the same time (KA-014): fray ka %s %s COMBATANT ...\n", ks.GetPassNumber(), client.AndList(who), verbs, enc)
		}
	}
	client.PrintPending(w, enc, st)
}

// rulesOf: the Ka rules of the version an encounter pinned; the latest this client knows when
// the server has a newer one.
func rulesOf(version uint32) ka.System {
	for _, s := range ka.Released() {
		if s.Version() == version {
			return s.(ka.System)
		}
	}
	return ka.New(ka.Latest)
}

// kaOtherText: a combatant's conditions, ", "-separated.
func kaOtherText(rules ka.System, sh *kav1.Sheet, cs *kav1.CombatantState) string {
	if cs == nil {
		return ""
	}
	var parts []string
	add := func(on bool, text string) {
		if on {
			parts = append(parts, text)
		}
	}
	add(cs.GetKaDice() <= 0 && !cs.GetDying(), "OUT (no Ka dice)")
	add(cs.GetDying(), "DYING (KA-025)")
	add(cs.GetUnconscious(), "UNCONSCIOUS")
	add(cs.GetAbysse(), "Abysse (KA-034)")
	add(len(cs.GetWeaponsLost()) > 0, "disarmed of "+strings.Join(cs.GetWeaponsLost(), ", ")+" (KA-032)")
	add(cs.GetPassed(), "passed")
	add(cs.GetActedThisPass(), "acted this pass")
	add(cs.GetStillActs(), "still acts this pass (KA-014)")
	add(sh.GetPlayerCharacter(), "player character")
	parts = append(parts, fmt.Sprintf("seuil %d", rules.Seuil(sh)))
	return strings.Join(parts, ", ")
}

// kaSeenText: what the table sees of a hidden combatant's conditions (the numbers behind them
// withheld), ", "-separated.
func kaSeenText(cs *kav1.CombatantState) string {
	if cs == nil {
		return ""
	}
	var parts []string
	add := func(on bool, text string) {
		if on {
			parts = append(parts, text)
		}
	}
	add(cs.GetDying(), "DYING (KA-025)")
	add(cs.GetUnconscious(), "UNCONSCIOUS")
	add(cs.GetAbysse(), "Abysse (KA-034)")
	add(len(cs.GetWeaponsLost()) > 0, fmt.Sprintf("disarmed of %s (KA-032)", client.Plural(len(cs.GetWeaponsLost()), "weapon")))
	add(cs.GetPassed(), "passed")
	add(cs.GetActedThisPass(), "acted this pass")
	add(cs.GetStillActs(), "still acts this pass (KA-014)")
	return strings.Join(parts, ", ")
}

// kaUpNext: the combatants whose turn it is in the pass, by id: as the state gives them
// (up_next, KA-014), or else worked out from the sheets: the highest Animalité, a player
// character before a non-player one; equal ranks act at the same time.
func kaUpNext(st *encounterv1.EncounterState) []string {
	ks := st.GetKa()
	if len(ks.GetUpNext()) > 0 {
		return ks.GetUpNext()
	}
	var out []string
	top := int32(-1)
	for _, cb := range st.GetCombatants() {
		sh, cs := cb.GetKa(), ks.GetCombatants()[cb.GetId()]
		conscious := !cs.GetUnconscious() && !cs.GetDying() && cs.GetKaDice() > 0
		if cs == nil || !(conscious || cs.GetStillActs()) || cs.GetPassed() || cs.GetActionsLeft() <= 0 || cs.GetActedThisPass() {
			continue
		}
		r := sh.GetSpheres()[ka.Animalite] * 2
		if sh.GetPlayerCharacter() {
			r++
		}
		switch {
		case r > top:
			top, out = r, []string{cb.GetId()}
		case r == top:
			out = append(out, cb.GetId())
		}
	}
	return out
}

// LegalText: "attack with pistolet (Humanité + Arme à feu, −0): 1 action, targets chien
// (KA-018)".
func LegalText(name, desc string, cost int32, targets []string, weapon, rule string) string {
	costText := ""
	if cost > 0 {
		costText = client.Plural(int(cost), "action")
	}
	return client.LegalLine(name, desc, costText, targets, weapon, rule)
}

// answers: the answers defender may give to the attack waiting: dodge with an action left,
// parry where the option allows it and the attack is no stun, take it, and attack back with
// the attacker's Animalité (KA-008, KA-013, KA-020, KA-030).
func answers(st *encounterv1.EncounterState, defender string) string {
	ks := st.GetKa()
	p, cs := ks.GetPending(), ks.GetCombatants()[defender]
	var att, def *kav1.Sheet
	for _, cb := range st.GetCombatants() {
		switch cb.GetId() {
		case p.GetAttackerId():
			att = cb.GetKa()
		case defender:
			def = cb.GetKa()
		}
	}
	if cs == nil || cs.GetActionsLeft() <= 0 {
		return "take"
	}
	out := "dodge"
	if st.GetOptions().GetKa().GetParry() && !p.GetAttack().GetStun() {
		out += "|parry"
	}
	out += "|take"
	if att != nil && def != nil && att.GetSpheres()[ka.Animalite] == def.GetSpheres()[ka.Animalite] && !cs.GetActedThisPass() {
		out += "|back"
	}
	return out
}
