package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// Every refusal has a stable reason: the one given with Because, else its Code's.
func TestRefusalReasons(t *testing.T) {
	for _, c := range []struct {
		err  error
		want engine.Reason
	}{
		{engine.Invalid("", "x"), engine.ReasonInvalidCommand},
		{engine.Refused("LOS-001", "x"), engine.ReasonRuleRefusal},
		{engine.NotFound("x"), engine.ReasonNotFound},
		{engine.Forbidden("x"), engine.ReasonNotAllowed},
		{engine.Unimplemented("x"), engine.ReasonUnknownCommand},
		{&engine.RuleError{Msg: "no code"}, engine.ReasonRuleRefusal},
		{engine.Because(engine.Refused("LOS-031", "x"), engine.ReasonNotYourTurn, nil), engine.ReasonNotYourTurn},
	} {
		re, ok := engine.AsRuleError(c.err)
		require.True(t, ok)
		require.Equal(t, c.want, re.Reason(), c.err.Error())
	}

	err := engine.Because(fmt.Errorf("wrapped: %w", engine.Refused("LOS-035", "Diego has 3 PA left; attack costs 4")),
		engine.ReasonNotEnoughActionPoints, map[string]int64{"needed": 4, "available": 3})
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, engine.ReasonNotEnoughActionPoints, re.Reason())
	require.Equal(t, map[string]int64{"needed": 4, "available": 3}, re.Numbers)
	require.Equal(t, "Diego has 3 PA left; attack costs 4 (LOS-035)", re.Error(), "the message is unchanged")

	plain := errors.New("plain")
	require.Same(t, plain, engine.Because(plain, engine.ReasonNotYourTurn, nil))
}

// No rule system given is an incomplete request (InvalidArgument); one unknown is NotFound.
func TestLookupWithoutARuleSystemIsInvalid(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	_, err := reg.Lookup("", 0)
	re := requireCode(t, err, engine.CodeInvalid)
	require.Equal(t, `unknown rule system ""; this resolver knows [loss]`, re.Msg)
	_, err = reg.Lookup("gurps", 0)
	requireCode(t, err, engine.CodeNotFound)
}
