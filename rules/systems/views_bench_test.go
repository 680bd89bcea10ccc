package systems_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/systems"
)

// BenchmarkViews: what a read costs each reader of the golden fights (testdata/golden): the
// final state viewed (engine.View), and the last 20 events viewed (engine.ViewEvent, each with
// the final state as the one before it), by the
// GM and by an observer, who gets no dice position (a walk of the fields that may hold one).
//
//	go test ./rules/systems -run '^$' -bench Views -benchmem
func BenchmarkViews(b *testing.B) {
	reg := systems.Registry()
	for _, sys := range systems.IDs() {
		log := enginetest.ReadLog(b, "testdata/golden/"+sys+"-v1.jsonl")
		st, err := reg.Fold(log)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range []struct {
			name string
			v    engine.Viewer
		}{{"gm", engine.Viewer{SeesAll: true}}, {"observer", engine.Viewer{}}} {
			b.Run(sys+"/state/"+r.name, func(b *testing.B) {
				for range b.N {
					reg.View(st, r.v)
				}
			})
			b.Run(sys+"/events/"+r.name, func(b *testing.B) {
				for range b.N {
					for _, ev := range log[len(log)-20:] {
						reg.ViewEvent(st, ev, r.v)
					}
				}
			})
		}
	}
}
