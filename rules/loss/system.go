// Package loss implements Les Chants de Loss combat (docs/rules/loss.md): Tests of
// d10 + Trait + Talent against a Difficulty, Exploits, Action Points (PA) spent in phases.
package loss

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"google.golang.org/protobuf/proto"
)

// ID is the rule system's id.
const ID = "loss"

// fullName is its name as its players know it (System.Name).
const fullName = "Les Chants de Loss"

// JoinsInProgress: a newcomer joins a fight in progress and acts from the next Tour (LOS-039).
func (System) JoinsInProgress() {}

// System is Les Chants de Loss at one version: its Numbers, read by everything that decides,
// folds, offers or describes.
type System struct {
	engine.Release
	Numbers
}

func lossState(st *encounterv1.EncounterState) *lossv1.State {
	return fight.State(st.GetLoss(), (*lossv1.State).GetCombatants, func(s *lossv1.State) { st.System = &encounterv1.EncounterState_Loss{Loss: s} })
}

func options(st *encounterv1.EncounterState) *lossv1.Options { return st.GetOptions().GetLoss() }

// Vertus are the three kinds of Inspiration (LOS-005).
var Vertus = []string{"Sagesse", "Honneur", "Courage"}

// Bounds on sheet values, far above any character of the game, so that a typo is caught.
const (
	maxScore      = 30
	maxWeaponCost = 20
	maxResource   = 20
	maxWeapons    = 16
)

// Defaults of the [default] rules.
var defaultHealthBands = []int32{5, 5, 5} // LOS-022

// SbireHealth is a Sbire's NS (LOS-024).
const SbireHealth = 10

// Options validates house rules and fills in the defaults: exploding d10s (LOS-002), health
// bands (LOS-022), the Fursa (LOS-005), a defensive Exploit's bonus (LOS-016), the switches.
func (sys System) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	o, err := engine.OptionsOf(in, (*encounterv1.RuleOptions).GetLoss, "Chants de Loss")
	if err != nil {
		return nil, err
	}
	if o.ExplodeActionD10 == nil {
		o.ExplodeActionD10 = proto.Bool(true)
	}
	if o.ExplodeDamageD10 == nil {
		o.ExplodeDamageD10 = proto.Bool(false)
	}
	if len(o.HealthBands) == 0 {
		o.HealthBands = slices.Clone(defaultHealthBands)
	}
	if len(o.HealthBands) != 3 {
		return nil, engine.Invalid("LOS-022", "health_bands gives the boxes of three bands (light, grave, fatal), not %d", len(o.HealthBands))
	}
	for _, b := range o.HealthBands {
		if b < 1 || b > maxResource {
			return nil, engine.Invalid("LOS-022", "each health band has 1 to %d boxes, not %d", maxResource, b)
		}
	}
	if o.GmFursa == nil {
		o.GmFursa = proto.Int32(0)
	}
	if o.GetGmFursa() < 0 || o.GetGmFursa() > maxResource {
		return nil, engine.Invalid("LOS-005", "the GM's Fursa reserve starts between 0 and %d, not %d", maxResource, o.GetGmFursa())
	}
	if o.GmFursaOnFailedExploit == nil {
		o.GmFursaOnFailedExploit = proto.Bool(true)
	}
	if o.PcStartingFursa == nil {
		o.PcStartingFursa = proto.Int32(1)
	}
	if o.GetPcStartingFursa() < 0 || o.GetPcStartingFursa() > maxResource {
		return nil, engine.Invalid("LOS-005", "player characters start with 0 to %d Fursa, not %d", maxResource, o.GetPcStartingFursa())
	}
	if o.DefenceExploitBonus == nil {
		o.DefenceExploitBonus = proto.Int32(sys.DefenceBonus)
	}
	if o.GetDefenceExploitBonus() < 0 || o.GetDefenceExploitBonus() > maxScore {
		return nil, engine.Invalid("LOS-016", "the bonus of a defensive Exploit runs from 0 to %d, not %d", maxScore, o.GetDefenceExploitBonus())
	}
	defaultSwitches(o)
	return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: o}}, nil
}

// defaultSwitches sets the house rules that are on or off and not given to their [default]
// (LOS-012, LOS-015, LOS-023, LOS-025, LOS-038, LOS-066, LOS-084, LOS-107, LOS-110).
func defaultSwitches(o *lossv1.Options) {
	for _, b := range []struct {
		p   **bool
		def bool
	}{
		{&o.CancelledExploitsStillHit, true},
		{&o.PassAttackerModifiers, false},
		{&o.SbireCancelledExploitPlainHit, true},
		{&o.DyingAtZeroFatal, true},
		{&o.WallIsOnlyDefence, true},
		{&o.AimsStack, false},
		{&o.ZigzagUntilNextAction, true},
		{&o.DeclareLowToHigh, false},
		{&o.SamePhaseSimultaneous, true},
	} {
		if *b.p == nil {
			*b.p = proto.Bool(b.def)
		}
	}
}

