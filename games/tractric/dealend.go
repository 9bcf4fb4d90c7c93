package tractric

import "parlour/game"

// DealEndView returns what seat sees of the hand that has just ended
// (game.DealEndViewer), asked of the state a deal watcher is given: the
// hand's last trick as its last trick, the counters it placed on the
// board, with nobody to act.
func (s *State) DealEndView(seat int) any {
	v := s.View(seat).(View)
	v.ToAct, v.Prompt = v.ToAct[:0], ""
	return v
}

var _ game.DealEndViewer = (*State)(nil)
