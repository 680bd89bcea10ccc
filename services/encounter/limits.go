package encounter

import (
	"context"
	"fmt"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/protobuf/proto"
)

// Default bounds of an encounter and of a tenant.
const (
	DefaultMaxEncounterBytes   = 4 << 20
	DefaultMaxOpenEncounters   = 1000
	DefaultMaxOpenPerPrincipal = 100
)

// checkEncounterBytes refuses a record that would take the encounter's state past
// MaxEncounterBytes: size is the state's bytes and the record's.
func (s *Service) checkEncounterBytes(st *encounterv1.EncounterState, size int) error {
	if size > s.opts.MaxEncounterBytes {
		return refusal.OverLimit(LimitEncounterBytes,
			"encounter %q would take %d bytes with this command, more than the %d an encounter may hold; nothing was recorded",
			st.GetName(), size, s.opts.MaxEncounterBytes)
	}
	return nil
}

// checkOpenEncounters refuses a new encounter to a principal that is the GM of
// MaxOpenPerPrincipal not ended, and to a tenant that has MaxOpenEncounters not ended, as the
// index counts them (without an index that counts, no cap).
func (s *Service) checkOpenEncounters(ctx context.Context, who caller) error {
	c, ok := s.index.(store.OpenCounter)
	if !ok {
		return nil
	}
	mine, err := c.OpenEncountersOf(ctx, who.principal)
	if err != nil {
		return unavailable(err)
	}
	if mine >= s.opts.MaxOpenPerPrincipal {
		msg := fmt.Sprintf("%s is the GM of %d encounters not ended, the most one member of a tenant may have: end some with `fray end` (EndEncounter)", who.principal, mine)
		if s.opts.IdleEnd > 0 {
			msg += fmt.Sprintf("; open encounters idle for %s end by themselves", idleSpan(s.opts.IdleEnd))
		}
		return refusal.OverLimit(LimitOpenEncounters, "%s", msg)
	}
	tenant := who.tenant
	n, err := c.OpenEncounters(ctx, tenant)
	if err != nil {
		return unavailable(err)
	}
	if n < s.opts.MaxOpenEncounters {
		return nil
	}
	// What gets the tenant out: its GMs ending encounters, or the service ending the idle
	// ones; a wait helps only when one of those is near.
	msg := fmt.Sprintf("tenant %q has reached its cap of %d encounters not ended: end some of your open encounters with `fray end` (EndEncounter)", tenant, s.opts.MaxOpenEncounters)
	if s.opts.IdleEnd > 0 {
		msg += fmt.Sprintf("; open encounters idle for %s end by themselves", idleSpan(s.opts.IdleEnd))
	}
	if wait := s.nextIdleEnd(ctx, tenant); wait > 0 {
		return refusal.OverLimitRetry(LimitOpenEncounters, wait, "%s; %d are open, and one ends for idleness within %s: try again then", msg, n, wait.Round(time.Second))
	}
	return refusal.OverLimit(LimitOpenEncounters, "%s; %d are open", msg, n)
}

// Default limits of what an encounter may hold (Options.MaxEvents, MaxBatchBytes). What a
// client may send (a command id's length, a request's bytes) is bounded once, by the
// validation in front of every handler (validate.Request: validate.MaxCommandIDLength,
// validate.MaxRequestBytes).
const (
	DefaultMaxEvents     = 100_000
	DefaultMaxBatchBytes = 512 << 10
)

// checkLimits refuses a record that would break an encounter's limits, before anything is
// written; stateBytes is proto.Size(st) (an entry's, as account last measured it).
func (s *Service) checkLimits(st *encounterv1.EncounterState, stateBytes int, batch *encounterv1.EventBatch) error {
	if n := st.GetSequence() + uint64(len(batch.GetEvents())); n > s.opts.MaxEvents {
		return refusal.OverLimit(LimitEncounterEvents,
			"encounter %q has recorded %d events and may hold at most %d: end it and start another; nothing was recorded",
			st.GetName(), st.GetSequence(), s.opts.MaxEvents)
	}
	size := proto.Size(batch)
	if size > s.opts.MaxBatchBytes {
		return refusal.OverLimit(LimitRecordBytes,
			"this command's events take %d bytes, more than the %d one record may hold; nothing was recorded", size, s.opts.MaxBatchBytes)
	}
	return s.checkEncounterBytes(st, stateBytes+size)
}
