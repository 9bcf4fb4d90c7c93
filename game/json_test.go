package game_test

import (
	"bytes"
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

// FuzzAppendString checks AppendJSONString against encoding/json on any
// string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<>&", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xfe", "é🂡", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := game.AppendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}