func malformed(rule, who, format string, args ...any) error {
	return engine.Invalid(rule, "malformed sheet for %s: %s", who, fmt.Sprintf(format, args...))
}

// CheckCombatant validates a Loss sheet: its kind (LOS-024), Traits and Talents (LOS-001),
// Initiative and group (LOS-030, LOS-037), weapons (LOS-020, LOS-035), the scores its Tests
// use, its protection (LOS-021), Fursa and Inspiration (LOS-005), specialisations (LOS-094).
func (System) CheckCombatant(st *encounterv1.EncounterState, c *encounterv1.Combatant) error {
	who := c.GetName()
	sh := c.GetLoss()
	if sh == nil {
		return engine.Invalid("", "malformed sheet for %s: an encounter of Les Chants de Loss needs a loss sheet", who)
	}
	if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_UNSPECIFIED {
		return malformed("LOS-024", who, "kind must be player_character, adversaire or sbire")
	}
	for name, v := range sh.GetTraits() {
		if name == "" || v < 0 || v > maxScore {
			return malformed("LOS-001", who, "trait %q is %d; traits run from 0 to %d", name, v, maxScore)
		}
	}
	for name, v := range sh.GetTalents() {
		if name == "" || v < 0 || v > maxScore {
			return malformed("LOS-001", who, "talent %q is %d; talents run from 0 to %d", name, v, maxScore)
		}
	}
	if sh.GetInitiative() < 0 || sh.GetInitiative() > maxScore {
		return malformed("LOS-030", who, "Initiative is %d; it runs from 0 to %d", sh.GetInitiative(), maxScore)
	}
	if err := checkWeapons(who, sh); err != nil {
		return err
	}
	for _, s := range []struct {
		what  string
		score *lossv1.Score
	}{
		{"the parry", sh.GetParry()},
		{"the dodge", sh.GetDodge()},
		{"the pursuit score", sh.GetPursuit()}, // LOS-108
		{"athletics", sh.GetAthletics()},
	} {
		if s.score == nil {
			continue
		}
		if err := checkScore(who, sh, s.what, s.score); err != nil {
			return err
		}
	}
	if sh.GetArmour() < 0 || sh.GetArmour() > maxScore || sh.GetShieldProtection() < 0 || sh.GetShieldProtection() > maxScore {
		return malformed("LOS-021", who, "armour %d and shield protection %d must run from 0 to %d", sh.GetArmour(), sh.GetShieldProtection(), maxScore)
	}
	if err := checkFursaAndInspiration(who, sh); err != nil {
		return err
	}
	for _, s := range sh.GetSpecialisations() {
		if s.GetKind() == lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING && s.GetWeaponType() == "" {
			return malformed("LOS-094", who, "the Visée specialisation names the one weapon type it applies to (LOS-090: +15 with that type only)")
		}
	}
	if g := sh.GetInitiativeGroup(); g != "" {
		for _, o := range st.GetCombatants() {
			if o.GetLoss().GetInitiativeGroup() == g && o.GetLoss().GetInitiative() != sh.GetInitiative() {
				return malformed("LOS-037", who, "Initiative %d, but group %q rolls one Initiative and %s has %d", sh.GetInitiative(), g, o.GetName(), o.GetLoss().GetInitiative())
			}
		}
	}
	return nil
}

// checkScore: a Test's score names a Trait and a Talent of the sheet (LOS-001).
func checkScore(who string, sh *lossv1.Sheet, what string, s *lossv1.Score) error {
	if _, ok := sh.GetTraits()[s.GetTrait()]; !ok {
		return malformed("LOS-001", who, "%s uses trait %q, which the sheet does not have", what, s.GetTrait())
	}
	if _, ok := sh.GetTalents()[s.GetTalent()]; !ok {
		return malformed("LOS-001", who, "%s uses talent %q, which the sheet does not have", what, s.GetTalent())
	}
	return nil
}

// checkWeapons: at most maxWeapons weapons, each with a name of its own, a kind, an attack
// score of the sheet (LOS-001), a Vitesse if it is a weapon at all (LOS-035), a damage
// (LOS-020).
func checkWeapons(who string, sh *lossv1.Sheet) error {
	if len(sh.GetWeapons()) > maxWeapons {
		return malformed("", who, "%d weapons; at most %d", len(sh.GetWeapons()), maxWeapons)
	}
	seen := map[string]bool{}
	for _, w := range sh.GetWeapons() {
		if w.GetName() == "" || seen[w.GetName()] {
			return malformed("", who, "each weapon needs a name of its own (%q)", w.GetName())
		}
		seen[w.GetName()] = true
		if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_UNSPECIFIED {
			return malformed("LOS-035", who, "weapon %q needs a kind: melee, ranged, natural or unarmed", w.GetName())
		}
		if err := checkScore(who, sh, fmt.Sprintf("weapon %q", w.GetName()), w.GetAttack()); err != nil {
			return err
		}
		armed := w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE || w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_RANGED
		if armed && (w.GetVitesse() < 1 || w.GetVitesse() > maxWeaponCost) {
			return malformed("LOS-035", who, "weapon %q has Vitesse %d; a weapon's Vitesse (its PA cost) runs from 1 to %d", w.GetName(), w.GetVitesse(), maxWeaponCost)
		}
		if w.GetDamage() < 0 || w.GetDamage() > maxScore {
			return malformed("LOS-020", who, "weapon %q deals %d damage; from 0 to %d", w.GetName(), w.GetDamage(), maxScore)
		}
	}
	return nil
}

