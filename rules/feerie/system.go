package feerie

import (
	"regexp"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"github.com/fray-rpg/fray/rules/narrate"
	"google.golang.org/protobuf/proto"
)

// ID of the rule system.
const ID = "feerie"

// fullName is its name as its players know it (System.Name).
const fullName = "Contes de Fées"

// DefaultRoll is the zero-mean roll of FEE-001.
const DefaultRoll = "1d20-1d20"

// System is one version of Contes de Fées: its numbers and switches (version.go).
type System struct {
	engine.Release
	n Numbers
}

// Numbers are the numbers and switches of this version, for what states them outside the
// rules (the CLI's help).
func (s System) Numbers() Numbers { return s.n }

func feerieState(st *encounterv1.EncounterState) *feeriev1.State {
	return fight.State(st.GetFeerie(), (*feeriev1.State).GetCombatants, func(s *feeriev1.State) { st.System = &encounterv1.EncounterState_Feerie{Feerie: s} })
}

func options(st *encounterv1.EncounterState) *feeriev1.Options { return st.GetOptions().GetFeerie() }

func event(e *feeriev1.Event) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_Feerie{Feerie: e}}
}

var rollNotation = regexp.MustCompile(`^\s*([^-]+?)\s*-\s*(\d*[dD]\d+)\s*$`)

// rollExprs parses the roll option: "A-B" with dice on both sides (d20 − d20), or one
// expression with its constant (2d10-11).
func rollExprs(s string) (plus dice.Expr, minus *dice.Expr, err error) {
	if m := rollNotation.FindStringSubmatch(s); m != nil {
		p, err := dice.Parse(m[1])
		if err != nil {
			return dice.Expr{}, nil, err
		}
		q, err := dice.Parse(m[2])
		if err != nil {
			return dice.Expr{}, nil, err
		}
		return p, &q, nil
	}
	p, err := dice.Parse(s)
	return p, nil, err
}

// Options validates house rules and fills in the defaults (FEE-001, FEE-004, FEE-005, and the
// other readings of options.go), so that EncounterCreated records the effective values.
func (System) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	o, err := engine.OptionsOf(in, (*encounterv1.RuleOptions).GetFeerie, "Contes de Fées")
	if err != nil {
		return nil, err
	}
	if o.Roll == "" {
		o.Roll = DefaultRoll
	}
	p, m, err := rollExprs(o.Roll)
	if err != nil {
		return nil, engine.Invalid("FEE-001", "roll %q: %v", o.Roll, err)
	}
	mean2 := int32(p.Count*(p.Sides+1) + 2*p.Modifier) // twice the mean
	if m != nil {
		mean2 -= int32(m.Count*(m.Sides+1) + 2*m.Modifier)
	}
	if mean2 != 0 || p.Explode || (m != nil && m.Explode) {
		return nil, engine.Invalid("FEE-001", "the roll %q must have a mean of zero (e.g. 1d20-1d20, 2d10-11)", o.Roll)
	}
	if o.FumbleMargin == nil {
		o.FumbleMargin = proto.Int32(10)
	}
	if o.GetFumbleMargin() < 1 {
		return nil, engine.Invalid("FEE-004", "the fumble margin is at least 1")
	}
	if o.EssenceSpendCap == nil {
		o.EssenceSpendCap = proto.Int32(0)
	}
	if o.GetEssenceSpendCap() < 0 {
		return nil, engine.Invalid("FEE-005", "the Essence spending cap cannot be negative")
	}
	if err := fillHouseRules(o); err != nil { // FEE-002…FEE-186
		return nil, err
	}
	return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: o}}, nil
}

