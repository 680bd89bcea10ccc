package commands

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"
)

func createCmd() *cobra.Command {
	ids, names, def := systemChoices()
	var options []string
	example := "" // the default's
	for _, s := range client.Systems() {
		options = append(options, s.Options+" for "+s.ID)
		if s.Default {
			example = s.ID + ": {" + s.Options + "}"
		}
	}
	command, fs := client.NewCommand("create", "--name NAME [--system "+strings.Join(ids, "|")+"] [--options FILE] [flags]",
		"Creates an encounter and prints its id alone, so that scripts can capture it:\n  id=$(fray create --name Ruelle)\n  id=$(fray create --name Clairière --system feerie)\n"+
			client.WrapText("The options file (YAML or JSON) is a fray.encounter.v1.RuleOptions ("+example+") or the bare options of the system given ("+strings.Join(options, "; ")+").", 97), 0, 0)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, false)
	name := fs.String("name", "", "name of the encounter (required)")
	system := fs.String("system", def, "rule system id: "+client.OrList(names))
	version := fs.Uint("rules-version", 0, "rule system version (0 = the latest)")
	optionsFile := fs.String("options", "", "house rules file, YAML or JSON")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *name == "" {
			return &client.UsageError{Msg: "--name is required", Short: true}
		}
		req := &encounterv1.CreateEncounterRequest{
			CommandId: c.ID(),
			Encounter: &encounterv1.CreateEncounter{Name: *name, RuleSystem: *system, RulesVersion: uint32(*version)},
		}
		if *optionsFile != "" {
			o, err := client.LoadOptions(*optionsFile, *system)
			if err != nil {
				return err
			}
			req.Encounter.Options = o
		}
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.CreateEncounter(c.Outgoing(ctx), req)
		if err != nil {
			return client.RPCErr("", err)
		}
		if c.Raw {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		fmt.Fprintln(stdout, resp.GetEncounterId())
		return nil
	})
	return command
}

// systemChoices are the ids of the registered systems, the default first, the same with their
// names ("loss (Les Chants de Loss)"), and the default's id.
func systemChoices() (ids, names []string, def string) {
	for _, s := range client.Systems() {
		id, name := s.ID, s.ID+" ("+s.Name+")"
		if s.Default {
			ids, names, def = append([]string{id}, ids...), append([]string{name}, names...), id
			continue
		}
		ids, names = append(ids, id), append(names, name)
	}
	return ids, names, def
}

func addCmd() *cobra.Command {
	var sheets []string
	for _, s := range client.Systems() {
		sheets = append(sheets, s.ID+": "+s.Sheet)
	}
	command, fs := client.NewCommand("add", "ENCOUNTER SHEET_FILE... [--watched] [--hidden] [flags]",
		client.WrapText("Adds one combatant per file. Each file, YAML or JSON, is a fray.encounter.v1.Combatant in protojson field names: id, name, controller, side, and the sheet of the encounter's system: "+client.OrList(sheets)+". Every file is read before any is sent. With --command-id and several files, the files get the ids ID-1, ID-2, ...; --expected-sequence applies to the first.", 95)+"\nAdded once the fight has started, a combatant joins it in progress and acts from the next Tour\n(LOS-039); --watched says it watched at least the last full Tour.\n--hidden (GM): the combatants are hidden from the moment they join: only the GMs and their\ncontrollers see their sheets and numbers (a sheet may also say hidden: true).", 2, -1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	fs.Lookup("json").Usage = "print the server's responses in protojson as one JSON array, an AddCombatantResponse per file in their order (an array for one file too)"
	watched := fs.Bool("watched", false, "joining a fight in progress after watching at least the last full Tour: +2 Initiative (LOS-039)")
	hidden := fs.Bool("hidden", false, "hide the combatants from all but the GMs and their controllers from the start (GM)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		enc, files := pos[0], pos[1:]
		combatants := make([]*encounterv1.Combatant, len(files))
		for i, f := range files {
			if combatants[i], err = client.LoadCombatant(f); err != nil {
				return err
			}
			if *hidden {
				combatants[i].Hidden = true
			}
		}
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		var responses []*encounterv1.AddCombatantResponse // with --json: printed as one array
		for i, cb := range combatants {
			id := c.ID()
			if c.CommandID != "" && len(files) > 1 {
				id = fmt.Sprintf("%s-%d", c.CommandID, i+1)
			}
			req := &encounterv1.AddCombatantRequest{EncounterId: enc, CommandId: id, Combatant: cb, Watched: *watched}
			if i == 0 {
				req.ExpectedSequence = c.Expected.Ptr()
			}
			resp, err := cl.AddCombatant(c.Outgoing(ctx), req)
			if err != nil {
				if c.Raw {
					_ = writeJSONArray(stdout, responses) // those added, before the error
				}
				return client.RPCErr("adding "+files[i], err)
			}
			if c.Raw {
				responses = append(responses, resp)
				continue
			}
			line := "added " + client.English().Combatant(cb)
			for _, ev := range resp.GetEvents() {
				if a := ev.GetCombatantAdded(); a != nil {
					line += fmt.Sprintf(" (#%d)", ev.GetSequence()) + client.Joining(a)
					break
				}
			}
			fmt.Fprintln(stdout, line)
		}
		if c.Raw {
			return writeJSONArray(stdout, responses)
		}
		return nil
	})
	return command
}

