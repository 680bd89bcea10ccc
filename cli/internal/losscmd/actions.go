package losscmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

// The Les Chants de Loss actions beyond attack, react and pass: the readers of their lines of
// the table (loss.go).

// choice matches word (any case) among the keys of choices, or says what the choices are.
func choice[T any](what, word string, names []string, choices map[string]T) (T, error) {
	v, ok := choices[strings.ToLower(word)]
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s %q: %s", what, word, strings.Join(names, ", "))
	}
	return v, nil
}

func declareFlags(fs *pflag.FlagSet) client.Reader {
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		intention, err := client.Words("intention", pos[2:])
		if err != nil {
			return nil, err
		}
		return &lossv1.Declare{Intention: intention}, nil
	}
}

func waitFlags(fs *pflag.FlagSet) client.Reader {
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		phase, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || phase < 1 {
			return nil, client.ShortUsagef("phase %q: a phase is a number from 1 up", pos[2])
		}
		return &lossv1.Wait{UntilPhase: int32(phase)}, nil
	}
}

func aimFlags(fs *pflag.FlagSet) client.Reader {
	points := fs.Int("points", 0, "PA spent aiming, +1 each (default 1)")
	tour := fs.Bool("tour", false, "aim for the whole Tour: the first action of the Tour, all PA")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		aim := &lossv1.Aim{Weapon: pos[2], WholeTour: *tour, Points: int32(*points)}
		switch {
		case *tour && *points != 0:
			return nil, client.ShortUsagef("--points and --tour: choose one")
		case *points < 0:
			return nil, client.ShortUsagef("--points %d: aim with 1 PA or more", *points)
		case !*tour && *points == 0:
			aim.Points = 1
		}
		return aim, nil
	}
}

var simpleNames = []string{"speak", "social", "pick-up", "move", "stand-up", "recover-weapon"}

var simpleKinds = map[string]lossv1.SimpleKind{
	"speak":          lossv1.SimpleKind_SIMPLE_KIND_SPEAK,
	"social":         lossv1.SimpleKind_SIMPLE_KIND_SOCIAL,
	"pick-up":        lossv1.SimpleKind_SIMPLE_KIND_PICK_UP,
	"move":           lossv1.SimpleKind_SIMPLE_KIND_MOVE,
	"stand-up":       lossv1.SimpleKind_SIMPLE_KIND_STAND_UP,
	"recover-weapon": lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON,
}

func actFlags(fs *pflag.FlagSet) client.Reader {
	desc := fs.String("description", "", "what is said or done")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		kind, err := choice("action", pos[2], simpleNames, simpleKinds)
		if err != nil {
			return nil, client.ShortUsagef("%s", err)
		}
		return &lossv1.Simple{Kind: kind, Description: *desc}, nil
	}
}

func disasterFlags(fs *pflag.FlagSet) client.Reader {
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		desc, err := client.Words("description", pos[2:])
		if err != nil {
			return nil, err
		}
		return &lossv1.Disaster{Description: desc}, nil
	}
}

var dyingNames = []string{"sacrifice", "care", "finish"}

var dyingChoices = map[string]lossv1.DyingChoice{
	"sacrifice": lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION,
	"care":      lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE,
	"finish":    lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF,
}

func dyingFlags(fs *pflag.FlagSet) client.Reader {
	vertu := fs.String("vertu", "", "the Vertu of the sacrificed Inspiration: Sagesse, Honneur or Courage")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		ch, err := choice("choice", pos[3], dyingNames, dyingChoices)
		if err != nil {
			return nil, usage("%s", err)
		}
		d := &lossv1.Dying{TargetId: pos[2], Choice: ch}
		switch {
		case ch == lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION && *vertu == "":
			return nil, usage("sacrifice needs --vertu Sagesse|Honneur|Courage")
		case ch != lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION && *vertu != "":
			return nil, usage("--vertu goes with sacrifice")
		case *vertu != "":
			v, ok := vertuOf(*vertu)
			if !ok {
				return nil, usage("--vertu %q: Sagesse, Honneur or Courage", *vertu)
			}
			d.Vertu = v
		}
		return d, nil
	}
}

func pursuitFlags(fs *pflag.FlagSet) client.Reader {
	var pursuers, pursued client.ListFlag
	fs.Var(&pursuers, "pursuers", "the pursuers (repeatable, or a,b)")
	fs.Var(&pursued, "pursued", "the pursued (repeatable, or a,b)")
	distance := fs.Int("distance", 0, "the starting distance in units: 1 contact, 2 close, 3 in range, 4 far, 5 very far, 6 out of range")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		switch {
		case len(pursuers) == 0 || len(pursued) == 0:
			return nil, usage("a pursuit needs --pursuers and --pursued")
		case *distance < 1 || *distance > int(latest.MaxDistance):
			return nil, usage("--distance %d: a pursuit starts at 1 (contact) to %d (out of range) units", *distance, latest.MaxDistance)
		}
		sp := &lossv1.StartPursuit{PursuerIds: pursuers, PursuedIds: pursued, Distance: int32(*distance)}
		// StartPursuit names no combatant: the Action's combatant_id is left empty.
		return sp, nil
	}
}

var chaseNames = []string{"charge", "clothesline", "closer", "farther", "tackle", "shoot-legs", "zigzags"}

var chaseKinds = map[string]lossv1.PursuitKind{
	"charge":      lossv1.PursuitKind_PURSUIT_KIND_CHARGE,
	"clothesline": lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE,
	"closer":      lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE,
	"farther":     lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE,
	"tackle":      lossv1.PursuitKind_PURSUIT_KIND_TACKLE,
	"shoot-legs":  lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS,
	"zigzags":     lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS,
}

func chaseFlags(fs *pflag.FlagSet) client.Reader {
	target := fs.String("target", "", "the opponent of a charge, clothesline, tackle or shot at the legs")
	exploits := fs.Int("exploits", 0, "Exploits declared (closer/farther: 2 move 2 units; zigzags: harder still)")
	weapon := fs.String("weapon", "", "the ranged weapon of shoot-legs (may be left out when the combatant has one weapon)")
	var sp SpendFlags
	sp.Register(fs)
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		kind, err := choice("pursuit action", pos[2], chaseNames, chaseKinds)
		if err != nil {
			return nil, usage("%s", err)
		}
		needsTarget := kind != lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE && kind != lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS
		switch {
		case needsTarget && *target == "":
			return nil, usage("%s needs --target", strings.ToLower(pos[2]))
		case !needsTarget && *target != "":
			return nil, usage("%s has no --target", strings.ToLower(pos[2]))
		case *weapon != "" && kind != lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
			return nil, usage("--weapon goes with shoot-legs")
		case *exploits < 0 || *exploits > maxExploits:
			return nil, usage("--exploits %d: from 0 to %d", *exploits, maxExploits)
		}
		pa := &lossv1.PursuitAction{Kind: kind, TargetId: *target, Exploits: int32(*exploits), Weapon: *weapon,
			Closer: strings.EqualFold(pos[2], "closer")}
		if pa.Spend, err = sp.Spend(); err != nil {
			return nil, err
		}
		return pa, nil
	}
}

func grantFlags(fs *pflag.FlagSet) client.Reader {
	reason := fs.String("reason", "", "why: the situation or equipment")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		n, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || n == 0 {
			return nil, client.ShortUsagef("%q: give a number of free raises other than 0 (negative takes them back)", pos[2])
		}
		g := &lossv1.GrantFreeRaises{Count: int32(n), Reason: *reason}
		return g, nil
	}
}
