package damn

import (
	"parlour/card"
	"parlour/game"
)

var (
	_ game.Narrator = (*State)(nil)
	_ game.Revealer = (*State)(nil)
)

// Narrate tells seat's move m in words (game.Narrator), with what the rules
// then do on their own: "{0} played [7H] and drew from the central deck",
// "{1} turned [5H] from the support pile and played it", "{1} turned [9C]
// from the support pile; it did not fit, so {1} picked it up with the play
// pile into the support pile (four cards in all)", "{2} kept [2S], [5H], [9D] and
// [KC] as a new hand". Every card turned up lies face up for everyone to
// see, even one that goes back at once into a blind pile, and is named to
// everyone (Revealed); the cards kept as a new hand are named only in full.
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	o := game.OutcomeOf(s, seat, m)
	defer o.Done()
	after := o.After.(*State)
	w.Say("{%d} ", seat)
	switch {
	case m == mTurn:
		w.Say("turned ")
		w.Shown(s.turnedFrom(seat, after))
		if after.nPile > s.nPile {
			w.Say(" from the support pile and played it")
		} else {
			w.Say(" from the support pile; it did not fit, so {%d} picked it up with the play pile into the support pile (%s in all)",
				seat, game.CountWords(s.nPile+1, "card"))
		}
	case m == mPickup:
		w.Say("picked up the play pile (%s) into the support pile", game.CountWords(s.nPile, "card"))
	case m == mRandom:
		c := s.random[seat][s.nRandom[seat]-1]
		w.Say("turned ")
		w.Shown(c)
		switch {
		case Fits(c, s.top()):
			w.Say(" from the random pile and played it")
		case s.nPile+1 > 4:
			w.Say(" from the random pile; it did not fit, so {%d} picked it up with the play pile: %s to keep four of",
				seat, game.CountWords(s.nPile+1, "card"))
		default:
			w.Say(" from the random pile; it did not fit, so {%d} took it with the play pile into hand (%s in all)",
				seat, game.CountWords(s.nPile+1, "card"))
		}
	case isKeep(m):
		w.Say("kept ")
		w.Cards(keepSet(m).Cards(), "four cards")
		w.Say(" as a new hand and put the other %s into the support pile", game.CountWords(s.nPick-4, "card"))
	default: // play from hand
		w.Say("played ")
		w.Shown(card.Card(m))
		switch {
		case s.nCentral > 0:
			w.Say(" and drew from the central deck")
		case s.nSupport[seat] > 0:
			w.Say(" and took the top card of the support pile into hand")
		}
	}
	if after.outSet.Has(seat) && !s.outSet.Has(seat) {
		w.Say("; {%d} went out", seat)
	}
	switch {
	case after.capped && !s.capped:
		w.Say("; the game reached the turn cap (%d turns) and ended unresolved", after.maxTurns)
	case after.over && !s.over:
		w.Say("; {%d}, left holding cards, lost the game", after.Loser())
	}
	return w.Texts()
}

// turnedFrom returns the support card seat turns up, given the position
// after the turn: the play pile's new top if it fitted, else the last card
// gathered into the support pile with the pile.
func (s *State) turnedFrom(seat int, after *State) card.Card {
	if after.nPile > s.nPile {
		return after.pile[after.nPile-1]
	}
	return after.support[seat][after.nSupport[seat]-1]
}

// Revealed returns the cards seat's move m shows face up to everyone
// (game.Revealer): the card played or turned up, a support or random card
// that does not fit included, although it goes at once into the support
// pile or the hand.
func (s *State) Revealed(seat int, m game.Move) card.Set {
	switch {
	case m == mTurn:
		o := game.OutcomeOf(s, seat, m)
		defer o.Done()
		return card.SetOf(s.turnedFrom(seat, o.After.(*State)))
	case m == mRandom:
		return card.SetOf(s.random[seat][s.nRandom[seat]-1])
	case m == mPickup, isKeep(m):
		return 0
	}
	return card.SetOf(card.Card(m))
}
