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

// RuleError is a refused command, with the rule it breaks and a message a player understands.
type RuleError struct {
	Code Code
	// Rule is the catalogue ID the command breaks ("LOS-035"), when there is one.
	Rule string
	Msg  string
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
