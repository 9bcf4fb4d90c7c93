package courtcircular

import (
	"strings"

	"parlour/card"
	"parlour/game"
)

// A move keeps its verb in the top byte; the rest holds cards. A card value
// is below 56, so a card set (for take) fits under the verb.
const (
	verbShift        = 56
	vPlay     uint64 = 1 // | card
	vSwap     uint64 = 2 // | shared card | hand card << 8 ("play C for D")
	vResign   uint64 = 3
	vLead     uint64 = 4 // | card
	vTake     uint64 = 5 // | card set
	cardsMask        = 1<<verbShift - 1
)

// Play returns the move "play C".
func Play(c card.Card) game.Move { return game.Move(vPlay<<verbShift | uint64(c)) }

// PlayFor returns the move "play C for D" (1862, last trick): play the
// shared card c, putting hand card d in its place.
func PlayFor(c, d card.Card) game.Move {
	return game.Move(vSwap<<verbShift | uint64(c) | uint64(d)<<8)
}

// Resign is the move "resign" (1860).
const Resign = game.Move(vResign << verbShift)

// LeadMove returns the move "lead C".
func LeadMove(c card.Card) game.Move { return game.Move(vLead<<verbShift | uint64(c)) }

// Take returns the move "take C C ..." (1862) for a set of cards.
func Take(cs card.Set) game.Move { return game.Move(vTake<<verbShift | uint64(cs)&cardsMask) }

func verb(m game.Move) uint64        { return uint64(m) >> verbShift }
func moveCard(m game.Move) card.Card { return card.Card(m & 0xff) }
func forCard(m game.Move) card.Card  { return card.Card(m >> 8 & 0xff) }
func takeSet(m game.Move) card.Set   { return card.Set(uint64(m) & cardsMask) }

// PlayedCard returns the card a move "play C" lays from hand, and whether m
// is one ("play C for D" is not).
func PlayedCard(m game.Move) (card.Card, bool) { return moveCard(m), verb(m) == vPlay }

// LeadCard returns the card a lead move makes the next Lead, and whether m
// is one.
func LeadCard(m game.Move) (card.Card, bool) { return moveCard(m), verb(m) == vLead }

// TakenCards returns the cards a take move (1862) takes, and whether m is
// one.
func TakenCards(m game.Move) (card.Set, bool) { return takeSet(m), verb(m) == vTake }

// canonical returns a set's cards in the notation order: ranks 2 3 ... K A,
// equal ranks S H D C.
func canonical(s card.Set) []card.Card {
	out := make([]card.Card, 0, s.Len())
	for _, r := range rankOrder {
		for _, su := range card.Suits {
			if c := card.New(r, su); s.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

var rankOrder = [13]card.Rank{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, card.Ace}

func formatMove(m game.Move) string {
	switch verb(m) {
	case vPlay:
		return "play " + moveCard(m).String()
	case vSwap:
		return "play " + moveCard(m).String() + " for " + forCard(m).String()
	case vResign:
		if m == Resign {
			return "resign"
		}
	case vLead:
		return "lead " + moveCard(m).String()
	case vTake:
		return "take " + card.Join(canonical(takeSet(m)))
	}
	return "?"
}

const moveList = "play C, play C for D, resign, lead C, take C C ..."

// parseCard reads a card of the 52-card pack.
func parseCard(text, word string) (card.Card, error) {
	c, err := card.Parse(word)
	if err != nil {
		return card.None, game.BadMove(text, "%v", err)
	}
	if c == card.Joker {
		return card.None, game.BadMove(text, "Court Circular is played without jokers")
	}
	return c, nil
}

func parseMove(text string) (game.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return 0, game.BadMove(text, "empty move (court-circular moves: %s)", moveList)
	}
	oneCard := func() (card.Card, error) {
		if len(f) != 2 {
			return card.None, game.BadMove(text, "%q needs one card, as in %q", f[0], f[0]+" 10H")
		}
		return parseCard(text, f[1])
	}
	switch f[0] {
	case "play":
		if len(f) == 4 && f[2] == "for" {
			c, err := parseCard(text, f[1])
			if err != nil {
				return 0, err
			}
			d, err := parseCard(text, f[3])
			if err != nil {
				return 0, err
			}
			if c == d {
				return 0, game.BadMove(text, "a card cannot be put in its own place")
			}
			return PlayFor(c, d), nil
		}
		if len(f) != 2 {
			return 0, game.BadMove(text, "\"play\" needs one card (\"play 10H\"), or a shared card and a hand card (\"play 10H for 2S\")")
		}
		c, err := oneCard()
		return Play(c), err
	case "lead":
		c, err := oneCard()
		return LeadMove(c), err
	case "resign":
		if len(f) != 1 {
			return 0, game.BadMove(text, "\"resign\" takes nothing after it")
		}
		return Resign, nil
	case "take":
		if len(f) == 1 {
			return 0, game.BadMove(text, "\"take\" needs the cards taken, as in \"take 4D 9S\"")
		}
		var s card.Set
		for _, w := range f[1:] {
			for _, part := range strings.Split(w, ",") {
				if part == "" {
					continue
				}
				c, err := parseCard(text, part)
				if err != nil {
					return 0, err
				}
				if s.Has(c) {
					return 0, game.BadMove(text, "%v is named twice", c)
				}
				s = s.Add(c)
			}
		}
		if s == 0 {
			return 0, game.BadMove(text, "\"take\" needs the cards taken, as in \"take 4D 9S\"")
		}
		return Take(s), nil
	}
	return 0, game.BadMove(text, "%q is not a court-circular move (moves: %s)", f[0], moveList)
}
