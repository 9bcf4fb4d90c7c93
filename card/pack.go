package card

// Pack is an ordered list of cards, such as a freshly opened deck.
type Pack []Card

// Ranked returns one card of each of the given ranks in each suit, suit by
// suit (S H D C), ranks in the order given.
func Ranked(ranks ...Rank) Pack {
	p := make(Pack, 0, 4*len(ranks))
	for _, s := range Suits {
		for _, r := range ranks {
			p = append(p, New(r, s))
		}
	}
	return p
}

// Pack24 is the 24-card pack of Parcellus: 9 10 J Q K A in each suit.
func Pack24() Pack { return Ranked(Nine, Ten, Jack, Queen, King, Ace) }

// Pack36 is the 36-card pack of Tractric: 6 to 10, J Q K A in each suit.
func Pack36() Pack { return Ranked(Six, Seven, Eight, Nine, Ten, Jack, Queen, King, Ace) }

// Pack52 is the standard 52-card pack.
func Pack52() Pack {
	return Ranked(Ace, Two, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King)
}

// Pack108 is two standard packs and their four jokers, as Golf uses.
func Pack108() Pack {
	p := append(Pack52(), Pack52()...)
	return append(p, Joker, Joker, Joker, Joker)
}

// Counts is how many of each card a pile holds, indexed by card value.
type Counts [64]uint8

// Count tallies cards.
func Count(cards ...[]Card) Counts {
	var c Counts
	for _, cs := range cards {
		for _, x := range cs {
			c[x]++
		}
	}
	return c
}

// Total returns the number of cards counted.
func (c *Counts) Total() int {
	n := 0
	for _, x := range c {
		n += int(x)
	}
	return n
}

// Set is a set of distinct cards as a bit mask over card values.
type Set uint64

// SetOf returns the set of the given cards.
func SetOf(cards ...Card) Set {
	var s Set
	for _, c := range cards {
		s |= 1 << c
	}
	return s
}

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// Add returns the set with c added.
func (s Set) Add(c Card) Set { return s | 1<<c }

// Remove returns the set without c.
func (s Set) Remove(c Card) Set { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s Set) Len() int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// Cards returns the set's cards in ascending card value (rank, then suit S H D C).
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for c := Card(0); c < 64; c++ {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}
