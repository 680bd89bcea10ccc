package commands_test

import (
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

// fray rulesets SYSTEM (issue 28, item 6) describes the system through DescribeRuleset on the
// real RulesService: its actions, its Exploits and its house rules with their defaults, the
// same text as fray rules SYSTEM; an older version with --rules-version; an unknown system is
// the server's refusal, and --rules-version without SYSTEM a usage error.
func TestRulesetsDescribesASystem(t *testing.T) {
	clienttest.ClearEnv(t)
	s := clienttest.StartStack(t, encounter.Options{})
	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", s.Addr, "--as", "gm")...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	out := ok("rulesets", "loss")
	require.Contains(t, out, "Les Chants de Loss (loss), version ")
	require.Regexp(t, `(?m)^Actions:$`, out)
	require.Regexp(t, `(?m)^\s+parry\s+\d PA\s+reaction to an attack`, out)
	require.Regexp(t, `(?m)^\s+Exploit: Counter-attack\s`, out, "the Exploits are listed with the actions")
	require.Regexp(t, `(?m)^House rules \(fray create --options\):$`, out)
	require.Regexp(t, `(?m)^\s+gm_fursa_on_failed_exploit\s+true\s`, out, "an option with its default")
	require.Equal(t, ok("rules", "loss"), out, "the same descriptor as fray rules")
	require.Equal(t, ok("rules", "loss", "--rules-version", "1"), ok("rulesets", "loss", "--rules-version", "1"))
	require.Contains(t, ok("rulesets", "ka", "--json"), `"ruleset"`)

	list := ok("rulesets")
	require.Regexp(t, `(?m)^loss\s+Les Chants de Loss\s+1, 2$`, list)
	require.Contains(t, list, "fray rulesets SYSTEM describes one")

	code, _, errOut := clienttest.Run(t, "rulesets", "chess", "--addr", s.Addr, "--as", "gm")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "chess")
	clienttest.RequireUsageError(t, []string{"rulesets", "--rules-version", "1", "--addr", s.Addr}, "--rules-version goes with SYSTEM")
	clienttest.RequireUsageError(t, []string{"rulesets", "loss", "ka", "--addr", s.Addr}, "")
}
