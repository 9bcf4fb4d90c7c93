package tractric_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

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
