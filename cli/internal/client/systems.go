package client

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A System is a rule system's part of the CLI, which its package (cli/internal/kacmd…)
// registers from its init: the group of its action commands, and how `fray state` and `fray
// legal` print its encounters. The commands that are not a system's (create, state, legal…)
// read the registry instead of naming the systems; a rule system no package registers still
// plays through `fray submit`.
type System struct {
	// ID is the rule system's id ("ka"), as RulesService lists it; it is also the name of the
	// system's arm in every per-system oneof (Command.ka, RuleOptions.ka, EncounterState.ka,
	// Combatant.ka).
	ID string
	// Name is the system's name in full ("Les Chants de Loss").
	Name string
	// Default: `fray create` plays this system without --system, and an encounter that names no
	// system reads as one of it (Les Chants de Loss, the first).
	Default bool
	// Group names the command group of the system's actions (`fray d20 attack`), Summary is the
	// line `fray help` lists it with, Help the group's usage text.
	Group, Summary, Help string
	// Flat: the members also run without the group's name, hidden from the usage (`fray attack`
	// for `fray loss attack`): Les Chants de Loss's commands came before there were groups, and
	// the README and scripts use them so. A name another command has keeps that command.
	Flat bool
	// Actions are the table of the group's commands, in the order its usage lists them.
	Actions []Action
	// What the general commands' help says of the system: Options an example of its bare house
	// rules for fray create --options ("gm_fursa: 1"), Sheet the main fields of its sheet for
	// fray add ("{kind, traits, ...}"), State what fray state shows of its encounters ("its
	// round, each combatant's hit points").
	Options, Sheet, State string
	// WriteState prints the system's part of `fray state`: its round, each combatant's numbers.
	WriteState func(w io.Writer, st *encounterv1.EncounterState, names *Names)
	// LegalText is one legal action as `fray state --for` and `fray legal` print it.
	LegalText func(name, desc string, cost int32, targets []string, weapon, rule string) string
	// Answer is the command and its choices with which defender answers the attack waiting for
	// it ("react", "parry|dodge|none"), printed after each command; nil for a system that waits
	// on no answer.
	Answer func(st *encounterv1.EncounterState, defender string) (command, choices string)
	// CommandLine writes a legal action's pre-filled command as the group's command that sends
	// it (found false for one none of them sends: `fray legal` prints a `fray submit` then),
	// and ChoiceFlags how each choice field is given on it; nil for a system without them.
	CommandLine func(cmd *encounterv1.Command) (line CommandLine, found bool)
	ChoiceFlags map[string]ChoiceFlag
}

var (
	systemsMu sync.RWMutex
	known     []System
)

// RegisterSystem adds s to the systems the CLI knows. It panics when s lacks an id, a group,
// one of its functions, or an arm in the per-system oneofs, or when its id or group is taken:
// a mistake of the program, found by any test that runs the CLI.
func RegisterSystem(s System) {
	switch {
	case s.ID == "" || s.Group == "" || s.WriteState == nil || s.LegalText == nil || s.Options == "" || s.Sheet == "" || s.State == "":
		panic(fmt.Sprintf("client.RegisterSystem(%q): id, group, WriteState, LegalText, Options, Sheet and State are required", s.ID))
	case Arm(&encounterv1.Command{}, "kind", s.ID) == nil:
		panic(fmt.Sprintf("client.RegisterSystem(%q): fray.encounter.v1.Command has no arm %q", s.ID, s.ID))
	}
	systemsMu.Lock()
	defer systemsMu.Unlock()
	for _, o := range known {
		if o.ID == s.ID || o.Group == s.Group || (o.Default && s.Default) {
			panic(fmt.Sprintf("client.RegisterSystem(%q): id, group or default taken by %q", s.ID, o.ID))
		}
	}
	known = append(known, s)
	// The default first, then by group name: the order the packages' inits ran in is that of
	// their import paths, which says nothing to a reader of `fray help`.
	slices.SortFunc(known, func(a, b System) int {
		switch {
		case a.Default && !b.Default:
			return -1
		case b.Default && !a.Default:
			return 1
		}
		return cmp.Compare(a.Group, b.Group)
	})
}

// Systems are the registered systems: the default first, then by group name.
func Systems() []System {
	systemsMu.RLock()
	defer systemsMu.RUnlock()
	return slices.Clone(known)
}

// SystemByID is the registered system id, if any.
func SystemByID(id string) (System, bool) {
	for _, s := range Systems() {
		if s.ID == id {
			return s, true
		}
	}
	return System{}, false
}

// DefaultSystem is the system `fray create` plays without --system.
func DefaultSystem() (System, bool) {
	for _, s := range Systems() {
		if s.Default {
			return s, true
		}
	}
	return System{}, false
}

// SystemOf is the system of an encounter: the one its rule_system names, else the one whose
// state it holds, else the default one. ok is false when none is registered, and when the
// state names a system this CLI has no package for (its tables are not another system's).
func SystemOf(st *encounterv1.EncounterState) (System, bool) {
	if id := st.GetRuleSystem(); id != "" {
		return SystemByID(id)
	}
	m := st.ProtoReflect()
	if fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("system")); fd != nil {
		if s, ok := SystemByID(string(fd.Name())); ok {
			return s, true
		}
	}
	return DefaultSystem()
}

// Arm is the field of msg's oneof named oneof that holds system's message (Command's kind
// "ka": the field ka, a fray.ka.v1.Action), or nil when there is none: the per-system oneofs
// name each arm after its system's id.
func Arm(msg interface {
	ProtoReflect() protoreflect.Message
}, oneof, system string) protoreflect.FieldDescriptor {
	od := msg.ProtoReflect().Descriptor().Oneofs().ByName(protoreflect.Name(oneof))
	if od == nil {
		return nil
	}
	fd := od.Fields().ByName(protoreflect.Name(system))
	if fd == nil || fd.Message() == nil {
		return nil
	}
	return fd
}

// FlatAction is the command of a flat system's action name (`fray grant`'s free raises are
// Les Chants de Loss's grant), or nil.
func FlatAction(name string) *cobra.Command {
	for _, s := range Systems() {
		if !s.Flat {
			continue
		}
		for _, a := range s.Actions {
			if a.Name == name {
				return ActionCommand(s.ID, a)
			}
		}
	}
	return nil
}

// SystemGroup is the command group of s: `fray ka …`.
func SystemGroup(s System) *cobra.Command {
	members := make([]Member, len(s.Actions))
	for i, a := range s.Actions {
		members[i] = Member{Name: a.Name, Summary: a.Summary, Cmd: func() *cobra.Command { return ActionCommand(s.ID, a) }}
	}
	g := Group(s.Group, s.Help, members)
	g.Short = s.Summary
	if s.Flat {
		g.Annotations = map[string]string{flatAnnotation: "true"}
	}
	return g
}

// flatAnnotation marks the group of a flat system, whose members unknown subcommands are
// compared with too (`fray atack`: did you mean attack?).
const flatAnnotation = "fray.flat"

// OrList: "a", "a or b", "a, b or c".
func OrList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
