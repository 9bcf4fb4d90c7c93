package courtcircular_test

import (
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/courtcircular"
	"parlour/gametest"
)

// TestPrompts: each seat to act is told what the rules let it do: resign
// only when it may, take a shared card only in the 1862 last trick, take
// exactly as many cards as the move names, choose the Lead.
func TestPrompts(t *testing.T) {
	rule := func(p string, legal []string) string {
		has := func(prefix string) bool {
			return slices.ContainsFunc(legal, func(m string) bool { return strings.HasPrefix(m, prefix) })
		}
		switch {
		case strings.Contains(p, "resign") != has("resign"):
			return "the prompt and the legal moves disagree on resigning"
		case strings.Contains(p, "shared card") != slices.ContainsFunc(legal, func(m string) bool { return strings.Contains(m, " for ") }):
			return "the prompt and the legal moves disagree on the shared cards"
		case strings.Contains(p, "Lead from") != has("lead "):
			return "the prompt and the legal moves disagree on choosing the Lead"
		case has("play ") && !strings.HasPrefix(p, "Play"):
			return "the prompt does not ask for a card"
		case has("take "):
			if want := "Take " + game.CountWords(len(game.CardWords(legal[0])), "card") + " "; !strings.HasPrefix(p, want) {
				return "the prompt does not say how many cards to take: want " + want
			}
		}
		return ""
	}
	for _, opts := range []map[string]any{{"players": 2, "target": 20}, {"players": 4, "target": 20}, {"edition": "1862"}} {
		gametest.Prompts(t, courtcircular.Game{}, gametest.Config{Options: opts, Matches: 20}, rule)
	}
}
