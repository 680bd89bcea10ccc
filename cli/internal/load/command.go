package load

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"google.golang.org/grpc"
)

// Command runs `fray load` with args, as the fray command would.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return commands.Execute(ctx, NewCommand(), args, stdout, stderr)
}

// NewCommand is the `fray load` subcommand.
func NewCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "load [flags]",
		Short: "play N encounters at once and measure them beside a health Check, a JetStream publish and a skeleton of Submit",
		Long: fmt.Sprintf("N encounters at once, each playing a fight of its rule system (loss, ka, feerie, d20seg in turn)\n"+
			"as its GM (%s) and a player (%s) who answers the attacks on its combatants; then commands/s,\n"+
			"latency percentiles and errors by code, beside a gRPC health Check and (with --nats-url or\n"+
			"--embedded) a conditional JetStream publish and a skeleton of Submit's topology (a gRPC server\n"+
			"built as the encounter service's, a trivial gRPC resolver, the conditional publish, carrying\n"+
			"the load's own Submits) measured on the same servers.", GMSubject, PlayerSubject),
		Args: client.NoArgs,
	}
	// The flags go through a flag.FlagSet (platform's helpers take one), parsed by cobra.
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	addr := fs.String("addr", platform.Env("FRAY_ADDR", "127.0.0.1:7070"), "fray server (EncounterService) address; tokens minted from the dev key of the `fray dev` there (env FRAY_ADDR)")
	embedded := fs.Bool("embedded", false, "start the `fray dev` stack in this process on free ports with a temporary data folder, rate limits off (and measure server CPU per command)")
	encounters := fs.Int("encounters", 16, "encounters playing at once (= commands in flight; the anchors' concurrency too)")
	duration := fs.Duration("duration", 10*time.Second, "how long the load runs")
	maxCommands := fs.Int64("commands", 0, "stop after this many commands (0: no limit but --duration)")
	fights := fs.Int("fights", 0, "each encounter plays this many fights, then stops (0: no limit but --duration)")
	systemsFlag := fs.String("systems", strings.Join(Systems(), ","), "rule systems to play, dealt to the encounters in turn")
	fightLength := fs.Int("fight-length", 200, "end a fight and start another after this many commands")
	anchor := fs.Duration("anchor-duration", 3*time.Second, "how long each anchor runs, each of its callers making one call at least (0: skip the anchors)")
	repeat := fs.Int("repeat", 1, "rounds, each the load, then the health Check anchor, then the JetStream and skeleton anchors; figures reported as min / median / max over them")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quiet := fs.Bool("quiet", false, "no progress line")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the first round's load (not the anchors) to this file (with --embedded: server and generator together)")
	tenant := fs.String("tenant", auth.DevTenant, "tenant of the two identities")
	gmToken := fs.String("gm-token", os.Getenv("FRAY_LOAD_GM_TOKEN"), "bearer token of the GM (default: minted from the dev key; env FRAY_LOAD_GM_TOKEN)")
	playerToken := fs.String("player-token", os.Getenv("FRAY_LOAD_PLAYER_TOKEN"), "bearer token of the player, subject "+PlayerSubject+" (env FRAY_LOAD_PLAYER_TOKEN)")
	tlsCA := fs.String("tls-ca", os.Getenv("FRAY_TLS_CA"), "verify the server's TLS certificate against this PEM CA (env FRAY_TLS_CA)")
	useTLS := fs.Bool("tls", os.Getenv("FRAY_TLS") != "", "use TLS (env FRAY_TLS; the default off loopback)")
	natsURL := fs.String("nats-url", platform.Env("FRAY_NATS_URL", ""), "NATS of the server, for the JetStream anchor (a scratch stream is created and deleted; env FRAY_NATS_URL)")
	var natsAuth natsconn.Auth
	natsAuth.AddFlags(fs)
	cmd.Flags().AddGoFlagSet(fs)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
		if *repeat < 1 {
			return fmt.Errorf("--repeat %d: at least 1 round", *repeat)
		}
		cfg := Config{Encounters: *encounters, Duration: *duration, Commands: *maxCommands, Fights: *fights, FightLength: *fightLength, Systems: strings.Split(*systemsFlag, ",")}
		if !*quiet {
			cfg.Progress = stderr
		}
		var signer auth.Signer
		natsOpts, err := natsAuth.Options()
		if err != nil {
			return err
		}
		if *embedded {
			stack, err := startEmbedded(ctx)
			if err != nil {
				return err
			}
			defer stack.stop()
			*addr, *natsURL, natsOpts, signer = stack.addr, stack.natsURL, nil, stack.key
		} else if *gmToken == "" || *playerToken == "" {
			path, ok := auth.FindDevKey(*addr)
			if !ok {
				return fmt.Errorf("no dev key for %s: run `fray dev` there, use --embedded, or give --gm-token and --player-token", *addr)
			}
			if signer, err = auth.LoadDevKey(path); err != nil {
				return fmt.Errorf("dev signing key: %w", err)
			}
		}
		// The skeleton anchor sends and answers the Submits the load made.
		sampler := &Sampler{Max: *encounters}
		dial := func(subject, token string) (*grpc.ClientConn, error) {
			creds, secure, err := server.Transport(*addr, *tlsCA, *useTLS)
			if err != nil {
				return nil, err
			}
			var src auth.TokenSource = auth.StaticToken(token)
			if token == "" {
				src = &auth.MintedToken{Signer: signer, Claims: auth.DevClaims(*tenant, subject, auth.DevTokenTTL)}
			}
			return grpc.NewClient(*addr, grpc.WithTransportCredentials(creds), grpc.WithPerRPCCredentials(auth.PerRPCToken(src, "", secure)),
				grpc.WithChainUnaryInterceptor(sampler.Interceptor()))
		}
		gmConn, err := dial(GMSubject, *gmToken)
		if err != nil {
			return err
		}
		defer gmConn.Close()
		plConn, err := dial(PlayerSubject, *playerToken)
		if err != nil {
			return err
		}
		defer plConn.Close()
		cfg.GM, cfg.Player = gmConn, plConn

		rep := &Report{Encounters: cfg.Encounters, Repeat: *repeat}
		var stopErr error
		for i := range *repeat {
			if *repeat > 1 {
				cfg.ProgressLabel = fmt.Sprintf("round %d/%d  ", i+1, *repeat)
			}
			profile := ""
			if i == 0 {
				profile = *cpuProfile
			}
			r, err := round(ctx, cfg, profile, *anchor, gmConn, *natsURL, natsOpts, sampler)
			stopped := (*StoppedError)(nil)
			if err != nil && !errors.As(err, &stopped) {
				return err
			}
			if !*embedded {
				r.CPUPerCommand, r.CPUPerSkeletonSubmit = 0, 0
			}
			rep.Rounds = append(rep.Rounds, r)
			if stopped != nil {
				stopErr = stopped // what ran is reported, then why the load stopped (exit 1)
				break
			}
		}
		rep.Spread = spreadOf(rep.Rounds)
		sent := int64(0)
		for _, r := range rep.Rounds {
			sent += r.Commands.Count
		}
		switch {
		case *embedded && sent > 0:
			rep.CPUNote = "process CPU (user+system) over the load ÷ commands: the embedded server, NATS and the load generator share the process"
		case *embedded:
			rep.CPUNote = "no commands"
		default:
			rep.CPUNote = "not measured: the server is remote (run with --embedded to measure it)"
		}
		rep.Machine = fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return errors.Join(enc.Encode(rep), stopErr)
		}
		printReport(stdout, rep)
		return stopErr
	}
	return cmd
}

