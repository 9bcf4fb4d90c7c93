// Package bot holds Parlour's computer players. A bot sees the game only
// through its seat: the legal moves, its seat's view and determinisations
// for its seat, never the hidden cards of the state it is handed.
//
// Random plays uniformly among the legal moves. Heuristic plays each game
// by the plain good sense of a decent player, from its seat's view alone.
// Search is one Information-Set Monte Carlo Tree Search for every game,
// built on the engine contract; the levels easy, medium and hard are its
// settings per game (Level). Each game's knowledge beyond the contract is
// a profile: its heuristic (a HeuristicFunc), its Utility (how good the end
// of a deal is for each seat, with the right sign: in Golf lower scores
// win) and how a playout tells that a deal has ended.
package bot

import (
	"math/rand/v2"
	"sync"

	"parlour/game"
)

// Bot chooses moves for one seat.
type Bot interface {
	// Name is the bot's name, such as "random".
	Name() string
	// Choose returns a legal move for seat, which must be in s.ToAct().
	// It may use only s.Legal(seat), s.View(seat) and s.Determinize(seat).
	Choose(s game.State, seat int, rng *rand.Rand) game.Move
}

// Random chooses uniformly among the legal moves.
type Random struct{}

// Name returns "random".
func (Random) Name() string { return "random" }

// Choose returns a uniformly random legal move.
func (Random) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	buf := pooledLegal(s, seat)
	defer legalBufs.Put(buf)
	return (*buf)[rng.IntN(len(*buf))]
}

// legalBufs are buffers for Legal: a buffer on the stack escapes through
// the State interface, and a server's bots choose thousands of moves a
// second.
var legalBufs = sync.Pool{New: func() any {
	b := make([]game.Move, 0, 64)
	return &b
}}

// pooledLegal returns seat's legal moves in a buffer of legalBufs, to be
// put back once the move is chosen.
func pooledLegal(s game.State, seat int) *[]game.Move {
	buf := legalBufs.Get().(*[]game.Move)
	*buf = s.Legal(seat, (*buf)[:0])
	return buf
}

// Heuristic plays each game by the plain good sense of a decent player:
// the game's HeuristicFunc, which sees only the seat's view and its legal
// moves. For a game without one it plays at random.
type Heuristic struct{}

// Name returns "heuristic".
func (Heuristic) Name() string { return "heuristic" }

// Choose returns the heuristic's move for seat.
func (Heuristic) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	buf := pooledLegal(s, seat)
	defer legalBufs.Put(buf)
	legal := *buf
	if len(legal) == 1 {
		return legal[0]
	}
	p := profileOf(s.Game())
	if p.heuristic == nil {
		return legal[rng.IntN(len(legal))]
	}
	return p.decide(s, seat, legal, rng)
}

// ByName returns the bot called name ("random", "heuristic", or a level:
// "easy", "medium", "hard"; or a search setting as ParseSearch reads it),
// or false.
func ByName(name string) (Bot, bool) {
	switch name {
	case "random":
		return Random{}, true
	case "heuristic":
		return Heuristic{}, true
	}
	if b, ok := Level(name); ok {
		return b, true
	}
	if b, ok := ParseSearch(name); ok {
		return b, true
	}
	return nil, false
}

// Names lists the bots ByName knows, weakest first.
func Names() []string { return []string{"random", "heuristic", "easy", "medium", "hard"} }
