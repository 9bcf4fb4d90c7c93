package golf_test

import (
	"fmt"
	"testing"

	"parlour/card"
	"parlour/games/golf"
	"parlour/gametest"
)

func TestConformance(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			matches := 10000
			if n != 4 {
				matches = 1000
			}
			gametest.Run(t, golf.Game{}, gametest.Config{
				Options: map[string]any{"players": n},
				Matches: matches,
				Pack:    card.Pack108(),
			})
		})
	}
}

func TestGolden(t *testing.T) {
	gametest.Golden(t, golf.Game{}, map[string]any{"players": 3, "holes": 1}, 42, "testdata/golden.jsonl")
}
