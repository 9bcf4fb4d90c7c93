package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"

	"parlour/bot"
	"parlour/game"
)

// LadderConfig compares bots on common positions: decisions drawn at
// random (each with probability Rate) from seeded matches of Game under
// Options between heuristic players, from seed Seed on, until Positions
// are drawn. At each, every bot of Bots chooses a move for the seat to
// act, and each move is rated under Analysis.
type LadderConfig struct {
	Game      game.Game
	Options   game.Options
	Bots      []bot.Bot
	Positions int
	Seed      uint64
	Rate      float64
	Analysis  Options
	// Progress, if set, is called after each position.
	Progress func(done, total int)
}

// Rung is how one bot did on a ladder's positions.
type Rung struct {
	Name string
	// Decisions is the positions rated; MeanLoss the mean loss of the
	// bot's moves there; Mistakes how many lost 0.10 or more; Best how
	// many were the best move (loss 0).
	Decisions int
	MeanLoss  float64
	Mistakes  int
	Best      int
}

// Ladder rates each bot's moves on the same positions: the mean loss per
// decision of bots compared on equal terms, where each bot's own matches
// would lead it to positions of its own (a weak bot soon plays lost
// positions, where no move loses much).
func Ladder(ctx context.Context, c LadderConfig) ([]Rung, error) {
	n := c.Options.Players()
	heur := make([]bot.Bot, n)
	for i := range heur {
		heur[i] = bot.Heuristic{}
	}
	an := NewAnalyser(c.Game, c.Options, c.Analysis)
	rungs := make([]Rung, len(c.Bots))
	for k, b := range c.Bots {
		rungs[k].Name = b.Name()
	}
	done := 0
	var buf []game.Move
	for i := uint64(0); done < c.Positions; i++ {
		seed := c.Seed + i
		moves, _, err := PlayMatch(c.Game, c.Options, heur, seed)
		if err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, 55))
		s, _ := c.Game.New(c.Options, seed, nil)
		for _, p := range moves {
			if done < c.Positions && rng.Float64() < c.Rate && len(s.Legal(p.Seat, buf[:0])) > 1 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				rated := map[game.Move]Decision{}
				for k, b := range c.Bots {
					m := b.Choose(s, p.Seat, rand.New(rand.NewPCG(seed, uint64(done)<<8|uint64(k))))
					if err := game.Check(s, p.Seat, m); err != nil {
						return nil, fmt.Errorf("%s: %w", b.Name(), err)
					}
					d, ok := rated[m]
					if !ok {
						// The same seed for every move: the search over
						// all moves is the same, and so is the best
						// (past bot.MaxBranch moves, the sample weighed
						// holds the move rated).
						d = an.Decide(s, p.Seat, m, rand.New(rand.NewPCG(seed, uint64(done))))
						rated[m] = d
					}
					r := &rungs[k]
					r.Decisions++
					r.MeanLoss += d.Loss
					if d.Loss >= 0.10 {
						r.Mistakes++
					}
					if d.Loss == 0 {
						r.Best++
					}
				}
				done++
				if c.Progress != nil {
					c.Progress(done, c.Positions)
				}
			}
			s.ApplyFast(p.Seat, p.Move)
		}
	}
	for k := range rungs {
		if rungs[k].Decisions > 0 {
			rungs[k].MeanLoss /= float64(rungs[k].Decisions)
		}
	}
	return rungs, nil
}
