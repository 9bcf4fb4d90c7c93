package bot

import (
	"math"
	"math/rand/v2"

	"parlour/game"
)

// A HeuristicFunc chooses a move from a seat's view (the value of
// s.View(seat), type-asserted to the game's View struct inside) and the
// seat's legal moves, never from the state: it cannot see what the seat
// may not. It returns one of legal.
type HeuristicFunc func(view any, legal []game.Move, rng *rand.Rand) game.Move

// A Utility scores the end of a playout for the search: u[i] is how good
// leaf is for seat i, from 0 (worst) to 1 (best), compared with base, the
// result where the search started. It is where a game says whether high or
// low scores win and what a deal's outcome is worth towards the match.
type Utility func(base *game.Result, leaf game.State, u []float64)

// endKind says how a playout tells that the deal it plays has ended.
type endKind uint8

const (
	// endResult checks Result().Deal now and then (any game).
	endResult endKind = iota
	// endSimultaneous: every deal opens with a choice all seats make at
	// once (a reveal, a pass, a proposal), so a deal has ended when
	// several seats must act after one seat alone has acted.
	endSimultaneous
	// endMatch: the match is one deal.
	endMatch
)

// profile is what the bots know of one game beyond the contract.
type profile struct {
	heuristic HeuristicFunc
	utility   Utility
	end       endKind
	// horizon, if positive, cuts a playout after so many moves: the
	// utility then judges the position reached (for games whose deal is
	// long, like Damn, where the deal is the whole match).
	horizon int
}

// profiles holds the games with their own heuristic and utility; any other
// game gets the default profile.
var profiles = map[string]*profile{}

var defaultProfile = &profile{utility: ScoreUtility(false, 10), end: endResult}

// register sets the profile of the game called name.
func register(name string, p *profile) { profiles[name] = p }

func profileOf(g game.Game) *profile {
	if p, ok := profiles[g.Name()]; ok {
		return p
	}
	return defaultProfile
}

// UtilityOf returns the utility the search uses for g.
func UtilityOf(g game.Game) Utility { return profileOf(g).utility }

// ScoreUtility is the utility of games scored by Result().Totals: a seat's
// gain over the deal against the mean gain of the others, squashed to 0-1
// over about scale points (lowWins: a lower total is better, as in Golf).
// When the match ends in the playout, winning counts most: a shared win
// counts as a fraction.
func ScoreUtility(lowWins bool, scale float64) Utility {
	return func(base *game.Result, leaf game.State, u []float64) {
		r := leaf.Result()
		n := len(u)
		sum := 0
		for i := range n {
			sum += r.Totals[i] - base.Totals[i]
		}
		for i := range n {
			d := r.Totals[i] - base.Totals[i]
			x := (float64(d) - float64(sum-d)/float64(n-1)) / scale
			if lowWins {
				x = -x
			}
			u[i] = 0.5 + 0.5*math.Tanh(x)
		}
		if r.Over {
			winShares(r.Winners, u, 0.8)
		}
	}
}

// winShares blends u with the shares of a win: weight w on 1/k for each
// of k winners, 0 for the others.
func winShares(winners []int, u []float64, w float64) {
	for i := range u {
		u[i] *= 1 - w
	}
	for _, i := range winners {
		u[i] += w / float64(len(winners))
	}
}

// dealCounter is a state that counts its finished deals cheaply; a
// playout uses it, where the state offers it, to see a deal end.
type dealCounter interface{ DealsPlayed() int }

// dealEnd tells a playout when the deal it started in has ended (or its
// horizon is reached).
type dealEnd struct {
	kind    endKind
	deal    int
	horizon int
	single  bool // one seat alone has acted since the start
	moves   int
	counter dealCounter
	played  int
}

func newDealEnd(p *profile, deal int, d game.State) dealEnd {
	e := dealEnd{kind: p.end, deal: deal, horizon: p.horizon}
	if c, ok := d.(dealCounter); ok {
		e.counter, e.played = c, c.DealsPlayed()
	}
	return e
}

// over reports whether the deal has ended, given d.ToAct() as acts. It is
// called once before every move.
func (e *dealEnd) over(d game.State, acts game.Seats) bool {
	if acts == 0 {
		return true
	}
	e.moves++
	if e.horizon > 0 && e.moves > e.horizon {
		return true
	}
	if e.counter != nil {
		return e.counter.DealsPlayed() != e.played
	}
	switch e.kind {
	case endSimultaneous:
		if acts&(acts-1) == 0 {
			e.single = true
			return false
		}
		return e.single
	case endMatch:
		return false
	}
	// Totals change only when a deal ends, and a deal has more than eight
	// moves: checking every eighth move finds the end before the next.
	if e.moves&7 != 0 {
		return false
	}
	return d.Result().Deal != e.deal
}

// playout is a search's move policy in its playouts.
type playout struct {
	heuristic HeuristicFunc
	buf       []game.Move
}

func (p *playout) init(kind Policy, prof *profile) {
	p.heuristic = nil
	if kind == PolicyHeuristic {
		p.heuristic = prof.heuristic
	}
	if p.buf == nil {
		p.buf = make([]game.Move, 0, 64)
	}
}

func (p *playout) choose(d game.State, seat int, rng *rand.Rand) game.Move {
	p.buf = d.Legal(seat, p.buf[:0])
	if len(p.buf) == 1 {
		return p.buf[0]
	}
	if p.heuristic != nil {
		return p.heuristic(d.View(seat), p.buf, rng)
	}
	return p.buf[rng.IntN(len(p.buf))]
}
