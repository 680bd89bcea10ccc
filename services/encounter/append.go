package encounter

import (
	"context"
	"errors"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// appendRecord appends a command's record to the log (store.Log.Append), timed (by outcome)
// and traced: a span "JetStream append", a child of the call's.
func (s *Service) appendRecord(ctx context.Context, id string, expected uint64, msgID string, batch *encounterv1.EventBatch) (store.Appended, error) {
	if s.obs.Metrics == nil && s.obs.tracer == nil {
		return s.events.Append(ctx, id, expected, msgID, batch)
	}
	var span trace.Span
	if s.obs.tracer != nil {
		ctx, span = s.obs.tracer.Start(ctx, "JetStream append", trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(attribute.String("fray.encounter_id", id), attribute.Int64("fray.expected_position", int64(expected)),
				attribute.Int("fray.events", len(batch.GetEvents())), attribute.String("messaging.system", "nats")))
	}
	start := time.Now()
	app, err := s.events.Append(ctx, id, expected, msgID, batch)
	if m := s.obs.Metrics; m != nil {
		d := time.Since(start).Seconds()
		switch {
		case errors.Is(err, store.ErrConflict):
			m.conflicts.Inc()
			m.appendConflict.Observe(d)
		case err != nil:
			m.appendError.Observe(d)
		case app.Duplicate:
			m.appendDuplicate.Observe(d)
		default:
			m.appendRecorded.Observe(d)
		}
	}
	if span != nil {
		switch {
		case errors.Is(err, store.ErrConflict):
			span.SetAttributes(attribute.Bool("fray.conflict", true))
		case err != nil:
			span.RecordError(err)
			span.SetStatus(otelcodes.Error, err.Error())
		default:
			span.SetAttributes(attribute.Int64("fray.position", int64(app.Position)), attribute.Bool("fray.duplicate", app.Duplicate))
		}
		span.End()
	}
	return app, err
}
