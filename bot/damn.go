package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"parlour/card"
	"parlour/game"
	"parlour/games/damn"
)

// damnHorizon cuts Damn's playouts (the deal is the whole game, hundreds
// of moves) after this many moves; the utility judges the cards held.
var damnHorizon = 60

// damnCover returns the ranks (bit r) a set of cards can be played on.
func damnCover(cards []card.Card) uint16 {
	var cov uint16
	for _, c := range cards {
		r := c.Rank()
		cov |= 1<<(r%13+1) | 1<<((r+11)%13+1)
	}
	return cov
}

// damnHeuristic plays from hand before gambling on the support pile, keeps
// a hand that fits on many ranks, and turns a support card for free on an
// empty pile (it always fits there, and sheds a card).
func damnHeuristic(view any, legal []game.Move, rng *rand.Rand) game.Move {
	v := view.(*damn.View)
	if len(v.PickedUp) > 0 {
		return damnKeep(v.PickedUp, legal, rng)
	}
	if len(v.Pile) == 0 && has(legal, damn.Turn) {
		return damn.Turn
	}
	best, bestScore := game.Move(0), -1.0
	for _, m := range legal {
		played, ok := damn.PlayedCard(m)
		if !ok {
			continue
		}
		// A play from hand: keep the rest of the hand flexible.
		var buf [8]card.Card
		rest := buf[:0]
		for _, c := range v.Hand {
			if c != played {
				rest = append(rest, c)
			}
		}
		score := float64(bits.OnesCount16(damnCover(rest))) + rng.Float64()*0.5
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	if bestScore >= 0 {
		return best
	}
	for _, m := range []game.Move{damn.Turn, damn.Random, damn.Pickup} {
		if has(legal, m) {
			return m
		}
	}
	return legal[rng.IntN(len(legal))]
}

// damnKeep keeps the four picked-up cards that fit on the most ranks.
func damnKeep(picked []card.Card, legal []game.Move, rng *rand.Rand) game.Move {
	best, bestScore := legal[0], -1.0
	for _, m := range legal {
		set, ok := damn.KeptCards(m)
		if !ok {
			continue
		}
		score := float64(bits.OnesCount16(damnCover(set.Cards()))) + rng.Float64()*0.5
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// damnLeafViews keeps the views damnUtility reads (viewSlots).
var damnLeafViews sync.Pool

// damnUtility: the first seat out wins; later seats out are safe from
// losing, which is worth a little; among the seats still in, fewer cards
// held is better. It judges finished games and positions cut at the
// playout horizon alike.
func damnUtility(base *game.Result, leaf game.State, u []float64) {
	r := leafResult(leaf)
	defer leafResults.Put(r)
	slot := slotFrom(&damnLeafViews)
	defer damnLeafViews.Put(slot)
	v := viewOf(leaf, game.Spectator, &slot.v).(*damn.View)
	n := len(u)
	in, sum := 0, 0
	for i := range n {
		if !v.Seats[i].Out {
			in++
			sum += r.Totals[i]
		}
	}
	for i := range n {
		if v.Seats[i].Out {
			u[i] = 0.35
			continue
		}
		x := 0.0
		if in > 1 {
			others := float64(sum-r.Totals[i]) / float64(in-1)
			x = math.Tanh((others - float64(r.Totals[i])) / 6)
		}
		if len(v.Out) == 0 {
			u[i] = 0.5 + 0.5*x
		} else {
			u[i] = 0.15 + 0.15*x // racing not to be the last
		}
	}
	if len(v.Out) > 0 {
		u[v.Out[0]] = 1
	}
}
