package courtcircular_test

import (
	"testing"

	"parlour/games/courtcircular"
	"parlour/gametest"
)

func TestNoAllocs(t *testing.T) {
	for _, o := range []map[string]any{{"players": 2}, {"players": 3}, {"players": 6}, {"edition": "1862"}} {
		gametest.AssertNoAllocs(t, courtcircular.Game{}, o)
	}
}

func FuzzParseMove(f *testing.F) {
	gametest.FuzzParseMove(f, courtcircular.Game{}, map[string]any{"edition": "1862"})
}

// FuzzParseMove1860 fuzzes the 1860 notation (6 players).
func FuzzParseMove1860(f *testing.F) {
	gametest.FuzzParseMove(f, courtcircular.Game{}, map[string]any{"players": 6})
}

func TestRulingsDocumented(t *testing.T) { gametest.CheckRulings(t, courtcircular.Game{}.Rules()) }
