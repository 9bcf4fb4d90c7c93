package damn_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"parlour/game"
	"parlour/games/damn"
)

// BenchmarkPlayout plays whole random games through the game.State
// interface with ApplyFast, for 2, 3 and 4 players, and reports moves/s,
// allocations per move, the mean length of a game in moves and turns, and
// the share of games stopped by max_turns (default 2000).
func BenchmarkPlayout(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			opts, err := game.Resolve(damn.Game{}, map[string]any{"players": n})
			if err != nil {
				b.Fatal(err)
			}
			rng := game.NewRNG(1) // the move picker: a PCG held by value
			buf := make([]game.Move, 0, 1<<16)
			var moves, turns, games, capped int
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			seed := uint64(0)
			for b.Loop() {
				seed++
				st, _ := damn.Game{}.New(opts, seed, nil)
				for {
					acts := st.ToAct()
					if acts == 0 {
						break
					}
					seat := acts.First()
					buf = st.Legal(seat, buf[:0])
					st.ApplyFast(seat, buf[rng.IntN(len(buf))])
					moves++
				}
				s := st.(*damn.State)
				turns += s.Turns()
				games++
				if s.Loser() < 0 {
					capped++
				}
			}
			runtime.ReadMemStats(&ms1)
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(moves)/sec, "moves/s")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(moves), "allocs/move")
			b.ReportMetric(float64(moves)/float64(games), "moves/game")
			b.ReportMetric(float64(turns)/float64(games), "turns/game")
			b.ReportMetric(100*float64(capped)/float64(games), "%capped")
		})
	}
}

// viewPositions returns every tenth position of a random 4-player game.
func viewPositions(b *testing.B) []*damn.State {
	st := newMatch(b, map[string]any{"players": 4}, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	var buf []game.Move
	var ps []*damn.State
	for moves := 0; ; moves++ {
		if moves%10 == 0 {
			ps = append(ps, st.Clone().(*damn.State))
		}
		if !playRandom(st, rng, &buf) {
			break
		}
	}
	return ps
}

// BenchmarkAppendView appends seat 0's view into a reused buffer, over
// every tenth position of a random 4-player game (one view an op).
func BenchmarkAppendView(b *testing.B) {
	ps := viewPositions(b)
	out := make([]byte, 0, 4096)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		out = ps[i%len(ps)].AppendView(out[:0], 0)
		i++
	}
}

// BenchmarkViewMarshal marshals seat 0's View with encoding/json, over
// the positions BenchmarkAppendView uses (one view an op).
func BenchmarkViewMarshal(b *testing.B) {
	ps := viewPositions(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := json.Marshal(ps[i%len(ps)].View(0)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
