package store_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// BenchmarkLoadTail reads the last n records of an encounter of 2,048 whose records alternate
// with another encounter's, by walking back alone (one lookup per record) and by an ordered
// consumer alone (after one lookup): the crossover sets Load's walkBack.
//
//	go test ./services/encounter/store -run '^$' -bench LoadTail
func BenchmarkLoadTail(b *testing.B) {
	ctx := context.Background()
	_, nc := natstest.Start(b)
	s, err := store.Open(ctx, nc, store.Config{})
	require.NoError(b, err)
	const records = 2048
	var lastA, lastB uint64
	positions := make([]uint64, 0, records)
	for i := range records {
		a, err := s.Append(ctx, "a", lastA, "", batch("a", uint64(i+1)))
		require.NoError(b, err)
		lastA = a.Position
		positions = append(positions, lastA)
		bb, err := s.Append(ctx, "b", lastB, "", batch("b", uint64(i+1)))
		require.NoError(b, err)
		lastB = bb.Position
	}
	for _, n := range []int{4, 8, 16, 32, 64, 128, 512, records} {
		after := uint64(0)
		if n < records {
			after = positions[records-n-1]
		}
		for _, mode := range []struct {
			name string
			walk int
		}{{"walk", math.MaxInt}, {"consumer", 1}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, mode.name), func(b *testing.B) {
				defer store.SetWalkBack(mode.walk)()
				for b.Loop() {
					recs, err := s.Load(ctx, "a", after)
					if err != nil || len(recs) != n {
						b.Fatalf("%d records, %v", len(recs), err)
					}
				}
			})
		}
	}
}
