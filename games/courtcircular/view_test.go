package courtcircular_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/courtcircular"
)

// startMatch starts a match with the given options and seed.
func startMatch(tb testing.TB, opts map[string]any, seed uint64) *courtcircular.State {
	tb.Helper()
	o, err := game.Resolve(courtcircular.Game{}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := courtcircular.Game{}.New(o, seed, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return st.(*courtcircular.State)
}

// randomMove plays a random legal move for a seat to act.
func randomMove(st *courtcircular.State, rng *rand.Rand, buf []game.Move) []game.Move {
	act := st.ToAct()
	seat := act.List()[rng.IntN(act.Len())]
	buf = st.Legal(seat, buf[:0])
	st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	return buf
}

// TestViewAppendJSON checks View.AppendJSON and State.AppendView against
// encoding/json: every seat's view and a spectator's after every move of
// random matches of both editions, the 1860 one with two to six players,
// played to the end; and views made by hand, nil and empty lists alike.
func TestViewAppendJSON(t *testing.T) {
	var buf []game.Move
	for seed := range uint64(24) {
		opts := map[string]any{"players": 2 + int(seed)%5}
		switch {
		case seed%6 == 5:
			opts = map[string]any{"edition": courtcircular.Edition1862}
		case seed%3 == 1:
			opts["target"] = 20
		}
		st := startMatch(t, opts, seed)
		n := st.Players()
		rng := rand.New(rand.NewPCG(seed, 1))
		sawLines := false
		for moves := 0; ; moves++ {
			for seat := game.Spectator; seat < n; seat++ {
				v := st.View(seat).(courtcircular.View)
				want, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if got := v.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Fatalf("%v, seed %d, move %d, seat %d:\n got %s\nwant %s", opts, seed, moves, seat, got[1:], want)
				}
				if got := st.AppendView([]byte("x"), seat); !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Fatalf("AppendView, %v, seed %d, move %d, seat %d:\n got %s\nwant %s", opts, seed, moves, seat, got[1:], want)
				}
				if seat == game.Spectator && v.Lines != nil {
					sawLines = true
					checkLines(t, st, v)
				}
			}
			if st.ToAct() == 0 {
				break
			}
			buf = randomMove(st, rng, buf)
		}
		v := st.View(0).(courtcircular.View)
		if !v.Over || len(v.Winners) != 1 || len(v.DealScores) != st.DealsPlayed() || st.DealsPlayed() == 0 {
			t.Errorf("%v, seed %d: the match ended with over %v, winners %v, %d deals' scores for %d deals",
				opts, seed, v.Over, v.Winners, len(v.DealScores), st.DealsPlayed())
		}
		if !sawLines {
			t.Errorf("%v, seed %d: no view named the trick's lines", opts, seed)
		}
	}
	// Views made by hand: nil lists (null, or left out when omitempty),
	// empty ones ([], or left out), and lists of empty lists.
	for _, v := range []courtcircular.View{
		{},
		{Seat: -1, Target: 50, Take: 2, Lead: card.MustParse("AH"), Over: true},
		{ToAct: []int{}, Hand: []card.Card{}, HandSizes: []int{}, Played: [][]card.Card{}, Resigned: []int{},
			Lines: []string{}, Shared: []card.Card{}, WonUp: [][]card.Card{}, WonDown: [][]card.Card{},
			Marks: []int{}, Tricks: []int{}, SetAside: []card.Card{}, Hits: []int{}, DealScores: [][]int{},
			Totals: []int{}, Winners: []int{}},
		{Played: [][]card.Card{nil, {}, {card.None, card.MustParse("10S")}}, WonUp: [][]card.Card{nil, {}},
			WonDown: [][]card.Card{{}, nil}, DealScores: [][]int{nil, {}, {3, -1}}, Lines: []string{"no line", "Pair"},
			Shared: []card.Card{card.None}, Marks: []int{0}, SetAside: []card.Card{card.MustParse("2C")}, Hits: []int{0, 0}},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
}

// checkLines checks a view's names of the trick's lines against
// BestLine's Describe for every seat still in the trick.
func checkLines(t *testing.T, st *courtcircular.State, v courtcircular.View) {
	t.Helper()
	lead := st.TrickLead()
	for p, got := range v.Lines {
		want := courtcircular.BestLine(v.Edition, st.Played(p), lead).Describe(v.Edition)
		if st.Resigned().Has(p) {
			want = "resigned"
		} else if st.Resigned() != 0 && st.Resigned().Len() == st.Players()-1 {
			want = "won by resignation"
		}
		if got != want {
			t.Fatalf("seat %d's line is %q, want %q (view %+v)", p, got, want, v)
		}
	}
}

// TestAppendViewAllocates checks that AppendView allocates nothing but
// the room it appends to outgrows, for every seat in every position of a
// match of each edition, and that a view's lists are its own: changing
// them changes neither the state nor the next view.
func TestAppendViewAllocates(t *testing.T) {
	for _, opts := range []map[string]any{{"players": 6, "target": 200}, {"edition": courtcircular.Edition1862}} {
		st := startMatch(t, opts, 5)
		var buf []game.Move
		rng := rand.New(rand.NewPCG(5, 1))
		out := make([]byte, 0, 4096)
		var mid *courtcircular.State
		for moves := 0; ; moves++ {
			for seat := game.Spectator; seat < st.Players(); seat++ {
				if n := testing.AllocsPerRun(5, func() { out = st.AppendView(out[:0], seat) }); n != 0 {
					t.Fatalf("%v, move %d, seat %d: AppendView: %v allocations, want 0", opts, moves, seat, n)
				}
			}
			if mid == nil && st.DealsPlayed() > 0 && st.View(1).(courtcircular.View).Lines != nil {
				mid = st.Clone().(*courtcircular.State)
			}
			if st.ToAct() == 0 {
				break
			}
			buf = randomMove(st, rng, buf)
		}
		if mid == nil {
			t.Fatalf("%v: no position after the first deal names lines", opts)
		}
		st = mid
		before := string(st.AppendView(nil, 1))
		v := st.View(1).(courtcircular.View)
		for _, l := range [][]int{v.ToAct, v.HandSizes, v.Resigned, v.Marks, v.Tricks, v.Hits, v.Totals, v.Winners, v.DealScores[0]} {
			for i := range l {
				l[i] = 99
			}
		}
		for _, l := range [][]card.Card{v.Hand, v.Shared, v.SetAside} {
			for i := range l {
				l[i] = card.Joker
			}
		}
		v.Hand = append(v.Hand, card.Joker)
		for p := range v.Played {
			v.Played[p] = append(v.Played[p][:0], card.Joker)
			v.WonUp[p] = append(v.WonUp[p], card.Joker)
			v.WonDown[p] = append(v.WonDown[p], card.Joker)
		}
		for i := range v.Lines {
			v.Lines[i] = "changed"
		}
		if after := string(st.AppendView(nil, 1)); after != before {
			t.Errorf("%v: changing a view's lists changed the state's view:\n%s\n%s", opts, before, after)
		}
		if again, _ := json.Marshal(st.View(1)); string(again) != before {
			t.Errorf("%v: changing a view's lists changed the next view:\n%s\n%s", opts, before, again)
		}
	}
}
