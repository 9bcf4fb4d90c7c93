package tractric_test

import (
	"testing"

	"parlour/games/tractric"
	"parlour/gametest"
)

func TestNoAllocs(t *testing.T) {
	for _, o := range []map[string]any{{"players": 3}, {"players": 4}} {
		gametest.AssertNoAllocs(t, tractric.Game{}, o)
	}
}

func FuzzParseMove(f *testing.F) {
	gametest.FuzzParseMove(f, tractric.Game{}, map[string]any{"players": 4})
}

func TestRulingsDocumented(t *testing.T) { gametest.CheckRulings(t, tractric.Game{}.Rules()) }