// checkFursaAndInspiration: Fursa held by player characters only, the GM's characters spending
// the GM's reserve; Inspiration of the three Vertus (LOS-005), none for a Sbire (LOS-024).
func checkFursaAndInspiration(who string, sh *lossv1.Sheet) error {
	if sh.GetFursa() < 0 || sh.GetFursa() > maxResource {
		return malformed("LOS-005", who, "Fursa %d; from 0 to %d", sh.GetFursa(), maxResource)
	}
	if sh.GetFursa() > 0 && sh.GetKind() != lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER {
		return malformed("LOS-005", who, "only player characters hold Fursa; the GM's characters spend the GM's reserve")
	}
	sbire := sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE
	for v, n := range sh.GetInspiration() {
		if !slices.Contains(Vertus, v) {
			return malformed("LOS-005", who, "Inspiration of %q: the Vertus are %v", v, Vertus)
		}
		if n < 0 || n > maxResource {
			return malformed("LOS-005", who, "Inspiration of %s is %d; from 0 to %d", v, n, maxResource)
		}
		if n > 0 && sbire {
			return malformed("LOS-024", who, "a Sbire has no Inspiration")
		}
	}
	return nil
}

// fighter is a combatant with its sheet and its state.
type fighter struct {
	c  *encounterv1.Combatant
	sh *lossv1.Sheet
	cs *lossv1.CombatantState
}

func (f fighter) id() string { return f.c.GetId() }

func (f fighter) name() string { return f.c.GetName() }

func (f fighter) isPC() bool {
	return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER
}

func (f fighter) isSbire() bool { return f.sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE }

// owed: felled or hindered at its own phase by a combatant at the same phase, it still takes
// its action there (LOS-110).
func (f fighter) owed() bool { return f.cs.GetOwedPhase() > 0 }

// active: may still take actions this Tour (LOS-032, LOS-033, LOS-039).
func (f fighter) active() bool {
	if f.owed() {
		return true
	}
	return !f.cs.GetOut() && !f.cs.GetPassed() && !f.cs.GetJoining() && f.cs.GetActionPoints() > 0
}

// healthPenalty is the Difficulty added to the fighter's own Tests by its wounds (LOS-022): a
// fighter is in the grave band once it has lost a grave box, in the fatal band once it has
// lost a fatal box.
func (f fighter) healthPenalty(sys System, st *encounterv1.EncounterState) int32 {
	bands := options(st).GetHealthBands()
	switch {
	case f.isSbire() || len(bands) != 3:
		return 0
	case f.cs.GetFatal() < bands[2]:
		return sys.FatalPenalty
	case f.cs.GetGrave() < bands[1]:
		return sys.GravePenalty
	default:
		return 0
	}
}

// spec reports whether the fighter has a specialisation, for the weapon's type when one is
// given (LOS-094).
func (f fighter) spec(k lossv1.SpecialisationKind, w *lossv1.Weapon) bool {
	for _, s := range f.sh.GetSpecialisations() {
		if s.GetKind() != k {
			continue
		}
		if w == nil || s.GetWeaponType() == "" || s.GetWeaponType() == weaponType(w) {
			return true
		}
	}
	return false
}

func weaponType(w *lossv1.Weapon) string {
	if w.GetWeaponType() != "" {
		return w.GetWeaponType()
	}
	return w.GetName()
}

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	return fight.Of(st, id, newFighter)
}

func fighters(st *encounterv1.EncounterState) []fighter { return fight.All(st, newFighter) }

func newFighter(st *encounterv1.EncounterState, c *encounterv1.Combatant) fighter {
	return fighterIn(lossState(st), c)
}

// fighterIn is fighterOf for a combatant of the state s is the Loss state of.
func fighterIn(s *lossv1.State, c *encounterv1.Combatant) fighter {
	return fighter{c: c, sh: c.GetLoss(), cs: fight.StateOf(s.GetCombatants(), c.GetId())}
}

// Start rolls the first Tour's Initiative.
func (sys System) Start(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{sys.startTour(st, env.Dice)}, nil
}
