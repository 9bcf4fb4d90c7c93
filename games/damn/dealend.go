package damn

import "parlour/game"

// DealEndView returns what seat sees of the game that has just ended
// (game.DealEndViewer): a match of Damn is one game, so its end is the
// match's, which View shows as it is.
func (s *State) DealEndView(seat int) any { return s.View(seat) }

var _ game.DealEndViewer = (*State)(nil)
