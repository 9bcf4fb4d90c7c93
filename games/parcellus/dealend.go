package parcellus

import "parlour/game"

// DealEndView returns what seat sees of the deal that has just ended
// (game.DealEndViewer), asked of the state a deal watcher is given: its
// six parcels captured, the last one last, with nobody to act. Cards
// still in hand stay hidden: the rules score them nothing and show them
// to nobody.
func (s *State) DealEndView(seat int) any {
	v := s.View(seat).(View)
	v.ToAct, v.Prompt = v.ToAct[:0], ""
	return v
}

var _ game.DealEndViewer = (*State)(nil)
