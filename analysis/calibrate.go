package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"parlour/bot"
	"parlour/game"
)

// Played is a move of a match: the seat and the move.
type Played struct {
	Seat int
	Move game.Move
}

// PlayMatch plays a match of g under opts (resolved) from seed with
// bots[i] at seat i, each drawing from a source of its own, and returns
// its moves in order and the final state.
func PlayMatch(g game.Game, opts game.Options, bots []bot.Bot, seed uint64) ([]Played, game.State, error) {
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return nil, nil, err
	}
	rngs := make([]*rand.Rand, len(bots))
	for i := range rngs {
		rngs[i] = rand.New(rand.NewPCG(seed, 1000+uint64(i)))
	}
	var moves []Played
	for s.ToAct() != 0 {
		if len(moves) > 1_000_000 {
			return nil, nil, fmt.Errorf("%s: the match from seed %d did not end", g.Name(), seed)
		}
		seat := s.ToAct().First()
		m := bots[seat].Choose(s, seat, rngs[seat])
		if err := game.Apply(s, seat, m); err != nil {
			return nil, nil, fmt.Errorf("%s at seat %d: %w", bots[seat].Name(), seat, err)
		}
		moves = append(moves, Played{seat, m})
	}
	return moves, s, nil
}

// WinShares returns each seat's share of the win at the end of a match in
// final: 1/k for each of k winning sides (partners share their side's
// win in full), 0 for the others; all 0 when the match ended unresolved.
func WinShares(final game.State) []float64 {
	n := final.Players()
	nsides, side := sides(final.Game(), n)
	p := make([]float64, nsides)
	shares(final.Result().Winners, side, nsides, p)
	out := make([]float64, n)
	for seat := range out {
		out[seat] = p[side[seat]]
	}
	return out
}

// Sampled returns the indices of up to k moves of seat among moves that
// were decisions (more than one legal move), drawn at random, ascending.
// It replays moves from a new match of g under opts from seed.
func Sampled(g game.Game, opts game.Options, seed uint64, moves []Played, seat, k int, rng *rand.Rand) ([]int, error) {
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return nil, err
	}
	var choices []int
	var buf []game.Move
	for i, p := range moves {
		if p.Seat == seat && len(s.Legal(seat, buf[:0])) > 1 {
			choices = append(choices, i)
		}
		s.ApplyFast(p.Seat, p.Move)
	}
	if len(choices) <= k {
		return choices, nil
	}
	rng.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
	out := choices[:k]
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// A Bin is one row of a calibration table: the decisions whose rated
// chance fell in [Low, High), and how the matches ended for the seats
// that made them.
type Bin struct {
	Low, High float64
	// Decisions counts the decisions in the bin.
	Decisions int
	// Chance is their mean rated chance; Won the mean share of the match
	// their seat won, with its 95% Wilson interval.
	Chance, Won float64
	CI95        [2]float64
}

// CalibrationConfig is a calibration run: matches of Game under Options
// between Bots (one per seat, seat i playing Bots[(i+match) mod n]), each
// from seed Seed+match, each of their decisions (between more than one
// move) rated under Analysis with probability Rate. A decision is drawn
// whatever the match's outcome: a draw of a few decisions per seat would
// not be (a seat that goes out first, or wins the tricks that give it
// more choices, has a different number of decisions).
type CalibrationConfig struct {
	Game     game.Game
	Options  game.Options
	Bots     []bot.Bot
	Matches  int
	Seed     uint64
	Rate     float64
	Analysis Options
	// Progress, if set, is called after each match.
	Progress func(done, total int)
}

// Calibrate plays the matches, rates the sampled decisions and bins them
// by chance in tenths, to compare the chance rated with how often the
// seat won: of decisions rated about 0.3, about 30% should be won.
func Calibrate(ctx context.Context, c CalibrationConfig) ([]Bin, error) {
	rs, err := rate(ctx, c, NewAnalyser(c.Game, c.Options, c.Analysis))
	if err != nil {
		return nil, err
	}
	return binned(rs), nil
}

// rated is a decision's chance and the share of the match its seat won.
type rated struct{ chance, won float64 }

// rate plays c's matches and rates their sampled decisions with an.
func rate(ctx context.Context, c CalibrationConfig, an *Analyser) ([]rated, error) {
	n := c.Options.Players()
	if len(c.Bots) != n {
		return nil, fmt.Errorf("%d bots for %d seats", len(c.Bots), n)
	}
	var out []rated
	for i := range c.Matches {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seed := c.Seed + uint64(i)
		seated := make([]bot.Bot, n)
		for j := range n {
			seated[j] = c.Bots[(j+i)%n]
		}
		moves, final, err := PlayMatch(c.Game, c.Options, seated, seed)
		if err != nil {
			return nil, err
		}
		if len(final.Result().Winners) == 0 {
			continue // unresolved: nobody won or lost
		}
		won := WinShares(final)
		rng := rand.New(rand.NewPCG(seed, 77))
		s, _ := c.Game.New(c.Options, seed, nil)
		var buf []game.Move
		for k, p := range moves {
			if rng.Float64() < c.Rate && len(s.Legal(p.Seat, buf[:0])) > 1 {
				d := an.Decide(s, p.Seat, p.Move, rand.New(rand.NewPCG(seed, uint64(k+1))))
				out = append(out, rated{d.Chance, won[p.Seat]})
			}
			s.ApplyFast(p.Seat, p.Move)
		}
		if c.Progress != nil {
			c.Progress(i+1, c.Matches)
		}
	}
	return out, nil
}

// binned sums rated decisions into tenths of chance.
func binned(rs []rated) []Bin {
	var sum [10]struct{ n, chance, won float64 }
	for _, r := range rs {
		b := min(9, int(r.chance*10))
		sum[b].n++
		sum[b].chance += r.chance
		sum[b].won += r.won
	}
	out := make([]Bin, 0, len(sum))
	for b, x := range sum {
		bin := Bin{Low: float64(b) / 10, High: float64(b+1) / 10, Decisions: int(x.n)}
		if x.n > 0 {
			bin.Chance = x.chance / x.n
			bin.Won = x.won / x.n
		}
		bin.CI95 = wilson(x.won, x.n)
		out = append(out, bin)
	}
	return out
}

// wilson returns the 95% Wilson score interval of wins out of n.
func wilson(wins, n float64) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p := wins / n
	den := 1 + z*z/n
	mid := (p + z*z/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return [2]float64{max(0, mid-half), min(1, mid+half)}
}
