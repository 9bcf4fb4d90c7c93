package golf_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
	"parlour/gametest"
)

// oneHot returns a vector of n zeros with a 1 at each index of at.
func oneHot(n int, at ...int) []float32 {
	v := make([]float32, n)
	for _, i := range at {
		v[i] = 1
	}
	return v
}

func checkField(t *testing.T, st game.State, obs []float32, name string, want []float32) {
	t.Helper()
	if got := gametest.Field(t, st, obs, name); !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

// cardVec returns the CardWidth entries that encode the card of text
// ("" for none).
func cardVec(text string) []float32 {
	v := make([]float32, golf.CardWidth)
	if text != "" {
		c := card.MustParse(text)
		v[c.Rank()-1] = 1
		if c != card.Joker {
			v[14+int(c.Suit())] = 1
		}
	}
	return v
}

// cardAt decodes a face-up position of the layouts field: relative seat
// r, position p; card.None if it is all zero.
func cardAt(t *testing.T, st game.State, obs []float32, r, p int) card.Card {
	t.Helper()
	l := gametest.Field(t, st, obs, "layouts")[(r*6+p)*golf.CardWidth:][:golf.CardWidth]
	rank, suit := -1, 0
	for i, v := range l {
		switch {
		case v == 0:
		case v != 1:
			t.Errorf("position %d of relative seat %d: entry %d is %v", p, r, i, v)
		case i < 14 && rank < 0:
			rank = i + 1
		case i >= 14:
			suit = i - 14
		default:
			t.Errorf("position %d of relative seat %d has two ranks", p, r)
		}
	}
	if rank < 0 {
		return card.None
	}
	return card.New(card.Rank(rank), card.Suit(suit))
}

func TestEncodingCheck(t *testing.T) {
	for n := 2; n <= golf.MaxPlayers; n++ {
		st := newMatch(t, map[string]any{"players": n}, 1)
		e := st.Encoding()
		if err := e.Check(); err != nil {
			t.Errorf("players=%d: %v", n, err)
		}
		if e.Actions != golf.NumActions || e.ActionDoc == "" {
			t.Errorf("players=%d: %d actions (%q), want %d", n, e.Actions, e.ActionDoc, golf.NumActions)
		}
		for _, f := range e.Fields {
			if f.Doc == "" {
				t.Errorf("players=%d: field %q has no doc", n, f.Name)
			}
		}
		// The layout does not depend on the position.
		rng := game.NewRNG(uint64(n))
		game.Playout(st, &rng, nil)
		if e2 := st.Encoding(); !slices.Equal(e.Fields, e2.Fields) || e.Size != e2.Size {
			t.Errorf("players=%d: the layout changed during play", n)
		}
		t.Logf("players=%d: %d entries, %d actions", n, e.Size, e.Actions)
	}
}

func TestCardIndex(t *testing.T) {
	seen := map[int]bool{}
	for _, c := range card.Pack108() {
		i := golf.CardIndex(c)
		if i < 0 || i >= golf.CardKinds {
			t.Fatalf("CardIndex(%v) = %d", c, i)
		}
		seen[i] = true
	}
	if len(seen) != golf.CardKinds {
		t.Errorf("%d card indices, want %d", len(seen), golf.CardKinds)
	}
	if golf.CardIndex(card.MustParse("AS")) != 0 || golf.CardIndex(card.Joker) != 52 || golf.CardIndex(card.None) != -1 {
		t.Errorf("CardIndex: AS %d, JK %d, none %d", golf.CardIndex(card.MustParse("AS")), golf.CardIndex(card.Joker), golf.CardIndex(card.None))
	}
}

// TestObserveSeedDeal checks a hand-worked position of the seed deal:
// dealer 1, seat 0 AS 8D 7C / KH 5S 4D, seat 1 2H 3H 4H / 5H 6H 7H,
// discard 10D, stock 6D 10S JK ... on top.
func TestObserveSeedDeal(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 3}, 0, seedDeal)

	// The reveal: seat 0 has chosen column 2, seat 1 not yet.
	play(t, st, "0: reveal 2")
	o0, o1 := gametest.Observe(st, 0), gametest.Observe(st, 1)
	checkField(t, st, o0, "phase", oneHot(6, 0))
	checkField(t, st, o0, "hole", []float32{1})
	checkField(t, st, o0, "holes_left", []float32{3})
	checkField(t, st, o0, "dealer", oneHot(2, 1))
	checkField(t, st, o1, "dealer", oneHot(2, 0))
	checkField(t, st, o0, "to_act", oneHot(2, 1))
	checkField(t, st, o1, "to_act", oneHot(2, 0))
	checkField(t, st, o0, "chosen", oneHot(2, 0))
	checkField(t, st, o1, "chosen", oneHot(2, 1))
	checkField(t, st, o0, "my_reveal", oneHot(3, 2))
	checkField(t, st, o1, "my_reveal", oneHot(3))
	checkField(t, st, o0, "face_down", oneHot(12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
	checkField(t, st, o0, "discard_top", cardVec("10D"))
	checkField(t, st, o0, "discard_count", []float32{1})
	checkField(t, st, o0, "stock_count", []float32{108 - 12 - 1})

	// Both reveal column 0; seat 0 draws 6D from the stock.
	st = newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 3}, 0, seedDeal)
	play(t, st, "0: reveal 0", "1: reveal 0", "0: draw stock")
	o0, o1 = gametest.Observe(st, 0), gametest.Observe(st, 1)
	checkField(t, st, o0, "phase", oneHot(6, 2))
	checkField(t, st, o0, "chosen", oneHot(2))
	checkField(t, st, o0, "my_reveal", oneHot(3))
	checkField(t, st, o0, "to_act", oneHot(2, 0))
	checkField(t, st, o1, "to_act", oneHot(2, 1))
	checkField(t, st, o0, "face_down", oneHot(12, 1, 2, 4, 5, 7, 8, 10, 11))
	checkField(t, st, o1, "face_down", oneHot(12, 1, 2, 4, 5, 7, 8, 10, 11))
	for _, c := range []struct {
		obs  []float32
		r, p int
		want string
	}{{o0, 0, 0, "AS"}, {o0, 0, 3, "KH"}, {o0, 1, 0, "2H"}, {o0, 1, 3, "5H"}, {o1, 0, 0, "2H"}, {o1, 1, 3, "KH"}} {
		if got := cardAt(t, st, c.obs, c.r, c.p); got != card.MustParse(c.want) {
			t.Errorf("layouts: relative seat %d position %d is %v, want %s", c.r, c.p, got, c.want)
		}
	}
	if got := cardAt(t, st, o0, 0, 1); got != card.None {
		t.Errorf("a face-down position shows %v", got)
	}
	// Column 0: A+K = 1 for seat 0; 2H+5H = 7 for seat 1.
	checkField(t, st, o0, "visible_score", []float32{1, 7})
	checkField(t, st, o1, "visible_score", []float32{7, 1})
	checkField(t, st, o0, "holding", []float32{1})
	checkField(t, st, o0, "drawn_from_discard", []float32{0})
	checkField(t, st, o0, "drawn", cardVec("6D"))
	checkField(t, st, o1, "drawn", cardVec("")) // seat 1 may not see it
	checkField(t, st, o0, "stock_count", []float32{108 - 12 - 1 - 1})
	checkField(t, st, o0, "stock_known", []float32{0})
	checkField(t, st, o0, "stock_cards", oneHot(golf.CardKinds))

	// Seat 0 swaps it into position 1; the 8D goes on the discard pile.
	play(t, st, "0: swap 1")
	o0, o1 = gametest.Observe(st, 0), gametest.Observe(st, 1)
	checkField(t, st, o0, "phase", oneHot(6, 1))
	checkField(t, st, o1, "to_act", oneHot(2, 0))
	checkField(t, st, o0, "holding", []float32{0})
	checkField(t, st, o0, "drawn", cardVec(""))
	checkField(t, st, o0, "discard_top", cardVec("8D"))
	checkField(t, st, o0, "discards", oneHot(golf.CardKinds, golf.CardIndex(card.MustParse("8D")), golf.CardIndex(card.MustParse("10D"))))
	checkField(t, st, o0, "discard_count", []float32{2})
	if got := cardAt(t, st, o1, 1, 1); got != card.MustParse("6D") {
		t.Errorf("seat 1 sees %v at seat 0's position 1, want 6D", got)
	}

	// The seed's moves go on: seat 0 goes out; seat 1 has the final play.
	st = newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 3}, 0, seedDeal)
	play(t, st, seedMoves...)
	o1 = gametest.Observe(st, 1)
	checkField(t, st, o1, "phase", oneHot(6, 3))
	checkField(t, st, o1, "out", oneHot(2, 1))
	checkField(t, st, o1, "final_left", []float32{1})
	checkField(t, st, o1, "face_down", oneHot(12))
	checkField(t, st, o1, "visible_score", []float32{27, 4})
	if got := cardAt(t, st, o1, 1, 4); got != card.Joker {
		t.Errorf("seat 1 sees %v at seat 0's position 4, want the joker", got)
	}
	// Seat 0's block (relative seat 1 for seat 1), position by position.
	if got, want := gametest.Field(t, st, o1, "layouts")[6*golf.CardWidth:],
		slices.Concat(cardVec("AS"), cardVec("6D"), cardVec("9C"), cardVec("KH"), cardVec("JK"), cardVec("9C")); !slices.Equal(got, want) {
		t.Errorf("seat 1 sees seat 0's layout as %v, want %v", got, want)
	}

	// The hole is scored: 4 and 27; the second hole is dealt.
	play(t, st, "1: stop")
	o0, o1 = gametest.Observe(st, 0), gametest.Observe(st, 1)
	checkField(t, st, o0, "hole", []float32{2})
	checkField(t, st, o0, "holes_left", []float32{2})
	checkField(t, st, o0, "phase", oneHot(6, 0))
	checkField(t, st, o0, "totals", []float32{4, 27})
	checkField(t, st, o1, "totals", []float32{27, 4})
	checkField(t, st, o1, "last_hole", []float32{27, 4})
	checkField(t, st, o0, "out", oneHot(2))
	checkField(t, st, o0, "dealer", oneHot(2, 0))
}

