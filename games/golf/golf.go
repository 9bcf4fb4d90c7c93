// Package golf implements six-card Golf with two packs and jokers, for 2 to
// 8 players over a match of holes (nine by default). The rules as played
// here, rulings included, are in rules.txt (Game.Rules).
//
// Move notation: "reveal K" (turn up column K, 0-2, at the start of a hole,
// all seats at once), "draw stock", "draw discard", "swap P" (put the drawn
// card at position P, 0-5: top row 0 1 2, bottom row 3 4 5), "discard"
// (throw away a card drawn from the stock), "stop" (final play: draw nothing).
//
// Layout keys for scripts: "layouts" (6 cards per seat), "discard" (the card
// turned up to start the discard pile), "stock" (top first, may be partial).
package golf

import (
	_ "embed"

	"parlour/card"
	"parlour/game"
)

//go:embed rules.txt
var rulesText string

// MaxPlayers is the largest table Golf supports.
const MaxPlayers = 8

// Game is the Golf rule set. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "golf".
func (Game) Name() string { return "golf" }

// Title returns "Golf".
func (Game) Title() string { return "Golf" }

// Summary describes the game in one sentence.
func (Game) Summary() string {
	return "Six-card Golf with two packs and jokers: swap and pair your way to the lowest score over nine holes."
}

// Rules returns the rules as implemented.
func (Game) Rules() string { return rulesText }

// Players returns 2 and 8.
func (Game) Players() (int, int) { return 2, MaxPlayers }

// Options returns players (2-8, default 4), holes (1-99, default 9) and
// target (0-9999, default 0: off), a points total that ends the match early.
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players", Default: 4, Min: 2, Max: MaxPlayers},
		{Name: "holes", Doc: "holes (deals) in the match", Default: 9, Min: 1, Max: 99},
		{Name: "target", Doc: "end the match after the hole in which a total reaches this many points (0: off)", Default: 0, Min: 0, Max: 9999},
	}
}

// Info reports that the lowest total wins, over several holes.
func (Game) Info() game.Info { return game.Info{LowWins: true, Deal: "hole", Deals: "holes"} }

// Card values: A=1, 2-10 face value, J=11, Q=12, K=0, joker -2.
func value(c card.Card) int {
	switch r := c.Rank(); {
	case r == card.King:
		return 0
	case r == card.RankJoker:
		return -2
	default:
		return int(r)
	}
}

// ColumnScore scores one column of two cards: two jokers -4; equal rank and
// the same suit -1; equal rank 0; otherwise the sum of the card values.
func ColumnScore(top, bottom card.Card) int {
	switch {
	case top == card.Joker && bottom == card.Joker:
		return -4
	case top == bottom:
		return -1
	case top.Rank() == bottom.Rank():
		return 0
	}
	return value(top) + value(bottom)
}

// LayoutScore scores a whole layout of six cards (columns k and k+3).
func LayoutScore(l [6]card.Card) int {
	return ColumnScore(l[0], l[3]) + ColumnScore(l[1], l[4]) + ColumnScore(l[2], l[5])
}
