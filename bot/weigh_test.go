package bot_test

import (
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"parlour/bot"
	"parlour/game"
)

// TestAnalyseWith: a search restricted to some root moves weighs only
// those (one alone too, and past MaxBranch), and scores its playouts with
// the Value given, which sees every leaf.
func TestAnalyseWith(t *testing.T) {
	for _, tab := range tables {
		for i, s := range positions(t, tab.name, tab.opts, 41, 3) {
			seat := s.ToAct().First()
			legal := s.Legal(seat, nil)
			only := []game.Move{legal[len(legal)-1]}
			if len(legal) > 2 {
				only = append(only, legal[0])
			}
			var leaves atomic.Int64 // Workers 2 call Value at once
			value := func(_ *game.Result, leaf game.State, u []float64) {
				leaves.Add(1)
				for k := range u {
					u[k] = 0.25
				}
			}
			b := bot.Search{Iterations: 40, Workers: 1 + i%2}
			a := b.AnalyseWith(s, seat, rand.New(rand.NewPCG(1, uint64(i))), bot.Weighing{Value: value, Only: only})
			if a.Iterations != 40 || leaves.Load() != 40 {
				t.Errorf("%s: %d iterations, %d leaves valued; want 40", tab.name, a.Iterations, leaves.Load())
			}
			visits := 0
			for _, ms := range a.Root {
				if !slices.Contains(only, ms.Move) {
					t.Errorf("%s: the root weighed %q, not among %v", tab.name, s.FormatMove(ms.Move), only)
				}
				if ms.Reward != 0.25*float64(ms.Visits) {
					t.Errorf("%s: reward %v over %d visits, not the Value's 0.25 each", tab.name, ms.Reward, ms.Visits)
				}
				visits += ms.Visits
			}
			if visits != 40 {
				t.Errorf("%s: %d root visits in 40 iterations", tab.name, visits)
			}
			one := b.AnalyseWith(s, seat, rand.New(rand.NewPCG(2, uint64(i))), bot.Weighing{Only: only[:1]})
			if one.Iterations != 40 || len(one.Root) != 1 || one.Root[0].Move != only[0] || one.Move != only[0] {
				t.Errorf("%s: a search of one move: %+v", tab.name, one)
			}
		}
	}
}
