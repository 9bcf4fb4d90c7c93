package golf_test

import (
	"testing"

	"parlour/games/golf"
	"parlour/gametest"
)

func TestNoAllocs(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		gametest.AssertNoAllocs(t, golf.Game{}, map[string]any{"players": n})
	}
}

func FuzzParseMove(f *testing.F) { gametest.FuzzParseMove(f, golf.Game{}, nil) }

func TestRulingsDocumented(t *testing.T) { gametest.CheckRulings(t, golf.Game{}.Rules()) }
