package encounter

import (
	"context"
	"errors"
	"fmt"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
)

// seedOf is the encounter's dice seed for deciding a command, e.mu held: the one cached with
// the entry, read from the seed bucket once per load; for an ended encounter (whose seed is
// deleted from the bucket), the one its log revealed.
func (s *Service) seedOf(ctx context.Context, id string, e *entry) ([]byte, error) {
	if e.seed != nil {
		return e.seed, nil
	}
	st := e.state
	seed, err := s.seeds.Seed(ctx, id)
	if errors.Is(err, store.ErrNotFound) && st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		return st.GetSeed(), nil
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("dice seed of %s: %w", id, err))
	}
	if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		e.seed = seed
	}
	return seed, nil
}

// forgetSeed deletes the seed of an encounter that events end, from the entry (e.mu held) and
// from the seed bucket: EncounterEnded reveals it, so the log keeps it as long as the log is
// kept, and the seed bucket no longer does.
func (s *Service) forgetSeed(ctx context.Context, id string, e *entry, events []*encounterv1.Event) {
	for _, ev := range events {
		if ev.GetEncounterEnded() == nil {
			continue
		}
		e.seed = nil
		if err := s.seeds.DeleteSeed(ctx, id); err != nil {
			s.log.WarnContext(ctx, "the seed of an ended encounter was not deleted; it stays in the seed bucket", "encounter", id, "err", err)
		}
		return
	}
}

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
		return platform.Refuse(LimitEncounterBytes,
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
		return platform.Refuse(LimitOpenEncounters, "%s", msg)
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
		return platform.RefuseRetry(LimitOpenEncounters, wait, "%s; %d are open, and one ends for idleness within %s: try again then", msg, n, wait.Round(time.Second))
	}
	return platform.Refuse(LimitOpenEncounters, "%s; %d are open", msg, n)
}
