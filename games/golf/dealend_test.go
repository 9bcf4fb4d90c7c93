package golf_test

import (
	"math/rand/v2"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
)

// TestDealEndView: at every hole's end, each seat's deal-end view shows
// every layout face up, numbers the hole that ended, and gives column
// scores that add up to each seat's hole score.
func TestDealEndView(t *testing.T) {
	for seed := range uint64(20) {
		opts, err := game.Resolve(golf.Game{}, map[string]any{"players": 3, "holes": 3})
		if err != nil {
			t.Fatal(err)
		}
		s, err := golf.Game{}.New(opts, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		ends := 0
		s.WatchDeals(func(st game.State) {
			ends++
			row := st.Result().DealScores[ends-1]
			for seat := game.Spectator; seat < st.Players(); seat++ {
				v := game.DealEndView(st, seat).(golf.View)
				if v.Hole != ends || len(v.Columns) != len(v.Layouts) {
					t.Fatalf("seed %d hole %d, %s: hole %d, %d column rows for %d layouts", seed, ends, who(seat), v.Hole, len(v.Columns), len(v.Layouts))
				}
				for i, l := range v.Layouts {
					for p, c := range l {
						if c == card.None {
							t.Fatalf("seed %d hole %d: seat %d's card %d is face down", seed, ends, i, p)
						}
					}
					if c := v.Columns[i]; c[0]+c[1]+c[2] != row[i] {
						t.Fatalf("seed %d hole %d: seat %d's columns %v, hole score %d", seed, ends, i, c, row[i])
					}
				}
			}
		})
		rng := rand.New(rand.NewPCG(seed, 3))
		var buf []game.Move
		for s.ToAct() != 0 {
			acts := s.ToAct()
			seat := acts.Nth(rng.IntN(acts.Len()))
			buf = s.Legal(seat, buf[:0])
			s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
		if ends != 3 {
			t.Fatalf("seed %d: %d holes ended, want 3", seed, ends)
		}
	}
}

func who(seat int) string {
	if seat == game.Spectator {
		return "a spectator"
	}
	return "a seat"
}
