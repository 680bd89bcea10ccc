package narrate

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// The events common to every rule system: an encounter's life (created, started, ended,
// rewound), its combatants (added, removed, hidden) and its roles.

func init() {
	Fr(
		"Encounter %s created by %s", "Rencontre %s créée par %s",
		"; rules: %s", " ; règles : %s",
		"; dice seed sha256 %s", " ; empreinte sha256 de la graine des dés %s",
		"joins: %s", "rejoint la rencontre : %s",
		"%s is removed from the encounter", "%s est retiré de la rencontre",
		"The fight starts", "Le combat commence",
		"; the fight is over: only side %s still stands", " ; le combat est fini : seul le camp %s tient encore debout",
		"; the fight is over: only those without a side still stand", " ; le combat est fini : seuls ceux qui n'ont pas de camp tiennent encore debout",
		"; the fight is over: no one is left standing", " ; le combat est fini : plus personne ne tient debout",
		"Encounter ended", "Fin de la rencontre",
		"Encounter ended for idleness: no event for %s", "Fin de la rencontre pour inactivité : aucun événement depuis %s",
		"; dice seed revealed: %s", " ; graine des dés révélée : %s",
		"Rewound to #%s: the events after it are undone", "Retour à #%s : les événements qui le suivent sont annulés",
		"; the dice go on from position %s, none rolled again", " ; les dés reprennent à la position %s, aucun n'est relancé",
		"The GM hides %s: only the GM and its controller see its numbers", "Le MJ cache %s : seuls le MJ et son contrôleur voient ses chiffres",
		"The GM shows %s again: its numbers are seen from now on", "Le MJ montre de nouveau %s : ses chiffres sont visibles désormais",
		"(event without payload)", "(événement sans contenu)",
		"(event %s)", "(événement %s)",

		"; joins the fight in progress after watching the last Tour: acts from the next Tour, +2 Initiative (LOS-039)",
		" ; rejoint le combat en cours après avoir observé le dernier Tour : agit dès le Tour suivant, +2 à l'Initiative (LOS-039)",
		"; joins the fight in progress: acts from the next Tour (LOS-039)",
		" ; rejoint le combat en cours : agit dès le Tour suivant (LOS-039)",
		"; watched the fight (LOS-039)", " ; a observé le combat (LOS-039)",

		"hidden by the GM: its sheet is withheld", "caché par le MJ : sa fiche est masquée",
		"hidden by the GM", "caché par le MJ",
		"side %s", "camp %s",
		"controller %s", "contrôleur %s",
		": %s", " : %s",
		"; ", " ; ",

		"%s is %s from now on", "%s est désormais %s",
		", controlling %s", ", et contrôle %s",
		"%s is no longer %s", "%s n'est plus %s",
		"; %s goes back to the GM", " ; %s revient au MJ",
		"; %s go back to the GM", " ; %s reviennent au MJ",
		"The encounter is open to joining: anyone of its tenant may add the combatants it will control",
		"La rencontre est ouverte : quiconque de son espace peut y ajouter les combattants qu'il contrôlera",
		"The encounter is closed to joining: only the GM and co-GMs add combatants",
		"La rencontre est fermée : seuls le MJ et les co-MJ y ajoutent des combattants",
		"the GM", "le MJ",
		"a co-GM", "co-MJ",
		"a player", "joueur",
		"an observer", "observateur",
		"no role", "sans rôle",
	)
	Plural("%d days", "%d day", "%d days", "%d jour", "%d jours")
	Plural("%d hours", "%d hour", "%d hours", "%d heure", "%d heures")
	Plural("%d minutes", "%d minute", "%d minutes", "%d minute", "%d minutes")
	Plural("%d seconds", "%d second", "%d seconds", "%d seconde", "%d secondes")
}

