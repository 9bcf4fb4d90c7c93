package analysis

import (
	"context"
	"testing"

	"parlour/bot"
)

// TestLadder: on common positions the random bot loses more per decision
// than the heuristic and the search, and finds the best move less often.
func TestLadder(t *testing.T) {
	g, opts := setup(t, "golf", map[string]any{"players": 3})
	positions := 40
	if !testing.Short() {
		positions = 120
	}
	rungs, err := Ladder(context.Background(), LadderConfig{Game: g, Options: opts, Positions: positions, Seed: 8, Rate: 0.05,
		Bots:     []bot.Bot{bot.Random{}, bot.Heuristic{}, bot.Search{Label: "search", Iterations: 400, Depth: 1}},
		Analysis: Options{Iterations: 400}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rungs {
		t.Logf("%s: %d decisions, mean loss %.4f, %d mistakes, %d best", r.Name, r.Decisions, r.MeanLoss, r.Mistakes, r.Best)
		if r.Decisions != positions {
			t.Errorf("%s rated on %d positions, want %d", r.Name, r.Decisions, positions)
		}
	}
	random, heur, search := rungs[0], rungs[1], rungs[2]
	if random.MeanLoss <= heur.MeanLoss || random.MeanLoss <= search.MeanLoss {
		t.Errorf("random lost %.4f a decision, the heuristic %.4f, the search %.4f", random.MeanLoss, heur.MeanLoss, search.MeanLoss)
	}
	if random.Best >= heur.Best || random.Best >= search.Best {
		t.Errorf("random found the best move %d times, the heuristic %d, the search %d", random.Best, heur.Best, search.Best)
	}
}