// round runs the load, then the health Check anchor on the GM's connection, then (with a
// NATS URL) the JetStream anchor and the skeleton anchor (carrying sampler's Submits), each
// for its duration at the load's concurrency, and relates them. profile, when set, is the
// file of the load's CPU profile.
func round(ctx context.Context, cfg Config, profile string, anchor time.Duration, gm grpc.ClientConnInterface, natsURL string, natsOpts []nats.Option, sampler *Sampler) (*Round, error) {
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
	}
	cpu0 := cpuTime()
	r, err := Run(ctx, cfg)
	cpu := cpuTime() - cpu0
	if profile != "" {
		pprof.StopCPUProfile()
	}
	if stopped := (*StoppedError)(nil); errors.As(err, &stopped) {
		return r, err // the figures so far, without anchors: the load did not run its course
	}
	if err != nil {
		return nil, err
	}
	if r.Commands.Count > 0 {
		r.CPUPerCommand = Duration(cpu / time.Duration(r.Commands.Count))
	}
	if anchor <= 0 {
		return r, nil
	}
	h := HealthAnchor(ctx, gm, cfg.Encounters, anchor)
	r.Health = &h
	if h.PerSecond > 0 {
		r.RatioHealth = r.Commands.PerSecond / h.PerSecond
	}
	if natsURL == "" {
		return r, nil
	}
	p, err := JetStreamAnchor(ctx, natsURL, natsOpts, cfg.Encounters, anchor)
	if err != nil {
		return nil, fmt.Errorf("JetStream anchor: %w", err)
	}
	r.JetStream = &p
	if p.PerSecond > 0 {
		r.RatioJetStream = r.Commands.PerSecond / p.PerSecond
	}
	samples := sampler.Samples()
	if len(samples) == 0 {
		return r, nil // no Submit succeeded: nothing to carry
	}
	cpu0 = cpuTime()
	sk, err := SkeletonAnchor(ctx, natsURL, natsOpts, samples, cfg.Encounters, anchor)
	if err != nil {
		return nil, fmt.Errorf("skeleton anchor: %w", err)
	}
	if sk.Count > 0 {
		r.CPUPerSkeletonSubmit = Duration((cpuTime() - cpu0) / time.Duration(sk.Count))
	}
	r.Skeleton = &sk
	if sk.PerSecond > 0 {
		r.RatioSkeleton = r.Commands.PerSecond / sk.PerSecond
	}
	return r, nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func line(w io.Writer, name string, s Stats) {
	fmt.Fprintf(w, "%-18s %8d  %9.0f/s  p50 %-10v p95 %-10v p99 %-10v max %-10v", name, s.Count, s.PerSecond, s.P50, s.P95, s.P99, s.Max)
	if len(s.Errors) > 0 {
		var codes []string
		for c, n := range s.Errors {
			codes = append(codes, fmt.Sprintf("%s %d", c, n))
		}
		sort.Strings(codes)
		fmt.Fprintf(w, "  errors: %s", strings.Join(codes, ", "))
	}
	fmt.Fprintln(w)
	for _, c := range slices.Sorted(maps.Keys(s.Example)) {
		fmt.Fprintf(w, "%20s%s: %s\n", "", c, s.Example[c])
	}
}

