package encounter

import (
	"context"
	"errors"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func unavailable(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	if down := (*store.UnavailableError)(nil); errors.As(err, &down) {
		if down.MayHaveWritten {
			return status.Errorf(codes.Unavailable, "the event log did not confirm this command (%s): it may have been recorded; send it again with the same command id, or read the encounter first", down.Why)
		}
		return status.Errorf(codes.Unavailable, "the event log is unreachable (%s); nothing was recorded, try again", down.Why)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return refusal.Status(err)
	}
	return status.Errorf(codes.Unavailable, "the event log is unavailable: %v", err)
}

// reused refuses a command id already recorded for another command.
func reused(cmdID string) error {
	return status.Errorf(codes.AlreadyExists, "command id %q was already used for another command; use a new id (or none)", cmdID)
}

// refusedByRules reports whether err is the rules' refusal of a command (one that a fresher state
// may not refuse), not a failure to decide it.
func refusedByRules(err error) bool {
	switch status.Code(err) {
	case codes.FailedPrecondition, codes.InvalidArgument, codes.PermissionDenied, codes.NotFound, codes.OutOfRange, codes.AlreadyExists:
		return true
	}
	return false
}

// noEncounter is the answer for an encounter that does not exist, and for one of another
// tenant: the same words, so that its existence does not leak.
func noEncounter(id string) error {
	return refusal.New(codes.NotFound, refusal.ReasonEncounterNotFound, nil, "there is no encounter %q", id)
}

// noRole is the refusal of a caller with no role in encounter id.
func noRole(id string, who caller, what string) error {
	return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
		"%s has no role in encounter %s: %s; ask whoever invited you for a role or an invite link", who.principal, id, what)
}
