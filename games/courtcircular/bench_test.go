package courtcircular_test

import (
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"testing"

	"parlour/game"
	"parlour/games/courtcircular"
)

// BenchmarkPlayout plays whole random matches on the fast path, for both
// editions, and reports moves per second, allocations per move and moves
// per match.
func BenchmarkPlayout(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts map[string]any
	}{
		{"1860/players=2", map[string]any{"players": 2}},
		{"1860/players=4", map[string]any{"players": 4}},
		{"1860/players=6", map[string]any{"players": 6}},
		{"1862", map[string]any{"edition": "1862"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			g := courtcircular.Game{}
			opts, err := game.Resolve(g, tc.opts)
			if err != nil {
				b.Fatal(err)
			}
			rng := game.NewRNG(1)
			buf := make([]game.Move, 0, 64)
			moves, seed := 0, uint64(0)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ReportAllocs()
			for b.Loop() {
				s, _ := g.New(opts, seed, nil)
				seed++
				var n int
				n, buf = game.Playout(s, &rng, buf)
				moves += n
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/match")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(moves), "allocs/move")
		})
	}
}

// BenchmarkLegal measures legal-move generation alone, at the start of a
// trick and at an 1862 take (up to 35 ways to take cards).
func BenchmarkLegal(b *testing.B) {
	opts, _ := game.Resolve(courtcircular.Game{}, map[string]any{"edition": "1862", "dealer": 1})
	s, _ := courtcircular.Game{}.New(opts, 1, nil)
	buf := make([]game.Move, 0, 64)
	b.Run("play", func(b *testing.B) {
		for b.Loop() {
			buf = s.Legal(0, buf[:0])
		}
	})
	for s.View(game.Spectator).(courtcircular.View).Phase == "play" {
		seat := s.ToAct().First()
		s.ApplyFast(seat, s.Legal(seat, buf[:0])[0])
	}
	b.Run("take", func(b *testing.B) {
		seat := s.ToAct().First()
		for b.Loop() {
			buf = s.Legal(seat, buf[:0])
		}
	})
}

// viewTables are the tables BenchmarkAppendView and BenchmarkViewMarshal
// run on, one of each edition.
var viewTables = []struct {
	name string
	opts map[string]any
}{
	{"1860/players=4", map[string]any{"players": 4}},
	{"1862", map[string]any{"edition": "1862"}},
}

// viewPositions plays a random match and returns every tenth position.
func viewPositions(b *testing.B, opts map[string]any) []*courtcircular.State {
	st := startMatch(b, opts, 7)
	rng := rand.New(rand.NewPCG(7, 1))
	var buf []game.Move
	var positions []*courtcircular.State
	for moves := 0; st.ToAct() != 0; moves++ {
		if moves%10 == 0 {
			positions = append(positions, st.Clone().(*courtcircular.State))
		}
		buf = randomMove(st, rng, buf)
	}
	return positions
}

// BenchmarkAppendView measures AppendView for seat 0 into a buffer used
// again, over every tenth position of a random match (one view an op).
func BenchmarkAppendView(b *testing.B) {
	for _, tc := range viewTables {
		b.Run(tc.name, func(b *testing.B) {
			positions := viewPositions(b, tc.opts)
			out := make([]byte, 0, 4096)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				out = positions[i].AppendView(out[:0], 0)
				i = (i + 1) % len(positions)
			}
		})
	}
}

// BenchmarkViewMarshal measures encoding/json on View(0) over the same
// positions as BenchmarkAppendView, for comparison.
func BenchmarkViewMarshal(b *testing.B) {
	for _, tc := range viewTables {
		b.Run(tc.name, func(b *testing.B) {
			positions := viewPositions(b, tc.opts)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := json.Marshal(positions[i].View(0)); err != nil {
					b.Fatal(err)
				}
				i = (i + 1) % len(positions)
			}
		})
	}
}
