package game

import (
	"fmt"
	"sync"
)

// Explainer is implemented by a state that says why a move is refused.
// Apply calls Explain only for a refused move (the seat is not to act, or
// the move is not among its legal moves); "" leaves the generic reason.
type Explainer interface {
	Explain(seat int, m Move) string
}

// Guard is implemented by a state that must refuse some legal moves
// because of its fixed deals: a move whose consequences reach a fixed deal
// the rules cannot use (a Tractric grid in a deal that starts no game).
// Apply calls Guard after the legality check; an error it returns should
// match ErrBadLayout as well as ErrIllegalMove, and the state is unchanged.
type Guard interface {
	Guard(seat int, m Move) error
}

// legalBuf is the room Apply gives Legal; larger move lists (Damn's
// keep) grow it on the heap.
const legalBuf = 128

// legalBufs holds Check's buffers: Legal is an interface call, so a buffer
// on the stack would escape to the heap at every check.
var legalBufs = sync.Pool{New: func() any { return new([legalBuf]Move) }}

// Apply is the checked path of every game: seat must be in s.ToAct() and m
// among its legal moves. A refused move returns an *IllegalMoveError
// (matching ErrIllegalMove) whose reason comes from the state's Explainer,
// or a generic one, and changes nothing. A legal move is applied with
// ApplyFast.
func Apply(s State, seat int, m Move) error {
	if err := Vet(s, seat, m); err != nil {
		return err
	}
	s.ApplyFast(seat, m)
	return nil
}

// Vet is Apply's whole check without the move: Check, then the state's
// Guard. A move Vet accepts, ApplyFast may make: a caller that must store
// a move before making it (a table server) vets, stores, then applies.
func Vet(s State, seat int, m Move) error {
	if err := Check(s, seat, m); err != nil {
		return err
	}
	if g, ok := s.(Guard); ok {
		return g.Guard(seat, m)
	}
	return nil
}

// Check reports whether seat may make move m now, with Apply's refusal if
// not; it changes nothing.
func Check(s State, seat int, m Move) error {
	if seat < 0 || seat >= s.Players() {
		return Illegal(s, seat, m, "no seat %d (seats are 0-%d)", seat, s.Players()-1)
	}
	if !s.ToAct().Has(seat) {
		if reason := explain(s, seat, m); reason != "" {
			return Illegal(s, seat, m, "%s", reason)
		}
		if s.ToAct() == 0 {
			return Illegal(s, seat, m, "the match is over")
		}
		return Illegal(s, seat, m, "seat %d may not act now (to act: %v)", seat, s.ToAct())
	}
	buf := legalBufs.Get().(*[legalBuf]Move)
	found := false
	for _, x := range s.Legal(seat, buf[:0]) {
		if x == m {
			found = true
			break
		}
	}
	legalBufs.Put(buf)
	if found {
		return nil
	}
	if reason := explain(s, seat, m); reason != "" {
		return Illegal(s, seat, m, "%s", reason)
	}
	return Illegal(s, seat, m, "%s is not legal now", s.FormatMove(m))
}

func explain(s State, seat int, m Move) string {
	if e, ok := s.(Explainer); ok {
		return e.Explain(seat, m)
	}
	return ""
}

// Illegal returns an *IllegalMoveError for seat's move m with a formatted
// reason.
func Illegal(s State, seat int, m Move, format string, args ...any) error {
	return &IllegalMoveError{Seat: seat, Move: s.FormatMove(m), Reason: fmt.Sprintf(format, args...)}
}
