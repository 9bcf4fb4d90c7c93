package protocol

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
)

// BenchmarkViewJSON measures writing a seat's view into a state message
// for each game whose views encoding/json writes (every game but Golf,
// which appends its own): "marshal" as json.Marshal does it, a new slice
// each time, and "pooled" as AppendState does it, through an encoder and
// buffer used again. The positions are a match's, after every tenth move
// of heuristic play. docs/perf/README.md has the figures.
func BenchmarkViewJSON(b *testing.B) {
	for _, name := range []string{"parcellus", "tractric", "damn", "court-circular"} {
		views := matchViews(b, name)
		b.Run(name+"/marshal", func(b *testing.B) {
			var out []byte
			i := 0
			for b.Loop() {
				data, err := json.Marshal(views[i%len(views)])
				if err != nil {
					b.Fatal(err)
				}
				out = append(out[:0], data...)
				i++
			}
		})
		b.Run(name+"/pooled", func(b *testing.B) {
			var out []byte
			i := 0
			for b.Loop() {
				var err error
				if out, err = appendMarshal(out[:0], views[i%len(views)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// matchViews returns seat 0's view after every tenth move of a heuristic
// match of the game named.
func matchViews(b *testing.B, name string) []any {
	b.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	opts, err := game.Resolve(g, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.New(opts, 7, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	var views []any
	for k := 0; s.ToAct() != 0; k++ {
		seat := s.ToAct().First()
		if k%10 == 0 {
			views = append(views, s.View(0))
		}
		s.ApplyFast(seat, bot.Heuristic{}.Choose(s, seat, rng))
	}
	return views
}
