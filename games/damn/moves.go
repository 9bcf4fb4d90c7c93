package damn

import (
	"math/bits"
	"strings"

	"parlour/card"
	"parlour/game"
)

// Move encoding: a play is the card's own value (1-63); turn, pickup and
// random are 64-66; a keep is mKeep plus the card.Set of the four cards.
const (
	mTurn   game.Move = 64
	mPickup game.Move = 65
	mRandom game.Move = 66
	mKeep   game.Move = 1 << 63
)

// The moves without an argument.
const (
	Turn   = mTurn
	Pickup = mPickup
	Random = mRandom
)

// Play returns the move that plays c from hand.
func Play(c card.Card) game.Move { return game.Move(c) }

// Keep returns the move that keeps the four cards cs as the new hand.
func Keep(cs ...card.Card) game.Move { return mKeep | game.Move(card.SetOf(cs...)) }

func isPlay(m game.Move) bool {
	return m > 0 && m < 64 && card.Card(m).Rank() >= card.Ace && card.Card(m).Rank() <= card.King
}

func isKeep(m game.Move) bool {
	return m&mKeep != 0 && bits.OnesCount64(uint64(m&^mKeep)) == 4 && uint64(m&^mKeep)&^uint64(packSet) == 0
}

// keepSet returns the cards of a keep move.
func keepSet(m game.Move) card.Set { return card.Set(m &^ mKeep) }

// PlayedCard returns the card a play move plays from hand, and whether m
// is one.
func PlayedCard(m game.Move) (card.Card, bool) { return card.Card(m), isPlay(m) }

// KeptCards returns the cards a keep move keeps, and whether m is one.
func KeptCards(m game.Move) (card.Set, bool) { return keepSet(m), isKeep(m) }

func formatMove(m game.Move) string {
	switch {
	case m == mTurn:
		return "turn"
	case m == mPickup:
		return "pickup"
	case m == mRandom:
		return "random"
	case isPlay(m):
		return "play " + card.Card(m).String()
	case isKeep(m):
		var b strings.Builder
		b.WriteString("keep")
		for s := uint64(keepSet(m)); s != 0; s &= s - 1 {
			b.WriteByte(' ')
			b.WriteString(card.Card(bits.TrailingZeros64(s)).String())
		}
		return b.String()
	}
	return "?"
}

const moveList = "play C, turn, pickup, random, keep C C C C"

func parseMove(text string) (game.Move, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return 0, game.BadMove(text, "empty move (damn moves: %s)", moveList)
	}
	verb := strings.ToLower(f[0])
	noArg := func(m game.Move) (game.Move, error) {
		if len(f) != 1 {
			return 0, game.BadMove(text, "%q takes nothing after it", verb)
		}
		return m, nil
	}
	switch verb {
	case "turn":
		return noArg(mTurn)
	case "pickup":
		return noArg(mPickup)
	case "pick":
		if len(f) == 2 && strings.EqualFold(f[1], "up") {
			return mPickup, nil
		}
		return 0, game.BadMove(text, "did you mean \"pickup\"?")
	case "random":
		return noArg(mRandom)
	case "play":
		if len(f) != 2 {
			return 0, game.BadMove(text, "\"play\" needs one card, like \"play 7H\"")
		}
		c, err := card.Parse(f[1])
		if err != nil {
			return 0, game.BadMove(text, "%v", err)
		}
		if c == card.Joker {
			return 0, game.BadMove(text, "Damn is played without jokers")
		}
		return Play(c), nil
	case "keep":
		if len(f) != 5 {
			return 0, game.BadMove(text, "\"keep\" needs exactly four cards, like \"keep 2S 5H 9D KC\"")
		}
		var set card.Set
		for _, w := range f[1:] {
			c, err := card.Parse(w)
			if err != nil {
				return 0, game.BadMove(text, "%v", err)
			}
			if c == card.Joker {
				return 0, game.BadMove(text, "Damn is played without jokers")
			}
			if set.Has(c) {
				return 0, game.BadMove(text, "%v is named twice", c)
			}
			set = set.Add(c)
		}
		return mKeep | game.Move(set), nil
	}
	return 0, game.BadMove(text, "%q is not a damn move (moves: %s)", f[0], moveList)
}
