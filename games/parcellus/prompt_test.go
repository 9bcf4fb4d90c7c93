package parcellus_test

import (
	"slices"
	"strings"
	"testing"

	"parlour/games/parcellus"
	"parlour/gametest"
)

// TestPrompts: each seat to act is told what the rules let it do: the
// pass of three, in this deal's direction; adding to the parcel only when
// a card fits, and passing.
func TestPrompts(t *testing.T) {
	gametest.Prompts(t, parcellus.Game{}, gametest.Config{Options: map[string]any{"target": 30}, Matches: 40}, func(p string, legal []string) string {
		three := strings.HasPrefix(legal[0], "pass ")
		add := slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, "play ") })
		switch {
		case three != strings.HasPrefix(p, "Choose three cards to pass"):
			return "the prompt and the legal moves disagree on the pass of three"
		case add != strings.HasPrefix(p, "Add a card to the parcel"):
			return "the prompt and the legal moves disagree on adding a card"
		case !three && !strings.Contains(p, "pass"):
			return "the prompt does not say the seat may pass"
		}
		return ""
	})
}