// printReport prints one round as it is; several, each in short (the rule systems' figures
// are in the JSON), then each figure's min / median / max over them.
func printReport(w io.Writer, rep *Report) {
	if len(rep.Rounds) == 1 {
		r := rep.Rounds[0]
		fmt.Fprintf(w, "fray load: %d encounters for %v (%s)\n", rep.Encounters, r.Elapsed, rep.Machine)
		printRound(w, r, true)
		printCPU(w, r.CPUPerCommand, rep.CPUNote)
		if r.CPUPerSkeletonSubmit > 0 {
			fmt.Fprintf(w, "CPU per skeleton Submit: %v (the same measure over the skeleton anchor)\n", r.CPUPerSkeletonSubmit)
		}
		return
	}
	fmt.Fprintf(w, "fray load: %d encounters, %d rounds of the load, then a health Check, a JetStream publish and a skeleton Submit (%s)\n", rep.Encounters, len(rep.Rounds), rep.Machine)
	for i, r := range rep.Rounds {
		fmt.Fprintf(w, "round %d: load for %v\n", i+1, r.Elapsed)
		printRound(w, r, false)
		if r.CPUPerCommand > 0 {
			fmt.Fprintf(w, "  CPU per command: %v\n", r.CPUPerCommand)
		}
		if r.CPUPerSkeletonSubmit > 0 {
			fmt.Fprintf(w, "  CPU per skeleton Submit: %v\n", r.CPUPerSkeletonSubmit)
		}
	}
	sp := rep.Spread
	fmt.Fprintf(w, "min / median / max over %d rounds:\n", len(rep.Rounds))
	rangeLine(w, "commands/s", sp.CommandsPerSecond, "%.0f")
	rangeLine(w, "health Check/s", sp.HealthPerSecond, "%.0f")
	rangeLine(w, "JetStream publish/s", sp.JetStreamPerSecond, "%.0f")
	rangeLine(w, "skeleton Submit/s", sp.SkeletonPerSecond, "%.0f")
	rangeLine(w, "÷ health Check", sp.RatioHealth, "%.3f")
	rangeLine(w, "÷ JetStream publish", sp.RatioJetStream, "%.3f")
	rangeLine(w, "÷ skeleton Submit", sp.RatioSkeleton, "%.3f")
	rangeLine(w, "p50", sp.P50, "%v")
	rangeLine(w, "p95", sp.P95, "%v")
	rangeLine(w, "p99", sp.P99, "%v")
	rangeLine(w, "max", sp.Max, "%v")
	rangeLine(w, "CPU per command", sp.CPUPerCommand, "%v")
	rangeLine(w, "CPU per skeleton", sp.CPUPerSkeletonSubmit, "%v")
	fmt.Fprintf(w, "CPU per command: %s\n", rep.CPUNote)
}

