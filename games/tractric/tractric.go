// Package tractric implements David Parlett's Tractric, a cross between a
// board game and a card game: win exactly the number of tricks that lets you
// put a counter on the right scorecard of a 3×3 grid, and get three in a row.
// It is played by 3 players with a 36-card pack, or by 4 in partnerships with
// the full 52-card pack. The rules as played here, rulings included, are in
// rules.txt (Game.Rules).
//
// Move notation: "propose C" (the card whose suit a seat proposes as trump,
// all seats at once), "play C" (play a card to the trick), "give S" (hand a
// trick won beyond eight to seat S).
//
// Layout keys for scripts: "hands" (12 cards per seat for 3 players, 13 for
// 4; an entry may be null), "grid" (9 values row-major, each of A 2 3 4 5 6 7
// 8 Q with Q in the middle; only in a deal that starts a new game).
package tractric

import (
	_ "embed"
	"math/bits"

	"parlour/card"
	"parlour/game"
)

//go:embed rules.txt
var rulesText string

// MaxPlayers is the largest table Tractric supports.
const MaxPlayers = 4

// Cap is the number of tricks a player may keep: a player who already has
// Cap tricks gives away every further trick she wins.
const Cap = 8

// Counters is the number of counters of each colour.
const Counters = 6

// NoTrump is the trump value of a hand played at no trump; Unset is the
// trump value before the proposals are revealed.
const (
	NoTrump = 4
	Unset   = -1
)

// Game is the Tractric rule set. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "tractric".
func (Game) Name() string { return "tractric" }

// Title returns "Tractric".
func (Game) Title() string { return "Tractric" }

// Summary describes the game in one sentence.
func (Game) Summary() string {
	return "Win exactly the right number of tricks to claim scorecards on a 3x3 grid and make three in a row."
}

// Rules returns the rules as implemented.
func (Game) Rules() string { return rulesText }

// Players returns 3 and 4.
func (Game) Players() (int, int) { return 3, MaxPlayers }

// Info reports that the most games won wins, over several hands, and
// that 4 players play in two partnerships.
func (Game) Info() game.Info { return game.Info{Deal: "hand", Deals: "hands", Sides: sides} }

// sides are the partnerships: with 4 players, seats 0 and 2 against
// seats 1 and 3 (State.colour).
var sides = map[int][]int{4: {0, 1, 0, 1}}

// Options returns players (3, or 4 in partnerships; default 3).
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players (4: two partnerships)", Default: 3, Min: 3, Max: MaxPlayers},
	}
}

// power orders ranks for trick taking: 6 (or 2) low up to A high.
func power(c card.Card) int {
	if r := c.Rank(); r != card.Ace {
		return int(r)
	}
	return 14
}

// Trump3 fixes the trump of a 3-player hand from the three proposed cards:
// no trump if any two share a rank; else the suit of two or three of them;
// else the fourth suit, the one nobody showed. It returns a suit (0-3) or
// NoTrump.
func Trump3(a, b, c card.Card) int {
	if a.Rank() == b.Rank() || a.Rank() == c.Rank() || b.Rank() == c.Rank() {
		return NoTrump
	}
	switch {
	case a.Suit() == b.Suit() || a.Suit() == c.Suit():
		return int(a.Suit())
	case b.Suit() == c.Suit():
		return int(b.Suit())
	}
	shown := 1<<a.Suit() | 1<<b.Suit() | 1<<c.Suit()
	for s := range 4 {
		if shown&(1<<s) == 0 {
			return s
		}
	}
	return NoTrump // not reached
}

// Trump4 fixes the trump of a 4-player hand from the four proposed cards:
// the suit shown three or four times, or the only suit shown twice; no trump
// for two pairs or four different suits. Ranks do not matter.
func Trump4(cards [4]card.Card) int {
	var count [4]int
	for _, c := range cards {
		count[c.Suit()]++
	}
	best, pairs := NoTrump, 0
	for s, k := range count {
		switch {
		case k >= 3:
			return s
		case k == 2:
			best = s
			pairs++
		}
	}
	if pairs == 1 {
		return best
	}
	return NoTrump
}

// The eight lines of the 3×3 grid, cells row-major.
var lines = [8][3]int8{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
	{0, 4, 8}, {2, 4, 6},
}

// lineMasks are the lines as sets of cells (bit i: cell i).
var lineMasks = func() (m [8]uint16) {
	for i, l := range lines {
		m[i] = 1<<l[0] | 1<<l[1] | 1<<l[2]
	}
	return m
}()

// valueText is the notation of a scorecard value: Q for 0, A for 1.
var valueText = [9]string{"Q", "A", "2", "3", "4", "5", "6", "7", "8"}

func bestLine(cells uint16, grid *[9]int8) int {
	best := -1
	for i, m := range lineMasks {
		if cells&m == m {
			l := lines[i]
			best = max(best, int(grid[l[0]]+grid[l[1]]+grid[l[2]]))
		}
	}
	return best
}

// LineWinner compares the colours' lines after a hand: the colour with the
// highest best line wins; -1 if nobody has a line or the best lines tie.
func LineWinner(board, grid [9]int8, colours int) int {
	var cells [MaxPlayers]uint16
	for i, b := range board {
		if b >= 0 {
			cells[b] |= 1 << i
		}
	}
	winner, best, tied := -1, -1, false
	for c := range colours {
		if bits.OnesCount16(cells[c]) < 3 {
			continue
		}
		switch v := bestLine(cells[c], &grid); {
		case v < 0:
		case v > best:
			winner, best, tied = c, v, false
		case v == best:
			tied = true
		}
	}
	if tied {
		return -1
	}
	return winner
}