// writeJSONArray prints ms as one JSON array of their protojson, whatever their number, so
// that `fray add --json` with several files is one document a program parses.
func writeJSONArray[M proto.Message](w io.Writer, ms []M) error {
	var b strings.Builder
	b.WriteString("[")
	for i, m := range ms {
		one, err := client.PrettyJSON.Marshal(m)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		b.Write(client.PrintableJSON(one))
	}
	if len(ms) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]")
	_, err := fmt.Fprintln(w, b.String())
	return err
}

func startCmd() *cobra.Command {
	command, fs := client.NewCommand("start", "ENCOUNTER [flags]", "Starts the fight: the first Tour's Initiative is rolled.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.StartEncounter(c.Outgoing(ctx), &encounterv1.StartEncounterRequest{
			EncounterId: pos[0], CommandId: c.ID(), ExpectedSequence: c.Expected.Ptr(),
		})
		if err != nil {
			return client.RPCErr("", err)
		}
		if c.Raw {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		client.PrintOutcome(stdout, pos[0], resp.GetEvents(), resp.GetState())
		return nil
	})
	return command
}

// submitCmd is `fray submit ENCOUNTER --command '{...}'`. Its --json prints the response, as
// on every other command; it once meant the command sent, and `--json '{...}'` (the JSON as
// an argument after it) is still taken that way, with a note to use --command.
func submitCmd() *cobra.Command {
	command, fs := client.NewCommand("submit", "ENCOUNTER (--command '{...}' | --file FILE) [--json] [flags]",
		"Submits any fray.encounter.v1.Command, in protojson, e.g.\n  fray submit $id --command '{\"loss\": {\"combatantId\": \"diego\", \"pass\": {}}}'\n"+
			"--json prints the server's response in protojson (--json-response, its old name, too).", 1, 2)
	js := fs.String("command", "", "the Command in protojson")
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	fs.BoolVar(&c.Raw, "json-response", false, "the old name of --json")
	_ = fs.MarkHidden("json-response")
	file := fs.String("file", "", "file holding the Command, JSON or YAML")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		var (
			name string
			data []byte
		)
		if len(pos) == 2 {
			// `fray submit ENC --json '{...}'`, as before --command: --json took the value
			// that now comes as an argument.
			i := slices.IndexFunc(pos, func(p string) bool { return strings.HasPrefix(strings.TrimSpace(p), "{") })
			if i < 0 || !command.Flags().Changed("json") || *js != "" || *file != "" {
				return client.ShortUsagef("too many arguments: %s", pos[1])
			}
			fmt.Fprintln(stderr, "fray submit: --json COMMAND is deprecated: give the command with --command '{...}'; --json alone prints the response, as on every other command")
			*js, c.Raw = pos[i], false
			pos = slices.Delete(slices.Clone(pos), i, i+1)
		}
		switch {
		case (*js == "") == (*file == ""):
			return &client.UsageError{Msg: "give the command with exactly one of --command and --file", Short: true}
		case *js != "":
			name, data = "--command", []byte(*js)
		default:
			if data, err = os.ReadFile(*file); err != nil {
				return err
			}
			name = *file
		}
		cmd := &encounterv1.Command{}
		if err := client.DecodeProto(name, data, cmd); err != nil {
			return err
		}
		if cmd.GetKind() == nil {
			return &client.UsageError{Msg: name + ": the command is empty", Short: true}
		}
		return client.Submit(ctx, c, pos[0], cmd, stdout)
	})
	return command
}

func endCmd() *cobra.Command {
	command, fs := client.NewCommand("end", "ENCOUNTER [--reason R] [flags]",
		"Ends the encounter and prints its dice seed, now revealed, in hex: sha256 of it is the\nseed_sha256 published when the encounter was created.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	reason := fs.String("reason", "", "why the encounter ends")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.EndEncounter(c.Outgoing(ctx), &encounterv1.EndEncounterRequest{
			EncounterId: pos[0], CommandId: c.ID(), ExpectedSequence: c.Expected.Ptr(), Reason: *reason,
		})
		if err != nil {
			return client.RPCErr("", err)
		}
		if c.Raw {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		seed := resp.GetState().GetSeed()
		for _, ev := range resp.GetEvents() {
			if s := ev.GetEncounterEnded().GetSeed(); len(s) > 0 {
				seed = s
			}
		}
		if len(seed) == 0 {
			return fmt.Errorf("the encounter ended but the server revealed no seed")
		}
		fmt.Fprintln(stdout, hex.EncodeToString(seed))
		return nil
	})
	return command
}

func rewindCmd() *cobra.Command {
	command, fs := client.NewCommand("rewind", "ENCOUNTER SEQUENCE [--reason R] [flags]",
		"Returns the encounter to its state after event SEQUENCE (GM only): resources, conditions,\npending reactions, turn order and the dice position. Nothing is deleted: the undo is a new\nevent, and the undone events stay in the log.", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	reason := fs.String("reason", "", "why")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var to uint64
		if _, err := fmt.Sscan(pos[1], &to); err != nil || to == 0 {
			return client.Usagef("SEQUENCE is an event number from 1, not %q", pos[1])
		}
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.RewindEncounter(c.Outgoing(ctx), &encounterv1.RewindEncounterRequest{
			EncounterId: pos[0], CommandId: c.ID(), ExpectedSequence: c.Expected.Ptr(), ToSequence: to, Reason: *reason,
		})
		if err != nil {
			return client.RPCErr("", err)
		}
		if c.Raw {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		client.PrintOutcome(stdout, pos[0], resp.GetEvents(), resp.GetState())
		return nil
	})
	return command
}
