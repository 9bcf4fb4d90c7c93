package bot_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/gametest"
)

// seatOnly is gametest.SeatOnly for the bot at seat: a peek fails the
// test.
func seatOnly(t *testing.T, st game.State, seat int, src game.State) gametest.SeatOnly {
	return gametest.SeatOnly{State: st, Seat: seat, Src: src, Peek: func(what string) {
		t.Helper()
		t.Errorf("the bot at seat %d called %s on the real state", seat, what)
	}}
}

func viewJSON(t *testing.T, s game.State, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func placesJSON(t *testing.T, s game.State) string {
	t.Helper()
	b, err := json.Marshal(s.Places())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSearchSeesOnlyItsSeat proves that the search bot cannot see hidden
// cards. For positions of every game, state B is another deal of the
// hidden cards that seat's information allows (B = A.Determinize(seat)):
// the same view and legal moves for seat, different cards elsewhere. The
// bot is run on A and on B through seatOnly, which fails on any use of the
// state beyond what seat may know and answers Determinize from A in both
// runs. Under the same seed the decisions must be equal: nothing of B's
// hidden cards reaches the decision but through the game's Determinize,
// which the conformance kit checks against the seat's view.
func TestSearchSeesOnlyItsSeat(t *testing.T) {
	b := bot.Search{Iterations: 60}
	par := bot.Search{Label: "parallel", Iterations: 60, Workers: 2}
	h := bot.Heuristic{}
	for _, tab := range tables {
		differ := 0
		for i, a := range positions(t, tab.name, tab.opts, 21, 8) {
			seat := a.ToAct().First()
			other := a.Determinize(seat, rand.New(rand.NewPCG(77, uint64(i))))
			if viewJSON(t, a, seat) != viewJSON(t, other, seat) {
				t.Fatalf("%s position %d: Determinize changed seat %d's view", tab.name, i, seat)
			}
			var b1, b2 []game.Move
			if !slices.Equal(a.Legal(seat, b1), other.Legal(seat, b2)) {
				t.Fatalf("%s position %d: Determinize changed seat %d's legal moves", tab.name, i, seat)
			}
			if placesJSON(t, a) != placesJSON(t, other) {
				differ++
			}
			for _, bt := range []bot.Bot{b, par, h} {
				ma := bt.Choose(seatOnly(t, a, seat, a), seat, rand.New(rand.NewPCG(5, uint64(i))))
				mb := bt.Choose(seatOnly(t, other, seat, a), seat, rand.New(rand.NewPCG(5, uint64(i))))
				if ma != mb {
					t.Errorf("%s position %d: %s chose %q, and %q with other hidden cards", tab.name, i, bt.Name(), a.FormatMove(ma), a.FormatMove(mb))
				}
			}
		}
		if differ == 0 {
			t.Errorf("%s: no position had hidden cards to redeal", tab.name)
		}
	}
}

// TestSearchIgnoresPendingChoices: at the opening of a deal, states that
// differ only in the choices other seats have made and not yet shown
// (Golf's reveal, Parcellus's pass, Tractric's proposal) give the same
// decision under the same seed, through the games' own Determinize.
func TestSearchIgnoresPendingChoices(t *testing.T) {
	b := bot.Search{Iterations: 150}
	for _, name := range []string{"golf", "parcellus", "tractric"} {
		a := newMatch(t, name, nil, 8)
		c := a.Clone()
		n := a.Players()
		var buf []game.Move
		for seat := 1; seat < n; seat++ {
			legal := a.Legal(seat, buf[:0])
			if err := game.Apply(a, seat, legal[0]); err != nil {
				t.Fatal(err)
			}
			legal = c.Legal(seat, buf[:0])
			if err := game.Apply(c, seat, legal[len(legal)-1]); err != nil {
				t.Fatal(err)
			}
		}
		if viewJSON(t, a, 0) != viewJSON(t, c, 0) {
			t.Fatalf("%s: another seat's pending choice shows in seat 0's view", name)
		}
		for k := range uint64(5) {
			ma := b.Choose(a, 0, rand.New(rand.NewPCG(k, 1)))
			mc := b.Choose(c, 0, rand.New(rand.NewPCG(k, 1)))
			if ma != mc {
				t.Errorf("%s seed %d: %q, and %q when the others chose otherwise", name, k, a.FormatMove(ma), a.FormatMove(mc))
			}
		}
	}
}

// clairvoyant hands a bot the real state as its "determinisation": a
// bot that sees every card, to show that TestSearchDecisionsIgnoreRedeals
// catches one.
type clairvoyant struct{ game.State }

func (c clairvoyant) Determinize(int, *rand.Rand) game.State { return c.State.Clone() }

type peeker struct{ bot.Search }

func (p peeker) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	return p.Search.Choose(clairvoyant{s}, seat, rng)
}

// spread measures how a bot's decisions at positions depend on the hidden
// cards: per position, the total variation distance between its decisions
// on A under k seeds and on k redeals of A's hidden cards (B), and, for
// the noise of the search itself, between two sets of k seeds on A.
func spread(t *testing.T, b bot.Bot, ps []game.State, k int) (ab, aa float64) {
	t.Helper()
	for i, a := range ps {
		seat := a.ToAct().First()
		ha, ha2, hb := map[game.Move]int{}, map[game.Move]int{}, map[game.Move]int{}
		for j := range uint64(k) {
			ha[b.Choose(a, seat, rand.New(rand.NewPCG(1, uint64(i)<<8|j)))]++
			ha2[b.Choose(a, seat, rand.New(rand.NewPCG(2, uint64(i)<<8|j)))]++
			other := a.Determinize(seat, rand.New(rand.NewPCG(3, uint64(i)<<8|j)))
			hb[b.Choose(other, seat, rand.New(rand.NewPCG(4, uint64(i)<<8|j)))]++
		}
		ab += tv(ha, hb, k)
		aa += tv(ha, ha2, k)
	}
	return ab, aa
}

func tv(x, y map[game.Move]int, k int) float64 {
	d := 0
	for m, n := range x {
		d += abs(n - y[m])
	}
	for m, n := range y {
		if _, ok := x[m]; !ok {
			d += n
		}
	}
	return float64(d) / float64(2*k)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestSearchDecisionsIgnoreRedeals runs the search itself, through each
// game's real Determinize, on positions A and on redeals B of A's hidden
// cards (B = A.Determinize(seat)). The games list unseen cards in their
// places' order before shuffling them, so A and B give different (equally
// likely) samples even under one seed, and single decisions cannot be
// compared exactly; their distributions can. A bot that cannot see the
// hidden cards decides on B as on A up to the noise of its own sampling;
// a bot that sees them (peeker, the same search handed the real state)
// decides differently. The test checks both.
func TestSearchDecisionsIgnoreRedeals(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical, slow")
	}
	var ps []game.State
	for _, tab := range tables {
		ps = append(ps, positions(t, tab.name, tab.opts, 31, 6)...)
	}
	const k = 8
	fair := bot.Search{Iterations: 150}
	ab, aa := spread(t, fair, ps, k)
	pab, paa := spread(t, peeker{fair}, ps, k)
	t.Logf("%d positions, %d decisions each: distance A-B %.2f, A-A %.2f; peeker A-B %.2f, A-A %.2f", len(ps), k, ab, aa, pab, paa)
	if ab > 1.25*aa+1 {
		t.Errorf("decisions on redeals of the hidden cards differ more (%.2f) than across seeds (%.2f)", ab, aa)
	}
	if pab <= 1.25*paa+1 {
		t.Errorf("the test does not catch a bot that sees the cards: %.2f against %.2f", pab, paa)
	}
}
