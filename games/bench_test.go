package games_test

import (
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games"
)

// BenchmarkNarrate measures telling a move in words (game.Narrator), as a
// table does for every move someone watches, for each game at its usual
// seats, over the moves of random matches. docs/perf/README.md has the
// figures.
func BenchmarkNarrate(b *testing.B) {
	for _, g := range games.Registry.All() {
		b.Run(g.Name(), func(b *testing.B) {
			opts, err := game.Resolve(g, nil)
			if err != nil {
				b.Fatal(err)
			}
			rng := game.NewRNG(1)
			buf := make([]game.Move, 0, 64)
			var s game.State
			b.ReportAllocs()
			for b.Loop() {
				if s == nil || s.ToAct() == 0 {
					if s, err = g.New(opts, rng.Uint64(), nil); err != nil {
						b.Fatal(err)
					}
				}
				seat := s.ToAct().First()
				buf = s.Legal(seat, buf[:0])
				m := buf[rng.IntN(len(buf))]
				s.(game.Narrator).Narrate(seat, m)
				s.ApplyFast(seat, m)
			}
		})
	}
}

// BenchmarkVisible measures working out what each receiver may see after
// a move, as a table does to decide who may read it, for each game at its
// usual seats over the positions of random matches: "places" builds the
// places and reads them (game.VisibleSets), "append" has the state append
// the sets (game.VisibleAppender). docs/perf/README.md has the figures.
func BenchmarkVisible(b *testing.B) {
	for _, g := range games.Registry.All() {
		states := randomPositions(b, g, 200)
		b.Run(g.Name()+"/places", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s := states[i%len(states)]
				game.VisibleSets(s.Places(), s.Players())
				i++
			}
		})
		b.Run(g.Name()+"/append", func(b *testing.B) {
			b.ReportAllocs()
			var buf []card.Set
			i := 0
			for b.Loop() {
				buf = game.Visible(buf[:0], states[i%len(states)])
				i++
			}
		})
	}
}

// randomPositions returns n positions of random matches of g, with its
// default options, one every few moves.
func randomPositions(b *testing.B, g game.Game, n int) []game.State {
	b.Helper()
	opts, err := game.Resolve(g, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(1)
	var out []game.State
	var buf []game.Move
	var s game.State
	for len(out) < n {
		if s == nil || s.ToAct() == 0 {
			if s, err = g.New(opts, rng.Uint64(), nil); err != nil {
				b.Fatal(err)
			}
		}
		seat := s.ToAct().First()
		buf = s.Legal(seat, buf[:0])
		s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		if rng.IntN(4) == 0 {
			out = append(out, s.Clone())
		}
	}
	return out
}
