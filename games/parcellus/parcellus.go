// Package parcellus implements Parcellus (Matthew Shields, 2008) for exactly
// three players with the 24-card pack (9 10 J Q K A in each suit): a pass of
// three cards, then six parcels a deal built by the next higher rank of the
// same colour, played as a match to 30 points. The rules as played here,
// rulings included, are in rules.txt (Game.Rules).
//
// Move notation: "pass C C C" (the three cards passed at the start of a
// deal, all seats at once; canonical order lowest rank first in the order
// 9 10 J Q K A, equal ranks S H D C), "play C" (add C to the parcel),
// "pass" (pass a turn).
//
// Layout keys for scripts: "hands" (3 lists of 6 cards, by seat, any entry
// may be null) and "common" (up to 6 cards, top first).
package parcellus

import (
	_ "embed"

	"parlour/card"
	"parlour/game"
)

//go:embed rules.txt
var rulesText string

// Players is the number of players: Parcellus is for exactly three.
const Players = 3

// DefaultTarget is the match target: the match ends after a deal in which
// somebody has reached it with the strictly highest total.
const DefaultTarget = 30

// Bonus is the points for capturing the most parcels in a deal, split
// equally among tied players.
const Bonus = 6

// HandSize is the number of cards dealt to each player and to the common deck.
const HandSize = 6

// PassSize is the number of cards each player passes.
const PassSize = 3

// Game is the Parcellus rule set. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "parcellus".
func (Game) Name() string { return "parcellus" }

// Title returns "Parcellus".
func (Game) Title() string { return "Parcellus" }

// Summary describes the game in one sentence.
func (Game) Summary() string {
	return "Three players pass three cards, then build and capture parcels of rising same-colour cards from a 24-card pack, to 30 points."
}

// Rules returns the rules as implemented.
func (Game) Rules() string { return rulesText }

// Players returns 3 and 3.
func (Game) Players() (int, int) { return Players, Players }

// Info reports that the highest total wins, over several deals.
func (Game) Info() game.Info { return game.Info{Deal: "deal", Deals: "deals"} }

// Options returns players (always 3) and target (1-999, default 30).
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players", Default: Players, Min: Players, Max: Players},
		{Name: "target", Doc: "points that end the match", Default: DefaultTarget, Min: 1, Max: 999},
	}
}

// jackOfHearts is the card worth three points.
var jackOfHearts = card.New(card.Jack, card.Hearts)

// Value returns the points a captured card is worth: 3 for the J♥, 1 otherwise.
func Value(c card.Card) int {
	if c == jackOfHearts {
		return 3
	}
	return 1
}

// order lists the pack in Parcellus order: ranks 9 10 J Q K A, equal
// ranks S H D C. It is the order hands and passes are written in.
var order [24]card.Card

// inPack is the set of the 24 cards.
var inPack card.Set

// next[c] is the set of cards that may go on c: the next rank up (A wraps
// to 9) in either suit of c's colour.
var next [64]card.Set

// ranks in Parcellus order.
var ranks = [6]card.Rank{card.Nine, card.Ten, card.Jack, card.Queen, card.King, card.Ace}

func init() {
	i := 0
	for _, r := range ranks {
		for _, s := range card.Suits {
			order[i] = card.New(r, s)
			inPack = inPack.Add(order[i])
			i++
		}
	}
	for ri, r := range ranks {
		up := ranks[(ri+1)%len(ranks)]
		for _, s := range card.Suits {
			for _, t := range card.Suits {
				if s.Colour() == t.Colour() {
					next[card.New(r, s)] = next[card.New(r, s)].Add(card.New(up, t))
				}
			}
		}
	}
}

// Follows reports whether c may be added to a parcel whose top card is top:
// c is the next rank up (9 10 J Q K A, then 9 again) and of the same colour.
func Follows(top, c card.Card) bool { return next[top].Has(c) }

// NextRank returns the rank that must follow r in a parcel.
func NextRank(r card.Rank) card.Rank {
	for i, x := range ranks {
		if x == r {
			return ranks[(i+1)%len(ranks)]
		}
	}
	return 0
}

// Cards returns the cards of a set in Parcellus order.
func Cards(s card.Set) []card.Card {
	out := make([]card.Card, 0, s.Len())
	for _, c := range order {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// DealScores scores one deal from each seat's card points and parcels: the
// card points plus the bonus of 6 for the most parcels, split equally among
// the seats tied for the most.
func DealScores(points, parcels [Players]int) [Players]int {
	best := 0
	for _, p := range parcels {
		best = max(best, p)
	}
	tied := 0
	for _, p := range parcels {
		if p == best {
			tied++
		}
	}
	var out [Players]int
	for i := range out {
		out[i] = points[i]
		if parcels[i] == best {
			out[i] += Bonus / tied
		}
	}
	return out
}
