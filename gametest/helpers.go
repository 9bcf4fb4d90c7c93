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

// Observe returns seat's observation of s, which must be a game.Encoder.
// Every entry starts at -1e9, so one Observe leaves unwritten shows.
func Observe(s game.State, seat int) []float32 {
	e := s.(game.Encoder)
	obs := make([]float32, e.Encoding().Size)
	for i := range obs {
		obs[i] = -1e9
	}
	e.Observe(seat, obs)
	return obs
}

// Field returns the entries of obs, an observation of s, that the field
// called name covers; the test fails if s's encoding has no such field.
func Field(t testing.TB, s game.State, obs []float32, name string) []float32 {
	t.Helper()
	f, ok := s.(game.Encoder).Encoding().Field(name)
	if !ok {
		t.Fatalf("no field %q in the encoding", name)
	}
	return obs[f.Offset : f.Offset+f.Size]
}

// ObserveField returns seat's observation of s in the field called name.
func ObserveField(t testing.TB, s game.State, seat int, name string) []float32 {
	t.Helper()
	return Field(t, s, Observe(s, seat), name)
}
