package courtcircular_test

import (
	"fmt"
	"testing"

	"parlour/card"
	"parlour/games/courtcircular"
	"parlour/gametest"
)

// TestConformance runs the conformance kit for every table the game
// supports: the 1860 edition with 2 to 6 players, and the 1862 edition.
func TestConformance(t *testing.T) {
	type table struct {
		name    string
		opts    map[string]any
		matches int
	}
	tables := []table{{"1860/players=2", map[string]any{"players": 2}, 10000}}
	for n := 3; n <= courtcircular.MaxPlayers; n++ {
		tables = append(tables, table{fmt.Sprintf("1860/players=%d", n), map[string]any{"players": n}, 1000})
	}
	tables = append(tables,
		table{"1860/players=2/target=20", map[string]any{"players": 2, "target": 20}, 1000},
		table{"1862", map[string]any{"edition": "1862"}, 10000})
	for _, tc := range tables {
		t.Run(tc.name, func(t *testing.T) {
			gametest.Run(t, courtcircular.Game{}, gametest.Config{
				Options: tc.opts,
				Matches: tc.matches,
				Pack:    card.Pack52(),
			})
		})
	}
}

// TestGolden compares seeded random playthroughs, every view after every
// move, with testdata (go test -update rewrites them). The seeds give short
// matches.
func TestGolden(t *testing.T) {
	gametest.Golden(t, courtcircular.Game{}, map[string]any{"players": 2, "target": 20}, 152, "testdata/golden-1860-2p.jsonl")
	gametest.Golden(t, courtcircular.Game{}, map[string]any{"players": 3, "target": 20}, 122, "testdata/golden-1860-3p.jsonl")
	gametest.Golden(t, courtcircular.Game{}, map[string]any{"edition": "1862"}, 292, "testdata/golden-1862.jsonl")
}
