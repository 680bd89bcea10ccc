package engine

import (
	"errors"
	"fmt"
)

// Code classifies a refused command; the services map it to a gRPC status code.
type Code int

const (
	// CodeInvalid: the command itself is malformed (InvalidArgument).
	CodeInvalid Code = iota + 1
	// CodePrecondition: the command is well formed but the rules refuse it in this state
	// (FailedPrecondition).
	CodePrecondition
	// CodeNotFound: the command names something that does not exist (NotFound).
	CodeNotFound
	// CodePermission: the actor may not give this command (PermissionDenied).
	CodePermission
	// CodeUnimplemented: the rule system does not know this command (Unimplemented).
	CodeUnimplemented
)

// Reason is a refusal's stable name, the same in every rule system, that a client branches on
// (google.rpc.ErrorInfo.reason, domain "fray"); proto/fray/encounter/v1/encounter.proto
// documents the list ("Errors").
type Reason string

// The reasons a refusal carries. A refusal given none has the one of its Code.
const (
	// ReasonNotYourTurn: another combatant acts first.
	ReasonNotYourTurn Reason = "NOT_YOUR_TURN"
	// ReasonNotEnoughActionPoints: the action costs more action points than are left
	// (metadata "needed" and "available").
	ReasonNotEnoughActionPoints Reason = "NOT_ENOUGH_ACTION_POINTS"
	// ReasonReactionPending: a defender must first answer the attack declared against it.
	ReasonReactionPending Reason = "REACTION_PENDING"
	// ReasonNoPendingReaction: an answer to an attack, and no attack waits for one.
	ReasonNoPendingReaction Reason = "NO_PENDING_REACTION"
	// ReasonInvalidCommand: the command is malformed, or not one of the encounter's rule system
	// (CodeInvalid).
	ReasonInvalidCommand Reason = "INVALID_COMMAND"
	// ReasonRuleRefusal: the rules refuse the command in this state (CodePrecondition).
	ReasonRuleRefusal Reason = "RULE_REFUSAL"
	// ReasonNotFound: the command names a combatant, weapon… that does not exist (CodeNotFound).
	ReasonNotFound Reason = "NOT_FOUND"
	// ReasonNotAllowed: the actor may not give this command (CodePermission).
	ReasonNotAllowed Reason = "NOT_ALLOWED"
	// ReasonUnknownCommand: the rule system does not know this command (CodeUnimplemented).
	ReasonUnknownCommand Reason = "UNKNOWN_COMMAND"
)

// codeReasons is the reason of a refusal given none, by its Code.
var codeReasons = map[Code]Reason{
	CodeInvalid:       ReasonInvalidCommand,
	CodePrecondition:  ReasonRuleRefusal,
	CodeNotFound:      ReasonNotFound,
	CodePermission:    ReasonNotAllowed,
	CodeUnimplemented: ReasonUnknownCommand,
}

// RuleError is a refused command, with the rule it breaks and a message a player understands.
type RuleError struct {
	Code Code
	// Rule is the catalogue ID the command breaks ("LOS-035"), when there is one.
	Rule string
	Msg  string
	// Why is the refusal's stable reason, when it has one more precise than its Code's.
	Why Reason
	// Numbers are the figures behind the refusal, by name ("needed", "available").
	Numbers map[string]int64
}

// Reason is the refusal's stable reason: Why, else the one of its Code.
func (e *RuleError) Reason() Reason {
	if e.Why != "" {
		return e.Why
	}
	if r, ok := codeReasons[e.Code]; ok {
		return r
	}
	return ReasonRuleRefusal
}

// Because gives err's RuleError a reason and the figures behind it, by name ("needed",
// "available"; nil for none); err is returned as it is.
func Because(err error, why Reason, numbers map[string]int64) error {
	if re, ok := AsRuleError(err); ok {
		re.Why, re.Numbers = why, numbers
	}
	return err
}

func (e *RuleError) Error() string {
	if e.Rule == "" {
		return e.Msg
	}
	return e.Msg + " (" + e.Rule + ")"
}

func newErr(c Code, rule, format string, args ...any) error {
	return &RuleError{Code: c, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// Invalid reports a malformed command.
func Invalid(rule, format string, args ...any) error {
	return newErr(CodeInvalid, rule, format, args...)
}

// Refused reports a command the rules refuse in the current state.
func Refused(rule, format string, args ...any) error {
	return newErr(CodePrecondition, rule, format, args...)
}

// NotFound reports a command naming something that does not exist.
func NotFound(format string, args ...any) error { return newErr(CodeNotFound, "", format, args...) }

// Forbidden reports a command the actor may not give.
func Forbidden(format string, args ...any) error { return newErr(CodePermission, "", format, args...) }

// Unimplemented reports a command the rule system does not know.
func Unimplemented(format string, args ...any) error {
	return newErr(CodeUnimplemented, "", format, args...)
}

// AsRuleError returns the RuleError in err's chain, if any.
func AsRuleError(err error) (*RuleError, bool) {
	var re *RuleError
	ok := errors.As(err, &re)
	return re, ok
}

// Named is anything with a name: weapons, Attributes…
type Named interface{ GetName() string }

// ByName finds the item named name among an owner's items — the only one when no name is
// given — or says which exist.
func ByName[T Named](items []T, name, owner, what string) (T, error) {
	var zero T
	if name == "" && len(items) == 1 {
		return items[0], nil
	}
	for _, it := range items {
		if it.GetName() == name {
			return it, nil
		}
	}
	names := make([]string, 0, len(items))
	for _, it := range items {
		names = append(names, it.GetName())
	}
	if name == "" {
		return zero, Invalid("", "%s has several %ss %v: name the one to use", owner, what, names)
	}
	return zero, NotFound("%s has no %s %q (%ss: %v)", owner, what, name, what, names)
}
