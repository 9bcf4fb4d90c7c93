package bot

import (
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
	"parlour/games/parcellus"
)

var (
	parcellusPack = card.SetOf(card.Pack24()...)
	jackOfHearts  = card.New(card.Jack, card.Hearts)
	// parcellusNext[c] is the set of cards that may go on c.
	parcellusNext = func() (t [64]card.Set) {
		for _, a := range card.Pack24() {
			for _, b := range card.Pack24() {
				if parcellus.Follows(a, b) {
					t[a] = t[a].Add(b)
				}
			}
		}
		return
	}()
)

// parcellusHeuristic passes the cards that do not connect, then adds to a
// parcel when nobody else is likely to top it, keeps a parcel it owns, and
// plays the J♥ only where it is safe.
func parcellusHeuristic(view any, legal []game.Move, rng *rand.Rand) game.Move {
	v := view.(*parcellus.View)
	hand := card.SetOf(v.Hand...)
	if v.Phase == "pass" {
		return parcellusPass(hand, legal, rng)
	}
	if len(v.Parcel) == 0 {
		return legal[rng.IntN(len(legal))] // no parcel: nothing to weigh
	}
	// What this seat has seen: its hand and the table. The cards it passed
	// are in its receiver's hand.
	seen := hand
	for _, p := range v.Captured {
		seen |= card.SetOf(p.Cards...)
	}
	seen |= card.SetOf(v.Parcel...)
	passed := card.SetOf(v.Passed...)
	unseen := parcellusPack &^ seen
	oppCards := 0
	for i, n := range v.HandSizes {
		if i != v.Seat {
			oppCards += n
		}
	}
	// safe returns the chance that nobody tops a parcel whose top is c.
	safe := func(c card.Card) float64 {
		p := 1.0
		for f := parcellusNext[c] & unseen; f != 0; f &= f - 1 {
			x := lowBit(f)
			if passed.Has(x) {
				return 0
			}
			// Unseen cards lie in the other hands or the common deck.
			p *= 1 - float64(oppCards-passed.Len())/float64(max(1, unseen.Len()-passed.Len()))
		}
		return p
	}
	value := 0
	for _, c := range v.Parcel {
		value += parcellus.Value(c)
	}
	top := v.Parcel[len(v.Parcel)-1]
	owner := v.Contributor == v.Seat || (v.Contributor < 0 && v.Turner == v.Seat)
	best, bestScore := parcellus.Pass, 0.0
	if owner {
		bestScore = safe(top) * (float64(value) + 2)
	}
	for _, m := range legal {
		c, ok := parcellus.PlayedCard(m)
		if !ok {
			continue
		}
		p := safe(c)
		// Holding a card that tops c lets this seat answer a rival.
		if hand&parcellusNext[c] != 0 {
			p = p + (1-p)*0.5
		}
		score := p*(float64(value+parcellus.Value(c))+2) - 0.8 // a card spent
		if c == jackOfHearts {
			score -= (1 - p) * 4
		}
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// parcellusPass keeps the cards that chain with each other (and the J♥)
// and passes the three that connect least.
func parcellusPass(hand card.Set, legal []game.Move, rng *rand.Rand) game.Move {
	keep := func(c card.Card) float64 {
		k := 0.0
		k += 1.5 * float64((parcellusNext[c] & hand).Len())
		for x := hand; x != 0; x &= x - 1 {
			if parcellusNext[lowBit(x)].Has(c) {
				k += 1.5
			}
		}
		if c == jackOfHearts {
			k += 2
		}
		return k + rng.Float64()*0.1
	}
	var score [64]float64
	for x := hand; x != 0; x &= x - 1 {
		c := lowBit(x)
		score[c] = keep(c)
	}
	best, bestScore := legal[0], 0.0
	for i, m := range legal {
		set := card.Set(uint64(m) &^ (1 << 63))
		if cs := set.Cards(); len(cs) != 3 || set&^hand != 0 || parcellus.PassCards(cs[0], cs[1], cs[2]) != m {
			continue
		}
		s := 0.0
		for x := set; x != 0; x &= x - 1 {
			s += score[lowBit(x)]
		}
		if i == 0 || s < bestScore {
			best, bestScore = m, s
		}
	}
	return best
}
