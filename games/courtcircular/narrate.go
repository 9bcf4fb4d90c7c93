package courtcircular

import (
	"parlour/card"
	"parlour/game"
)

var (
	_ game.Narrator = (*State)(nil)
	_ game.Revealer = (*State)(nil)
)

// Revealed returns the cards seat's move m shows face up to everyone
// (game.Revealer): the card played (not a No. 5 laid face down from the
// hand), a shared card taken and the hand card left in its place, and,
// when the play ends an 1860 trick that nobody won with a line, the best
// card played, which the last trick of a deal gathers at once.
func (s *State) Revealed(seat int, m game.Move) card.Set {
	var out card.Set
	switch verb(m) {
	case vSwap:
		out = card.SetOf(moveCard(m), forCard(m))
	case vPlay:
		if !(s.cfg.e62 && s.leader == seat && s.nPlayed[seat] == 2) {
			out = card.SetOf(moveCard(m))
		}
	default:
		return 0
	}
	if !s.cfg.e62 {
		o := game.OutcomeOf(s, seat, m)
		defer o.Done()
		after := o.After.(*State)
		if w := after.winner; w >= 0 && s.winner < 0 && !after.conceded {
			if l := after.keys[w].line60(); l.Kind == NoLine {
				out = out.Add(l.Best)
			}
		}
	}
	return out
}

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
		no5 := s.cfg.e62 && s.leader == seat && s.nPlayed[seat] == 2
		switch {
		case verb(m) == vSwap:
			// The shared card lay face up: everyone knows it, even laid
			// face down as No. 5.
			w.Say("took the shared ")
			w.Shown(c)
			w.Say(", put ")
			w.Shown(forCard(m))
			if no5 {
				w.Say(" in its place and laid it face down (No. 5)")
			} else {
				w.Say(" in its place and played it")
			}
		case no5:
			w.Say("laid ")
			w.Card(c, "a card")
			w.Say(" face down (No. 5)")
		default:
			w.Say("played ")
			w.Shown(c)
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
				w.Shown(x)
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
		w.Shown(c)
		if s.cfg.e62 {
			w.Say(" as the next Lead")
			if rest := s.onTable(true).Remove(c).Len(); rest > 0 {
				w.Say("; the other %s on the table were set aside", game.CountWords(rest, "card"))
			}
			if s.nStock < 6 {
				w.Say("; the last three cards were turned up, shared: ")
				w.ShownCards(after.shared[:])
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
		w.ShownCards(cs)
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
		w.Say("; {%d} won the trick (no line: the best card played, ", win)
		w.Shown(l.Best)
		w.Say(")")
	} else {
		w.Say("; {%d} won the trick (%s)", win, l.Describe(Edition1860))
	}
	if last {
		w.Say(", the last of the deal, and took every card on the table")
	}
}
