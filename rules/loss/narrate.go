package loss

import (
	"fmt"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// Teller narrates the system's events, sheets and house rules (narrate.Teller), in English and
// French. The attacks are in narrate_attack.go, the Tests in narrate_test_text.go, the other
// actions in narrate_actions.go, the pursuits in narrate_pursuit.go.
type Teller struct{}

// Teller is the system's narration.
func (System) Teller() narrate.Teller { return Teller{} }

func init() {
	narrate.Fr(
		"(empty Loss event)", "(événement de Loss vide)",
		"(Loss event %s)", "(événement de Loss %s)",
		"player character", "personnage joueur",
		"adversaire", "Adversaire",
		"sbire", "Sbire",
		"kind unspecified", "type non précisé",

		"action d10s explode", "les d10 d'action explosent",
		"action d10s do not explode", "les d10 d'action n'explosent pas",
		"damage d10s explode", "les d10 de dégâts explosent",
		"damage d10s do not explode", "les d10 de dégâts n'explosent pas",
		"health bands %s", "paliers de santé %s",
		"GM Fursa %d", "Fursa du MJ %d",
		"the GM gains a Fursa when a player character fails an Exploit", "le MJ gagne une Fursa quand un personnage joueur rate un Exploit",
		"no GM Fursa for failed Exploits", "pas de Fursa du MJ pour les Exploits ratés",
		"player characters without Fursa start with %d", "les personnages joueurs sans Fursa commencent avec %d",
		"a successful defensive Exploit gives %s on the next action", "un Exploit défensif réussi donne %s à l'action suivante",
		"an attack whose Exploits are all cancelled still hits", "une attaque dont tous les Exploits sont annulés touche quand même",
		"an attack whose Exploits are all cancelled misses", "une attaque dont tous les Exploits sont annulés échoue",
		"the attacker's own modifiers pass on to the defender", "les modificateurs propres à l'attaquant passent au défenseur",
		"the attacker's own modifiers do not pass on to the defender", "les modificateurs propres à l'attaquant ne passent pas au défenseur",
		"a Sbire that cancels the only Exploit takes a plain hit", "un Sbire qui annule l'unique Exploit subit un coup simple",
		"a Sbire that cancels the only Exploit is felled all the same", "un Sbire qui annule l'unique Exploit tombe quand même",
		"0 fatal boxes means dying", "0 case de blessure fatale, c'est l'agonie",
		"only Kill outright leaves a target dying", "seul Tuer net laisse une cible agonisante",
		"a wall or Total dodge is the only defence of the Tour", "un mur défensif ou une Esquive totale est la seule défense du Tour",
		"a wall or Total dodge still allows parries and dodges", "un mur défensif ou une Esquive totale permet encore parades et esquives",
		"aims stack", "les visées se cumulent",
		"aims do not stack", "les visées ne se cumulent pas",
		"Zigzags last until the pursued's next action", "les Zigzags durent jusqu'à l'action suivante du poursuivi",
		"Zigzags last to the end of the Tour", "les Zigzags durent jusqu'à la fin du Tour",
		"everyone declares, lowest Initiative first", "chacun déclare, l'Initiative la plus basse d'abord",
		"no declaration round", "pas de tour de déclaration",
		"actions at the same phase are simultaneous", "les actions d'une même phase sont simultanées",
		"actions at the same phase are not simultaneous", "les actions d'une même phase ne sont pas simultanées",
	)
}

// Event narrates the system's own events.
func (Teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	p, ok := ev.GetPayload().(*encounterv1.Event_Loss)
	if !ok {
		return "", false
	}
	return event(n, p.Loss), true
}

func event(n *narrate.Narrator, e *lossv1.Event) string {
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		return tourText(n, k.TourStarted)
	case *lossv1.Event_AttackRolled:
		return attackText(n, k.AttackRolled)
	case *lossv1.Event_DefenceRolled:
		return defenceText(n, k.DefenceRolled)
	case *lossv1.Event_AttackResolved:
		return resolvedText(n, k.AttackResolved)
	case *lossv1.Event_Passed:
		return passedText(n, k.Passed)
	case *lossv1.Event_Declared:
		return declaredText(n, k.Declared)
	case *lossv1.Event_Waited:
		return waitedText(n, k.Waited)
	case *lossv1.Event_Aimed:
		return aimedText(n, k.Aimed)
	case *lossv1.Event_SimpleActed:
		return simpleText(n, k.SimpleActed)
	case *lossv1.Event_DisasterDeclared:
		return disasterText(n, k.DisasterDeclared)
	case *lossv1.Event_DyingResolved:
		return dyingText(n, k.DyingResolved)
	case *lossv1.Event_PursuitStarted:
		return pursuitStartedText(n, k.PursuitStarted)
	case *lossv1.Event_PursuitActed:
		return pursuitText(n, k.PursuitActed)
	case *lossv1.Event_FreeRaisesGranted:
		return grantText(n, k.FreeRaisesGranted)
	case nil:
		return n.Sprintf("(empty Loss event)")
	default:
		return n.Sprintf("(Loss event %s)", fmt.Sprintf("%T", k))
	}
}

