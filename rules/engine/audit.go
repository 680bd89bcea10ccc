package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

// Divergence is the first place where a log is not what its seed and its rules say.
type Divergence struct {
	Sequence uint64
	Reason   string
}

func (d *Divergence) Error() string { return fmt.Sprintf("event %d: %s", d.Sequence, d.Reason) }

// AuditReport sums up an intact log.
type AuditReport struct {
	Events, Commands, Rolls int
}

// Audit checks a whole log once its seed is revealed: the seed matches the commitment of the
// first event, every roll comes from the seed at its offset, and every recorded command,
// decided again by the rule system and version pinned in the encounter, gives the recorded
// events. It returns the first *Divergence, or a report of an intact log.
func (r *Registry) Audit(events []*encounterv1.Event) (*AuditReport, error) {
	if len(events) == 0 || events[0].GetEncounterCreated() == nil {
		return nil, &Divergence{Sequence: 1, Reason: "the log does not start with the encounter's creation"}
	}
	var seed []byte
	for i, ev := range events {
		if ev.GetSequence() != uint64(i+1) {
			return nil, &Divergence{Sequence: uint64(i + 1), Reason: fmt.Sprintf("event %d is missing: the log has event %d there", i+1, ev.GetSequence())}
		}
		if e := ev.GetEncounterEnded(); e != nil {
			seed = e.GetSeed()
		}
	}
	if seed == nil {
		return nil, fmt.Errorf("the encounter has not ended: its seed is not revealed yet, so its rolls cannot be checked")
	}
	if !bytes.Equal(dice.Commitment(seed), events[0].GetEncounterCreated().GetSeedSha256()) {
		return nil, &Divergence{Sequence: 1, Reason: "the revealed seed does not match the sha256 published at creation"}
	}
	rep := &AuditReport{Events: len(events)}
	scheme := dice.SchemeOf(events[0].GetEncounterCreated().GetDiceScheme())
	if !scheme.Known() {
		return nil, &Divergence{Sequence: 1, Reason: fmt.Sprintf("the encounter records dice scheme %d, which is unknown", scheme)}
	}
	if err := verifyRolls(events, seed, scheme, rep); err != nil {
		return nil, err
	}
	st := &encounterv1.EncounterState{EncounterId: events[0].GetEncounterId()}
	for i := 0; i < len(events); {
		first := events[i]
		j := i + 1
		for j < len(events) && events[j].GetCommand() == nil && events[j].GetCommandId() == first.GetCommandId() {
			j++
		}
		recorded := events[i:j]
		cmd := proto.CloneOf(first.GetCommand())
		if cmd == nil {
			return nil, &Divergence{Sequence: first.GetSequence(), Reason: "the command that caused this event is not recorded"}
		}
		if d := first.GetCommandDigest(); len(d) > 0 && !bytes.Equal(d, CommandDigest(first.GetCommand(), first.GetActor())) {
			return nil, &Divergence{Sequence: first.GetSequence(), Reason: "the recorded command digest is not that of the recorded command and actor"}
		}
		if c := cmd.GetCreate(); c != nil {
			c.RulesVersion = first.GetRulesVersion() // decide under the version the encounter pinned
		}
		env := Env{Actor: first.GetActor(), Tenant: events[0].GetEncounterCreated().GetTenant(), Seed: seed, DiceScheme: scheme}
		stream, err := dice.NewStreamScheme(scheme, seed, st.GetDiceOffset())
		if err != nil {
			return nil, &Divergence{Sequence: first.GetSequence(), Reason: err.Error()}
		}
		env.Dice = stream
		if rw := cmd.GetRewind(); rw != nil {
			past, err := r.Fold(events[:min(int(rw.GetToSequence()), len(events))])
			if err != nil {
				return nil, &Divergence{Sequence: first.GetSequence(), Reason: err.Error()}
			}
			env.RewindState = past
		}
		decided, err := r.Decide(st, cmd, env)
		if err != nil {
			return nil, &Divergence{Sequence: first.GetSequence(), Reason: "the rules refuse the recorded command: " + err.Error()}
		}
		if legacyRewind(events[0], decided, recorded) {
			// A rewind recorded before dice were kept apart: it went back to the restored
			// state's dice and restored the table too.
			// Its state was folded before dice_high_water was kept.
			rw := decided[0].GetEncounterRewound()
			rw.DiceOffset, rw.State = 0, proto.CloneOf(env.RewindState)
			rw.State.DiceHighWater = 0
		}
		if len(decided) != len(recorded) {
			return nil, &Divergence{Sequence: first.GetSequence(), Reason: fmt.Sprintf("the command gives %d events, the log records %d", len(decided), len(recorded))}
		}
		for k, want := range decided {
			got := proto.CloneOf(recorded[k])
			got.EventId, got.Time, got.CommandId, got.Command, got.CommandDigest = "", nil, "", nil, nil
			if !proto.Equal(want, got) {
				return nil, &Divergence{Sequence: got.GetSequence(), Reason: fmt.Sprintf("the rules decide\n  %v\nthe log records\n  %v", want, got)}
			}
		}
		for _, ev := range recorded {
			if err := r.Evolve(st, ev); err != nil {
				return nil, &Divergence{Sequence: ev.GetSequence(), Reason: err.Error()}
			}
		}
		rep.Commands++
		i = j
	}
	return rep, nil
}

