package damn

import "parlour/game"

var _ game.ViewFiller = (*State)(nil)

// FillView returns seat's view, as View(seat) gives it, as a *View built
// in dst (game.ViewFiller): nil, or a *View an earlier FillView returned.
func (s *State) FillView(dst any, seat int) any {
	v, _ := dst.(*View)
	if v == nil || v.mem == nil {
		v = &View{mem: new(viewRoom)}
	}
	m := v.mem
	*m = viewRoom{}
	*v = s.view(seat, m)
	v.mem = m
	return v
}
