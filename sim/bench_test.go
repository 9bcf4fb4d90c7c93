package sim

import (
	"testing"

	"parlour/games"
)

// BenchmarkSim measures the lab's speed on one core with random bots, in
// moves per second, to compare with the engine's (parlour bench).
func BenchmarkSim(b *testing.B) {
	for _, g := range games.Registry.All() {
		b.Run(g.Name(), func(b *testing.B) {
			v := variant(b, g, map[string]any{"dealer": 0}, "random")
			const matches = 200
			moves := 0.0
			for b.Loop() {
				rep := run(b, Config{Game: g, A: v, Matches: matches, Seed: 1, Workers: 1})
				moves += figure(b, rep, "moves").A.Value * matches
			}
			b.ReportMetric(moves/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
