package bot

import (
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
	cc "parlour/games/courtcircular"
)

// courtStrength orders cards as the edition does: in 1860 every Heart above
// every other card, then rank (Ace high), then D C S; in 1862 rank first,
// then H D C S.
func courtStrength(e62 bool, c card.Card) int {
	if c == card.None {
		return 0
	}
	hi := int(c.Rank())
	if c.Rank() == card.Ace {
		hi = 14
	}
	s := hi*4 + [4]int{0, 3, 2, 1}[c.Suit()]
	if !e62 && c.Suit() == card.Hearts {
		s += 64
	}
	return s
}

// courtKey packs a line into a number that compares as the rules rank
// lines.
func courtKey(e62 bool, l cc.Line) int {
	k := l.Class<<12 | int(l.Kind)<<9 | courtStrength(e62, l.Best)
	if l.Long {
		k |= 1 << 8
	}
	return k
}

func courtLine(e62 bool, edition string, own []card.Card, lead card.Card) int {
	return courtKey(e62, cc.BestLine(edition, own, lead))
}

// courtPotential returns the best line seat can still make: its played
// cards, the card c, and the best choice of k more from rest.
func courtPotential(e62 bool, edition string, played []card.Card, c card.Card, rest card.Set, k int, lead card.Card) int {
	var buf [3]card.Card
	own := append(buf[:0], played...)
	if c != card.None {
		own = append(own, c)
	}
	if k <= 0 || rest == 0 {
		return courtLine(e62, edition, own, lead)
	}
	best := -1
	for x := rest; x != 0; x &= x - 1 {
		d := lowBit(x)
		v := courtPotential(e62, edition, own, d, x&(x-1), k-1, lead)
		best = max(best, v)
	}
	return best
}

// courtMarks is what a card is worth to whoever wins it face up (1860).
func courtMarks(c card.Card) int {
	m := 2
	if c.Suit() == card.Hearts {
		m++
	}
	if r := c.Rank(); r >= card.Jack && r <= card.King {
		m++
	}
	return m
}

// courtHeuristic builds the best Line its hand allows, resigns a trick it
// cannot win any more, and chooses the Lead that suits its hand.
func courtHeuristic(view any, legal []game.Move, rng *rand.Rand) game.Move {
	v := view.(*cc.View)
	e62 := v.Edition == cc.Edition1862
	hand := card.SetOf(v.Hand...)
	switch v.Phase {
	case "lead":
		return courtLead(v, e62, hand, legal)
	case "take":
		return courtTake(legal)
	}
	mine := v.Played[v.Seat]
	left := max(0, 3-len(mine)-1) // cards still to play after this one
	left = min(left, hand.Len()-1)
	// The best line any rival has already made (it can only get better).
	rival := -1
	resigned := game.SeatsOf(v.Resigned...)
	for p, own := range v.Played {
		if p == v.Seat || resigned.Has(p) || len(own) == 0 {
			continue
		}
		clean := own[:0:0]
		for _, c := range own {
			if c != card.None {
				clean = append(clean, c)
			}
		}
		rival = max(rival, courtLine(e62, v.Edition, clean, v.Lead))
	}
	best, bestScore := game.Move(0), -1
	for _, m := range legal {
		if m == cc.Resign {
			continue
		}
		c, ok := courtPlayCard(m, hand)
		if !ok {
			continue
		}
		score := courtPotential(e62, v.Edition, mine, c, hand.Remove(c), left, v.Lead)
		// Among equal lines, give away the card worth least.
		score = score*8 - courtMarks(c)
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	if has(legal, cc.Resign) && rival >= 0 && bestScore >= 0 {
		mineBest := (bestScore + 4) / 8 // undo the marks tie-break (marks are 2-4)
		if mineBest>>8 < rival>>8 {
			return cc.Resign
		}
	}
	if bestScore < 0 {
		return legal[rng.IntN(len(legal))]
	}
	return best
}

// courtPlayCard returns the card a play move lays from hand.
func courtPlayCard(m game.Move, hand card.Set) (card.Card, bool) {
	c, ok := cc.PlayedCard(m)
	return c, ok && hand.Has(c)
}

// courtLead chooses the Lead that makes the best line with its hand, while
// keeping the cards worth most for itself.
func courtLead(v *cc.View, e62 bool, hand card.Set, legal []game.Move) game.Move {
	best, bestScore := legal[0], -1<<30
	k := min(3, hand.Len())
	for _, m := range legal {
		c, ok := cc.LeadCard(m)
		if !ok {
			continue
		}
		score := courtPotential(e62, v.Edition, nil, card.None, hand, k, c)>>8*16 - courtMarks(c)
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// courtTake (1862) takes the cards worth most: Aces and court cards first,
// then high cards.
func courtTake(legal []game.Move) game.Move {
	best, bestScore := legal[0], -1
	for _, m := range legal {
		set, _ := cc.TakenCards(m)
		score := 0
		for _, c := range set.Cards() {
			score += courtStrength(true, c)
			if r := c.Rank(); r == card.Ace || r >= card.Jack {
				score += 100
			}
		}
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// courtUtility is ScoreUtility on the marks (high wins) for the 1860 game;
// in 1862 the deal's points count the same way.
var courtUtility = ScoreUtility(8)
