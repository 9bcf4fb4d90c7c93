package gametest

import (
	"fmt"
	"math/rand/v2"

	"parlour/game"
)

// SeatOnly is a state as a program deciding for Seat may use it: ToAct,
// Players, Game, FormatMove, and Legal and View for Seat; Determinize for
// Seat is answered from Src (so that two states Seat cannot tell apart
// give the same samples). Anything else (another seat's view, moves or
// samples, Places, Result, Clone, applying a move) is a peek at the
// state: it is reported to Peek, which may fail the test or note it, and
// answered from the state all the same (ApplyFast does nothing). The
// fairness tests of the bots and of the analysis run on it.
type SeatOnly struct {
	game.State
	Seat int
	Src  game.State
	Peek func(what string)
}

// Legal returns the state's moves for seat, a peek for another seat.
func (s SeatOnly) Legal(seat int, buf []game.Move) []game.Move {
	if seat != s.Seat {
		s.Peek(fmt.Sprintf("Legal(%d)", seat))
	}
	return s.State.Legal(seat, buf)
}

// View returns the state's view for seat, a peek for another seat.
func (s SeatOnly) View(seat int) any {
	if seat != s.Seat {
		s.Peek(fmt.Sprintf("View(%d)", seat))
	}
	return s.State.View(seat)
}

// Determinize samples Src for seat, a peek for another seat.
func (s SeatOnly) Determinize(seat int, rng *rand.Rand) game.State {
	if seat != s.Seat {
		s.Peek(fmt.Sprintf("Determinize(%d)", seat))
	}
	return s.Src.Determinize(seat, rng)
}

// ApplyFast is a peek; the state is left as it is.
func (s SeatOnly) ApplyFast(int, game.Move) { s.Peek("ApplyFast") }

// Clone is a peek.
func (s SeatOnly) Clone() game.State { s.Peek("Clone"); return s.State.Clone() }

// Result is a peek.
func (s SeatOnly) Result() game.Result { s.Peek("Result"); return s.State.Result() }

// Places is a peek.
func (s SeatOnly) Places() []game.Place { s.Peek("Places"); return s.State.Places() }
