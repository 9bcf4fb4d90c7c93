package golf_test

import (
	"testing"

	"parlour/game"
	"parlour/games/golf"
)

// BenchmarkPlayout plays whole random 4-player matches on the fast path and
// reports moves per second and allocations per move.
func BenchmarkPlayout(b *testing.B) {
	opts, err := game.Resolve(golf.Game{}, map[string]any{"players": 4})
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(1)
	buf := make([]game.Move, 0, 64)
	moves := 0
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		s, _ := golf.Game{}.New(opts, seed, nil)
		seed++
		var n int
		n, buf = game.Playout(s, &rng, buf)
		moves += n
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/match")
}

// BenchmarkLegal measures legal-move generation alone.
func BenchmarkLegal(b *testing.B) {
	opts, _ := game.Resolve(golf.Game{}, map[string]any{"players": 4})
	s, _ := golf.Game{}.New(opts, 1, nil)
	buf := make([]game.Move, 0, 16)
	for b.Loop() {
		buf = s.Legal(0, buf[:0])
	}
}
