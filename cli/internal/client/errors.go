package client

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"google.golang.org/grpc/status"
)

// ErrorText renders an error, a gRPC status as "Code: message" after whatever context wraps
// it.
func ErrorText(err error) string {
	var gs interface {
		error
		GRPCStatus() *status.Status
	}
	if !errors.As(err, &gs) {
		return err.Error()
	}
	if _, ok := gs.(*RPCError); ok {
		return err.Error() // already "context: Code: message"
	}
	s := gs.GRPCStatus()
	return strings.TrimSuffix(err.Error(), gs.Error()) + fmt.Sprintf("%s: %s", s.Code(), s.Message())
}

// RPCError is a failed call: what was being done and the gRPC status the server answered.
type RPCError struct {
	// Context says what the call was for ("adding ruffian.yaml"); may be empty.
	Context string
	Status  *status.Status
}

func (e *RPCError) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Status.Code(), e.Status.Message())
	if e.Context != "" {
		return e.Context + ": " + msg
	}
	return msg
}

// GRPCStatus lets status.FromError and status.Code see through the wrapper.
func (e *RPCError) GRPCStatus() *status.Status { return e.Status }

// RPCErr wraps the error of a gRPC call; nil stays nil.
func RPCErr(context string, err error) error {
	if err == nil {
		return nil
	}
	return &RPCError{Context: context, Status: status.Convert(err)}
}

// UsageError is a command line the subcommand cannot run: Run prints it with the usage and
// exits with code 2.
type UsageError struct {
	Msg string
	// Usage prints the subcommand's usage; may be nil.
	Usage func(io.Writer)
	// Short, without Usage: print the subcommand's synopsis and where to find its flags.
	Short bool
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ShortUsagef returns a *UsageError that prints the subcommand's synopsis.
func ShortUsagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Short: true}
}
