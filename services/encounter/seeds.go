package encounter

import (
	"context"
	"errors"
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
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
