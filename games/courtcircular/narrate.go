package courtcircular

import "parlour/game"

var _ game.Narrator = (*State)(nil)

// Narrate tells seat's move m in words (game.Narrator), with what the rules
// then do on their own: "{1} played [7H]", "{0} laid [7H] face down (No.
// 5)" (to the other player, "{0} laid a card face down (No. 5)"), "{1}
// played [9C] (No. 6); No. 5 was turned up: [7H]; {0} won the trick (Suit
// with the Lead against no line) and may take three cards", "{0} chose [8D]
// as the new Lead and took four cards face up", "{1} resigned the
// trick".
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	o := game.OutcomeOf(s, seat, m)
	defer o.Done()
	after, ended := o.After.(*State), o.DealEnded
	w.Say("{%d} ", seat)
	switch verb(m) {
	case vPlay, vSwap:
		c := moveCard(m)
		if verb(m) == vSwap {
			w.Full("took the shared [%v], put [%v] in its place and ", c, forCard(m))
			w.Blind("took a shared card, put a card from hand in its place and ")
		}
		no5 := s.cfg.e62 && s.leader == seat && s.nPlayed[seat] == 2
		if no5 {
			w.Say("laid ")
			w.Card(c, "a card")
			w.Say(" face down (No. 5)")
		} else {
			w.Say("played ")
			w.Card(c, "a card")
		}
		if s.cfg.e62 && !no5 {
			n := 1
			for p := 0; p < s.n; p++ {
				n += int(s.nPlayed[p])
			}
			w.Say(" (No. %d)", n)
		}
		if after.winner >= 0 {
			if s.cfg.e62 && s.leader >= 0 {
				x := s.played[s.leader][2]
				w.Say("; No. 5 was turned up: ")
				w.Card(x, "the card laid face down")
			}
			s.tellWon(&w, after, ended)
		}
	case vResign:
		w.Say("resigned the trick")
		if after.winner >= 0 {
			w.Say("; {%d} won the trick", after.winner)
		}
	case vLead:
		c := moveCard(m)
		w.Say("chose ")
		w.Card(c, "a card")
		if s.cfg.e62 {
			w.Say(" as the next Lead")
			if rest := s.onTable(true).Remove(c).Len(); rest > 0 {
				w.Say("; the other %s on the table were set aside", game.CountWords(rest, "card"))
			}
			if s.nStock < 6 {
				w.Say("; the last three cards were turned up, shared")
				w.Full(": ")
				w.Cards(after.shared[:], "")
			}
			break
		}
		taken := s.table.Remove(c).Add(s.lead)
		how := "face down"
		if s.winner == s.leader {
			how = "face up"
		}
		w.Say(" as the new Lead and took %s %s", game.CountWords(taken.Len(), "card"), how)
	case vTake:
		cs := canonical(takeSet(m))
		w.Say("took ")
		w.Cards(cs, game.CountWords(len(cs), "card"))
		if ended {
			w.Say("; the cards left were set aside")
		}
	}
	return w.Texts()
}

// tellWon adds who won the trick just ended and how, from the position
// after it (the deal's last position when last).
func (s *State) tellWon(w *game.Telling, after *State, last bool) {
	win := after.winner
	if s.cfg.e62 {
		wk, lk := after.keys[win], after.keys[1-win]
		if wk>>7 > lk>>7 {
			w.Say("; {%d} won the trick (%s against %s)", win,
				wk.line62().Describe(Edition1862), lk.line62().Describe(Edition1862))
		} else {
			w.Say("; {%d} won the trick on cards", win)
		}
		w.Say(" and may take %s", game.CountWords(after.takeN, "card"))
		return
	}
	l := after.keys[win].line60()
	if l.Kind == NoLine {
		w.Say("; {%d} won the trick (no line: the best card played", win)
		w.Full(", [%v]", l.Best)
		w.Say(")")
	} else {
		w.Say("; {%d} won the trick (%s)", win, l.Describe(Edition1860))
	}
	if last {
		w.Say(", the last of the deal, and took every card on the table")
	}
}
