package golf

import "parlour/game"

// DealEndView returns what seat sees of the hole that has just ended
// (game.DealEndViewer), asked of the state a deal watcher is given: every
// layout face up, as the rules turn them up to score the hole, numbered
// as that hole, with nobody to act.
func (s *State) DealEndView(seat int) any {
	v := s.View(seat).(View)
	v.Hole = s.hole
	v.ToAct, v.Prompt = v.ToAct[:0], ""
	v.Columns = make([][3]int, len(v.Layouts))
	for i := range v.Layouts {
		l := s.layout[i]
		v.Layouts[i] = l
		for k := range 3 {
			v.Columns[i][k] = ColumnScore(l[k], l[k+3])
		}
	}
	return v
}

var _ game.DealEndViewer = (*State)(nil)
