package tractric

import (
	"math/bits"
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
)

// Determinize returns a state sampled from what seat knows. The cards of the
// other hands that seat cannot see are redealt among those hands, each hand
// keeping its size and its revealed proposal card, and no hand getting a card
// of a suit its owner is known to lack (she failed to follow it this hand).
// Proposals the other seats have made but not yet revealed are redrawn from
// their new hands, and later deals are left to a fresh shuffle.
func (s *State) Determinize(seat int, rng *rand.Rand) game.State {
	return game.Resample(s, seat, rng)
}

// DeterminizeTo makes dst, a Tractric state, what Determinize would return,
// drawing the same from rng, in dst's memory (game.Resampler).
func (s *State) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*State)
	s.CopyTo(d)
	var need [MaxPlayers]int
	var pool [52]card.Card
	np := 0
	for i := 0; i < d.n; i++ {
		if i == seat {
			continue
		}
		hidden := d.hands[i] &^ d.revealed(i)
		need[i] = hidden.Len()
		d.hands[i] &^= hidden
		for h := hidden; h != 0; h &= h - 1 {
			pool[np] = card.Card(bits.TrailingZeros64(uint64(h)))
			np++
		}
	}
	rng.Shuffle(np, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	var allowed [4]uint8 // per suit: the seats that may hold it
	var count [4]int     // per suit: cards of the pool still to place
	for su := range 4 {
		for i := 0; i < d.n; i++ {
			if i != seat && d.void[i]&(1<<su) == 0 {
				allowed[su] |= 1 << i
			}
		}
	}
	for _, c := range pool[:np] {
		count[c.Suit()]++
	}
	for _, c := range pool[:np] {
		su := c.Suit()
		count[su]--
		to := -1
		for cand := allowed[su]; cand != 0 && to < 0; {
			i := pickWeighted(cand, &need, rng)
			if i < 0 {
				break
			}
			need[i]--
			if feasible(d.n, &count, &need, &allowed) {
				to = i
			} else {
				need[i]++
				cand &^= 1 << i
			}
		}
		if to < 0 { // cannot happen for a consistent state; stay total anyway
			for i := 0; i < d.n; i++ {
				if i != seat && need[i] > 0 {
					to = i
					need[i]--
					break
				}
			}
		}
		d.hands[to] = d.hands[to].Add(c)
	}
	if d.phase == phasePropose {
		for i := 0; i < d.n; i++ {
			if i != seat && d.chosen.Has(i) {
				h := d.hands[i]
				for k := rng.IntN(h.Len()); k > 0; k-- {
					h &= h - 1
				}
				d.proposal[i] = card.Card(bits.TrailingZeros64(uint64(h)))
			}
		}
	}
	d.fixed = nil
	d.rng = game.NewRNG(rng.Uint64())
}

// pickWeighted picks a seat of cand with room left, with probability
// proportional to the room; -1 if none has room.
func pickWeighted(cand uint8, need *[MaxPlayers]int, rng *rand.Rand) int {
	total := 0
	for c := cand; c != 0; c &= c - 1 {
		total += need[bits.TrailingZeros8(c)]
	}
	if total == 0 {
		return -1
	}
	r := rng.IntN(total)
	for c := cand; c != 0; c &= c - 1 {
		i := bits.TrailingZeros8(c)
		if r < need[i] {
			return i
		}
		r -= need[i]
	}
	return -1
}

// feasible reports whether the cards still to place (count per suit) can go
// to the seats (room in need) so that each suit goes only to its allowed
// seats. By Hall's theorem it is enough that, for every set T of seats, the
// cards that only seats of T may take fit in T's room.
func feasible(n int, count *[4]int, need *[MaxPlayers]int, allowed *[4]uint8) bool {
	for t := uint8(0); t < 1<<n; t++ {
		cards, room := 0, 0
		for su := range 4 {
			if count[su] > 0 && allowed[su]&^t == 0 {
				cards += count[su]
			}
		}
		for i := 0; i < n; i++ {
			if t&(1<<i) != 0 {
				room += need[i]
			}
		}
		if cards > room {
			return false
		}
	}
	return true
}
