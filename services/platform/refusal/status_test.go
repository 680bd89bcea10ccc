package refusal_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// errorInfo is the ErrorInfo a status carries, or nil.
func errorInfo(t *testing.T, err error) *errdetails.ErrorInfo {
	t.Helper()
	var info *errdetails.ErrorInfo
	for _, d := range status.Convert(err).Details() {
		if i, ok := d.(*errdetails.ErrorInfo); ok {
			require.Nil(t, info, "one ErrorInfo")
			info = i
		}
	}
	return info
}

// A rule refusal carries an ErrorInfo: domain fray, its reason, its rule and its numbers; the
// code and the message are as without it.
func TestStatusCarriesErrorInfo(t *testing.T) {
	for _, tc := range []struct {
		err    error
		code   codes.Code
		reason string
		md     map[string]string
	}{
		{engine.Invalid("LOS-010", "six Exploits"), codes.InvalidArgument, "INVALID_COMMAND", map[string]string{"rule": "LOS-010"}},
		{engine.Refused("LOS-100", "no pursuit"), codes.FailedPrecondition, "RULE_REFUSAL", map[string]string{"rule": "LOS-100"}},
		{engine.Because(engine.Refused("LOS-035", "Canahan has 1 PA left; attack costs 4"), engine.ReasonNotEnoughActionPoints, map[string]int64{"needed": 4, "available": 1}),
			codes.FailedPrecondition, "NOT_ENOUGH_ACTION_POINTS", map[string]string{"rule": "LOS-035", "needed": "4", "available": "1"}},
		{fmt.Errorf("wrapped: %w", engine.Because(engine.Refused("KA-014", "it is Joshua's turn first"), engine.ReasonNotYourTurn, nil)),
			codes.FailedPrecondition, "NOT_YOUR_TURN", map[string]string{"rule": "KA-014"}},
		{engine.NotFound("no ghost"), codes.NotFound, "NOT_FOUND", nil},
		{engine.Forbidden("not yours"), codes.PermissionDenied, "NOT_ALLOWED", nil},
		{engine.Unimplemented("later"), codes.Unimplemented, "UNKNOWN_COMMAND", nil},
	} {
		got := refusal.Status(tc.err)
		require.Equal(t, tc.code, status.Code(got), tc.err.Error())
		re, _ := engine.AsRuleError(tc.err)
		require.Equal(t, re.Error(), status.Convert(got).Message(), "the message is the rule error's")
		info := errorInfo(t, got)
		require.NotNil(t, info, tc.err.Error())
		require.Equal(t, "fray", info.GetDomain())
		require.Equal(t, tc.reason, info.GetReason())
		require.Equal(t, tc.md, info.GetMetadata())
	}
	// A limit's refusal: LIMIT_EXCEEDED naming the limit, the message as given.
	limit := refusal.OverLimit(refusal.LimitRequestBytes, "this request takes %d bytes", 300000)
	require.Equal(t, codes.ResourceExhausted, status.Code(limit))
	require.Equal(t, "this request takes 300000 bytes", status.Convert(limit).Message())
	info := errorInfo(t, limit)
	require.Equal(t, "fray", info.GetDomain())
	require.Equal(t, "LIMIT_EXCEEDED", info.GetReason())
	require.Equal(t, map[string]string{"limit": refusal.LimitRequestBytes}, info.GetMetadata())

	for _, err := range []error{errors.New("disk on fire"), status.Error(codes.Aborted, "raced")} {
		require.Nil(t, errorInfo(t, refusal.Status(err)), "only rule refusals carry an ErrorInfo")
	}
}
