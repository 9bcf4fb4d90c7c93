package damn_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/damn"
)

// newMatch starts a Damn game with opts, as Resolve fills them in.
func newMatch(t testing.TB, opts map[string]any, seed uint64) *damn.State {
	t.Helper()
	o, err := game.Resolve(damn.Game{}, opts)
	if err != nil {
		t.Fatalf("Resolve(%v): %v", opts, err)
	}
	st, err := damn.Game{}.New(o, seed, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st.(*damn.State)
}

// playRandom applies a random legal move of the seat to act and reports
// whether there was one.
func playRandom(st *damn.State, rng *rand.Rand, buf *[]game.Move) bool {
	act := st.ToAct()
	if act == 0 {
		return false
	}
	seat := act.List()[rng.IntN(act.Len())]
	*buf = st.Legal(seat, (*buf)[:0])
	st.ApplyFast(seat, (*buf)[rng.IntN(len(*buf))])
	return true
}

// checkView checks View.AppendJSON and State.AppendView against
// encoding/json for every seat's view and the spectator's.
func checkView(t *testing.T, st *damn.State, where string) {
	t.Helper()
	for seat := game.Spectator; seat < st.Players(); seat++ {
		v := st.View(seat).(damn.View)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("AppendJSON, %s, seat %d:\n got %s\nwant %s", where, seat, got[1:], want)
		}
		if got := st.AppendView([]byte("x"), seat); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("AppendView, %s, seat %d:\n got %s\nwant %s", where, seat, got[1:], want)
		}
	}
}

// TestViewAppendJSON checks View.AppendJSON and State.AppendView against
// encoding/json: every seat's view and a spectator's after every move of
// random games with two, three and four players, some ended by a small
// turn cap (max_turns) and some by a loser, and views made by hand.
func TestViewAppendJSON(t *testing.T) {
	var buf []game.Move
	var losers, capped int
	for seed := range uint64(12) {
		n := 2 + int(seed)%3
		opts := map[string]any{"players": n}
		if seed%4 == 3 {
			opts["max_turns"] = 20 + int(seed)
		}
		st := newMatch(t, opts, seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		for moves := 0; ; moves++ {
			checkView(t, st, fmt.Sprintf("%v seed %d, move %d", opts, seed, moves))
			if !playRandom(st, rng, &buf) {
				break
			}
		}
		if st.Loser() >= 0 {
			losers++
		}
		if st.Capped() {
			capped++
		}
	}
	if losers == 0 || capped == 0 {
		t.Errorf("%d games ended with a loser, %d on the turn cap; want some of each", losers, capped)
	}
	// Views made by hand: nil lists and empty ones, a loser, and an
	// Unresolved sentence that needs escapes.
	loser := 2
	for _, v := range []damn.View{
		{},
		{Seat: -1, ToAct: []int{}, Pile: []card.Card{}, Hand: []card.Card{}, PickedUp: []card.Card{}, Seats: []damn.SeatView{}, Out: []int{}, Winners: []int{}},
		{Seats: []damn.SeatView{{}, {Hand: 1, Support: 2, Random: 3, Held: 6, Out: true}}, Out: []int{1, 0}, Loser: &loser, Over: true, Winners: []int{1}},
		{Pile: []card.Card{card.None, card.Joker}, Unresolved: "<\"a\" & b\\>\n\u2028\xff"},
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

// TestAppendViewAllocates checks that AppendView allocates nothing but
// the room it appends to outgrows, over a whole game and at the end of
// one stopped by the default turn cap, and that a view's lists are its
// own: changing them changes neither the state nor the next view.
func TestAppendViewAllocates(t *testing.T) {
	var buf []game.Move
	out := make([]byte, 0, 4096)
	appendAll := func(st *damn.State) func() {
		return func() {
			for seat := game.Spectator; seat < st.Players(); seat++ {
				out = st.AppendView(out[:0], seat)
			}
		}
	}
	st := newMatch(t, map[string]any{"players": 4}, 5)
	rng := rand.New(rand.NewPCG(5, 1))
	for moves := 0; ; moves++ {
		if n := testing.AllocsPerRun(5, appendAll(st)); n != 0 {
			t.Fatalf("move %d: AppendView: %v allocations, want 0", moves, n)
		}
		if !playRandom(st, rng, &buf) {
			break
		}
	}
	// A random 3-player game (seed 0) that the default turn cap stops.
	st = newMatch(t, map[string]any{"players": 3}, 0)
	rng = rand.New(rand.NewPCG(0, 1))
	for playRandom(st, rng, &buf) {
	}
	if !st.Capped() || st.Turns() != damn.DefaultMaxTurns {
		t.Fatalf("the game did not reach the default turn cap: %d turns", st.Turns())
	}
	if n := testing.AllocsPerRun(5, appendAll(st)); n != 0 {
		t.Errorf("at the default turn cap: AppendView: %v allocations, want 0", n)
	}

	st = newMatch(t, map[string]any{"players": 3}, 2)
	for range 30 {
		playRandom(st, rng, &buf)
	}
	before := string(st.AppendView(nil, 1))
	v := st.View(1).(damn.View)
	v.ToAct[0], v.Seats[0].Held, v.Out = 2, 99, append(v.Out, 1)
	if len(v.Pile) > 0 {
		v.Pile[0] = card.Joker
	}
	if len(v.Hand) > 0 {
		v.Hand[0] = card.Joker
	}
	if after := string(st.AppendView(nil, 1)); after != before {
		t.Errorf("changing a view's lists changed the state's view:\n%s\n%s", before, after)
	}
}
