package analysis

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/gametest"
)

// seatOnly is gametest.SeatOnly for an analysis of seat's decision in
// information mode: a peek is noted in *peeks.
func seatOnly(st game.State, seat int, src game.State, peeks *[]string) gametest.SeatOnly {
	return gametest.SeatOnly{State: st, Seat: seat, Src: src, Peek: func(what string) { *peeks = append(*peeks, what) }}
}

// fairTables are the games the fairness tests play, as the bots' tests do.
var fairTables = []struct {
	name  string
	given map[string]any
}{
	{"golf", map[string]any{"players": 4}},
	{"parcellus", nil},
	{"tractric", map[string]any{"players": 3}},
	{"damn", map[string]any{"players": 3}},
	{"court-circular", map[string]any{"players": 2, "edition": "1860"}},
	{"court-circular", map[string]any{"edition": "1862"}},
}

// decisionPoint is a position of a heuristic match where the seat to act
// has a choice, with the move the heuristic made there.
type decisionPoint struct {
	st     game.State
	seat   int
	played game.Move
}

// decisionPoints plays heuristic matches from seed and collects up to n
// decision points a few moves apart.
func decisionPoints(tb testing.TB, g game.Game, opts game.Options, seed uint64, n int) []decisionPoint {
	tb.Helper()
	var out []decisionPoint
	rng := rand.New(rand.NewPCG(seed, 7))
	h := bot.Heuristic{}
	var buf []game.Move
	for k := uint64(0); len(out) < n && k < 50; k++ {
		s, err := g.New(opts, seed+k, nil)
		if err != nil {
			tb.Fatal(err)
		}
		for s.ToAct() != 0 && len(out) < n {
			seat := s.ToAct().First()
			m := h.Choose(s, seat, rng)
			if len(s.Legal(seat, buf[:0])) > 1 && rng.IntN(9) == 0 {
				out = append(out, decisionPoint{s.Clone(), seat, m})
			}
			s.ApplyFast(seat, m)
		}
	}
	return out
}

// unseen checks that an's rating of each decision point depends on
// nothing the seat could not see: it rates the decision on A, and on B,
// another deal of the cards hidden from the seat (B = A.Determinize(seat):
// the same view and legal moves), both through seatOnly answering
// Determinize from A, under the same seed. It returns what went wrong:
// calls beyond the seat's information, and ratings that differ.
func unseen(tb testing.TB, an *Analyser, ps []decisionPoint) (problems []string, redealt int) {
	tb.Helper()
	for i, p := range ps {
		other := p.st.Determinize(p.seat, rand.New(rand.NewPCG(77, uint64(i))))
		if viewJSON(tb, p.st, p.seat) != viewJSON(tb, other, p.seat) {
			tb.Fatalf("position %d: Determinize changed seat %d's view", i, p.seat)
		}
		if placesJSON(tb, p.st) != placesJSON(tb, other) {
			redealt++
		}
		var peeks []string
		da := an.Decide(seatOnly(p.st, p.seat, p.st, &peeks), p.seat, p.played, rand.New(rand.NewPCG(5, uint64(i))))
		db := an.Decide(seatOnly(other, p.seat, p.st, &peeks), p.seat, p.played, rand.New(rand.NewPCG(5, uint64(i))))
		if len(peeks) > 0 {
			problems = append(problems, fmt.Sprintf("position %d: the analysis called %v on the real state", i, peeks[0]))
		}
		if !reflect.DeepEqual(da, db) {
			problems = append(problems, fmt.Sprintf("position %d: rated %+v, and %+v with other hidden cards", i, da, db))
		}
	}
	return problems, redealt
}

func viewJSON(tb testing.TB, s game.State, seat int) string {
	tb.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func placesJSON(tb testing.TB, s game.State) string {
	tb.Helper()
	b, err := json.Marshal(s.Places())
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestAnalysisSeesOnlyItsSeat proves that an analysis in information mode
// rates a decision from what the seat knew, never from the cards hidden
// from it (see unseen); and that the check catches an analysis that
// peeks: the same analysis planted with a search on the real state (as
// hindsight does, while saying "information").
func TestAnalysisSeesOnlyItsSeat(t *testing.T) {
	for _, tab := range fairTables {
		g, opts := setup(t, tab.name, tab.given)
		ps := decisionPoints(t, g, opts, 21, 6)
		fair := NewAnalyser(g, opts, Options{Iterations: 80})
		problems, redealt := unseen(t, fair, ps)
		for _, p := range problems {
			t.Errorf("%s: %s", tab.name, p)
		}
		if redealt == 0 {
			t.Errorf("%s: no position had hidden cards to redeal", tab.name)
		}
		peeker := NewAnalyser(g, opts, Options{Iterations: 80})
		peeker.hindsight = true // the planted fault: the search sees the real cards
		if problems, _ := unseen(t, peeker, ps); len(problems) == 0 {
			t.Errorf("%s: the check does not catch an analysis that sees the hidden cards", tab.name)
		}
	}
}

// TestHindsightSeesTheCards: in hindsight, a rating depends on the hidden
// cards (the search is handed the real state), so that ratings of A and of
// a redeal B differ somewhere.
func TestHindsightSeesTheCards(t *testing.T) {
	g, opts := setup(t, "golf", map[string]any{"players": 2, "holes": 1})
	ps := decisionPoints(t, g, opts, 5, 8)
	an := NewAnalyser(g, opts, Options{Iterations: 200, Hindsight: true})
	differ := 0
	for i, p := range ps {
		other := p.st.Determinize(p.seat, rand.New(rand.NewPCG(77, uint64(i))))
		da := an.Decide(p.st, p.seat, p.played, rand.New(rand.NewPCG(5, uint64(i))))
		db := an.Decide(other, p.seat, p.played, rand.New(rand.NewPCG(5, uint64(i))))
		if !reflect.DeepEqual(da, db) {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("hindsight rated %d decisions the same with other hidden cards", len(ps))
	}
}
