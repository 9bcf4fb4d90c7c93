package tractric

import (
	"strconv"
	"strings"

	"parlour/card"
	"parlour/game"
)

// The moves. Propose and Play carry the card value (below 64) in the low
// bits; Give carries the seat.
const (
	mPropose game.Move = 0   // + card
	mPlay    game.Move = 64  // + card
	mGive    game.Move = 128 // + seat
	numMoves           = mGive + MaxPlayers
)

// Propose returns the move that proposes c's suit as trump.
func Propose(c card.Card) game.Move { return mPropose + game.Move(c) }

// Play returns the move that plays c to the trick.
func Play(c card.Card) game.Move { return mPlay + game.Move(c) }

// Give returns the move that hands the trick just won to seat.
func Give(seat int) game.Move { return mGive + game.Move(seat) }

func isPropose(m game.Move) bool { return m < mPlay }
func isPlay(m game.Move) bool    { return m >= mPlay && m < mGive }
func isGive(m game.Move) bool    { return m >= mGive && m < numMoves }

// ProposedCard returns the card a propose move shows, and whether m is one.
func ProposedCard(m game.Move) (card.Card, bool) { return moveCard(m), isPropose(m) }

// PlayedCard returns the card a play move plays, and whether m is one.
func PlayedCard(m game.Move) (card.Card, bool) { return moveCard(m), isPlay(m) }

// GiveTo returns the seat a give move hands the trick to, and whether m is
// one.
func GiveTo(m game.Move) (int, bool) { return int(m - mGive), isGive(m) }

// moveCard returns the card of a propose or play move.
func moveCard(m game.Move) card.Card { return card.Card(m & 63) }

func formatMove(m game.Move) string {
	switch {
	case isPropose(m):
		return "propose " + moveCard(m).String()
	case isPlay(m):
		return "play " + moveCard(m).String()
	case isGive(m):
		return "give " + strconv.Itoa(int(m-mGive))
	}
	return "?"
}

const moveList = "propose C, play C, give S"

func parseMove(n int, text string) (game.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return 0, game.BadMove(text, "empty move (tractric moves: %s)", moveList)
	}
	cardArg := func() (card.Card, error) {
		if len(f) != 2 {
			return card.None, game.BadMove(text, "%q needs one card, like \"%s 10H\"", f[0], f[0])
		}
		c, err := card.Parse(f[1])
		if err != nil {
			return card.None, game.BadMove(text, "%v", err)
		}
		return c, nil
	}
	switch f[0] {
	case "propose":
		c, err := cardArg()
		return Propose(c), err
	case "play":
		c, err := cardArg()
		return Play(c), err
	case "give":
		if len(f) != 2 {
			return 0, game.BadMove(text, "\"give\" needs one seat number (0-%d)", n-1)
		}
		s, err := strconv.Atoi(f[1])
		if err != nil || s < 0 || s >= n {
			return 0, game.BadMove(text, "no seat %s (seats are 0-%d)", f[1], n-1)
		}
		return Give(s), nil
	}
	return 0, game.BadMove(text, "%q is not a tractric move (moves: %s)", f[0], moveList)
}
