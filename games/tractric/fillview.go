package tractric

import "parlour/game"

var _ game.ViewFiller = (*State)(nil)

// viewMem is the memory FillView builds a view in, kept with the view
// for the next call: the view's lists and the hands' scores.
type viewMem struct {
	room viewRoom
	rows [][]int // the hands' scores
	nums []int   // rows' numbers
}

// FillView returns seat's view, as View(seat) gives it, as a *View built
// in dst (game.ViewFiller): nil, or a *View an earlier FillView returned.
func (s *State) FillView(dst any, seat int) any {
	v, _ := dst.(*View)
	if v == nil || v.mem == nil {
		v = &View{mem: new(viewMem)}
	}
	m := v.mem
	m.room = viewRoom{}
	m.rows, m.nums = game.AppendResultRows(m.rows[:0], m.nums[:0], s.scores, len(s.scores)/s.n, s.n)
	totals := m.room.totals[:s.n]
	s.fillTotals(totals)
	*v = s.view(seat, &m.room, m.rows, totals, s.appendWinners(m.room.winners[:0]))
	v.mem = m
	return v
}