// span says a duration in the largest unit that gives it whole ("30 days", "36 hours"), or
// in seconds, rounded down.
func (n *Narrator) span(d time.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		key  string
	}{{24 * time.Hour, "%d days"}, {time.Hour, "%d hours"}, {time.Minute, "%d minutes"}} {
		if d >= u.unit && d%u.unit == 0 {
			return n.Sprintf(u.key, int(d/u.unit))
		}
	}
	return n.Sprintf("%d seconds", int(d/time.Second))
}

// payload narrates the events common to every rule system and hands a system's own events to
// its teller.
func (n *Narrator) payload(ev *encounterv1.Event) string {
	if s, ok := n.system(ev); ok {
		return s
	}
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		e := p.EncounterCreated
		s := n.Sprintf("Encounter %s created by %s", n.Quote(e.GetName()), OrUnknown(e.GetGameMaster()))
		if ev.GetRuleSystem() != "" {
			s += ", " + ev.GetRuleSystem() + " v" + strconv.FormatUint(uint64(ev.GetRulesVersion()), 10)
		}
		if o := n.options(e.GetOptions()); o != "" {
			s += n.Sprintf("; rules: %s", o)
		}
		if len(e.GetSeedSha256()) > 0 {
			s += n.Sprintf("; dice seed sha256 %s", hex.EncodeToString(e.GetSeedSha256()))
		}
		return s
	case *encounterv1.Event_CombatantAdded:
		return n.Sprintf("joins: %s", n.combatant(p.CombatantAdded.GetCombatant())+n.joining(p.CombatantAdded))
	case *encounterv1.Event_CombatantRemoved:
		return n.Sprintf("%s is removed from the encounter", n.Name(p.CombatantRemoved.GetCombatantId()))
	case *encounterv1.Event_EncounterStarted:
		return n.Sprintf("The fight starts")
	case *encounterv1.Event_EncounterEnded:
		s := n.Sprintf("Encounter ended")
		if idle := p.EncounterEnded.GetIdle(); idle != nil {
			s = n.Sprintf("Encounter ended for idleness: no event for %s", n.span(idle.AsDuration()))
		}
		if r := p.EncounterEnded.GetReason(); r != "" {
			s += " (" + r + ")"
		}
		if seed := p.EncounterEnded.GetSeed(); len(seed) > 0 {
			s += n.Sprintf("; dice seed revealed: %s", hex.EncodeToString(seed))
		}
		return s
	case *encounterv1.Event_EncounterRewound:
		r := p.EncounterRewound
		s := n.Sprintf("Rewound to #%s: the events after it are undone", strconv.FormatUint(r.GetToSequence(), 10))
		if r.GetReason() != "" {
			s += " (" + r.GetReason() + ")"
		}
		if r.GetDiceOffset() > 0 {
			s += n.Sprintf("; the dice go on from position %s, none rolled again", strconv.FormatUint(r.GetDiceOffset(), 10))
		}
		return s
	case *encounterv1.Event_CombatantHidden:
		who := n.Name(p.CombatantHidden.GetCombatantId())
		if p.CombatantHidden.GetHidden() {
			return n.Sprintf("The GM hides %s: only the GM and its controller see its numbers", who)
		}
		return n.Sprintf("The GM shows %s again: its numbers are seen from now on", who)
	case *encounterv1.Event_RoleGranted, *encounterv1.Event_RoleRevoked, *encounterv1.Event_JoiningSet:
		return n.role(ev)
	case nil:
		return n.Sprintf("(event without payload)")
	default:
		return n.Sprintf("(event %s)", fmt.Sprintf("%T", p))
	}
}

// joining: "; joins the fight in progress after watching the last Tour: …", or nothing for a
// combatant added before the fight.
func (n *Narrator) joining(a *encounterv1.CombatantAdded) string {
	switch {
	case a.GetInProgress() && a.GetWatched():
		return n.Sprintf("; joins the fight in progress after watching the last Tour: acts from the next Tour, +2 Initiative (LOS-039)")
	case a.GetInProgress():
		return n.Sprintf("; joins the fight in progress: acts from the next Tour (LOS-039)")
	case a.GetWatched():
		return n.Sprintf("; watched the fight (LOS-039)")
	}
	return ""
}

