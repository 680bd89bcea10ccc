package commands

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// ruleServer is a one-encounter, in-memory EncounterService that decides with the real rules
// engine and rolls fixed dice: enough to play the README walkthrough through the CLI.
type ruleServer struct {
	encounterv1.UnimplementedEncounterServiceServer
	reg  *engine.Registry
	seed []byte

	mu   sync.Mutex
	dice *dice.Fixed
	// roller, when set, rolls instead of dice: the README's examples play with a seed's stream.
	roller dice.Roller
	st     *encounterv1.EncounterState
	log    []*encounterv1.Event
}

func (s *ruleServer) apply(ctx context.Context, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	actor := platform.Principal(ctx)
	if add := cmd.GetAddCombatant(); add != nil && add.GetCombatant().GetController() != "" {
		// As the encounter service does: a bare controller is a subject of the caller's tenant.
		c := proto.CloneOf(add.GetCombatant())
		c.Controller = platform.Qualify(platform.Tenant(ctx), c.GetController())
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c, Watched: add.GetWatched()}}}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == nil {
		s.st = &encounterv1.EncounterState{EncounterId: "enc-1"}
	}
	var roller dice.Roller = s.dice
	if s.roller != nil {
		roller = s.roller
	}
	events, err := s.reg.Decide(s.st, cmd, engine.Env{Actor: actor, Dice: roller, Seed: s.seed})
	if err != nil {
		code := codes.Unknown
		if re, ok := engine.AsRuleError(err); ok {
			code = map[engine.Code]codes.Code{
				engine.CodeInvalid: codes.InvalidArgument, engine.CodePrecondition: codes.FailedPrecondition,
				engine.CodeNotFound: codes.NotFound, engine.CodePermission: codes.PermissionDenied,
				engine.CodeUnimplemented: codes.Unimplemented,
			}[re.Code]
		}
		return nil, nil, status.Error(code, err.Error())
	}
	for _, ev := range events {
		// Fold a copy: Evolve may keep parts of the event in the state (the Pursuit of
		// PursuitStarted) and change them later, and the log must keep what was recorded, as a
		// store that serialises the events does.
		if err := s.reg.Evolve(s.st, proto.CloneOf(ev)); err != nil {
			return nil, nil, status.Error(codes.Internal, err.Error())
		}
	}
	s.log = append(s.log, events...)
	return events, proto.CloneOf(s.st), nil
}

func (s *ruleServer) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.CreateEncounterResponse{EncounterId: st.GetEncounterId(), Events: evs, State: st}, nil
}

func (s *ruleServer) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: req.GetCombatant(), Watched: req.GetWatched()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	evs, st, err := s.apply(ctx, req.GetCommand())
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &encounterv1.GetEncounterResponse{State: proto.CloneOf(s.st)}
	if req.GetLegalFor() != "" {
		legal, err := s.reg.Legal(s.st, req.GetLegalFor())
		if err != nil {
			return nil, status.Error(codes.NotFound, err.Error())
		}
		resp.Legal = legal
	}
	return resp, nil
}

func (s *ruleServer) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	s.mu.Lock()
	log := append([]*encounterv1.Event(nil), s.log...)
	s.mu.Unlock()
	for _, r := range narrated(req, log) {
		if err := st.Send(r); err != nil {
			return err
		}
	}
	return nil
}

