package tractric_test

import (
	"fmt"
	"testing"

	"parlour/card"
	"parlour/games/tractric"
	"parlour/gametest"
)

func TestConformance(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			pack := card.Pack36()
			if n == 4 {
				pack = card.Pack52()
			}
			// The kit's full count for the 3-player game; a 4-player match
			// is shorter and shares the code, so fewer do there.
			matches := 10000
			if n == 4 {
				matches = 2000
			}
			gametest.Run(t, tractric.Game{}, gametest.Config{
				Options: map[string]any{"players": n},
				Matches: matches,
				Deep:    20,
				Pack:    pack,
			})
		})
	}
}

// TestGolden replays one short match per player count (seeds picked for
// short random matches, to keep the files small).
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{3, 166}, {4, 159}} {
		t.Run(fmt.Sprintf("players=%d", tc.n), func(t *testing.T) {
			gametest.Golden(t, tractric.Game{}, map[string]any{"players": tc.n}, tc.seed,
				fmt.Sprintf("testdata/golden-%dp.jsonl", tc.n))
		})
	}
}
