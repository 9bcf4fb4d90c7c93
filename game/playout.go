package game

// Playout plays s to the end with uniformly random legal moves on the fast
// path: a seat drawn at random among those to act, then one of its legal
// moves. It returns the number of moves and the buffer, grown as needed, for
// the next call; with a buffer of enough capacity it does not allocate.
func Playout(s State, rng *RNG, buf []Move) (int, []Move) {
	n := 0
	for {
		acts := s.ToAct()
		if acts == 0 {
			return n, buf
		}
		seat := acts.First()
		if acts&(acts-1) != 0 {
			seat = acts.Nth(rng.IntN(acts.Len()))
		}
		buf = s.Legal(seat, buf[:0])
		s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		n++
	}
}
