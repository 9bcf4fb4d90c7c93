package courtcircular

import (
	"parlour/card"
	"parlour/game"
)

// DealEndView returns what seat sees of the deal that has just ended
// (game.DealEndViewer), asked of the state a deal watcher is given: the
// deal's last trick on the table as it was played, with its Lead, its
// winner and each seat's line, although the winner has already cleared
// the board into the cards she won; nobody to act.
func (s *State) DealEndView(seat int) any {
	v := s.View(seat).(View)
	v.ToAct, v.Prompt = v.ToAct[:0], ""
	v.Lead = s.trickLead
	for p := range v.Played {
		row := v.Played[p][:0]
		for i, c := range s.played[p][:s.nPlayed[p]] {
			if s.hidden && p == s.leader && i == 2 && seat != p {
				c = card.None
			}
			row = append(row, c)
		}
		v.Played[p] = row
	}
	v.TrickWinner = s.winner
	v.Lines = make([]string, s.n)
	for p := range v.Lines {
		v.Lines[p] = s.lineName(p)
	}
	return v
}

var _ game.DealEndViewer = (*State)(nil)