// Sheet describes the system's sheet of a joining combatant: its kind.
func (Teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	sh := c.GetLoss()
	if sh == nil {
		return "", false
	}
	return kindText(n, sh.GetKind()), true
}

func kindText(n *narrate.Narrator, k lossv1.CombatantKind) string {
	switch k {
	case lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER:
		return n.Sprintf("player character")
	case lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE:
		return n.Sprintf("adversaire")
	case lossv1.CombatantKind_COMBATANT_KIND_SBIRE:
		return n.Sprintf("sbire")
	default:
		return n.Sprintf("kind unspecified")
	}
}

// Options lists the house rules an encounter was created with, the [default] rules of the
// catalogue included.
func (Teller) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	l := o.GetLoss()
	if l == nil {
		return "", false
	}
	var parts []string
	flag := func(set bool, v bool, yes, no string) {
		if set {
			parts = append(parts, n.Sprintf(yesNo(v, yes, no)))
		}
	}
	flag(l.ExplodeActionD10 != nil, l.GetExplodeActionD10(), "action d10s explode", "action d10s do not explode")
	flag(l.ExplodeDamageD10 != nil, l.GetExplodeDamageD10(), "damage d10s explode", "damage d10s do not explode")
	if len(l.GetHealthBands()) > 0 {
		var b []string
		for _, v := range l.GetHealthBands() {
			b = append(b, strconv.FormatInt(int64(v), 10))
		}
		parts = append(parts, n.Sprintf("health bands %s", strings.Join(b, "/")))
	}
	if l.GmFursa != nil {
		parts = append(parts, n.Sprintf("GM Fursa %d", l.GetGmFursa()))
	}
	flag(l.GmFursaOnFailedExploit != nil, l.GetGmFursaOnFailedExploit(), "the GM gains a Fursa when a player character fails an Exploit", "no GM Fursa for failed Exploits")
	if l.PcStartingFursa != nil {
		parts = append(parts, n.Sprintf("player characters without Fursa start with %d", l.GetPcStartingFursa()))
	}
	if l.DefenceExploitBonus != nil {
		parts = append(parts, n.Sprintf("a successful defensive Exploit gives %s on the next action", narrate.Signed(l.GetDefenceExploitBonus())))
	}
	flag(l.CancelledExploitsStillHit != nil, l.GetCancelledExploitsStillHit(), "an attack whose Exploits are all cancelled still hits", "an attack whose Exploits are all cancelled misses")
	flag(l.PassAttackerModifiers != nil, l.GetPassAttackerModifiers(), "the attacker's own modifiers pass on to the defender", "the attacker's own modifiers do not pass on to the defender")
	flag(l.SbireCancelledExploitPlainHit != nil, l.GetSbireCancelledExploitPlainHit(), "a Sbire that cancels the only Exploit takes a plain hit", "a Sbire that cancels the only Exploit is felled all the same")
	flag(l.DyingAtZeroFatal != nil, l.GetDyingAtZeroFatal(), "0 fatal boxes means dying", "only Kill outright leaves a target dying")
	flag(l.WallIsOnlyDefence != nil, l.GetWallIsOnlyDefence(), "a wall or Total dodge is the only defence of the Tour", "a wall or Total dodge still allows parries and dodges")
	flag(l.AimsStack != nil, l.GetAimsStack(), "aims stack", "aims do not stack")
	flag(l.ZigzagUntilNextAction != nil, l.GetZigzagUntilNextAction(), "Zigzags last until the pursued's next action", "Zigzags last to the end of the Tour")
	flag(l.DeclareLowToHigh != nil, l.GetDeclareLowToHigh(), "everyone declares, lowest Initiative first", "no declaration round")
	flag(l.SamePhaseSimultaneous != nil, l.GetSamePhaseSimultaneous(), "actions at the same phase are simultaneous", "actions at the same phase are not simultaneous")
	return strings.Join(parts, ", "), true
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// memory is what the narration keeps between events: the pursuit distance as of the events
// learnt, 0 when unknown or no pursuit is on (PursuitActed gives only the distance after the
// action).
type memory struct{ distance int32 }

type memoryKey struct{}

func remember(n *narrate.Narrator) *memory {
	return n.Memory(memoryKey{}, func() any { return &memory{} }).(*memory)
}

// Learn records what an event tells later narration: the pursuit distance.
func (Teller) Learn(n *narrate.Narrator, ev *encounterv1.Event) {
	m := remember(n)
	switch k := ev.GetLoss().GetKind().(type) {
	case *lossv1.Event_PursuitStarted:
		m.distance = k.PursuitStarted.GetPursuit().GetDistance()
	case *lossv1.Event_PursuitActed:
		a := k.PursuitActed
		switch {
		case a.GetEnded():
			m.distance = 0
		case a.GetDodgePossible():
		case a.GetSuccess() || a.GetResolves():
			m.distance = a.GetDistance()
		}
	}
}

// LearnState records what a state tells later narration: the pursuit distance it holds. Give
// it the state before the events to narrate (or the state a rewind restores): a PursuitActed
// is told from the distance before it.
func (Teller) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {
	remember(n).distance = st.GetLoss().GetPursuit().GetDistance()
}
