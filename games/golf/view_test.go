package golf_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
)

// TestViewAppendJSON checks View.AppendJSON and State.AppendView against
// encoding/json: every seat's view and a spectator's after every move of
// random matches, with two to eight players, a target or none, and one
// match longer than AppendView's room for holes.
func TestViewAppendJSON(t *testing.T) {
	var buf []game.Move
	for seed := range uint64(25) {
		n := 2 + int(seed)%7
		opts := map[string]any{"players": n, "holes": 1 + int(seed)%3}
		if seed%2 == 1 {
			opts["target"] = 10
		}
		if seed == 24 {
			opts = map[string]any{"players": 2, "holes": 35}
		}
		st := newMatch(t, opts, seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		for moves := 0; ; moves++ {
			for seat := game.Spectator; seat < n; seat++ {
				v := st.View(seat).(golf.View)
				want, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if got := v.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Fatalf("seed %d, move %d, seat %d:\n got %s\nwant %s", seed, moves, seat, got[1:], want)
				}
				if got := st.AppendView([]byte("x"), seat); !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Fatalf("AppendView, seed %d, move %d, seat %d:\n got %s\nwant %s", seed, moves, seat, got[1:], want)
				}
			}
			act := st.ToAct()
			if act == 0 {
				break
			}
			seat := act.List()[rng.IntN(act.Len())]
			buf = st.Legal(seat, buf[:0])
			st.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
	}
	// A view made by hand, nil lists and all.
	for _, v := range []golf.View{{}, {Layouts: [][6]card.Card{}, Chosen: []bool{}, Scores: [][]int{nil, {}}}} {
		want, _ := json.Marshal(v)
		if got := v.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
}

// TestAppendViewAllocates checks that AppendView allocates nothing but
// the room it appends to outgrows, and that a view's lists are its own:
// changing them changes neither the state nor the next view.
func TestAppendViewAllocates(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 8, "holes": 9}, 5)
	var buf []game.Move
	rng := rand.New(rand.NewPCG(5, 1))
	for st.DealsPlayed() < 2 {
		act := st.ToAct()
		seat := act.List()[rng.IntN(act.Len())]
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
	out := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { out = st.AppendView(out[:0], 3) }); n != 0 {
		t.Errorf("AppendView: %v allocations, want 0", n)
	}
	before := string(st.AppendView(nil, 3))
	v := st.View(3).(golf.View)
	v.ToAct[0], v.Layouts[0][0], v.Chosen[0], v.Scores[0][0], v.Totals[0] = 7, card.Joker, true, 99, 99
	if after := string(st.AppendView(nil, 3)); after != before {
		t.Errorf("changing a view's lists changed the state's view:\n%s\n%s", before, after)
	}
}

// BenchmarkViewJSON compares a mid-match view's JSON by AppendJSON with
// encoding/json's.
func BenchmarkViewJSON(b *testing.B) {
	st := newMatch(b, map[string]any{"players": 4}, 3)
	var buf []game.Move
	rng := rand.New(rand.NewPCG(3, 1))
	for range 40 {
		act := st.ToAct()
		seat := act.List()[rng.IntN(act.Len())]
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
	v := st.View(1).(golf.View)
	b.Run("AppendJSON", func(b *testing.B) {
		var out []byte
		for b.Loop() {
			out = v.AppendJSON(out[:0])
		}
	})
	b.Run("AppendView", func(b *testing.B) {
		var out []byte
		for b.Loop() {
			out = st.AppendView(out[:0], 1)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
