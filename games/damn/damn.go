// Package damn implements Damn, a shedding game for 2 to 4 players with one
// 52-card pack: each player plays from a hand, a blind support pile and a
// blind random pile onto one central play pile, one rank up or down, and the
// last player left holding cards is the loser. The rules as played here,
// rulings included, are in rules.txt (Game.Rules).
//
// Move notation: "play C" (play card C from hand), "turn" (turn the top card
// of the support pile), "pickup" (pick up the play pile), "random" (turn the
// top card of the random pile), "keep C C C C" (the four cards kept as the
// new hand after a random-pile pick-up of more than four cards).
//
// Layout keys for scripts: "hands", "support", "random" (4 cards each, by
// seat; piles top first) and "central" (top first, may be partial; its first
// card is the one the dealer turns to start the play pile).
package damn

import (
	_ "embed"

	"parlour/card"
	"parlour/game"
)

//go:embed rules.txt
var rulesText string

// MaxPlayers is the largest table Damn supports.
const MaxPlayers = 4

// DefaultMaxTurns is the default turn cap (option max_turns).
const DefaultMaxTurns = 2000

// Game is the Damn rule set. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "damn".
func (Game) Name() string { return "damn" }

// Title returns "Damn".
func (Game) Title() string { return "Damn" }

// Summary describes the game in one sentence.
func (Game) Summary() string {
	return "Shed your hand, your blind support pile and your blind random pile one rank up or down, or pick up the pile: the last player holding cards is the loser."
}

// Rules returns the rules as implemented.
func (Game) Rules() string { return rulesText }

// Players returns 2 and 4.
func (Game) Players() (int, int) { return 2, MaxPlayers }

// Info reports that a match is one deal (a game, as the rules call it),
// and that fewer cards held is better (the first out wins; the last
// holding cards loses).
func (Game) Info() game.Info {
	return game.Info{LowWins: true, OneDeal: true, Deal: "game", Deals: "games"}
}

// Options returns players (2-4, default 2) and max_turns (the safeguard
// turn cap, default 2000).
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players", Default: 2, Min: 2, Max: MaxPlayers},
		{Name: "max_turns", Doc: "turn cap (a safeguard, not a rule; the game then ends unresolved)", Default: DefaultMaxTurns, Min: 1, Max: 10000000},
	}
}

// Fits reports whether c may be played on top (card.None for an empty play
// pile): its rank must be exactly one step above or below top's, ranks
// turning the corner (K-A-2). Suits never matter.
func Fits(c, top card.Card) bool {
	if top == card.None {
		return true
	}
	return fitTable[top.Rank()]&(1<<c.Rank()) != 0
}

// fitTable[r] has bit q set when rank q fits on rank r.
var fitTable = func() (t [16]uint16) {
	for r := card.Ace; r <= card.King; r++ {
		up := r%13 + 1
		down := (r+11)%13 + 1
		t[r] = 1<<up | 1<<down
	}
	return
}()
