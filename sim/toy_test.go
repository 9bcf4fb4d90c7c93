package sim

import (
	"math/rand/v2"
	"slices"

	"parlour/game"
)

// coinGame is a toy game for testing the lab's statistics. Each move ends
// the deal with chance stop%; a deal gives one point to seat 0 with chance
// bias%, else to one of the other seats at random. After the given number
// of deals the highest total wins (ties share the win). With bias 100/n it
// is a fair coin; with more, a rigged seat 0.
type coinGame struct{}

func (coinGame) Name() string        { return "coin" }
func (coinGame) Title() string       { return "Coin" }
func (coinGame) Summary() string     { return "A toy: deals won by a biased coin." }
func (coinGame) Rules() string       { return "Flip; the coin decides." }
func (coinGame) Players() (int, int) { return 2, 4 }
func (coinGame) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Default: 2, Min: 2, Max: 4},
		{Name: "bias", Doc: "chance in percent that seat 0 takes a deal", Default: 50, Min: 0, Max: 100},
		{Name: "deals", Default: 1, Min: 1, Max: 50},
		{Name: "stop", Doc: "chance in percent that a move ends the deal", Default: 100, Min: 1, Max: 100},
	}
}

func (coinGame) New(o game.Options, seed uint64, _ []game.Layout) (game.State, error) {
	return &coinState{n: o.Players(), bias: o.Int("bias"), deals: o.Int("deals"), stop: o.Int("stop"),
		rng: game.NewRNG(seed), totals: make([]int, o.Players())}, nil
}

type coinState struct {
	n, bias, deals, stop int
	turn, dealNo         int
	rng                  game.RNG
	totals               []int
	scores               [][]int
	watch                func(game.State)
}

func (s *coinState) Game() game.Game { return coinGame{} }
func (s *coinState) Players() int    { return s.n }
func (s *coinState) ToAct() game.Seats {
	if s.dealNo == s.deals {
		return 0
	}
	return game.SeatsOf(s.turn)
}

func (s *coinState) Legal(seat int, buf []game.Move) []game.Move {
	if s.ToAct().Has(seat) {
		buf = append(buf, 0)
	}
	return buf
}

func (coinGame) Info() game.Info { return game.Info{} }

func (s *coinState) DealsPlayed() int { return s.dealNo }

func (s *coinState) WatchDeals(f func(game.State)) { s.watch = f }

func (s *coinState) Reset(seed uint64) {
	s.turn, s.dealNo, s.rng, s.scores = 0, 0, game.NewRNG(seed), s.scores[:0]
	clear(s.totals)
}

func (s *coinState) ApplyFast(seat int, m game.Move) {
	s.turn = (s.turn + 1) % s.n
	if s.rng.IntN(100) >= s.stop {
		return
	}
	w := 0
	if s.rng.IntN(100) >= s.bias {
		w = 1 + s.rng.IntN(s.n-1)
	}
	row := make([]int, s.n)
	row[w] = 1
	s.totals[w]++
	s.scores = append(s.scores, row)
	s.dealNo++
	if s.watch != nil {
		s.watch(s)
	}
}

func (s *coinState) Clone() game.State {
	c := *s
	c.totals = slices.Clone(s.totals)
	c.scores = slices.Clone(s.scores)
	c.watch = nil
	return &c
}

func (s *coinState) View(int) any { return s.totals }

func (s *coinState) Result() game.Result {
	r := game.Result{Deal: min(s.dealNo+1, s.deals), Over: s.dealNo == s.deals, Totals: slices.Clone(s.totals),
		DealScores: slices.Clone(s.scores), Winners: []int{}}
	if r.DealScores == nil {
		r.DealScores = [][]int{}
	}
	if r.Over {
		best := slices.Max(s.totals)
		for i, t := range s.totals {
			if t == best {
				r.Winners = append(r.Winners, i)
			}
		}
	}
	return r
}

func (s *coinState) Determinize(int, *rand.Rand) game.State   { return s.Clone() }
func (s *coinState) FormatMove(game.Move) string              { return "flip" }
func (s *coinState) ParseMove(int, string) (game.Move, error) { return 0, nil }
func (s *coinState) Places() []game.Place                     { return nil }

// swingGame is a toy with a fixed story: three deals scoring [2 0], [0 3],
// [2 0]. The lead goes 0, 1, 0 (two changes) and the last deal turns the
// match: seat 0 wins although seat 1 led before it.
type swingGame struct{ coinGame }

func (swingGame) Name() string { return "swing" }
func (swingGame) Options() []game.OptionSpec {
	return []game.OptionSpec{{Name: "players", Default: 2, Min: 2, Max: 2}}
}

func (swingGame) New(o game.Options, seed uint64, _ []game.Layout) (game.State, error) {
	return &swingState{coinState{n: 2, deals: 3, totals: make([]int, 2)}}, nil
}

type swingState struct{ coinState }

var swingDeals = [][]int{{2, 0}, {0, 3}, {2, 0}}

func (s *swingState) Game() game.Game { return swingGame{} }

func (s *swingState) ApplyFast(seat int, m game.Move) {
	row := swingDeals[s.dealNo]
	for i, v := range row {
		s.totals[i] += v
	}
	s.scores = append(s.scores, slices.Clone(row))
	s.dealNo++
	if s.watch != nil {
		s.watch(s)
	}
}

func (s *swingState) Clone() game.State {
	c := *s
	c.totals = slices.Clone(s.totals)
	c.scores = slices.Clone(s.scores)
	c.watch = nil
	return &c
}

func (s *swingState) Determinize(int, *rand.Rand) game.State { return s.Clone() }