// TestObserveOverwrites checks that Observe fills every entry whatever obs
// held before.
func TestObserveOverwrites(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 5}, 3)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		if st.ToAct() == 0 {
			break
		}
		for seat := range 5 {
			a := gametest.Observe(st, seat)
			b := make([]float32, len(a))
			for i := range b {
				b[i] = -7
			}
			st.Observe(seat, b)
			if !slices.Equal(a, b) {
				t.Fatalf("seat %d: Observe over garbage differs from Observe over zeros", seat)
			}
		}
		randomMove(st, rng)
	}
}

func TestObserveNoAllocs(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 8}, 5)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 30 {
		randomMove(st, rng)
	}
	obs := make([]float32, st.Encoding().Size)
	if a := testing.AllocsPerRun(100, func() { st.Observe(3, obs) }); a != 0 {
		t.Errorf("Observe allocates %v times a call", a)
	}
	var m game.Move = golf.DrawStock
	if a := testing.AllocsPerRun(100, func() { _ = st.ActionID(3, m) }); a != 0 {
		t.Errorf("ActionID allocates %v times a call", a)
	}
}

// randomMove plays a random legal move of a random seat to act.
func randomMove(st *golf.State, rng *rand.Rand) {
	seats := st.ToAct().List()
	seat := seats[rng.IntN(len(seats))]
	legal := st.Legal(seat, nil)
	st.ApplyFast(seat, legal[rng.IntN(len(legal))])
}

