package damn_test

import (
	"fmt"
	"testing"

	"parlour/card"
	"parlour/games/damn"
	"parlour/gametest"
)

// TestConformance runs the conformance kit for 2, 3 and 4 players.
func TestConformance(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			gametest.Run(t, damn.Game{}, gametest.Config{Options: map[string]any{"players": n}, Pack: card.Pack52()})
		})
	}
}

// TestConformanceTurnCap runs the kit with a small turn cap, so that most
// games end unresolved and some end with a loser.
func TestConformanceTurnCap(t *testing.T) {
	st := gametest.Run(t, damn.Game{}, gametest.Config{Options: map[string]any{"players": 2, "max_turns": 300}, Matches: 1000, Deep: 50, Pack: card.Pack52()})
	if st.Moves >= 300*st.Matches {
		t.Errorf("every game hit the cap; the test does not see games that end")
	}
}

// TestGolden compares seeded random playthroughs with their golden files
// (go test -update rewrites them): a whole 2-player game (seed 103, one of
// the shortest that ends with a loser) and a 4-player game stopped by a
// small max_turns.
func TestGolden(t *testing.T) {
	t.Run("2p", func(t *testing.T) {
		gametest.Golden(t, damn.Game{}, map[string]any{"players": 2}, 103, "testdata/golden.jsonl")
	})
	t.Run("4p_capped", func(t *testing.T) {
		gametest.Golden(t, damn.Game{}, map[string]any{"players": 4, "max_turns": 50}, 1, "testdata/golden_4p_capped.jsonl")
	})
}
