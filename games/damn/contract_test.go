package damn_test

import (
	"testing"

	"parlour/games/damn"
	"parlour/gametest"
)

func TestNoAllocs(t *testing.T) {
	for _, o := range []map[string]any{{"players": 2}, {"players": 3}, {"players": 4}} {
		gametest.AssertNoAllocs(t, damn.Game{}, o)
	}
}

func FuzzParseMove(f *testing.F) {
	gametest.FuzzParseMove(f, damn.Game{}, map[string]any{"players": 3})
}

func TestRulingsDocumented(t *testing.T) { gametest.CheckRulings(t, damn.Game{}.Rules()) }
