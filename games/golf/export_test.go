package golf

import "parlour/game"

// AllMoves lists every move of the game, legal or not.
func AllMoves() []game.Move {
	out := make([]game.Move, numMoves)
	for i := range out {
		out[i] = game.Move(i)
	}
	return out
}
