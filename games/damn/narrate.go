package damn

import (
	"parlour/card"
	"parlour/game"
)

var _ game.Narrator = (*State)(nil)

// Narrate tells seat's move m in words (game.Narrator), with what the rules
// then do on their own: "{0} played [7H] and drew from the central deck",
// "{1} turned [5H] from the support pile and played it", "{1} turned a card
// from the support pile that did not fit, and picked up the play pile
// (four cards) into the support pile", "{2} kept [2S], [5H], [9D] and [KC]
// as a new hand". A card that ends up where nobody may see it (a support
// card that did not fit, a random card taken into hand) is not named: the
// support and random piles are blind, even to their owner, and so are the
// cards picked up into them.
func (s *State) Narrate(seat int, m game.Move) (full, blind string) {
	var w game.Telling
	o := game.OutcomeOf(s, seat, m)
	defer o.Done()
	after := o.After.(*State)
	w.Say("{%d} ", seat)
	switch {
	case m == mTurn:
		if after.nPile > s.nPile {
			w.Say("turned ")
			w.Card(after.pile[after.nPile-1], "a card")
			w.Say(" from the support pile and played it")
		} else {
			w.Say("turned a card from the support pile that did not fit, and picked up the play pile (%s) into the support pile",
				game.CountWords(s.nPile+1, "card"))
		}
	case m == mPickup:
		w.Say("picked up the play pile (%s) into the support pile", game.CountWords(s.nPile, "card"))
	case m == mRandom:
		c := s.random[seat][s.nRandom[seat]-1]
		switch {
		case Fits(c, s.top()):
			w.Say("turned ")
			w.Card(c, "a card")
			w.Say(" from the random pile and played it")
		case s.nPile+1 > 4:
			w.Say("turned ")
			w.Card(c, "a card")
			w.Say(" from the random pile; it did not fit, so {%d} picked it up with the play pile: %s to keep four of",
				seat, game.CountWords(s.nPile+1, "card"))
		default:
			w.Say("turned a card from the random pile that did not fit, and took it with the play pile into hand (%s)",
				game.CountWords(s.nPile+1, "card"))
		}
	case isKeep(m):
		w.Say("kept ")
		w.Cards(keepSet(m).Cards(), "four cards")
		w.Say(" as a new hand and put the other %s into the support pile", game.CountWords(s.nPick-4, "card"))
	default: // play from hand
		w.Say("played ")
		w.Card(card.Card(m), "a card")
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
