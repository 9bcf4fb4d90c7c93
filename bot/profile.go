package bot

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sync"

	"parlour/game"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// A HeuristicFunc chooses a move from a seat's view (a pointer to the
// game's View struct: what game.ViewFiller's FillView returns, or a copy
// of s.View(seat)) and the seat's legal moves, never from the state: it
// cannot see what the seat may not. It returns one of legal, and keeps
// nothing of the view, whose memory is used again.
type HeuristicFunc func(view any, legal []game.Move, rng *rand.Rand) game.Move

// A Utility scores the end of a playout for the search: u[i] is how good
// leaf is for seat i, from 0 (worst) to 1 (best), compared with base, the
// result where the search started. It is where a game says whether high or
// low scores win and what a deal's outcome is worth towards the match.
type Utility func(base *game.Result, leaf game.State, u []float64)

// profile is what the bots know of one game beyond the contract.
type profile struct {
	heuristic HeuristicFunc
	utility   Utility
	// horizon, if positive, cuts a playout after so many moves: the
	// utility then judges the position reached (for games whose deal is
	// long, like Damn, where the deal is the whole match).
	horizon int
	// views keeps *viewSlots, the memory decide fills views in.
	views sync.Pool
}

// viewSlot holds a view filled for a heuristic (game.ViewFiller), to be
// filled again by the next decision of its game.
type viewSlot struct{ v any }

// decide returns the heuristic's move for seat in s among legal, with
// the seat's view filled in a slot from the profile's pool.
func (p *profile) decide(s game.State, seat int, legal []game.Move, rng *rand.Rand) game.Move {
	slot := slotFrom(&p.views)
	m := p.heuristic(viewOf(s, seat, &slot.v), legal, rng)
	p.views.Put(slot)
	return m
}

// slotFrom returns a viewSlot from pool, or a new one.
func slotFrom(pool *sync.Pool) *viewSlot {
	if slot, ok := pool.Get().(*viewSlot); ok {
		return slot
	}
	return new(viewSlot)
}

// leafResults keeps the Results the utilities fill (leafResult).
var leafResults = sync.Pool{New: func() any { return new(game.Result) }}

// leafResult returns leaf's result, filled in a Result of leafResults
// (game.FillResult): the caller puts it back there once it has read it.
func leafResult(leaf game.State) *game.Result {
	r := leafResults.Get().(*game.Result)
	game.FillResult(leaf, r)
	return r
}

// viewOf returns seat's view of s as a HeuristicFunc reads it, a pointer
// to the game's View struct: filled in *mem (what an earlier call left
// there, which it replaces) when s is a game.ViewFiller, as every game of
// the registry is, or else a copy of View(seat).
func viewOf(s game.State, seat int, mem *any) any {
	if f, ok := s.(game.ViewFiller); ok {
		*mem = f.FillView(*mem, seat)
		return *mem
	}
	v := reflect.ValueOf(s.View(seat))
	ptr := reflect.New(v.Type())
	ptr.Elem().Set(v)
	return ptr.Interface()
}

// profiles holds each game's profile, by game.Game.Name; a game without
// one gets the default profile (a test checks every registered game has
// its own).
var profiles = map[string]*profile{
	courtcircular.Game{}.Name(): {heuristic: courtHeuristic, utility: courtUtility},
	damn.Game{}.Name():          {heuristic: damnHeuristic, utility: damnUtility, horizon: damnHorizon},
	golf.Game{}.Name():          {heuristic: golfHeuristic, utility: ScoreUtility(10)},
	parcellus.Game{}.Name():     {heuristic: parcellusHeuristic, utility: ScoreUtility(5)},
	tractric.Game{}.Name():      {heuristic: tractricHeuristic, utility: tractricUtility},
}

var defaultProfile = &profile{utility: ScoreUtility(10)}

func profileOf(g game.Game) *profile {
	if p, ok := profiles[g.Name()]; ok {
		return p
	}
	return defaultProfile
}

// HasProfile reports whether g has a profile of its own (a heuristic and a
// utility), not the default one.
func HasProfile(g game.Game) bool {
	_, ok := profiles[g.Name()]
	return ok
}

// ScoreUtility is the utility of games scored by Result().Totals: a seat's
// gain over the deal against the mean gain of the others, squashed to 0-1
// over about scale points (a lower total is better where the game's Info
// says LowWins, as in Golf). When the match ends in the playout, winning
// counts most: a shared win counts as a fraction.
func ScoreUtility(scale float64) Utility {
	return func(base *game.Result, leaf game.State, u []float64) {
		lowWins := leaf.Game().Info().LowWins
		r := leafResult(leaf)
		defer leafResults.Put(r)
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

// dealEnd tells a playout when the deal it started in has ended (or its
// horizon is reached).
type dealEnd struct {
	horizon int
	moves   int
	played  int
}

func newDealEnd(p *profile, d game.State) dealEnd {
	return dealEnd{horizon: p.horizon, played: d.DealsPlayed()}
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
	return d.DealsPlayed() != e.played
}

// playout is a search's move policy in its playouts.
type playout struct {
	heuristic HeuristicFunc
	buf       []game.Move
	view      any // the memory the heuristic's views are filled in (viewOf)
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
		return p.heuristic(viewOf(d, seat, &p.view), p.buf, rng)
	}
	return p.buf[rng.IntN(len(p.buf))]
}
