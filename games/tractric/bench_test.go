package tractric_test

import (
	"encoding/json"
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

// viewPositions plays a random match of n players and returns a copy of
// every tenth position, for the view benchmarks.
func viewPositions(b *testing.B, n int) []*tractric.State {
	opts, err := game.Resolve(tractric.Game{}, map[string]any{"players": n})
	if err != nil {
		b.Fatal(err)
	}
	st, err := tractric.Game{}.New(opts, 3, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(3)
	var buf []game.Move
	var states []*tractric.State
	for moves := 0; ; moves++ {
		if moves%10 == 0 {
			states = append(states, st.Clone().(*tractric.State))
		}
		acts := st.ToAct()
		if acts == 0 {
			return states
		}
		seat := acts.First()
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
}

// BenchmarkAppendView measures seat 0's view appended by AppendView into a
// buffer used again, over every tenth position of a random match.
func BenchmarkAppendView(b *testing.B) {
	for _, n := range []int{3, 4} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			states := viewPositions(b, n)
			var out []byte
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				out = states[i%len(states)].AppendView(out[:0], 0)
				i++
			}
		})
	}
}

// BenchmarkViewMarshal measures the same views as BenchmarkAppendView
// built by View and encoded by encoding/json, for comparison.
func BenchmarkViewMarshal(b *testing.B) {
	for _, n := range []int{3, 4} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			states := viewPositions(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := json.Marshal(states[i%len(states)].View(0)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
