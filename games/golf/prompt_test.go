package golf_test

import (
	"slices"
	"strings"
	"testing"

	"parlour/games/golf"
	"parlour/gametest"
)

// TestPrompts: each seat to act is told what the rules let it do, and
// nothing else: throwing the card away only when it came from the stock
// (never after taking the discard), the stock only when it can be drawn
// from, stopping only on a final turn.
func TestPrompts(t *testing.T) {
	for _, n := range []int{2, 8} {
		gametest.Prompts(t, golf.Game{}, gametest.Config{Options: map[string]any{"players": n, "holes": 3}, Matches: 30}, func(p string, legal []string) string {
			has := func(m string) bool { return slices.Contains(legal, m) }
			for _, c := range []struct {
				words string
				legal bool
			}{
				{"throw it on the discard pile", has("discard")},
				{"draw from the stock", has("draw stock")},
				{"take the top card of the discard pile", has("draw discard")},
				{"stop", has("stop")},
				{"swap", has("swap 0")},
				{"turn face up", has("reveal 0")},
			} {
				if strings.Contains(strings.ToLower(p), c.words) != c.legal {
					return "the prompt and the legal moves disagree on " + c.words
				}
			}
			return ""
		})
	}
}
