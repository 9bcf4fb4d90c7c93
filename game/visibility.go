package game

import (
	"strings"

	"parlour/card"
)

// Who may read a move's text. A move's notation can name cards ("pass 9S
// 10S JS", "propose 7S") that other seats may not know yet, so each
// receiver gets the text only when it passes both tests below; otherwise
// the event says only that the seat moved. The mover always gets its own
// text.
//
//  1. The move was made while several seats were to act (a simultaneous
//     choice: passes, trump proposals, Golf's opening reveal): nobody else
//     sees what was chosen. Whatever the rules then reveal, they reveal
//     through the views.
//  2. Every card the text names is a card the receiver may see in the state
//     after the move, by the game's own Places (the ground truth the
//     conformance kit checks views against). A card played to a trick that
//     is then gathered face down is, by that measure, no longer visible, so
//     the trick's last card shows as "seat N moved" to the others; the
//     trick itself is in the game's view where the game shows it.
//
// This is generic over the registry: a new game needs nothing here. The
// table protocol's events and the bot protocol's both follow it.

// VisibleSets returns, for every receiver (index 0: spectators, then seat
// s at s+1), the cards it may see according to places.
func VisibleSets(places []Place, players int) []card.Set {
	out := make([]card.Set, players+1)
	for _, p := range places {
		var cards card.Set
		for _, c := range p.Cards {
			cards = cards.Add(c)
		}
		if p.Public {
			out[0] |= cards
		}
		for s := 0; s < players; s++ {
			if p.Visible.Has(s) {
				out[s+1] |= cards
			}
		}
	}
	return out
}

// VisibleAppender is implemented by a state that says what each receiver
// may see without listing its places. AppendVisible appends to dst, for
// every receiver (index 0: spectators, then seat s at s+1), the cards it
// may see: exactly what VisibleSets(Places(), Players()) returns, without
// building the places on the heap. A table works it out for most moves it
// tells; the conformance kit checks it against Places in every position
// it visits.
type VisibleAppender interface {
	AppendVisible(dst []card.Set) []card.Set
}

// Visible appends to dst what each receiver may see in s (as VisibleSets
// gives it): with s's AppendVisible if s is a VisibleAppender, or else
// from its Places.
func Visible(dst []card.Set, s State) []card.Set {
	if va, ok := s.(VisibleAppender); ok {
		return va.AppendVisible(dst)
	}
	return append(dst, VisibleSets(s.Places(), s.Players())...)
}

// Sight is what each receiver may see, for an AppendVisible to fill in:
// index 0 is the spectators', then seat s's at s+1, as VisibleSets gives.
type Sight []card.Set

// AppendSight appends an empty Sight for players seats to dst, and
// returns dst and the Sight appended.
func AppendSight(dst []card.Set, players int) ([]card.Set, Sight) {
	n := len(dst)
	dst = append(dst, make([]card.Set, players+1)...)
	return dst, Sight(dst[n:])
}

// Public adds cs to what every receiver, spectators too, may see: a
// place with Public set and every seat in Visible.
func (v Sight) Public(cs card.Set) {
	for i := range v {
		v[i] |= cs
	}
}

// Seat adds cs to what seat may see: a place it alone may see.
func (v Sight) Seat(seat int, cs card.Set) { v[seat+1] |= cs }

// Seats adds cs to what each of seats may see.
func (v Sight) Seats(seats Seats, cs card.Set) {
	for s := range len(v) - 1 {
		if seats.Has(s) {
			v[s+1] |= cs
		}
	}
}

// CardWords returns the cards that text names in canonical notation.
func CardWords(text string) []card.Card { return AppendCardWords(nil, text) }

// AppendCardWords appends the cards that text names in canonical notation
// to out and returns it: CardWords in memory the caller holds (a table
// server reads every move's).
func AppendCardWords(out []card.Card, text string) []card.Card {
	for w := range strings.FieldsSeq(text) {
		// A card's canonical word is two or three letters ending in a
		// suit's (or the joker's K): nothing else need be parsed.
		if len(w) < 2 || len(w) > 3 || !strings.ContainsRune("SHDCK", rune(w[len(w)-1])) {
			continue
		}
		if c, err := card.Parse(w); err == nil && c.String() == w {
			out = append(out, c)
		}
	}
	return out
}

// MayReadMove reports whether receiver (a seat, or Spectator) may read the
// text of mover's move, which names cards (CardWords), given what each
// receiver sees after it (VisibleSets): see the rules above.
func MayReadMove(receiver, mover int, simultaneous bool, cards []card.Card, visible []card.Set) bool {
	if receiver == mover {
		return true
	}
	if simultaneous {
		return false
	}
	if len(cards) == 0 {
		return true
	}
	v := visible[receiver+1]
	for _, c := range cards {
		if !v.Has(c) {
			return false
		}
	}
	return true
}
