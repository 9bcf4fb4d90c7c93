package damn_test

import (
	"slices"
	"strings"
	"testing"

	"parlour/games/damn"
	"parlour/gametest"
)

// TestPrompts: each seat to act is told what the rules let it do, and
// nothing else: playing from hand only when a card fits, turning the
// support card only while there is one, picking up only a pile there is,
// the random pile and the keep when they are all there is.
func TestPrompts(t *testing.T) {
	for _, n := range []int{2, 4} {
		gametest.Prompts(t, damn.Game{}, gametest.Config{Options: map[string]any{"players": n}, Matches: 30}, func(p string, legal []string) string {
			play := slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, "play ") })
			keep := slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, "keep ") })
			lower := strings.ToLower(p)
			if offers := strings.Contains(lower, "play a card one rank") || strings.Contains(lower, "card from your hand"); offers != play {
				return "the prompt and the legal moves disagree on playing from hand"
			}
			for _, c := range []struct {
				words string
				legal bool
			}{
				{"turn the top card of your support pile", slices.Contains(legal, "turn")},
				{"pick up the play pile", slices.Contains(legal, "pickup")},
				{"turn the top card of your random pile", slices.Contains(legal, "random")},
				{"keep four", keep},
			} {
				if strings.Contains(lower, c.words) != c.legal {
					return "the prompt and the legal moves disagree on " + c.words
				}
			}
			return ""
		})
	}
}
