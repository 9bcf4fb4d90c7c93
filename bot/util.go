package bot

import (
	"math/bits"

	"parlour/card"
)

// lowBit returns the lowest card of a non-empty set.
func lowBit(s card.Set) card.Card { return card.Card(bits.TrailingZeros64(uint64(s))) }
