package tractric_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/tractric"
)

// TestViewJSONRoundTrip checks that every seat's view, and the public one,
// reads back from its JSON unchanged along random matches of 3 and 4
// players: the trump (null, a suit, "none") and the board's empty cells
// (null) included.
func TestViewJSONRoundTrip(t *testing.T) {
	for _, players := range []int{3, 4} {
		opts, err := game.Resolve(tractric.Game{}, map[string]any{"players": players})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 5; seed++ {
			s, err := tractric.Game{}.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(seed)
			var buf []game.Move
			trumps := map[tractric.Trump]bool{}
			for moves := 0; s.ToAct() != 0 && moves < 400; moves++ {
				for seat := game.Spectator; seat < players; seat++ {
					want := s.View(seat).(tractric.View)
					trumps[want.Trump] = true
					b, err := json.Marshal(want)
					if err != nil {
						t.Fatal(err)
					}
					var got tractric.View
					if err := json.Unmarshal(b, &got); err != nil {
						t.Fatalf("seed %d, seat %d: reading %s: %v", seed, seat, b, err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("seed %d, seat %d: %s read back as %+v, want %+v", seed, seat, b, got, want)
					}
				}
				seat := s.ToAct().First()
				buf = s.Legal(seat, buf[:0])
				s.ApplyFast(seat, buf[rng.IntN(len(buf))])
			}
			if !trumps[tractric.Unset] {
				t.Errorf("seed %d: no view with the trump unset was read back", seed)
			}
		}
	}
}

// TestViewJSONRefusals checks that a trump or a board cell that is not
// what MarshalJSON writes is refused, naming it.
func TestViewJSONRefusals(t *testing.T) {
	for _, bad := range []string{`{"trump": "X"}`, `{"trump": "s"}`, `{"trump": 2}`, `{"board": [-2,null,null,null,null,null,null,null,null]}`, `{"board": ["0",null,null,null,null,null,null,null,null]}`, `{"board": [300,null,null,null,null,null,null,null,null]}`} {
		var v tractric.View
		err := json.Unmarshal([]byte(bad), &v)
		if err == nil {
			t.Errorf("%s: read as %+v, want an error", bad, v)
			continue
		}
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			t.Errorf("%s: %v, want a refusal of the value, not of the JSON", bad, err)
		}
	}
}

// TestViewAppendJSON checks View.AppendJSON and State.AppendView against
// encoding/json: every seat's view and a spectator's after every move of
// random matches of 3 and 4 players, played to the end, each appended
// after a prefix.
func TestViewAppendJSON(t *testing.T) {
	var buf []game.Move
	for _, players := range []int{3, 4} {
		opts, err := game.Resolve(tractric.Game{}, map[string]any{"players": players})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 4; seed++ {
			st, err := tractric.Game{}.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*tractric.State)
			rng := game.NewRNG(seed)
			for moves := 0; ; moves++ {
				for seat := game.Spectator; seat < players; seat++ {
					v := s.View(seat).(tractric.View)
					want, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					if got := v.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
						t.Fatalf("%d players, seed %d, move %d, seat %d:\n got %s\nwant %s", players, seed, moves, seat, got[1:], want)
					}
					if got := s.AppendView([]byte("x"), seat); !bytes.Equal(got[1:], want) || got[0] != 'x' {
						t.Fatalf("AppendView, %d players, seed %d, move %d, seat %d:\n got %s\nwant %s", players, seed, moves, seat, got[1:], want)
					}
				}
				act := s.ToAct()
				if act == 0 {
					if v := s.View(0).(tractric.View); !v.Over || len(v.Winners) == 0 || len(v.DealScores) == 0 {
						t.Fatalf("%d players, seed %d: the match ended with the view %+v", players, seed, v)
					}
					break
				}
				seat := act.Nth(rng.IntN(act.Len()))
				buf = s.Legal(seat, buf[:0])
				s.ApplyFast(seat, buf[rng.IntN(len(buf))])
			}
		}
	}
	// Views made by hand: nil lists and empty ones, every trump and cell.
	for _, v := range []tractric.View{
		{},
		{Trump: tractric.Unset, Board: [9]tractric.Cell{-1, 0, 1, 2, -1, 3, -1, -1, 0}},
		{Trump: tractric.NoTrump, ToAct: []int{}, Reserve: []int{}, Hand: []card.Card{}, HandSizes: []int{},
			Proposed: []bool{}, Proposals: []card.Card{}, Trick: []card.Card{}, LastTrick: []card.Card{},
			Tricks: []int{}, GamesWon: []int{}, DealScores: [][]int{}, Winners: []int{}},
		{Trump: 3, Phase: "over", Over: true, Grid: [9]string{"Q", "A", "2", "3", "4", "5", "6", "7", "8"},
			Proposed: []bool{true, false}, Proposals: []card.Card{card.None, card.New(card.Ace, card.Hearts)},
			DealScores: [][]int{nil, {}, {1, 2, 3}}, Winners: []int{0, 2}},
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

// TestAppendViewAllocates checks that AppendView allocates nothing but the
// room it appends to outgrows, with 3 and 4 players, for a seat and a
// spectator, and that a view's lists are its own: changing them changes
// neither the state nor the next view.
func TestAppendViewAllocates(t *testing.T) {
	var buf []game.Move
	for _, players := range []int{3, 4} {
		opts, err := game.Resolve(tractric.Game{}, map[string]any{"players": players})
		if err != nil {
			t.Fatal(err)
		}
		st, err := tractric.Game{}.New(opts, 7, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*tractric.State)
		rng := game.NewRNG(7)
		for moves := 0; s.ToAct() != 0 && (s.DealsPlayed() < 2 || moves%5 != 0); moves++ {
			seat := s.ToAct().First()
			buf = s.Legal(seat, buf[:0])
			s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
		out := make([]byte, 0, 4096)
		for _, seat := range []int{game.Spectator, 1} {
			if n := testing.AllocsPerRun(100, func() { out = s.AppendView(out[:0], seat) }); n != 0 {
				t.Errorf("%d players, seat %d: AppendView makes %v allocations, want 0", players, seat, n)
			}
		}
		before := string(s.AppendView(nil, 1))
		v := s.View(1).(tractric.View)
		v.ToAct = append(v.ToAct[:0], 3)
		v.Reserve[0], v.HandSizes[0], v.Proposed[0], v.Tricks[0] = 99, 99, true, 99
		v.Proposals[0], v.Trick[0], v.LastTrick[0] = card.Joker, card.Joker, card.Joker
		v.GamesWon[0], v.DealScores[0][0] = 99, 99
		if len(v.Hand) > 0 {
			v.Hand[0] = card.Joker
		}
		if after := string(s.AppendView(nil, 1)); after != before {
			t.Errorf("%d players: changing a view's lists changed the state's view:\n%s\n%s", players, before, after)
		}
	}
}
