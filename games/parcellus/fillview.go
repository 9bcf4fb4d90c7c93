package parcellus

import "parlour/game"

var _ game.ViewFiller = (*State)(nil)

// viewMem is the memory FillView builds a view in, kept with the view
// for the next call: the view's lists and the deals' scores.
type viewMem struct {
	room viewRoom
	rows [][]int // the deals' scores
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
	m.room = viewRoom{table: s.table}
	m.rows, m.nums = game.AppendResultRows(m.rows[:0], m.nums[:0], s.scores, len(s.scores)/Players, Players)
	*v = s.view(seat, &m.room, &m.room.table, m.rows)
	v.mem = m
	return v
}
