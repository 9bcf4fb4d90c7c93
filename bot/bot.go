// Package bot holds Parlour's computer players. A bot sees the game only
// through its seat: the legal moves, its seat's view and determinisations
// for its seat, never the hidden cards of the state it is handed.
package bot

import (
	"math/rand/v2"

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
	var buf [64]game.Move
	legal := s.Legal(seat, buf[:0])
	return legal[rng.IntN(len(legal))]
}

// ByName returns the bot called name, or false.
func ByName(name string) (Bot, bool) {
	switch name {
	case "random":
		return Random{}, true
	}
	return nil, false
}

// Names lists the bots ByName knows.
func Names() []string { return []string{"random"} }
