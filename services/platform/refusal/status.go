package refusal

import (
	"context"
	"errors"
	"strconv"

	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrorDomain is the google.rpc.ErrorInfo domain of fray's refusals.
const ErrorDomain = "fray"

// Status maps an error to a gRPC status error: rule errors by their code, with a
// google.rpc.ErrorInfo (domain "fray", the refusal's reason, metadata "rule" and its numbers);
// context errors to Canceled or DeadlineExceeded, gRPC status errors as they are, anything
// else to Internal.
func Status(err error) error {
	if err == nil {
		return nil
	}
	if re, ok := engine.AsRuleError(err); ok {
		c := codes.Internal
		switch re.Code {
		case engine.CodeInvalid:
			c = codes.InvalidArgument
		case engine.CodePrecondition:
			c = codes.FailedPrecondition
		case engine.CodeNotFound:
			c = codes.NotFound
		case engine.CodePermission:
			c = codes.PermissionDenied
		case engine.CodeUnimplemented:
			c = codes.Unimplemented
		}
		return withInfo(status.New(c, re.Error()), re).Err()
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}

// withInfo adds the refusal's ErrorInfo to st.
func withInfo(st *status.Status, re *engine.RuleError) *status.Status {
	md := make(map[string]string, len(re.Numbers)+1)
	if re.Rule != "" {
		md["rule"] = re.Rule
	}
	for k, v := range re.Numbers {
		md[k] = strconv.FormatInt(v, 10)
	}
	info := &errdetails.ErrorInfo{Domain: ErrorDomain, Reason: string(re.Reason()), Metadata: md}
	if d, err := st.WithDetails(info); err == nil {
		return d
	}
	return st
}

// Reasons of the refusals the services give themselves (the rules' are engine.Reason).
const (
	// ReasonEncounterNotFound: no such encounter, or one of another tenant (NotFound).
	ReasonEncounterNotFound = "ENCOUNTER_NOT_FOUND"
	// ReasonNoRole: the caller has no role in the encounter that allows this (PermissionDenied).
	ReasonNoRole = "NO_ROLE"
	// ReasonSequenceMismatch: the command expected another sequence than the encounter's
	// (FailedPrecondition; metadata "sequence" and "expected").
	ReasonSequenceMismatch = "SEQUENCE_MISMATCH"
	// ReasonLimitExceeded: the request goes past one of the service's limits
	// (ResourceExhausted; metadata "limit", as fray_limit_refusals_total names it).
	ReasonLimitExceeded = "LIMIT_EXCEEDED"
)

// Refused is a refusal a service gives itself: code c, the message format gives, and an
// ErrorInfo of domain fray with reason and metadata md (nil for none).
func New(c codes.Code, reason string, md map[string]string, format string, args ...any) error {
	st := status.Newf(c, format, args...)
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Domain: ErrorDomain, Reason: reason, Metadata: md}); err == nil {
		st = d
	}
	return st.Err()
}

// BadRequest is an InvalidArgument with the message format gives and a google.rpc.BadRequest
// naming field (its path in the request) with the same words: invalid input a service finds
// itself, past the validation layer.
func BadRequest(field, format string, args ...any) error {
	st := status.Newf(codes.InvalidArgument, format, args...)
	if d, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: st.Message()}}}); err == nil {
		st = d
	}
	return st.Err()
}
