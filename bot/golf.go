package bot

import (
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
)

// golfUnknown is what a face-down card is worth on average (108 cards:
// A-Q at face value, K 0, jokers -2, a little under 5.7), less a little for
// the chance of a pair.
const golfUnknown = 5.3

func golfValue(c card.Card) float64 {
	switch c.Rank() {
	case card.King:
		return 0
	case card.RankJoker:
		return -2
	}
	return float64(c.Rank())
}

// golfColumn estimates a column's score, a face-down card (None) counted at
// golfUnknown.
func golfColumn(top, bottom card.Card) float64 {
	switch {
	case top != card.None && bottom != card.None:
		return float64(golf.ColumnScore(top, bottom))
	case top != card.None:
		return golfValue(top) + golfUnknown
	case bottom != card.None:
		return golfValue(bottom) + golfUnknown
	}
	return 2 * golfUnknown
}

func golfEstimate(l [6]card.Card) float64 {
	return golfColumn(l[0], l[3]) + golfColumn(l[1], l[4]) + golfColumn(l[2], l[5])
}

func golfFaceDown(l [6]card.Card) int {
	n := 0
	for _, c := range l {
		if c == card.None {
			n++
		}
	}
	return n
}

// golfBestSwap returns the best position for c in layout l and the
// estimated score after it, refusing a swap that would turn the last
// face-down card (going out) unless goOut allows it. p is -1 if no swap is
// allowed.
func golfBestSwap(l [6]card.Card, c card.Card, goOut func(score float64) bool) (int, float64) {
	best, bestScore := -1, 0.0
	down := golfFaceDown(l)
	for p := range 6 {
		m := l
		m[p] = c
		sc := golfEstimate(m)
		if l[p] == card.None {
			sc -= 0.3 // turning a card up is worth a little
			if down == 1 && !goOut(sc) {
				continue
			}
		}
		if best < 0 || sc < bestScore {
			best, bestScore = p, sc
		}
	}
	return best, bestScore
}

// golfHeuristic keeps low cards, makes pairs, takes a discard only when it
// helps, and goes out only when ahead.
func golfHeuristic(view any, legal []game.Move, rng *rand.Rand) game.Move {
	v := view.(*golf.View)
	if v.Phase == "reveal" {
		return legal[rng.IntN(len(legal))] // every column is as good, unseen
	}
	me := v.Layouts[v.Seat]
	cur := golfEstimate(me)
	// Going out: only when no other layout looks better than ours.
	goOut := func(score float64) bool {
		for i, l := range v.Layouts {
			if i != v.Seat && golfEstimate(l) < score+1 {
				return false
			}
		}
		return true
	}
	if !v.Holding {
		if has(legal, golf.DrawDiscard) && v.Discard != card.None {
			p, sc := golfBestSwap(me, v.Discard, goOut)
			if p >= 0 && (cur-sc >= 2.5 || !has(legal, golf.DrawStock)) {
				return golf.DrawDiscard
			}
		}
		if has(legal, golf.DrawStock) {
			return golf.DrawStock
		}
		if has(legal, golf.DrawDiscard) {
			return golf.DrawDiscard
		}
		return golf.Stop
	}
	p, sc := golfBestSwap(me, v.Drawn, goOut)
	canDiscard := has(legal, golf.Discard)
	if p >= 0 && (sc < cur || !canDiscard) {
		return golf.Swap(p)
	}
	if canDiscard {
		return golf.Discard
	}
	// A card from the discard pile must go in: least harm.
	best, bestScore := 0, 0.0
	for q := range 6 {
		m := me
		m[q] = v.Drawn
		if sc := golfEstimate(m); q == 0 || sc < bestScore {
			best, bestScore = q, sc
		}
	}
	return golf.Swap(best)
}

func has(legal []game.Move, m game.Move) bool {
	for _, x := range legal {
		if x == m {
			return true
		}
	}
	return false
}
