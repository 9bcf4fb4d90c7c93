package bot

import (
	"math"
	"math/rand/v2"
	"sync"

	"parlour/card"
	"parlour/game"
	"parlour/games/tractric"
)

// tractricLines are the eight lines of the 3×3 grid, cells row-major.
var tractricLines = [8][3]int{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
	{0, 4, 8}, {2, 4, 6},
}

func tractricValue(s string) int {
	switch s {
	case "Q":
		return 0
	case "A":
		return 1
	}
	if len(s) == 1 && s[0] >= '2' && s[0] <= '8' {
		return int(s[0] - '0')
	}
	return -1
}

func tractricColour(seat, players int) int {
	if players == 4 {
		return seat % 2
	}
	return seat
}

// tractricDesire returns, for each trick count 0-8, how much colour wants
// the counter that count places: a line completed, a rival's line blocked,
// a rival's counter displaced, lines built.
func tractricDesire(board [9]int, grid [9]int, colour int) [9]float64 {
	var d [9]float64
	for cell := range 9 {
		if board[cell] == colour {
			continue // a counter already there: nothing happens
		}
		w := 0.0
		if board[cell] >= 0 {
			w += 1.5 // displace a rival
		}
		for _, l := range tractricLines {
			in := l[0] == cell || l[1] == cell || l[2] == cell
			if !in {
				continue
			}
			own, opp := 0, map[int]int{}
			for _, x := range l {
				if x == cell {
					continue
				}
				switch b := board[x]; {
				case b == colour:
					own++
				case b >= 0:
					opp[b]++
				}
			}
			if own == 2 {
				w += 20 // completes a line: wins the game
			}
			for _, k := range opp {
				if k == 2 {
					w += 6 // blocks a rival's line
				}
			}
			if len(opp) == 0 {
				w += 1 + 1.5*float64(own)
			}
		}
		if g := grid[cell]; g >= 0 && g <= 8 {
			d[g] = w
		}
	}
	return d
}

func tractricPower(c card.Card) int {
	if c.Rank() == card.Ace {
		return 14
	}
	return int(c.Rank())
}

// tractricStrength estimates the tricks a hand will take.
func tractricStrength(hand []card.Card, trump int) float64 {
	var length [4]int
	for _, c := range hand {
		length[c.Suit()]++
	}
	e := 0.0
	for _, c := range hand {
		l := length[c.Suit()]
		switch c.Rank() {
		case card.Ace:
			e += 0.9
		case card.King:
			if l >= 2 {
				e += 0.65
			} else {
				e += 0.25
			}
		case card.Queen:
			if l >= 3 {
				e += 0.35
			}
		}
		if int(c.Suit()) == trump && c.Rank() != card.Ace && c.Rank() != card.King {
			e += 0.35
		}
	}
	return e
}

type tractricBoard struct {
	board  [9]int
	grid   [9]int
	colour int
}

func tractricRead(v *tractric.View) tractricBoard {
	var b tractricBoard
	for i := range 9 {
		b.board[i] = int(v.Board[i])
		b.grid[i] = tractricValue(v.Grid[i])
	}
	b.colour = tractricColour(v.Seat, v.Players)
	return b
}

// tractricTarget picks the trick count to aim at, from what each count is
// worth and how far it is from what the hand is likely to take.
func tractricTarget(v *tractric.View, b tractricBoard, expect float64) int {
	d := tractricDesire(b.board, b.grid, b.colour)
	have := v.Tricks[v.Seat]
	left := len(v.Hand)
	if v.Proposals[v.Seat] != card.None {
		left++
	}
	best, bestScore := have, math.Inf(-1)
	for t := have; t <= min(8, have+left); t++ {
		score := d[t] - 1.2*math.Abs(float64(t)-(float64(have)+expect))
		if score > bestScore {
			best, bestScore = t, score
		}
	}
	return best
}

// tractricHeuristic aims the trick count at the scorecard it needs: it
// proposes a trump that suits the count, wins tricks while short of it and
// ducks once there, and gives surplus tricks where they hurt most.
func tractricHeuristic(view any, legal []game.Move, rng *rand.Rand) game.Move {
	v := view.(*tractric.View)
	b := tractricRead(v)
	hand := v.Hand
	if p := v.Proposals[v.Seat]; p != card.None {
		var room [32]card.Card // a hand and its proposal, not written into the view's
		hand = append(append(room[:0], hand...), p)
	}
	switch v.Phase {
	case "propose":
		return tractricPropose(v, b, hand, legal)
	case "give":
		return tractricGive(v, b, legal, rng)
	}
	trump := int(v.Trump)
	target := tractricTarget(v, b, tractricStrength(hand, trump))
	want := v.Tricks[v.Seat] < target
	// The trick so far.
	led := card.None
	if v.Trick[v.Leader] != card.None {
		led = v.Trick[v.Leader]
	}
	winner := card.None
	played := 0
	for _, c := range v.Trick {
		if c == card.None {
			continue
		}
		played++
		if winner == card.None || tractricBeats(c, winner, led, trump) {
			winner = c
		}
	}
	last := played == v.Players-1
	var low, high, lowWin, highLose game.Move
	lowP, highP, lowWinP, highLoseP := 99, -1, 99, -1
	for _, m := range legal {
		c, _ := tractric.PlayedCard(m)
		p := tractricPower(c)
		if int(c.Suit()) == trump {
			p += 20
		}
		if p < lowP {
			low, lowP = m, p
		}
		if p > highP {
			high, highP = m, p
		}
		wins := led == card.None || tractricBeats(c, winner, led, trump)
		if wins && p < lowWinP {
			lowWin, lowWinP = m, p
		}
		if !wins && p > highLoseP {
			highLose, highLoseP = m, p
		}
	}
	if led == card.None {
		// Leading: strength when tricks are wanted, weakness when not.
		if want {
			return high
		}
		return low
	}
	if want {
		if lowWinP < 99 {
			if last {
				return lowWin
			}
			if c, _ := tractric.PlayedCard(lowWin); tractricPower(c) >= 12 {
				return lowWin
			}
			return high
		}
		return low
	}
	if highLoseP >= 0 {
		return highLose
	}
	if last {
		return high // must win: spend the strongest card
	}
	return low
}