// TestActionIDs checks that legal moves get distinct in-range indices, the
// same for a move wherever it is legal, over many random positions.
func TestActionIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	idOf := map[game.Move]int{}
	used := map[int]bool{}
	for _, n := range []int{2, 3, 8} {
		for match := range 20 {
			st := newMatch(t, map[string]any{"players": n, "holes": 2}, uint64(match))
			for st.ToAct() != 0 {
				for seat := range n {
					ids := map[int]bool{}
					for _, m := range st.Legal(seat, nil) {
						id := st.ActionID(seat, m)
						if id < 0 || id >= golf.NumActions {
							t.Fatalf("%q: index %d out of range", st.FormatMove(m), id)
						}
						if ids[id] {
							t.Fatalf("seat %d: two legal moves share index %d", seat, id)
						}
						ids[id] = true
						if old, ok := idOf[m]; ok && old != id {
							t.Fatalf("%q has indices %d and %d", st.FormatMove(m), old, id)
						}
						idOf[m] = id
						used[id] = true
					}
				}
				randomMove(st, rng)
			}
		}
	}
	if len(used) != golf.NumActions {
		t.Errorf("%d of %d indices used", len(used), golf.NumActions)
	}
	for _, m := range golf.AllMoves() {
		if id, ok := idOf[m]; ok && id != int(m) {
			t.Errorf("move %d: index %d, want %d as documented", m, id, m)
		}
	}
}

