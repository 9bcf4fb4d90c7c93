package protocol

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
)

// BenchmarkViewJSON measures writing seat 0's view, for each game, as a
// table server does after every move: "marshal" builds the view with View
// and writes it with json.Marshal; "append" has the state append it
// (game.ViewAppender) into a buffer used again. The positions are a
// match's, after every tenth move of heuristic play. docs/perf/README.md
// has the figures.
func BenchmarkViewJSON(b *testing.B) {
	for _, g := range games.Registry.All() {
		states := matchStates(b, g)
		b.Run(g.Name()+"/marshal", func(b *testing.B) {
			var out []byte
			i := 0
			for b.Loop() {
				data, err := json.Marshal(states[i%len(states)].View(0))
				if err != nil {
					b.Fatal(err)
				}
				out = append(out[:0], data...)
				i++
			}
		})
		b.Run(g.Name()+"/append", func(b *testing.B) {
			var out []byte
			i := 0
			for b.Loop() {
				va, ok := states[i%len(states)].(game.ViewAppender)
				if !ok {
					b.Fatalf("%s does not append its views (game.ViewAppender)", g.Name())
				}
				out = va.AppendView(out[:0], 0)
				i++
			}
		})
	}
}

// matchStates returns the positions of a heuristic match of g, with its
// default options, after every tenth move.
func matchStates(b *testing.B, g game.Game) []game.State {
	b.Helper()
	opts, err := game.Resolve(g, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.New(opts, 7, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	var states []game.State
	for k := 0; s.ToAct() != 0; k++ {
		seat := s.ToAct().First()
		if k%10 == 0 {
			states = append(states, s.Clone())
		}
		s.ApplyFast(seat, bot.Heuristic{}.Choose(s, seat, rng))
	}
	return states
}

// BenchmarkResult measures a state's Result, which a table server reads
// for every frame, over the positions of a heuristic match of each game
// (game.ResultRows makes its rows in one block); "filled" makes each in
// the memory of the last (game.FillResult). docs/perf/README.md has the
// figures.
func BenchmarkResult(b *testing.B) {
	for _, g := range games.Registry.All() {
		states := matchStates(b, g)
		b.Run(g.Name(), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = ResultOf(states[i%len(states)].Result())
				i++
			}
		})
		b.Run(g.Name()+"/filled", func(b *testing.B) {
			b.ReportAllocs()
			var r game.Result
			i := 0
			for b.Loop() {
				game.FillResult(states[i%len(states)], &r)
				_ = ResultOf(r)
				i++
			}
		})
	}
}