// tractricBeats reports whether c beats w in a trick led with led.
func tractricBeats(c, w, led card.Card, trump int) bool {
	ct, wt := int(c.Suit()) == trump, int(w.Suit()) == trump
	switch {
	case ct && !wt:
		return true
	case wt && !ct:
		return false
	case c.Suit() != w.Suit():
		return false
	}
	return tractricPower(c) > tractricPower(w)
}

// tractricPropose proposes the longest suit when many tricks are wanted and
// the shortest when few are.
func tractricPropose(v *tractric.View, b tractricBoard, hand []card.Card, legal []game.Move) game.Move {
	target := tractricTarget(v, b, tractricStrength(hand, tractric.NoTrump))
	var length [4]int
	for _, c := range hand {
		length[c.Suit()]++
	}
	avg := float64(len(hand)) / float64(v.Players)
	many := float64(target) > avg*0.5+tractricStrength(hand, tractric.NoTrump)*0.5
	best, bestScore := legal[0], math.Inf(-1)
	for _, m := range legal {
		c, _ := tractric.ProposedCard(m)
		l := float64(length[c.Suit()])
		score := -l
		if many {
			score = l
		}
		score -= float64(tractricPower(c)) / 100 // show a low card
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// tractricGive gives a surplus trick to the seat it helps least (or, with a
// partner, to the partner when that helps).
func tractricGive(v *tractric.View, b tractricBoard, legal []game.Move, rng *rand.Rand) game.Move {
	best, bestScore := legal[0], math.Inf(-1)
	for _, m := range legal {
		seat, _ := tractric.GiveTo(m)
		col := tractricColour(seat, v.Players)
		d := tractricDesire(b.board, b.grid, col)
		t := v.Tricks[seat]
		gain := 0.0
		if t+1 <= 8 {
			gain = d[t+1]
		}
		if t <= 8 {
			gain -= d[t]
		}
		score := -gain
		if col == b.colour {
			score = gain
		}
		score += rng.Float64() * 0.01
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// tractricLeafViews keeps the views tractricUtility reads (viewSlots).
var tractricLeafViews sync.Pool

// tractricUtility values the end of a hand: games won in it count most;
// otherwise each colour's hold on the board (lines it can still make).
func tractricUtility(base *game.Result, leaf game.State, u []float64) {
	r := leafResult(leaf)
	defer leafResults.Put(r)
	if r.Over {
		for i := range u {
			u[i] = 0
		}
		for _, w := range r.Winners {
			u[w] = 1
		}
		return
	}
	slot := slotFrom(&tractricLeafViews)
	defer tractricLeafViews.Put(slot)
	v := viewOf(leaf, 0, &slot.v).(*tractric.View)
	var board [9]int
	for i := range 9 {
		board[i] = int(v.Board[i])
	}
	n := len(u)
	colours := n
	if n == 4 {
		colours = 2
	}
	var pot [4]float64
	for c := range colours {
		for _, l := range tractricLines {
			own, opp := 0, 0
			for _, x := range l {
				switch {
				case board[x] == c:
					own++
				case board[x] >= 0:
					opp++
				}
			}
			if opp == 0 {
				pot[c] += [4]float64{0, 0.5, 2, 0}[own]
			}
		}
	}
	for i := range u {
		c := tractricColour(i, n)
		// Games won in the playout, against the mean of the other colours
		// (with partners, r.Totals shows the side's count on each seat).
		games := float64(r.Totals[i] - base.Totals[i])
		others, otherGames, k := 0.0, 0.0, 0
		for o := range colours {
			if o != c {
				others += pot[o]
				otherGames += float64(r.Totals[o] - base.Totals[o]) // seat o has colour o
				k++
			}
		}
		x := 3*(games-otherGames/float64(k)) + 0.25*(pot[c]-others/float64(k))
		u[i] = 0.5 + 0.5*math.Tanh(x)
	}
}
