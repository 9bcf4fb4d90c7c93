package analysis

import (
	"context"
	"testing"

	"parlour/games"
)

// BenchmarkAnalyseDeal analyses every decision of the first deal of a
// heuristic match at the default think (200 ms a decision), and reports
// the seconds a deal takes and its decisions: Golf's first hole (4
// players), Parcellus's first deal, Court Circular's (1860, 2 players).
func BenchmarkAnalyseDeal(b *testing.B) {
	for _, c := range []struct {
		name  string
		given map[string]any
	}{
		{"golf", map[string]any{"players": 4}},
		{"parcellus", nil},
		{"court-circular", map[string]any{"players": 2, "edition": "1860"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := matchScript(b, c.name, c.given, 3, 0)
			sc.Moves = sc.Moves[:firstDeal(b, sc, 3)]
			var decisions, forced int
			for b.Loop() {
				rep, err := Analyse(context.Background(), games.Lookup, sc, 3, Options{})
				if err != nil {
					b.Fatal(err)
				}
				decisions, forced = len(rep.Decisions), 0
				for _, d := range rep.Decisions {
					if d.Forced {
						forced++
					}
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/deal")
			b.ReportMetric(float64(decisions), "decisions")
			b.ReportMetric(float64(forced), "forced")
			b.ReportMetric(0, "ns/op")
		})
	}
}
