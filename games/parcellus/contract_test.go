package parcellus_test

import (
	"testing"

	"parlour/games/parcellus"
	"parlour/gametest"
)

func TestNoAllocs(t *testing.T) {
	for _, o := range []map[string]any{nil} {
		gametest.AssertNoAllocs(t, parcellus.Game{}, o)
	}
}

func FuzzParseMove(f *testing.F) { gametest.FuzzParseMove(f, parcellus.Game{}, nil) }

func TestRulingsDocumented(t *testing.T) { gametest.CheckRulings(t, parcellus.Game{}.Rules()) }
