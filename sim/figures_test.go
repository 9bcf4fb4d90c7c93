package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games"
	"parlour/games/courtcircular"
	"parlour/games/golf"
	"parlour/games/parcellus"
)

// playout plays a random match of g, calling watch (if not nil) at every
// deal's end through WatchDeals, and step (if not nil) after every move
// with the state before the move (a clone), the mover, the move and the
// state after.
func playout(t *testing.T, g game.Game, opts map[string]any, seed uint64, watch func(game.State), step func(before game.State, seat int, m game.Move, after game.State)) {
	t.Helper()
	o, err := game.Resolve(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(o, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.WatchDeals(watch)
	rng := rand.New(rand.NewPCG(seed, 99))
	var buf []game.Move
	for moves := 0; s.ToAct() != 0; moves++ {
		if moves > 200000 {
			t.Fatal("no end")
		}
		seat := s.ToAct().First()
		buf = s.Legal(seat, buf[:0])
		m := buf[rng.IntN(len(buf))]
		var before game.State
		if step != nil {
			before = s.Clone()
		}
		if err := game.Apply(s, seat, m); err != nil {
			t.Fatal(err)
		}
		if step != nil {
			step(before, seat, m, s)
		}
	}
}

func lastRow(s game.State) []int {
	r := s.Result()
	return r.DealScores[len(r.DealScores)-1]
}

// TestGolfFinalLayouts checks what the lab reads at a hole's end (the
// layouts in place, who went out) against the hole's scores.
func TestGolfFinalLayouts(t *testing.T) {
	holes := 0
	for seed := range uint64(40) {
		n := 2 + int(seed)%7
		playout(t, golf.Game{}, map[string]any{"players": n, "holes": 3}, seed, func(s game.State) {
			st := s.(*golf.State)
			holes++
			if st.Out() < 0 {
				t.Fatalf("seed %d: a hole ended with nobody out", seed)
			}
			row := lastRow(st)
			for i := range n {
				if got := golf.LayoutScore(st.Layout(i)); got != row[i] {
					t.Fatalf("seed %d seat %d: layout %v scores %d, the hole %d", seed, i, st.Layout(i), got, row[i])
				}
			}
		}, nil)
	}
	if holes != 120 {
		t.Errorf("%d holes checked", holes)
	}
}

// TestParcellusCaptures checks what the lab reads at a deal's end (the
// parcels each seat captured, who took the Jack of Hearts) against the
// deal's scores.
func TestParcellusCaptures(t *testing.T) {
	deals, jacks := 0, 0
	for seed := range uint64(150) {
		playout(t, parcellus.Game{}, nil, seed, func(s game.State) {
			st := s.(*parcellus.State)
			deals++
			counts := st.ParcelCounts()
			sum := 0
			for _, k := range counts {
				sum += k
			}
			if sum != parcellus.Parcels {
				t.Fatalf("seed %d: %v parcels captured at the deal's end, want %d", seed, counts, parcellus.Parcels)
			}
			pts := st.View(game.Spectator).(parcellus.View).Points
			var points [parcellus.Players]int
			copy(points[:], pts)
			want := parcellus.DealScores(points, counts)
			if row := lastRow(st); !slices.Equal(row, want[:]) {
				t.Fatalf("seed %d: deal scores %v; parcels %v and points %v give %v", seed, row, counts, points, want)
			}
			if j := st.Captor(jackOfHearts); j >= 0 {
				jacks++
				if points[j] < parcellus.Value(jackOfHearts) {
					t.Fatalf("seed %d: seat %d captured the Jack of Hearts with %d points", seed, j, points[j])
				}
			}
		}, nil)
	}
	if deals < 300 || jacks < deals/2 {
		t.Errorf("%d deals, %d Jacks of Hearts captured", deals, jacks)
	}
}

// TestCourtCircularTricks checks what the lab reads at an 1860 deal's end
// (the last trick's winner and Lead, the cards won) against the deal's
// scores, and that the Line it names for a trick is the one the game shows.
func TestCourtCircularTricks(t *testing.T) {
	lasts := 0
	for seed := range uint64(200) {
		n := 2 + int(seed)%5
		playout(t, courtcircular.Game{}, map[string]any{"players": n}, seed, func(s game.State) {
			st := s.(*courtcircular.State)
			lasts++
			if st.TrickWinner() < 0 || st.TrickLead() == card.None || st.Lead() != card.None {
				t.Fatalf("seed %d: at the deal's end winner %d, trick lead %v, lead %v", seed, st.TrickWinner(), st.TrickLead(), st.Lead())
			}
			var marks [courtcircular.MaxPlayers]int
			for p := range n {
				marks[p] = courtcircular.Marks(st.Won(p))
			}
			low := slices.Min(marks[:n])
			row := lastRow(st)
			for p := range n {
				if row[p] != marks[p]-low {
					t.Fatalf("seed %d: deal scores %v, the marks won %v", seed, row, marks[:n])
				}
			}
		}, nil)
	}
	if lasts < 200 {
		t.Errorf("%d last tricks checked", lasts)
	}
	// The Line the observer names is the one the game shows (1862, whose
	// view names each side's Line).
	lines := 0
	for seed := range uint64(20) {
		for _, ed := range []string{courtcircular.Edition1862} {
			playout(t, courtcircular.Game{}, map[string]any{"edition": ed}, seed, nil, func(before game.State, seat int, m game.Move, after game.State) {
				b, a := before.(*courtcircular.State), after.(*courtcircular.State)
				if w := a.TrickWinner(); w >= 0 && b.TrickWinner() < 0 && m != courtcircular.Resign {
					lines++
					got := courtcircular.BestLine(ed, a.Played(w), a.Lead()).Describe(ed)
					if want := a.View(game.Spectator).(courtcircular.View).Lines[w]; got != want {
						t.Fatalf("seed %d: the observer reads %q, the game shows %q", seed, got, want)
					}
				}
			})
		}
	}
	if lines < 300 {
		t.Errorf("%d tricks checked", lines)
	}
}

// TestTractricGives counts the gives the observer sees against the moves.
func TestTractricGives(t *testing.T) {
	g, _ := games.Lookup("tractric")
	for _, n := range []int{3, 4} {
		o, _ := game.Resolve(g, map[string]any{"players": n})
		specs := Specs(g, o)
		index := map[string]int{}
		for i, s := range specs {
			index[s.Key] = i
		}
		rec := newRecord(specs, index)
		obs := FiguresFor(g).NewObserver(o)
		gives, hands := int64(0), 0
		var s0 game.State
		playout(t, g, map[string]any{"players": n}, uint64(n), func(s game.State) { obs.DealEnd(s) }, func(before game.State, seat int, m game.Move, after game.State) {
			if s0 == nil {
				s0 = before
				obs.Start(before, rec)
			}
			if strings.HasPrefix(after.FormatMove(m), "give") {
				gives++
			}
			obs.Observe(after, seat, m)
			s0 = after
		})
		obs.Finish(s0)
		hands = len(s0.Result().DealScores)
		k := index["tractric/given"]
		if rec.y[k] != gives || rec.x[k] != int64(hands) || int64(len(rec.hist[k])) != int64(hands) {
			t.Errorf("%d players: observer %d gives over %d hands; the moves %d over %d", n, rec.y[k], rec.x[k], gives, hands)
		}
		if k := index["tractric/no_trump"]; rec.x[k] != int64(hands) {
			t.Errorf("%d players: trumps of %d hands, %d played", n, rec.x[k], hands)
		}
	}
}

// TestEveryGame runs every game with the random and heuristic bots and
// checks that the figures add up: wins and unresolved matches make 1, and
// every declared figure was measured.
func TestEveryGame(t *testing.T) {
	for _, g := range games.Registry.All() {
		for _, b := range []string{"random", "heuristic"} {
			opts := map[string]any{"dealer": 0}
			if g.Name() == "damn" {
				opts["max_turns"] = 150 // some games end on the cap
			}
			v := variant(t, g, opts, b)
			rep := run(t, Config{Game: g, A: v, Matches: 24, Seed: 11})
			sum := figure(t, rep, "unresolved").A.Value
			for i := range v.Options.Players() {
				sum += figure(t, rep, winKeys[i]).A.Value
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("%s/%s: wins and unresolved add up to %v", g.Name(), b, sum)
			}
			for _, f := range rep.Figures {
				if f.A == nil && f.Key != "last_deal" && !strings.HasPrefix(f.Key, "cc/line/") {
					t.Errorf("%s/%s: %s not measured", g.Name(), b, f.Key)
				}
			}
			if g.Name() == "damn" {
				capped := figure(t, rep, "damn/capped").A.Value
				if capped != figure(t, rep, "unresolved").A.Value {
					t.Errorf("damn/%s: capped %v, unresolved %v", b, capped, figure(t, rep, "unresolved").A.Value)
				}
				losers := capped
				for i := range v.Options.Players() {
					losers += figure(t, rep, seatKey("damn/loser", i)).A.Value
				}
				if math.Abs(losers-1) > 1e-9 {
					t.Errorf("damn/%s: losers and capped add up to %v", b, losers)
				}
			}
		}
	}
}

// TestTotals checks the cheap totals the lab reads after every deal
// against Result().Totals.
func TestTotals(t *testing.T) {
	for _, g := range games.Registry.All() {
		checked := 0
		playout(t, g, nil, 3, nil, func(before game.State, seat int, m game.Move, after game.State) {
			if after.DealsPlayed() == before.DealsPlayed() {
				return
			}
			tt, ok := after.(totaler)
			if !ok {
				return
			}
			checked++
			for i, want := range after.Result().Totals {
				if got := tt.Total(i); got != want {
					t.Fatalf("%s: Total(%d) = %d, Result().Totals %v", g.Name(), i, got, after.Result().Totals)
				}
			}
		})
		if _, ok := FiguresFor(g).(Standinger); !ok && checked == 0 && !g.Info().OneDeal {
			t.Errorf("%s: no cheap totals checked", g.Name())
		}
	}
}
