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

// playout plays a random match of g, calling step after every move with the
// state before the move (a clone), the mover, the move and the state after.
func playout(t *testing.T, g game.Game, opts map[string]any, seed uint64, step func(before game.State, seat int, m game.Move, after game.State)) {
	t.Helper()
	o, err := game.Resolve(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(o, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	var buf []game.Move
	for moves := 0; s.ToAct() != 0; moves++ {
		if moves > 200000 {
			t.Fatal("no end")
		}
		seat := s.ToAct().First()
		buf = s.Legal(seat, buf[:0])
		m := buf[rng.IntN(len(buf))]
		before := s.Clone()
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
		step(before, seat, m, s)
	}
}

func lastRow(s game.State) []int {
	r := s.Result()
	return r.DealScores[len(r.DealScores)-1]
}

// TestGolfFinalLayouts checks the layouts the observer reads at a hole's
// end against the hole's scores.
func TestGolfFinalLayouts(t *testing.T) {
	holes := 0
	for seed := range uint64(40) {
		n := 2 + int(seed)%7
		playout(t, golf.Game{}, map[string]any{"players": n, "holes": 3}, seed, func(before game.State, seat int, m game.Move, after game.State) {
			b, a := before.(*golf.State), after.(*golf.State)
			if a.DealsPlayed() == b.DealsPlayed() {
				return
			}
			holes++
			if b.Out() < 0 {
				t.Fatalf("seed %d: a hole ended with nobody out", seed)
			}
			lay := finalLayouts(b, n, seat, m)
			row := lastRow(a)
			for i := range n {
				if got := golf.LayoutScore(lay[i]); got != row[i] {
					t.Fatalf("seed %d seat %d: layout %v scores %d, the hole %d", seed, i, lay[i], got, row[i])
				}
			}
		})
	}
	if holes != 120 {
		t.Errorf("%d holes checked", holes)
	}
}

// TestParcellusCaptures checks the captor the observer names for a parcel
// closed by a move against every capture, and a deal's last parcels against
// the deal's scores.
func TestParcellusCaptures(t *testing.T) {
	captures, deals := 0, 0
	for seed := range uint64(150) {
		playout(t, parcellus.Game{}, nil, seed, func(before game.State, seat int, m game.Move, after game.State) {
			b, a := before.(*parcellus.State), after.(*parcellus.State)
			c := lastCaptor(b, seat, m)
			pb := b.ParcelCounts()
			if a.DealsPlayed() == b.DealsPlayed() {
				pa := a.ParcelCounts()
				for i := range pa {
					if pa[i] > pb[i] {
						captures++
						if i != c {
							t.Fatalf("seed %d: seat %d captured, the observer says %d", seed, i, c)
						}
					}
				}
				return
			}
			// The deal ended: every parcel closed by the move goes to c,
			// with its cards, the move's card and the face-down common cards.
			deals++
			closed := parcellus.Parcels
			for _, k := range pb {
				closed -= k
			}
			pb[c] += closed
			pts := b.View(game.Spectator).(parcellus.View).Points
			var points [parcellus.Players]int
			copy(points[:], pts)
			cards := append(b.Parcel(), b.Common()...)
			if m != parcellus.Pass {
				cards = append(cards, card.Card(m))
			}
			for _, x := range cards {
				points[c] += parcellus.Value(x)
			}
			want := parcellus.DealScores(points, pb)
			if row := lastRow(a); !slices.Equal(row, want[:]) {
				t.Fatalf("seed %d: deal scores %v, the observer's parcels %v and points %v give %v", seed, row, pb, points, want)
			}
		})
	}
	if captures < 1000 || deals < 300 {
		t.Errorf("%d captures, %d deals checked", captures, deals)
	}
}

// TestCourtCircularTricks checks the observer's trick decision against the
// game's on every trick it sees decided, and its marks for the last trick
// of a deal against the deal's scores (1860).
func TestCourtCircularTricks(t *testing.T) {
	tricks, lasts := 0, 0
	for seed := range uint64(200) {
		n := 2 + int(seed)%5
		ed := courtcircular.Edition1860
		playout(t, courtcircular.Game{}, map[string]any{"players": n}, seed, func(before game.State, seat int, m game.Move, after game.State) {
			b, a := before.(*courtcircular.State), after.(*courtcircular.State)
			ended := a.DealsPlayed() != b.DealsPlayed()
			if !ended && a.TrickWinner() >= 0 && b.TrickWinner() < 0 && m != courtcircular.Resign {
				tricks++
				w, _ := decideTrick(ed, n, a.Played, a.Resigned(), a.Lead())
				if w != a.TrickWinner() {
					t.Fatalf("seed %d: the observer gives the trick to %d, the game to %d", seed, w, a.TrickWinner())
				}
			}
			if ended {
				lasts++
				w, _, table := lastTrick(b, ed, seat)
				marks, up, down := dealMarks(b, w, seat, table)
				low := slices.Min(marks[:n])
				row := lastRow(a)
				for p := range n {
					if row[p] != marks[p]-low {
						t.Fatalf("seed %d: deal scores %v, the observer's marks %v", seed, row, marks[:n])
					}
				}
				var sum int64
				for _, k := range marks[:n] {
					sum += int64(k)
				}
				if up+down != sum {
					t.Fatalf("marks up %d + down %d != %d", up, down, sum)
				}
			}
		})
	}
	if tricks < 1000 || lasts < 200 {
		t.Errorf("%d tricks, %d last tricks checked", tricks, lasts)
	}
	// 1862: the Line the observer names is the one the game shows.
	lines := 0
	for seed := range uint64(20) {
		ed := courtcircular.Edition1862
		playout(t, courtcircular.Game{}, map[string]any{"edition": ed}, seed, func(before game.State, seat int, m game.Move, after game.State) {
			b, a := before.(*courtcircular.State), after.(*courtcircular.State)
			if w := a.TrickWinner(); w >= 0 && b.TrickWinner() < 0 {
				lines++
				got := courtcircular.BestLine(ed, a.Played(w), a.Lead()).Describe(ed)
				if want := a.View(game.Spectator).(courtcircular.View).Lines[w]; got != want {
					t.Fatalf("seed %d: the observer reads %q, the game shows %q", seed, got, want)
				}
			}
		})
	}
	if lines < 300 {
		t.Errorf("%d 1862 tricks checked", lines)
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
		playout(t, g, map[string]any{"players": n}, uint64(n), func(before game.State, seat int, m game.Move, after game.State) {
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
		playout(t, g, nil, 3, func(before game.State, seat int, m game.Move, after game.State) {
			if dealsPlayed(after) == dealsPlayed(before) {
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
		if _, ok := FiguresFor(g).(Standinger); !ok && checked == 0 && !FiguresFor(g).SingleDeal(nil) {
			t.Errorf("%s: no cheap totals checked", g.Name())
		}
	}
}
