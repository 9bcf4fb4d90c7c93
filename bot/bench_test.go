package bot_test

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
)

// table is a game and its options as the strength table plays them.
type table struct {
	name string
	opts map[string]any
}

// tables are the five games as measured: Golf 4 players, Parcellus,
// Tractric 3, Damn 3, Court Circular 1860 for 2.
var tables = []table{
	{"golf", map[string]any{"players": 4}},
	{"parcellus", nil},
	{"tractric", map[string]any{"players": 3}},
	{"damn", map[string]any{"players": 3}},
	{"court-circular", map[string]any{"players": 2, "edition": "1860"}},
}

func newMatch(tb testing.TB, name string, opts map[string]any, seed uint64) game.State {
	tb.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	o, err := game.Resolve(g, opts)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := g.New(o, seed, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// positions plays heuristic matches from seed and collects up to n states
// where the seat to act has a real choice, a few moves apart.
func positions(tb testing.TB, name string, opts map[string]any, seed uint64, n int) []game.State {
	tb.Helper()
	var out []game.State
	rng := rand.New(rand.NewPCG(seed, 7))
	var buf []game.Move
	for k := uint64(0); len(out) < n && k < 50; k++ {
		s := newMatch(tb, name, opts, seed+k)
		for moves := 0; s.ToAct() != 0 && len(out) < n; moves++ {
			seat := s.ToAct().First()
			buf = s.Legal(seat, buf[:0])
			if len(buf) > 1 && rng.IntN(7) == 0 {
				out = append(out, s.Clone())
			}
			if err := game.Apply(s, seat, bot.Heuristic{}.Choose(s, seat, rng)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkSearch measures the hard level's search in each game on one
// core, over a spread of positions from heuristic play: iterations per
// second, and milliseconds per move, mean and worst, at hard's iterations
// (within its cap, LevelCap);
// and the same in CPU time of the benchmark's thread, which a busy machine
// does not inflate.
// The "random" runs use random playouts instead, for comparison.
func BenchmarkSearch(b *testing.B) {
	hard, _ := bot.Level("hard")
	for _, tab := range tables {
		g, _ := games.Lookup(tab.name)
		for _, pol := range []struct {
			name string
			p    bot.Policy
		}{{"hard", bot.PolicyHeuristic}, {"random", bot.PolicyRandom}} {
			b.Run(tab.name+"/"+pol.name, func(b *testing.B) {
				ps := positions(b, tab.name, tab.opts, 1, 16)
				s := hard.Settings(g)
				s.Playout = pol.p
				rng := rand.New(rand.NewPCG(1, 1))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				i, iters := 0, 0
				var total, worst, cpu time.Duration
				for b.Loop() {
					st := ps[i%len(ps)]
					t0, c0 := time.Now(), threadCPU()
					iters += s.Analyse(st, st.ToAct().First(), rng).Iterations // fewer than s.Iterations where the cap cuts
					el := time.Since(t0)
					cpu += threadCPU() - c0
					total += el
					worst = max(worst, el)
					i++
				}
				b.ReportMetric(float64(iters)/total.Seconds(), "iter/s")
				b.ReportMetric(total.Seconds()*1000/float64(i), "ms/move")
				b.ReportMetric(worst.Seconds()*1000, "worst-ms")
				if cpu > 0 {
					b.ReportMetric(float64(iters)/cpu.Seconds(), "iter/cpu-s")
					b.ReportMetric(cpu.Seconds()*1000/float64(i), "cpu-ms/move")
				}
			})
		}
	}
}