// LOS-T01 played through the CLI: Diego (8 + d10 7 = 15 PA) attacks the ruffian with 6 + 6 + 8
// = 20 against 15; the ruffian dodges with 1 Exploit, 5 + 7 + 9 = 21 against 20: a miss, and
// +5 on the ruffian's next action.
func TestWalkthroughWithTheRulesEngine(t *testing.T) {
	clearEnv(t)
	srv := &ruleServer{reg: engine.NewRegistry(loss.New()), seed: dice.NewSeed(), dice: dice.NewFixed(7, 6, 8, 9)}
	lis := serveRules(t, srv)
	sheet := func(name string) string { return filepath.Join(sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Ruelle"))
	require.Equal(t, "added Diego (diego): player character, side pcs, controller david (#2)\n"+
		"added Le malfrat (ruffian): adversaire, side foes, controller gm (#3)\n",
		step("add", "enc-1", sheet("diego.yaml"), sheet("ruffian.yaml")))
	require.Equal(t, "#4 The fight starts\n#5 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA\n",
		step("start", "enc-1"))
	// The engine's prompt now gives the Difficulty the defender must beat, which is the one
	// passed on by the attack (LOS-012), rather than the weapon.
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"waiting for ruffian (dev/gm): Diego attacks Le malfrat (total 20; Difficulty 15 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as dev/gm\n",
		step("attack", "enc-1", "diego", "ruffian", "--as", "david"))

	// Only Diego's controller and the GM command him.
	code, _, errOut := run(t, "pass", "enc-1", "diego", "--as", "florence", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray pass: ")
	require.NotContains(t, errOut, "rpc error")

	// The engine records how every Difficulty came about: the Exploit's +5 on top of the 15
	// passed on by Diego's attack (LOS-010, LOS-012).
	require.Equal(t, "#7 Le malfrat dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010))\n"+
		"#8 Diego's attack on Le malfrat misses\n",
		step("react", "enc-1", "ruffian", "dodge", "--exploits", "1"))

	state := step("state", "enc-1", "--for", "diego")
	require.Contains(t, state, "Tour 1 (Séquence 1)")
	require.Regexp(t, `ruffian\s+Le malfrat\s+foes\s+dev/gm\s+11\s+light 5/5, grave 5/5, fatal 5/5\s+\+5 on next action`, state)
	// Both at phase 11 may act (LOS-110). Besides attacking and passing, the engine now offers
	// the actions of LOS-035 without a Test and waiting (LOS-040); Diego, who has acted, may no
	// longer declare (LOS-038).
	require.Contains(t, state, "Diego may:\n"+
		"  attack with épée: 4 PA, targets ruffian (LOS-035)\n"+
		"  moving: 2 PA (LOS-035)\n"+
		"  picking up an object: 2 PA (LOS-035)\n"+
		"  a social Talent: 1 PA (LOS-035)\n"+
		"  wait — act later, at a phase from 1 to 10 (LOS-040)\n"+
		"  speak (LOS-035)\n"+
		"  pass (LOS-033)\n")

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	t.Logf("fray state:\n%s", state)
	t.Logf("fray pass as florence:\n%s", errOut)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 8)
	require.True(t, strings.HasPrefix(log, `#1 Encounter "Ruelle" created by dev/gm, loss v1; rules: action d10s explode`), log)

	require.Equal(t, hex.EncodeToString(srv.seed)+"\n", step("end", "enc-1", "--reason", "the ruffian flees"))
}

func serveRules(t *testing.T, s *ruleServer) string {
	t.Helper()
	return serveWith(t, func(g *grpc.Server) { encounterv1.RegisterEncounterServiceServer(g, s) })
}

// The actions of the whole catalogue played through the CLI against the rules engine: a
// declaration, free raises, speech, an attack with an Exploit effect and a situation, a
// counter-attack, a wait, an aim, a move, a pursuit, a Disaster.
func TestWalkthroughOfTheNewActions(t *testing.T) {
	clearEnv(t)
	srv := &ruleServer{reg: engine.NewRegistry(loss.New()), seed: dice.NewSeed(),
		dice: dice.NewFixed(7, 6, 4, 5, 10, 5, 8, 3, 4, 7, 9, 8, 2)}
	lis := serveRules(t, srv)
	sheet := func(name string) string { return filepath.Join(sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Pont"))
	step("add", "enc-1", sheet("diego.yaml"), sheet("ruffian.yaml"), sheet("mateo.yaml"))
	require.Equal(t, "#5 The fight starts\n#6 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA; Mateo 5+d10[4] = 9 PA\n",
		step("start", "enc-1"))
	// Mateo's sheet gives no Fursa: a player character starts with pc_starting_fursa, 1 by
	// default (LOS-005).
	require.Regexp(t, `mateo\s+Mateo\s+pcs\s+dev/carla\s+9\s+light 5/5, grave 5/5, fatal 5/5\s+Fursa 1\n`, step("state", "enc-1"))

	require.Equal(t, "#7 Diego declares: \"I cut the ruffian's purse\"\n",
		step("declare", "enc-1", "diego", "I", "cut", "the", "ruffian's", "purse", "--as", "david"))
	require.Equal(t, "#8 Diego is granted 1 free raise: the high ground (LOS-004)\n",
		step("grant", "enc-1", "diego", "1", "--reason", "the high ground"))
	// Speaking costs nothing and needs no turn (LOS-035).
	require.Equal(t, "#9 Le malfrat speaks: \"À moi !\"\n", step("act", "enc-1", "ruffian", "speak", "--description", "À moi !"))

	// A Feint from higher ground, spending the free raise: 6 + 6 + 5 + 5 + 5 = 27 against
	// 15 + 5 (LOS-004, LOS-052, LOS-064).
	require.Equal(t, "#10 Diego attacks Le malfrat with épée (4 PA, 1 Exploit: feint): 6+6+d10[5]+10 = 27 vs 20 — success "+
		"(+5 1 free raise (LOS-004), +5 higher than the opponent (LOS-052); Difficulty 15, +5 1 Exploit (LOS-010)); Le malfrat may parry or dodge\n"+
		"waiting for ruffian (dev/gm): Diego attacks Le malfrat (total 27; Difficulty 20 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as dev/gm\n",
		step("attack", "enc-1", "diego", "ruffian", "--effect", "feint", "--higher", "--free-raises", "1", "--as", "david"))
	// The ruffian parries with a Counter-attack, 5 + 5 + 15 = 25 against 20 + 5, and strikes
	// back at once (LOS-062).
	require.Equal(t, "#11 Le malfrat parries (1 PA, 1 Exploit: counter-attack): 5+5+d10[10,5] = 25 vs 25 — success (Difficulty 20, +5 1 Exploit (LOS-010))\n"+
		"#12 Diego's attack on Le malfrat misses\n"+
		"#13 Le malfrat counter-attacks Diego with dague (3 PA): 5+5+d10[8] = 18 vs 15 — success; Diego may parry or dodge\n"+
		"waiting for diego (dev/david): Le malfrat attacks Diego (total 18; Difficulty 15 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 diego parry|dodge|none --as dev/david\n",
		step("react", "enc-1", "ruffian", "parry", "--effect", "counter-attack"))
	require.Equal(t, "#14 Diego dodges (1 PA): 5+5+d10[3] = 13 vs 15 — failure\n"+
		"#15 Le malfrat hits Diego: damage d10[4]+2 = 6 → 6 NS lost; Diego has NS light 0, grave 4, fatal 5\n",
		step("react", "enc-1", "diego", "dodge", "--as", "david"))

	// Diego (10 PA) waits until phase 7; Mateo (9) aims; the ruffian (8) moves away.
	require.Equal(t, "#16 Diego waits from phase 10 to 7 (next action −3 PA, minimum 2)\n", step("wait", "enc-1", "diego", "7"))
	require.Equal(t, "#17 Mateo aims with arbalète (2 PA): +2 on the next Test with it (LOS-035)\n",
		step("aim", "enc-1", "mateo", "arbalète", "--points", "2", "--as", "carla"))
	require.Equal(t, "#18 Le malfrat moves (2 PA)\n", step("act", "enc-1", "ruffian", "move"))

	require.Equal(t, "#19 pursuit starts: Mateo pursues Le malfrat at distance 3, in range (LOS-100)\n",
		step("pursuit", "enc-1", "--pursuers", "mateo", "--pursued", "ruffian", "--distance", "3"))
	// Only the distance after the action is in the event: the log, which has seen the pursuit
	// start, shows where it came from.
	require.Equal(t, "#20 pursuit: Mateo changes distance to 2 (2 PA): 6+5+d10[7]+2 = 20 vs 20 — success (+2 mount or vehicle speed (LOS-108))\n",
		step("chase", "enc-1", "mateo", "closer", "--as", "carla"))

	// Diego, in the grave band (+5, LOS-022), pays 4 − 3 PA for his wait and fails an Exploit:
	// the GM gains a Fursa and may call a Disaster (LOS-005, LOS-006).
	require.Equal(t, "#21 Diego attacks Le malfrat with épée (2 PA, 1 Exploit: extra damage): 6+6+d10[9] = 21 vs 25 — failure "+
		"(Difficulty 15, +5 wounds (LOS-022), +5 1 Exploit (LOS-010))\n"+
		"#22 Diego's attack on Le malfrat misses: the attack fails\n",
		step("attack", "enc-1", "diego", "ruffian", "--exploits", "1"))
	require.Equal(t, "#23 the GM turns Diego's failed Exploit into a Disaster: \"the blade snaps\" (LOS-006)\n",
		step("disaster", "enc-1", "diego", "the", "blade", "snaps"))
	code, _, errOut := run(t, "disaster", "enc-1", "diego", "again", "--as", "david", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray disaster: PermissionDenied: only the GM declares a Disaster")

	require.Equal(t, "#24 Le malfrat passes, keeping 6 PA to parry or dodge\n", step("pass", "enc-1", "ruffian"))
	// A Charge at distance 2 (LOS-102): only a dodge avoids it.
	require.Equal(t, "#25 pursuit: Mateo charges Le malfrat (3 PA): 6+5+d10[8]+2 = 21 vs 20 — success (+2 mount or vehicle speed (LOS-108)); Le malfrat may dodge\n"+
		"waiting for ruffian (dev/gm): pursuit: Mateo makes a Charge on Le malfrat (dodge at 20, or take it)\n"+
		"  fray react enc-1 ruffian dodge|none --as dev/gm\n",
		step("chase", "enc-1", "mateo", "charge", "--target", "ruffian", "--as", "carla"))
	require.Equal(t, "#26 Le malfrat dodges (1 PA): 5+7+d10[2] = 14 vs 20 — failure\n"+
		"#27 pursuit: Mateo's charge on Le malfrat lands; Le malfrat is unseated or thrown down\n",
		step("react", "enc-1", "ruffian", "dodge"))

	state := step("state", "enc-1")
	t.Logf("fray state:\n%s", state)
	require.Contains(t, state, "Tour 1 (Séquence 1); GM Fursa 1\n")
	require.Contains(t, state, "Pursuit: Mateo after Le malfrat, distance 2 (close)\n")
	require.Regexp(t, `diego\s+Diego\s+pcs\s+dev/david\s+5\s+light 0/5, grave 4/5, fatal 5/5\s+Fursa 2, Courage 1, declared "I cut the ruffian's purse"\n`, state)
	require.Regexp(t, `ruffian\s+Le malfrat\s+foes\s+dev/gm\s+5\s+light 5/5, grave 5/5, fatal 5/5\s+passed, prone\n`, state)
	require.Regexp(t, `mateo\s+Mateo\s+pcs\s+dev/carla\s+2\s+light 5/5, grave 5/5, fatal 5/5\s+Fursa 1, aiming arbalète \+2\n`, state)

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	require.Contains(t, log, "\n#20 pursuit: Mateo changes distance 3 → 2 (2 PA): 6+5+d10[7]+2 = 20 vs 20 — success (+2 mount or vehicle speed (LOS-108))\n")
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 27)
	require.Zero(t, srv.dice.Left(), "every die was rolled as planned")
}