// rangeLine prints one figure's min / median / max, if it was measured.
func rangeLine[T ~float64 | ~int64](w io.Writer, name string, r *Range[T], format string) {
	if r == nil {
		return
	}
	f := func(v T) string { return fmt.Sprintf(format, v) }
	fmt.Fprintf(w, "  %-20s %12s %12s %12s\n", name, f(r.Min), f(r.Median), f(r.Max))
}

// printRound prints a round's commands, per rule system when systems is set, and its anchors.
func printRound(w io.Writer, r *Round, systems bool) {
	line(w, "commands", r.Commands)
	if systems {
		for _, n := range slices.Sorted(maps.Keys(r.Systems)) {
			line(w, "  "+n+fmt.Sprintf(" (%d fights)", r.Systems[n].Fights), r.Systems[n].Stats)
			fmt.Fprintf(w, "%20s%d of them by the player (actions and reactions of its combatants)\n", "", r.Systems[n].PlayerCommands)
		}
	}
	if n := r.Commands.Errors["ResourceExhausted"]; n > 0 {
		fmt.Fprintf(w, "%d commands were refused by the server's rate limits (ResourceExhausted): these figures are the limits', not the server's\n", n)
	}
	if r.Health != nil {
		line(w, "health Check", *r.Health)
		fmt.Fprintf(w, "  commands/s ÷ health Check/s: %.3f\n", r.RatioHealth)
	}
	if r.JetStream != nil {
		line(w, "JetStream publish", *r.JetStream)
		fmt.Fprintf(w, "  commands/s ÷ conditional publishes/s: %.3f\n", r.RatioJetStream)
	} else {
		fmt.Fprintln(w, "JetStream publish: not measured (give --nats-url)")
	}
	if r.Skeleton != nil {
		line(w, "skeleton Submit", *r.Skeleton)
		fmt.Fprintf(w, "  commands/s ÷ skeleton Submits/s: %.3f (gRPC in, gRPC to a trivial resolver, conditional publish)\n", r.RatioSkeleton)
	}
}

func printCPU(w io.Writer, cpu Duration, note string) {
	if cpu > 0 {
		fmt.Fprintf(w, "CPU per command: %v (%s)\n", cpu, note)
	} else {
		fmt.Fprintf(w, "CPU per command: %s\n", note)
	}
}

// embeddedStack is `fray dev` run in this process.
type embeddedStack struct {
	addr, natsURL string
	key           auth.Signer
	stop          func()
}

// startEmbedded runs the fray dev stack on free loopback ports over a temporary data folder,
// its NATS embedded without users (so that the load's JetStream anchor may create its scratch
// stream), rate limits off.
func startEmbedded(ctx context.Context) (*embeddedStack, error) {
	data, err := os.MkdirTemp("", "fray-load-")
	if err != nil {
		return nil, err
	}
	ns, err := natsconn.Embedded("127.0.0.1", -1, data+"/jetstream")
	if err != nil {
		os.RemoveAll(data)
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{
			Listen: "127.0.0.1:0", Data: data, NATSURL: ns.ClientURL(), Grace: 5 * time.Second,
			Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready: func(a string) { ready <- a },
		})
	}()
	stop := func() {
		cancel()
		<-done
		ns.Shutdown()
		ns.WaitForShutdown()
		os.RemoveAll(data)
	}
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		ns.Shutdown()
		os.RemoveAll(data)
		return nil, fmt.Errorf("embedded fray dev: %w", err)
	}
	key, _, err := auth.LoadOrCreateDevKey(data)
	if err != nil {
		stop()
		return nil, err
	}
	return &embeddedStack{addr: addr, natsURL: ns.ClientURL(), key: key, stop: stop}, nil
}