// verifyRolls re-derives every roll of the log from the seed, a command's rolls in the order
// of their offsets. Dice are drawn in order and none skipped, so no roll starts beyond the
// furthest position the rolls before it reached: a roll that claims to is refused at once,
// before anything is drawn, as is a roll of another scheme than the encounter's or beyond the
// scheme's bound. So a forged log costs its verifier no more draws than its genuine rolls.
func verifyRolls(events []*encounterv1.Event, seed []byte, scheme dice.Scheme, rep *AuditReport) error {
	type rollAt struct {
		seq  uint64
		roll *dicev1.Roll
	}
	v := dice.NewVerifier(seed)
	var reach uint64
	for i := 0; i < len(events); {
		j := i + 1
		for j < len(events) && events[j].GetCommand() == nil && events[j].GetCommandId() == events[i].GetCommandId() {
			j++
		}
		var rolls []rollAt
		for _, ev := range events[i:j] {
			for _, r := range Rolls(ev) {
				rolls = append(rolls, rollAt{ev.GetSequence(), r})
			}
		}
		slices.SortStableFunc(rolls, func(a, b rollAt) int { return cmp.Compare(a.roll.GetOffset(), b.roll.GetOffset()) })
		for _, ra := range rolls {
			r := ra.roll
			switch {
			case dice.SchemeOf(r.GetScheme()) != scheme:
				return &Divergence{Sequence: ra.seq, Reason: fmt.Sprintf("roll %s is recorded under dice scheme %d, the encounter's is %d", r.GetExpression(), dice.SchemeOf(r.GetScheme()), scheme)}
			case r.GetOffset() > reach:
				return &Divergence{Sequence: ra.seq, Reason: fmt.Sprintf("impossible roll: %s claims dice position %d, but the rolls before it reached only %d (dice are drawn in order, none skipped)", r.GetExpression(), r.GetOffset(), reach)}
			}
			if err := v.Verify(r); err != nil {
				return &Divergence{Sequence: ra.seq, Reason: "tampered roll: " + err.Error()}
			}
			reach = max(reach, r.GetOffset()+r.GetDraws())
			rep.Rolls++
		}
		i = j
	}
	return nil
}

// legacyRewind reports whether recorded is a rewind of the form used before tenants and
// dice_offset existed (the restored state's dice, no dice_offset), in a log created then
// (without a tenant). A log with a tenant has only rewinds that go on with fresh dice.
func legacyRewind(created *encounterv1.Event, decided, recorded []*encounterv1.Event) bool {
	return created.GetEncounterCreated().GetTenant() == "" && len(decided) == 1 && len(recorded) == 1 &&
		decided[0].GetEncounterRewound() != nil && recorded[0].GetEncounterRewound() != nil &&
		recorded[0].GetEncounterRewound().GetDiceOffset() == 0 &&
		!proto.Equal(decided[0].GetEncounterRewound(), recorded[0].GetEncounterRewound())
}
