package gametest

import (
	"encoding/json"
	"testing"

	"parlour/game"
)

// Start makes a match of g for a rules test: options as a script gives
// them, a seed, and the first deal's layout as JSON ("" for a shuffle).
func Start(t testing.TB, g game.Game, options map[string]any, seed uint64, layout string) game.State {
	t.Helper()
	opts, err := game.Resolve(g, options)
	if err != nil {
		t.Fatal(err)
	}
	var deals []game.Layout
	if layout != "" {
		var l game.Layout
		if err := json.Unmarshal([]byte(layout), &l); err != nil {
			t.Fatalf("layout: %v", err)
		}
		deals = []game.Layout{l}
	}
	s, err := g.New(opts, seed, deals)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Play applies moves written "SEAT: MOVE" and fails the test at the first
// refusal.
func Play(t testing.TB, s game.State, lines ...string) {
	t.Helper()
	for i, line := range lines {
		if err := game.Step(s, line); err != nil {
			t.Fatalf("move %d %q: %v", i+1, line, err)
		}
	}
}

// Try applies one "SEAT: MOVE" and returns the refusal, if any.
func Try(s game.State, line string) error { return game.Step(s, line) }
