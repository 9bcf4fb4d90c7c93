package tractric_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"parlour/game"
	"parlour/games/tractric"
)

// BenchmarkPlayout plays whole random matches through the game.State
// interface with ApplyFast and reports moves per second, allocations per
// move and moves per match.
func BenchmarkPlayout(b *testing.B) {
	for _, n := range []int{3, 4} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			opts, err := game.Resolve(tractric.Game{}, map[string]any{"players": n})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var buf [64]game.Move
			moves, matches := 0, 0
			var st game.State
			b.ReportAllocs()
			for b.Loop() {
				if st == nil || st.ToAct() == 0 {
					if st != nil {
						matches++
					}
					st, _ = tractric.Game{}.New(opts, rng.Uint64(), nil)
				}
				acts := st.ToAct()
				seat := acts.First()
				legal := st.Legal(seat, buf[:0])
				st.ApplyFast(seat, legal[rng.IntN(len(legal))])
				moves++
			}
			sec := b.Elapsed().Seconds()
			if sec > 0 {
				b.ReportMetric(float64(moves)/sec, "moves/s")
			}
			if matches > 0 {
				b.ReportMetric(float64(moves)/float64(matches), "moves/match")
			}
		})
	}
}
