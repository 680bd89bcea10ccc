package client

import (
	"context"
	"fmt"
	"io"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// An Action is one line of a rule system's table of action commands: `fray ka attack
// ENCOUNTER COMBATANT TARGET …` reads a fray.ka.v1.Attack from its arguments and flags, and
// sends it as the attack of a fray.ka.v1.Action through Submit. What every action command
// shares — the connection and command flags, the combatant acting, the Command around it,
// Submit and its printout — is ActionCommand's; the line says only what is the action's own.
type Action struct {
	// Name is the word that runs it after the group's (`fray ka attack`).
	Name string
	// Summary is the line the group's usage lists it with; Synopsis its arguments and flags
	// after its name; Help what it does, by the rules, with an example.
	Summary, Synopsis, Help string
	// MinArgs and MaxArgs bound its positional arguments, ENCOUNTER included (MaxArgs < 0: no
	// bound).
	MinArgs, MaxArgs int
	// NoActor: the action names no combatant (the GM's pursuit, advance, surprise…); otherwise
	// the second argument is the combatant acting, the Action's combatant_id.
	NoActor bool
	// Odds: `fray odds ENC COMBATANT GROUP NAME …` prepares it (the server's GetOdds answers).
	Odds bool
	// Flags adds the action's own flags to fs and returns what reads the action from the
	// positional arguments once the flags are parsed: the message of one arm of the system's
	// Action (a fray.ka.v1.Attack), or a usage error; Empty for an action with nothing of its
	// own.
	Flags func(fs *pflag.FlagSet) Reader
}

// A Reader reads an action from the positional arguments (pos[0] the encounter) and the flags
// its Flags registered; c reads the encounter when the action depends on it.
type Reader func(ctx context.Context, c *Conn, pos []string) (proto.Message, error)

// Empty is the Flags of an action without flags or arguments of its own: m, fresh each time.
func Empty(m proto.Message) func(*pflag.FlagSet) Reader {
	return func(*pflag.FlagSet) Reader {
		return func(context.Context, *Conn, []string) (proto.Message, error) { return proto.Clone(m), nil }
	}
}

// ActionCommand is the command of action a of the rule system id: its usage from a's lines,
// the connection and command flags, a's flags; run, it reads the action and submits it.
func ActionCommand(id string, a Action) *cobra.Command {
	cmd, fs := NewCommand(a.Name, a.Synopsis, a.Help, a.MinArgs, a.MaxArgs)
	cmd.Short = a.Summary
	c := AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	read := a.Flags(fs)
	cmd.RunE = RunE(func(ctx context.Context, pos []string, stdout, _ io.Writer) error {
		kind, err := read(ctx, c, pos)
		if err != nil {
			return err
		}
		actor := ""
		if !a.NoActor {
			actor = pos[1]
		}
		command, err := SystemCommand(id, actor, kind)
		if err != nil {
			return err
		}
		return Submit(ctx, c, pos[0], command, stdout)
	})
	return cmd
}

// SystemCommand is the Command that carries kind, the message of one arm of the rule system
// id's Action (a fray.ka.v1.Attack), done by actor ("" for none): Command's arm named id holds
// the system's Action, whose arm of kind's type holds kind. The per-system oneofs name their
// arms after the system, and no Action has two arms of one type (TestActionArmsAreOnePerType),
// so no system is named here.
func SystemCommand(id, actor string, kind proto.Message) (*encounterv1.Command, error) {
	cmd := &encounterv1.Command{}
	arm := Arm(cmd, "kind", id)
	if arm == nil {
		return nil, fmt.Errorf("fray.encounter.v1.Command has no arm %q: this CLI cannot send that system's actions", id)
	}
	action := cmd.ProtoReflect().NewField(arm).Message()
	fd := armOf(action.Descriptor(), kind.ProtoReflect().Descriptor())
	if fd == nil {
		return nil, fmt.Errorf("%s has no arm of type %s", action.Descriptor().FullName(), kind.ProtoReflect().Descriptor().FullName())
	}
	action.Set(fd, protoreflect.ValueOfMessage(kind.ProtoReflect()))
	if actor != "" {
		who := action.Descriptor().Fields().ByName("combatant_id")
		if who == nil {
			return nil, fmt.Errorf("%s names no combatant_id", action.Descriptor().FullName())
		}
		action.Set(who, protoreflect.ValueOfString(actor))
	}
	cmd.ProtoReflect().Set(arm, protoreflect.ValueOfMessage(action))
	return cmd, nil
}

// armOf is the field of a oneof of md whose message is of type kind, or nil.
func armOf(md, kind protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	for i := range md.Oneofs().Len() {
		fields := md.Oneofs().Get(i).Fields()
		for j := range fields.Len() {
			if f := fields.Get(j); f.Message() != nil && f.Message().FullName() == kind.FullName() {
				return f
			}
		}
	}
	return nil
}

// Words is the free text that ends an action's arguments (`fray feerie gesture ENC rubezahl
// shouts a warning`), joined by spaces; empty, a usage error saying the what is empty.
func Words(what string, words []string) (string, error) {
	text := strings.TrimSpace(strings.Join(words, " "))
	if text == "" {
		return "", ShortUsagef("the %s is empty", what)
	}
	return text, nil
}
