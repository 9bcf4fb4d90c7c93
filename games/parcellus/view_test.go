package parcellus_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/parcellus"
	"parlour/gametest"
)

// TestViewAppendJSON checks View.AppendJSON and State.AppendView against
// encoding/json: every seat's view, a spectator's and an out-of-range
// seat's after every move of random matches, to the default target, a
// short one and one long enough to outgrow AppendView's room for deal
// scores. It checks too that the matches reach the views' edge cases.
func TestViewAppendJSON(t *testing.T) {
	var buf []game.Move
	seen := map[string]bool{}
	for seed := range uint64(30) {
		opts := map[string]any{}
		switch {
		case seed == 29:
			opts["target"] = 999
		case seed%3 == 1:
			opts["target"] = 8
		}
		st := gametest.Start(t, parcellus.Game{}, opts, seed, "").(*parcellus.State)
		rng := rand.New(rand.NewPCG(seed, 1))
		for moves := 0; ; moves++ {
			for seat := game.Spectator; seat <= parcellus.Players; seat++ {
				v := st.View(seat).(parcellus.View)
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
				noteCases(seen, seat, v)
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
	for _, c := range []string{"no hand", "passed null", "passed three", "passed empty", "empty hand",
		"no parcel", "no captures", "captures", "no deal scores", "over", "many deals", "right"} {
		if !seen[c] {
			t.Errorf("no view had %s", c)
		}
	}
	// Views made by hand, nil lists and all.
	for _, v := range []parcellus.View{{}, {
		ToAct: []int{}, Hand: []card.Card{}, Received: []bool{}, HandSizes: []int{}, Chosen: []bool{},
		Passed: []card.Card{}, Parcel: []card.Card{}, Captured: []parcellus.Captured{{Seat: 1}, {Cards: []card.Card{}}},
		ParcelCounts: []int{}, Points: []int{}, DealScores: [][]int{nil, {}}, Totals: []int{}, Winners: []int{},
	}} {
		want, _ := json.Marshal(v)
		if got := v.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
}

// noteCases records in seen the edge cases v shows.
func noteCases(seen map[string]bool, seat int, v parcellus.View) {
	note := func(c string, ok bool) {
		if ok {
			seen[c] = true
		}
	}
	note("no hand", seat == game.Spectator && v.Hand == nil && v.Received == nil)
	if seat >= 0 && seat < parcellus.Players {
		note("passed null", v.Passed == nil)
		note("passed three", len(v.Passed) == parcellus.PassSize)
		note("passed empty", v.Passed != nil && len(v.Passed) == 0)
		note("empty hand", len(v.Hand) == 0)
	}
	note("no parcel", len(v.Parcel) == 0)
	note("no captures", len(v.Captured) == 0)
	note("captures", len(v.Captured) > 1)
	note("no deal scores", len(v.DealScores) == 0)
	note("over", v.Over && len(v.Winners) == 1)
	note("many deals", len(v.DealScores) > 40)
	note("right", v.PassDirection == "right")
}

// TestAppendViewAllocates checks that AppendView allocates nothing but
// the room it appends to outgrows, and that a view's lists are its own:
// changing them changes neither the state nor the next view.
func TestAppendViewAllocates(t *testing.T) {
	st := gametest.Start(t, parcellus.Game{}, map[string]any{"target": 999}, 5, "").(*parcellus.State)
	var buf []game.Move
	rng := rand.New(rand.NewPCG(5, 1))
	for st.DealsPlayed() < 2 || len(st.Parcel()) < 2 || st.ParcelCounts() == [parcellus.Players]int{} {
		act := st.ToAct()
		seat := act.List()[rng.IntN(act.Len())]
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
	out := make([]byte, 0, 4096)
	for seat := game.Spectator; seat < parcellus.Players; seat++ {
		if n := testing.AllocsPerRun(100, func() { out = st.AppendView(out[:0], seat) }); n != 0 {
			t.Errorf("AppendView(%d): %v allocations, want 0", seat, n)
		}
	}
	turn := st.Turn()
	before := string(st.AppendView(nil, turn))
	v := st.View(turn).(parcellus.View)
	v.ToAct[0], v.Hand[0], v.Received[0], v.HandSizes[0], v.Chosen[0] = 2, card.Joker, true, 9, true
	v.Parcel[0], v.Captured[0].Seat, v.Captured[0].Cards[0] = card.Joker, 2, card.Joker
	v.ParcelCounts[0], v.Points[0], v.DealScores[0][0], v.Totals[0] = 99, 99, 99, 99
	v.Captured[0].Cards = append(v.Captured[0].Cards, card.Joker)
	if len(v.Captured) > 1 {
		v.Captured[1].Cards = append(v.Captured[1].Cards, card.Joker)
	}
	if v.Passed != nil {
		v.Passed = append(v.Passed[:0], card.Joker)
	}
	if after := string(st.AppendView(nil, turn)); after != before {
		t.Errorf("changing a view's lists changed the state's view:\n%s\n%s", before, after)
	}
}
