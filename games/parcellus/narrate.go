package parcellus

import (
	"parlour/card"
	"parlour/game"
)

var _ game.Narrator = (*State)(nil)

// Narrate tells seat's move m in words (game.Narrator), with what the rules
// then do on their own: "{1} passed three cards to {2}" (in full, which
// three), "{0} added [JH] to the parcel", "{2} passed; {0} captured the
// parcel (three cards, five points); {0} turned up [9S]". The passes of
// three are told in full to the passer only: the others learn their own
// cards from their hands. Every card added or turned up lies face up and
// is named to everyone.
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	switch c, play := isPlay(m); {
	case m == Pass:
		w.Say("{%d} passed", seat)
	case play:
		w.Say("{%d} added ", seat)
		w.Shown(c)
		w.Say(" to the parcel")
	default:
		set, _ := isThree(m)
		w.Say("{%d} passed ", seat)
		w.Cards(Cards(set), "three cards")
		w.Say(" to {%d}", s.receiver(seat))
		if s.chosen.Add(seat) == game.AllSeats(Players) {
			w.Say("; every player has chosen, and the cards went across")
		}
	}
	s.tellAfter(&w, seat, m)
	return w.Texts()
}

// tellAfter adds what the rules do once seat has made m: parcels captured,
// cards turned up. It plays m on a copy (a flat value, cheap to copy), and
// when m ends the deal it looks at the deal's last position.
func (s *State) tellAfter(w *game.Telling, seat int, m game.Move) {
	o := game.OutcomeOf(s, seat, m)
	defer o.Done()
	after, ended := o.After.(*State), o.DealEnded
	from := 0
	if s.nParcels > 0 {
		from = s.ends[s.nParcels-1]
	}
	var rest []card.Card // parcels turned up and captured at once
	who := -1
	for p := s.nParcels; p < after.nParcels; p++ {
		cs := after.table[from:after.ends[p]]
		from = after.ends[p]
		who = after.capturer[p]
		if p == s.nParcels && s.phase == phasePlay {
			pts := 0
			for _, c := range cs {
				pts += Value(c)
			}
			w.Say("; {%d} captured the parcel (%s, %s)", who, game.CountWords(len(cs), "card"), game.CountWords(pts, "point"))
			continue
		}
		rest = append(rest, cs[0])
	}
	if len(rest) > 0 {
		// Nobody holds a card: the turner turns up and captures the rest
		// of the common deck, card by card.
		w.Say("; with no cards left in any hand, {%d} turned up and captured ", who)
		w.ShownCards(rest)
	}
	if !ended && after.phase == phasePlay && after.nTurned > s.nTurned && after.start < after.nTable {
		w.Say("; {%d} turned up ", after.turner)
		w.Shown(after.table[after.start])
	}
}
