package refusal

// A request refused for going past a limit: ResourceExhausted, named by its limit, which the
// metrics count (fray_limit_refusals_total{limit}).

import (
	"errors"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// The limits fray_limit_refusals_total counts by (its label limit): the rate limits here, the
// encounter service's own in its package.
const (
	LimitRatePrincipal = "rate_principal"
	LimitRateTenant    = "rate_tenant"
	// LimitRequestBytes: a request larger than MaxRequestBytes (Validate).
	LimitRequestBytes = "request_bytes"
	// LimitSentState: a state sent to the resolver's stateless RPCs past MaxSentCombatants or
	// MaxSentStateBytes (ValidateUnary).
	LimitSentState = "sent_state"
)

// Refusal is a request refused for going past a limit: ResourceExhausted, with the limit's
// name, which the metrics count (fray_limit_refusals_total{limit}).
type LimitExceeded struct {
	Limit string
	st    *status.Status
}

// Refuse returns a Refusal of limit: ResourceExhausted, with the message format gives and an
// ErrorInfo (domain fray, reason LIMIT_EXCEEDED, metadata "limit").
func OverLimit(limit, format string, args ...any) error {
	st := status.Newf(codes.ResourceExhausted, format, args...)
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Domain: ErrorDomain, Reason: ReasonLimitExceeded, Metadata: map[string]string{"limit": limit}}); err == nil {
		st = d
	}
	return &LimitExceeded{Limit: limit, st: st}
}

// RefuseRetry is Refuse with a google.rpc.RetryInfo: the refused request may succeed if sent
// again after the delay (a wait that helps; a refusal without one says how to get out).
func OverLimitRetry(limit string, after time.Duration, format string, args ...any) error {
	r := OverLimit(limit, format, args...).(*LimitExceeded)
	if d, err := r.st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(after)}); err == nil {
		r.st = d
	}
	return r
}

func (r *LimitExceeded) Error() string { return r.st.Err().Error() }

// GRPCStatus is ResourceExhausted with the message.
func (r *LimitExceeded) GRPCStatus() *status.Status { return r.st }

// RefusedLimit names the limit.
func (r *LimitExceeded) RefusedLimit() string { return r.Limit }

// LimitOf is the limit err refused the request for, or "".
func LimitOf(err error) string {
	var r interface{ RefusedLimit() string }
	if err != nil && errors.As(err, &r) {
		return r.RefusedLimit()
	}
	return ""
}
