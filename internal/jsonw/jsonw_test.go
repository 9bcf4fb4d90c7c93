package jsonw_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// same reports an error unless got is "x" and then v as json.Marshal
// writes it.
func same(t *testing.T, v any, got []byte) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "x"+string(want) {
		t.Errorf("%#v: got %s, want x%s", v, got, want)
	}
}

// TestAppendLists checks the lists against encoding/json's, nil and empty
// ones too, appended after what b holds.
func TestAppendLists(t *testing.T) {
	for _, ns := range [][]int{nil, {}, {0}, {-7, 12, 1 << 40}} {
		same(t, ns, jsonw.AppendInts([]byte("x"), ns))
	}
	for _, rows := range [][][]int{nil, {}, {nil, {}, {1, -2}}} {
		same(t, rows, jsonw.AppendIntRows([]byte("x"), rows))
	}
	for _, bs := range [][]bool{nil, {}, {true, false}} {
		same(t, bs, jsonw.AppendBools([]byte("x"), bs))
	}
	for _, cs := range [][]card.Card{nil, {}, {card.None, card.Joker, card.New(card.Queen, card.Hearts), card.New(10, card.Spades)}} {
		same(t, cs, jsonw.AppendCards([]byte("x"), cs))
	}
	for _, ss := range [][]string{nil, {}, {"", "a\"<b>"}} {
		same(t, ss, jsonw.AppendList([]byte("x"), ss, func(b []byte, s *string) []byte { return jsonw.AppendString(b, *s) }))
	}
}

// TestAppendRows checks flat scores, n a row, against encoding/json's
// writing of the rows game.ResultRows makes of them; a short last row is
// left out, as ResultRows leaves it.
func TestAppendRows(t *testing.T) {
	for _, c := range []struct {
		flat []int
		n    int
	}{{nil, 3}, {[]int{}, 2}, {[]int{4, -1, 0}, 3}, {[]int{1, 2, 3, 4, 5, 6, 7}, 3}} {
		rows, _ := game.ResultRows(c.flat, len(c.flat)/c.n, c.n)
		same(t, rows, jsonw.AppendRows([]byte("x"), c.flat, c.n))
		small := make([]int8, len(c.flat))
		for i, x := range c.flat {
			small[i] = int8(x)
		}
		same(t, rows, jsonw.AppendRows([]byte("x"), small, c.n))
	}
}

// FuzzAppendString checks AppendString against encoding/json on any
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
		if got := jsonw.AppendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}
