package tractric

import (
	"parlour/card"
	"parlour/game"
)

var (
	_ game.Narrator = (*State)(nil)
	_ game.Revealer = (*State)(nil)
)

// Revealed returns the cards seat's move m shows face up to everyone
// (game.Revealer): the card played to the trick, the last of a hand's
// included, which the hand's end gathers.
func (s *State) Revealed(seat int, m game.Move) card.Set {
	if isPlay(m) {
		return card.SetOf(moveCard(m))
	}
	return 0
}

// trumpWords says what a hand's trump is.
func trumpWords(trump int) string {
	if trump == NoTrump {
		return "the hand is played at no trump"
	}
	return suitNames[trump] + " are trumps"
}

// Narrate tells seat's move m in words (game.Narrator), with what the rules
// then do on their own: "{0} proposed [7S] for trumps" (to the others, "{0}
// chose a card to propose for trumps", until every proposal is shown),
// "{2} led [9C]", "{0} trumped with [7S]; {0} won the trick", "{1} gave
// the trick to {2}". Every card played lies face up and is named to
// everyone.
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	switch {
	case isPropose(m):
		c := moveCard(m)
		w.Say("{%d} ", seat)
		w.Full("proposed [%v] for trumps", c)
		w.Blind("chose a card to propose for trumps")
		if s.chosen.Add(seat) == game.AllSeats(s.n) {
			p := s.proposal
			p[seat] = c
			trump := Trump4(p)
			if s.n == 3 {
				trump = Trump3(p[0], p[1], p[2])
			}
			w.Say("; the proposals were shown (")
			for i := 0; i < s.n; i++ {
				if i > 0 {
					w.Say(", ")
				}
				w.Shown(p[i])
				w.Say(" from {%d}", i)
			}
			w.Say(")")
			w.Say(": %s", trumpWords(trump))
		}
	case isPlay(m):
		c := moveCard(m)
		w.Say("{%d} ", seat)
		switch led := s.trick[s.leader].Suit(); {
		case s.nTrick == 0:
			w.Say("led ")
		case c.Suit() == led:
			w.Say("played ")
		case s.trump != NoTrump && c.Suit() == card.Suit(s.trump):
			w.Say("trumped with ")
		default:
			w.Say("discarded ")
		}
		w.Shown(c)
		if s.nTrick+1 == s.n {
			s.tellAfter(&w, seat, m)
		}
	default: // give
		to, _ := GiveTo(m)
		w.Say("{%d} gave the trick to {%d}", seat, to)
		s.tellAfter(&w, seat, m)
	}
	return w.Texts()
}

// tellAfter adds what follows a trick's last card or a gift: who won the
// trick, and a game won at the end of the hand. It plays m on a copy (a
// flat value, cheap to copy), and when m ends the hand it looks at the
// hand's last position.
func (s *State) tellAfter(w *game.Telling, seat int, m game.Move) {
	o := game.OutcomeOf(s, seat, m)
	defer o.Done()
	after := o.After.(*State)
	if isPlay(m) {
		taker := after.lastTaker
		if after.phase == phaseGive {
			w.Say("; {%d} won the trick, one beyond %s, and must give it to another player", taker, game.CountWords(Cap, "trick"))
		} else {
			w.Say("; {%d} won the trick", taker)
		}
	}
	for c := range s.colours {
		if after.won[c] == s.won[c] {
			continue
		}
		if s.n == 4 {
			w.Say("; {%d} and {%d} won the game with three counters in a row", c, c+2)
		} else {
			w.Say("; {%d} won the game with three counters in a row", c)
		}
	}
}
