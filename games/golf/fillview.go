package golf

import "parlour/game"

var _ game.ViewFiller = (*State)(nil)

// viewMem is the memory FillView builds a view in, kept with the view
// for the next call: the view's lists and the result's.
type viewMem struct {
	room viewRoom
	rows [][]int // the holes' scores
	nums []int   // rows' numbers, then the totals
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
	holes := len(s.scores) / s.n
	m.rows, m.nums = game.AppendResultRows(m.rows[:0], m.nums[:0], s.scores, holes, s.n)
	totals := m.nums[holes*s.n:]
	copy(totals, s.totals[:s.n])
	*v = s.view(seat, &m.room, m.rows, totals, s.winners(m.room.winners[:0]))
	v.mem = m
	return v
}
