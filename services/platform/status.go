package platform

import (
	"context"
	"errors"

	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Status maps an error to a gRPC status error: rule errors by their code, context errors to
// Canceled or DeadlineExceeded, gRPC status errors as they are, anything else to Internal.
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
		return status.Error(c, re.Error())
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
