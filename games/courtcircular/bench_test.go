package courtcircular_test

import (
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
