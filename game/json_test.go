package game_test

import (
	"encoding/json"
	"testing"

	"parlour/game"
)

// TestAppendJSONInts checks the number lists against encoding/json's.
func TestAppendJSONInts(t *testing.T) {
	for _, ns := range [][]int{nil, {}, {0}, {-7, 12, 1 << 40}} {
		want, _ := json.Marshal(ns)
		if got := game.AppendJSONInts([]byte("x"), ns); string(got) != "x"+string(want) {
			t.Errorf("%#v: got %s, want x%s", ns, got, want)
		}
	}
	for _, rows := range [][][]int{nil, {}, {nil, {}, {1, -2}}} {
		want, _ := json.Marshal(rows)
		if got := game.AppendJSONIntRows(nil, rows); string(got) != string(want) {
			t.Errorf("%#v: got %s, want %s", rows, got, want)
		}
	}
}
