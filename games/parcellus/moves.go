package parcellus

import (
	"math/bits"
	"strings"

	"parlour/card"
	"parlour/game"
)

// Move encoding: a play is the card's value (4 to 55), a pass of the turn
// is 1, and the pass of three cards is flagThree plus the set of the cards.
const (
	// Pass is the move that passes a turn.
	Pass      game.Move = 1
	flagThree game.Move = 1 << 63
)

// Play returns the move that adds c to the parcel.
func Play(c card.Card) game.Move { return game.Move(c) }

// PassCards returns the move that passes the three given cards at the start
// of a deal.
func PassCards(a, b, c card.Card) game.Move {
	return flagThree | game.Move(card.SetOf(a, b, c))
}

// isPlay reports whether m is a play, and of which card.
func isPlay(m game.Move) (card.Card, bool) {
	if m < 64 && inPack.Has(card.Card(m)) {
		return card.Card(m), true
	}
	return card.None, false
}

// isThree reports whether m is a pass of three cards, and which.
func isThree(m game.Move) (card.Set, bool) {
	if m&flagThree == 0 {
		return 0, false
	}
	set := card.Set(m &^ flagThree)
	if set&^inPack != 0 || bits.OnesCount64(uint64(set)) != PassSize {
		return 0, false
	}
	return set, true
}

// PlayedCard returns the card a play move puts on the parcel, and whether m
// is one.
func PlayedCard(m game.Move) (card.Card, bool) { return isPlay(m) }

func formatMove(m game.Move) string {
	if m == Pass {
		return "pass"
	}
	if c, ok := isPlay(m); ok {
		return "play " + c.String()
	}
	if set, ok := isThree(m); ok {
		return "pass " + card.Join(Cards(set))
	}
	return "?"
}

const moveList = "pass C C C, play C, pass"

func parseCard(text, word string) (card.Card, error) {
	c, err := card.Parse(word)
	if err != nil {
		return card.None, game.BadMove(text, "%v", err)
	}
	if !inPack.Has(c) {
		return card.None, game.BadMove(text, "%v is not in the Parcellus pack (9 10 J Q K A of each suit)", c)
	}
	return c, nil
}

func parseMove(text string) (game.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return 0, game.BadMove(text, "empty move (parcellus moves: %s)", moveList)
	}
	switch f[0] {
	case "play":
		if len(f) != 2 {
			return 0, game.BadMove(text, "\"play\" takes one card, like \"play 10H\"")
		}
		c, err := parseCard(text, f[1])
		if err != nil {
			return 0, err
		}
		return Play(c), nil
	case "pass":
		if len(f) == 1 {
			return Pass, nil
		}
		if len(f) != 1+PassSize {
			return 0, game.BadMove(text, "\"pass\" takes no card (pass a turn) or exactly three (the pass of three cards), not %d", len(f)-1)
		}
		var set card.Set
		for _, w := range f[1:] {
			c, err := parseCard(text, w)
			if err != nil {
				return 0, err
			}
			if set.Has(c) {
				return 0, game.BadMove(text, "%v is named twice", c)
			}
			set = set.Add(c)
		}
		return flagThree | game.Move(set), nil
	}
	return 0, game.BadMove(text, "%q is not a parcellus move (moves: %s)", f[0], moveList)
}
