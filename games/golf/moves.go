package golf

import (
	"strconv"
	"strings"

	"parlour/game"
)

// The moves. Reveal and Swap carry their column or position in the low bits.
const (
	mReveal      game.Move = 0 // + column 0-2
	mDrawStock   game.Move = 3
	mDrawDiscard game.Move = 4
	mSwap        game.Move = 5 // + position 0-5
	mDiscard     game.Move = 11
	mStop        game.Move = 12
	numMoves               = 13
)

// Reveal returns the move that turns up column k.
func Reveal(k int) game.Move { return mReveal + game.Move(k) }

// Swap returns the move that puts the drawn card at position p.
func Swap(p int) game.Move { return mSwap + game.Move(p) }

// The moves without an argument.
const (
	DrawStock   = mDrawStock
	DrawDiscard = mDrawDiscard
	Discard     = mDiscard
	Stop        = mStop
)

func formatMove(m game.Move) string {
	if m < numMoves {
		return moveNames[m]
	}
	return "?"
}

// moveNames are the moves' notations, written once: a table server lists
// the legal moves' notations after every move.
var moveNames = func() (out [numMoves]string) {
	for m := range game.Move(numMoves) {
		out[m] = spellMove(m)
	}
	return out
}()

// spellMove writes the notation of the move m (one of the game's).
func spellMove(m game.Move) string {
	switch {
	case m < mDrawStock:
		return "reveal " + strconv.Itoa(int(m-mReveal))
	case m == mDrawStock:
		return "draw stock"
	case m == mDrawDiscard:
		return "draw discard"
	case m < mDiscard:
		return "swap " + strconv.Itoa(int(m-mSwap))
	case m == mDiscard:
		return "discard"
	}
	return "stop"
}

const moveList = "reveal K, draw stock, draw discard, swap P, discard, stop"

func parseMove(text string) (game.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return 0, game.BadMove(text, "empty move (golf moves: %s)", moveList)
	}
	arg := func(what string, hi int) (int, error) {
		if len(f) != 2 {
			return 0, game.BadMove(text, "%q needs one %s number (0-%d)", f[0], what, hi)
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n > hi {
			return 0, game.BadMove(text, "no %s %s (%ss are 0-%d)", what, f[1], what, hi)
		}
		return n, nil
	}
	noArg := func(m game.Move) (game.Move, error) {
		if len(f) != 1 {
			return 0, game.BadMove(text, "%q takes nothing after it", f[0])
		}
		return m, nil
	}
	switch f[0] {
	case "reveal":
		k, err := arg("column", 2)
		return Reveal(k), err
	case "swap":
		p, err := arg("position", 5)
		return Swap(p), err
	case "draw":
		if len(f) == 2 && f[1] == "stock" {
			return mDrawStock, nil
		}
		if len(f) == 2 && f[1] == "discard" {
			return mDrawDiscard, nil
		}
		return 0, game.BadMove(text, "draw from where? (\"draw stock\" or \"draw discard\")")
	case "discard":
		return noArg(mDiscard)
	case "stop":
		return noArg(mStop)
	}
	return 0, game.BadMove(text, "%q is not a golf move (moves: %s)", f[0], moveList)
}