// TestObserveHiddenInformation checks that what a seat may not see never
// reaches its observation, and that what it sees does.
func TestObserveHiddenInformation(t *testing.T) {
	// Two deals that differ only in seat 1's face-down position 1 and in
	// the stock below its top card.
	a := newMatch(t, map[string]any{"players": 2, "dealer": 1}, 0,
		layout(`[["AS","8D","7C","KH","5S","4D"],["2H","3H","4H","5H","6H","7H"]]`, `"10D"`, `["6D","10S","JK"]`))
	b := newMatch(t, map[string]any{"players": 2, "dealer": 1}, 0,
		layout(`[["AS","8D","7C","KH","5S","4D"],["2H","QC","4H","5H","6H","7H"]]`, `"10D"`, `["6D","JK","10S"]`))
	// One in which seat 0's own revealed card differs.
	c := newMatch(t, map[string]any{"players": 2, "dealer": 1}, 0,
		layout(`[["2S","8D","7C","KH","5S","4D"],["2H","3H","4H","5H","6H","7H"]]`, `"10D"`, `["6D","10S","JK"]`))
	for _, st := range []*golf.State{a, b, c} {
		play(t, st, "0: reveal 0")
	}
	if !slices.Equal(gametest.Observe(a, 0), gametest.Observe(b, 0)) {
		t.Error("seat 0's observation depends on cards it may not see")
	}
	if !slices.Equal(gametest.Observe(a, 1), gametest.Observe(b, 1)) {
		t.Error("seat 1's observation depends on its own face-down cards")
	}
	// Seat 0 has chosen column 0; in d it chose column 1. Seat 1 may not
	// see that choice; seat 0 may.
	d := newMatch(t, map[string]any{"players": 2, "dealer": 1}, 0,
		layout(`[["AS","8D","7C","KH","5S","4D"],["2H","3H","4H","5H","6H","7H"]]`, `"10D"`, `["6D","10S","JK"]`))
	play(t, d, "0: reveal 1")
	if !slices.Equal(gametest.Observe(a, 1), gametest.Observe(d, 1)) {
		t.Error("seat 1's observation depends on seat 0's pending reveal")
	}
	if slices.Equal(gametest.Observe(a, 0), gametest.Observe(d, 0)) {
		t.Error("seat 0's pending reveal does not reach its observation")
	}
	for _, st := range []*golf.State{a, b, c} {
		play(t, st, "1: reveal 0")
	}
	if slices.Equal(gametest.Observe(a, 0), gametest.Observe(c, 0)) || slices.Equal(gametest.Observe(a, 1), gametest.Observe(c, 1)) {
		t.Error("seat 0's face-up card does not reach the observations")
	}
	if !slices.Equal(gametest.Observe(a, 0), gametest.Observe(b, 0)) {
		t.Error("seat 0's observation depends on cards it may not see")
	}
	// Seat 0 draws from the stock: the 6D in both. Then seat 0 throws it
	// away and seat 1 draws the next card, 10S in a and JK in b: only seat
	// 1 may see it.
	for _, st := range []*golf.State{a, b} {
		play(t, st, "0: draw stock", "0: discard", "1: draw stock")
	}
	if !slices.Equal(gametest.Observe(a, 0), gametest.Observe(b, 0)) {
		t.Error("seat 0's observation depends on the card seat 1 drew from the stock")
	}
	if slices.Equal(gametest.Observe(a, 1), gametest.Observe(b, 1)) {
		t.Error("seat 1's observation does not show the card it drew")
	}

	// Draw and throw away until the stock is reshuffled from the discards:
	// its cards are then known, but not the one another seat draws.
	play(t, a, "1: discard")
	for i := 0; ; i++ {
		seat := a.Turn()
		play(t, a, fmt.Sprintf("%d: draw stock", seat))
		o := gametest.Observe(a, seat)
		if gametest.Field(t, a, o, "stock_known")[0] == 1 {
			for _, s := range []int{0, 1} {
				for k := range 20 {
					d := a.Determinize(s, rand.New(rand.NewPCG(uint64(k), 1)))
					if !slices.Equal(gametest.Observe(a, s), gametest.Observe(d, s)) {
						t.Fatalf("after the reshuffle, a determinisation for seat %d encodes differently", s)
					}
				}
			}
			sc := gametest.Field(t, a, o, "stock_cards")
			total := float32(0)
			for _, v := range sc {
				total += v
			}
			if total != gametest.Field(t, a, o, "stock_count")[0] {
				t.Errorf("stock_cards count %v cards for the drawer, the stock holds %v", total, gametest.Field(t, a, o, "stock_count")[0])
			}
			if other := gametest.Field(t, a, gametest.Observe(a, 1-seat), "stock_cards"); slices.Equal(other, sc) {
				t.Error("the other seat's stock_cards leave out the card drawn from the known stock")
			}
			break
		}
		if i > 200 {
			t.Fatal("the stock never ran out")
		}
		play(t, a, fmt.Sprintf("%d: discard", seat))
	}

	// Determinisations of random positions encode the same for their seat.
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{2, 4, 8} {
		for match := range 10 {
			st := newMatch(t, map[string]any{"players": n, "holes": 2}, uint64(100+match))
			for st.ToAct() != 0 {
				seat := rng.IntN(n)
				d := st.Determinize(seat, rng)
				if !slices.Equal(gametest.Observe(st, seat), gametest.Observe(d, seat)) {
					t.Fatalf("players=%d: a determinisation for seat %d encodes differently", n, seat)
				}
				randomMove(st, rng)
			}
		}
	}
}
