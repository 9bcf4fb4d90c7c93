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
