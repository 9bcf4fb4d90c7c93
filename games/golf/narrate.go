package golf

import "parlour/game"

// PlaceNames names the six places of a layout by position: the top row 0 1
// 2, the bottom row 3 4 5, as the rules lay them out.
var PlaceNames = [6]string{"top-left", "top-middle", "top-right", "bottom-left", "bottom-middle", "bottom-right"}

// ColumnNames names the three columns of a layout.
var ColumnNames = [3]string{"left", "middle", "right"}

var _ game.Narrator = (*State)(nil)

// Narrate tells seat's move m in words (game.Narrator): "{0} drew from the
// stock", "{2} took [7H] from the discard pile", "{2} put [7H] in the
// top-left place and discarded [QS]". Every card but one drawn from the
// stock and not yet played lies face up, and is named to everyone. The column a seat chooses to turn up
// is told only in full: the others learn it when every column is turned.
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	w.Say("{%d} ", seat)
	switch {
	case m < mDrawStock:
		w.Full("chose to turn up the %s column", ColumnNames[m-mReveal])
		w.Blind("chose a column to turn up")
		if s.chosen.Add(seat) == game.AllSeats(s.n) {
			w.Say("; every player turned up both cards of the chosen column")
		}
	case m == mDrawStock:
		w.Say("drew from the stock")
		if s.nStock == 0 {
			w.Say(" (the discards under the top card were first shuffled into a new stock)")
		}
	case m == mDrawDiscard:
		w.Say("took ")
		w.Shown(s.discards[s.nDiscard-1])
		w.Say(" from the discard pile")
	case m == mDiscard:
		w.Say("discarded ")
		w.Shown(s.drawn)
		s.tellNext(&w, false)
	case m == mStop:
		w.Say("chose not to draw on the final turn")
		s.tellNext(&w, false)
	default: // swap
		p := m - mSwap
		w.Say("put ")
		w.Shown(s.drawn)
		w.Say(" in the %s place and discarded ", PlaceNames[p])
		w.Shown(s.layout[seat][p])
		out := s.phase == phaseHolding && s.faceUp[seat]|1<<p == 0x3f
		if out {
			w.Say(", and went out: every other player has one final turn")
		}
		s.tellNext(&w, out)
	}
	return w.Texts()
}

// tellNext adds, after a move that ends a turn, the final turn it opens, if
// any: the next player's face-down cards are turned up. out reports that
// the turn's swap goes out.
func (s *State) tellNext(w *game.Telling, out bool) {
	final := s.phase == phaseFinalDraw || s.phase == phaseFinalHolding
	if out || (final && s.left > 1) {
		w.Say("; {%d} must now play a final turn with every card face up", (s.turn+1)%s.n)
	}
}