// CheckCombatant validates a Contes de Fées sheet.
func (sys System) CheckCombatant(_ *encounterv1.EncounterState, c *encounterv1.Combatant) error {
	sh := c.GetFeerie()
	who := c.GetName()
	if sh == nil {
		return engine.Invalid("", "malformed sheet for %s: an encounter of Contes de Fées needs a feerie sheet", who)
	}
	for _, v := range []int32{sh.GetVigilance(), sh.GetHabilete(), sh.GetPuissance(), sh.GetResistance(), sh.GetCharme()} {
		if v < 0 || v > 100 {
			return engine.Invalid("", "malformed sheet for %s: Aspects run from 0 to 100", who)
		}
	}
	if sh.GetTaille() < sys.n.MinTaille || sh.GetTaille() > sys.n.MaxTaille {
		return engine.Invalid("FEE-092", "malformed sheet for %s: Taille runs from %s to %s, not %d", who, narrate.Signed(sys.n.MinTaille), narrate.Signed(sys.n.MaxTaille), sh.GetTaille())
	}
	if sh.GetEssence() < 0 || sh.GetEssence() > 1000 {
		return engine.Invalid("", "malformed sheet for %s: Essence runs from 0 to 1000", who)
	}
	if sh.GetMountId() == c.GetId() {
		return engine.Invalid("FEE-143", "malformed sheet for %s: a combatant cannot ride itself", who)
	}
	seen := map[string]bool{}
	for _, a := range sh.GetAttributes() {
		if a.GetName() == "" || seen[a.GetName()] {
			return engine.Invalid("", "malformed sheet for %s: each Attribute needs a name of its own (%q)", who, a.GetName())
		}
		seen[a.GetName()] = true
		if a.GetKind() == feeriev1.AttributeKind_ATTRIBUTE_KIND_UNSPECIFIED {
			return engine.Invalid("", "malformed sheet for %s: %q must be an Affinity, a Power or an Accessoire", who, a.GetName())
		}
		if a.GetWeapon() && a.GetKind() != feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY {
			return engine.Invalid("FEE-183", "malformed sheet for %s: only an Accessoire is a weapon, not %q", who, a.GetName())
		}
		if a.GetValue() < -50 || a.GetValue() > 50 {
			return engine.Invalid("", "malformed sheet for %s: %q has value %d; from −50 to 50", who, a.GetName(), a.GetValue())
		}
	}
	return nil
}

type fighter struct {
	c  *encounterv1.Combatant
	sh *feeriev1.Sheet
	cs *feeriev1.CombatantState
}

func (f fighter) id() string { return f.c.GetId() }

func (f fighter) name() string { return f.c.GetName() }

// able: may take part in the Action (FEE-022, FEE-024, FEE-026).
func (f fighter) able() bool { return f.cs.GetEssence() > 0 && !f.inanimate() && !f.cs.GetHelpless() }

// helpless: unconscious, asleep, paralysed by the GM's ruling, or at 0 Essence: Defense 0
// against every attack (FEE-022).
func (f fighter) helpless() bool { return f.cs.GetHelpless() || f.cs.GetEssence() <= 0 }

// inanimate: an object, or a character a Power makes one (FEE-023, FEE-026).
func (f fighter) inanimate() bool { return f.sh.GetInanimate() || f.cs.GetInanimate() }

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	return fight.Of(st, id, newFighter)
}

// newFighter: a disarmed fighter's sheet is the one it fights with (disarmedSheet).
func newFighter(st *encounterv1.EncounterState, c *encounterv1.Combatant) fighter {
	cs := fight.StateOf(feerieState(st).GetCombatants(), c.GetId())
	return fighter{c: c, sh: disarmedSheet(house(st), c.GetFeerie(), cs), cs: cs}
}

// disarmedSheet: a disarmed character's weapon Accessoires give no bonus until it picks the
// weapon up again, unless the option makes the disarm narrative only (FEE-183).
func disarmedSheet(o *feeriev1.Options, sh *feeriev1.Sheet, cs *feeriev1.CombatantState) *feeriev1.Sheet {
	if !cs.GetDisarmed() || o.GetDisarmKeepsWeaponBonus() || !slices.ContainsFunc(sh.GetAttributes(), (*feeriev1.Attribute).GetWeapon) {
		return sh
	}
	sh = proto.CloneOf(sh)
	for _, a := range sh.GetAttributes() {
		if a.GetWeapon() {
			a.Value = 0
		}
	}
	return sh
}

func fighters(st *encounterv1.EncounterState) []fighter { return fight.All(st, newFighter) }

// Start opens the first Action at step 1 (FEE-040).
func (System) Start(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{event(&feeriev1.Event{Kind: &feeriev1.Event_ActionStarted{ActionStarted: &feeriev1.ActionStarted{Action: 1}}})}, nil
}
