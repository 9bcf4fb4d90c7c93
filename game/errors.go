package game

import (
	"errors"
	"fmt"
)

// Sentinel errors; the concrete errors below match them with errors.Is.
var (
	// ErrIllegalMove marks a move that may not be made now.
	ErrIllegalMove = errors.New("illegal move")
	// ErrBadMove marks text that is not a move of the game.
	ErrBadMove = errors.New("not a move")
	// ErrBadOption marks an unknown option or a value out of range.
	ErrBadOption = errors.New("bad option")
	// ErrBadLayout marks a layout that the pack or the rules cannot hold.
	ErrBadLayout = errors.New("bad layout")
	// ErrUnknownGame marks a game name the registry does not know.
	ErrUnknownGame = errors.New("unknown game")
)

// IllegalMoveError says why a seat may not make a move now.
type IllegalMoveError struct {
	Seat   int
	Move   string // the move in notation
	Reason string
}

func (e *IllegalMoveError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrIllegalMove) true.
func (e *IllegalMoveError) Is(target error) bool { return target == ErrIllegalMove }

// Illegal returns an *IllegalMoveError for seat's move m with a formatted reason.
func Illegal(s State, seat int, m Move, format string, args ...any) error {
	return &IllegalMoveError{Seat: seat, Move: s.FormatMove(m), Reason: fmt.Sprintf(format, args...)}
}

// BadMoveError says why a text is not a move.
type BadMoveError struct {
	Text   string
	Reason string
}

func (e *BadMoveError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrBadMove) true.
func (e *BadMoveError) Is(target error) bool { return target == ErrBadMove }

// BadMove returns a *BadMoveError for text with a formatted reason.
func BadMove(text, format string, args ...any) error {
	return &BadMoveError{Text: text, Reason: fmt.Sprintf(format, args...)}
}

// NotToAct is the refusal for a seat that may not act now.
func NotToAct(s State, seat int, m Move) error {
	if s.ToAct() == 0 {
		return Illegal(s, seat, m, "the match is over")
	}
	return Illegal(s, seat, m, "seat %d may not act now (to act: %v)", seat, s.ToAct())
}

// CheckLegal is a generic validation for Apply: seat must be in ToAct and m
// among its legal moves. The reason given comes from explain when m is not
// legal (explain may return "" for a generic reason).
func CheckLegal(s State, seat int, m Move, explain func() string) error {
	if seat < 0 || seat >= s.Players() {
		return Illegal(s, seat, m, "no seat %d (seats are 0-%d)", seat, s.Players()-1)
	}
	if !s.ToAct().Has(seat) {
		return NotToAct(s, seat, m)
	}
	var buf [64]Move
	for _, x := range s.Legal(seat, buf[:0]) {
		if x == m {
			return nil
		}
	}
	reason := ""
	if explain != nil {
		reason = explain()
	}
	if reason == "" {
		reason = fmt.Sprintf("%s is not legal now", s.FormatMove(m))
	}
	return Illegal(s, seat, m, "%s", reason)
}
