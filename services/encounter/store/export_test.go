package store

import "time"

// SetWalkBack sets how many records Load walks back before it reads forward (for
// benchmarks), and returns a function that restores it.
func SetWalkBack(n int) (restore func()) {
	old := walkBack
	walkBack = n
	return func() { walkBack = old }
}

// StallForwardAfter makes Load's ordered consumer stall after n records, so that the rest is
// read by lookups; stalled is told how many the consumer read. It returns a function that
// restores both.
func StallForwardAfter(n int, stalled func(readByConsumer int)) (restore func()) {
	oldN, oldOn := stallAfter, onStall
	stallAfter, onStall = n, stalled
	return func() { stallAfter, onStall = oldN, oldOn }
}

// SetForwardStall sets how long s's Load awaits its ordered consumer's next record before
// it reads the rest by lookups.
func (s *JetStream) SetForwardStall(d time.Duration) { s.stall = d }
