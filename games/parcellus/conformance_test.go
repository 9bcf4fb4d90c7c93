package parcellus_test

import (
	"testing"

	"parlour/card"
	"parlour/games/parcellus"
	"parlour/gametest"
)

func TestConformance(t *testing.T) {
	st := gametest.Run(t, parcellus.Game{}, gametest.Config{
		Options: map[string]any{"players": 3},
		Pack:    card.Pack24(),
	})
	want := 10000
	if testing.Short() {
		want = gametest.ShortMatches
	}
	if st.Matches != want {
		t.Errorf("played %d matches, want %d", st.Matches, want)
	}
}

// TestConformanceShortTarget plays many more deal boundaries per move,
// and a low target's tie-breaking deals.
func TestConformanceShortTarget(t *testing.T) {
	gametest.Run(t, parcellus.Game{}, gametest.Config{
		Options: map[string]any{"target": 8},
		Matches: 3000,
		Deep:    300,
		Seed:    1 << 20,
		Pack:    card.Pack24(),
	})
}

func TestGolden(t *testing.T) {
	gametest.Golden(t, parcellus.Game{}, map[string]any{"players": 3}, 42, "testdata/golden.jsonl")
}