// Combatant describes a combatant as it joins: "Diego (diego): player character, side pcs,
// controller david" — hidden or not, what its system says of its sheet, side, controller.
func (n *Narrator) Combatant(c *encounterv1.Combatant) string { return n.combatant(c) }

func (n *Narrator) combatant(c *encounterv1.Combatant) string {
	s := c.GetId()
	if c.GetName() != "" && c.GetName() != c.GetId() {
		s = c.GetName() + " (" + c.GetId() + ")"
	}
	var parts []string
	switch {
	case c.GetHidden() && c.GetSheet() == nil:
		parts = append(parts, n.Sprintf("hidden by the GM: its sheet is withheld"))
	case c.GetHidden():
		parts = append(parts, n.Sprintf("hidden by the GM"))
	}
	parts = append(parts, n.sheets(c)...)
	if c.GetSide() != "" {
		parts = append(parts, n.Sprintf("side %s", c.GetSide()))
	}
	if c.GetController() != "" {
		parts = append(parts, n.Sprintf("controller %s", c.GetController()))
	}
	if len(parts) > 0 {
		s += n.Sprintf(": %s", strings.Join(parts, ", "))
	}
	return s
}

// role narrates the role events: "dev/david is a player from now on, controlling Diego",
// "dev/florence is no longer a player; Le malfrat goes back to the GM", "The encounter is open
// to joining: …".
func (n *Narrator) role(ev *encounterv1.Event) string {
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_RoleGranted:
		g := p.RoleGranted
		s := n.Sprintf("%s is %s from now on", OrUnknown(g.GetPrincipal()), n.roleName(g.GetRole()))
		if ids := g.GetCombatantIds(); len(ids) > 0 {
			s += n.Sprintf(", controlling %s", strings.Join(n.Names(ids), ", "))
		}
		return s
	case *encounterv1.Event_RoleRevoked:
		r := p.RoleRevoked
		s := n.Sprintf("%s is no longer %s", OrUnknown(r.GetPrincipal()), n.roleName(r.GetRole()))
		if ids := r.GetCombatantIds(); len(ids) == 1 {
			s += n.Sprintf("; %s goes back to the GM", n.Name(ids[0]))
		} else if len(ids) != 0 {
			s += n.Sprintf("; %s go back to the GM", strings.Join(n.Names(ids), ", "))
		}
		return s
	}
	if ev.GetJoiningSet().GetOpen() {
		return n.Sprintf("The encounter is open to joining: anyone of its tenant may add the combatants it will control")
	}
	return n.Sprintf("The encounter is closed to joining: only the GM and co-GMs add combatants")
}

func (n *Narrator) roleName(r encounterv1.Role) string {
	switch r {
	case encounterv1.Role_ROLE_GM:
		return n.Sprintf("the GM")
	case encounterv1.Role_ROLE_CO_GM:
		return n.Sprintf("a co-GM")
	case encounterv1.Role_ROLE_PLAYER:
		return n.Sprintf("a player")
	case encounterv1.Role_ROLE_OBSERVER:
		return n.Sprintf("an observer")
	}
	return n.Sprintf("no role")
}

// FightOver is the sentence that closes the narration of the event that ends the fight, sides
// being the sides still standing (at most one): "; the fight is over: only side pcs still
// stands" (engine.Registry.OverLine says when).
func (n *Narrator) FightOver(sides []string) string {
	switch {
	case len(sides) == 0:
		return n.Sprintf("; the fight is over: no one is left standing")
	case sides[0] == "":
		return n.Sprintf("; the fight is over: only those without a side still stand")
	}
	return n.Sprintf("; the fight is over: only side %s still stands", sides[0])
}
