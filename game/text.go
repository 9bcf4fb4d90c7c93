package game

import (
	"slices"
	"strconv"
	"strings"
)

// ParseSeatMove reads a line "SEAT: MOVE" (the form of scripts, logs and
// tests): the seat, and the move as s.ParseMove reads it for that seat. An
// error matches ErrBadMove and names what is wrong; legality is not checked.
func ParseSeatMove(s State, line string) (seat int, m Move, err error) {
	seat, moveText, ok, err := CutSeat(line)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, BadMove(line, "not of the form \"SEAT: MOVE\"")
	}
	if seat >= s.Players() {
		return 0, 0, BadMove(line, "no seat %q (seats are 0-%d)", strconv.Itoa(seat), s.Players()-1)
	}
	m, err = s.ParseMove(seat, moveText)
	return seat, m, err
}

// CutSeat splits a line "SEAT: MOVE" into the seat and the move's text.
// A line without a colon is all move: ok is false and seat 0. A seat that
// is not a whole number from 0 is an error matching ErrBadMove.
func CutSeat(line string) (seat int, move string, ok bool, err error) {
	seatText, move, ok := strings.Cut(line, ":")
	if !ok {
		return 0, line, false, nil
	}
	seatText = strings.TrimSpace(seatText)
	seat, err = strconv.Atoi(seatText)
	if err != nil || seat < 0 {
		return 0, move, true, BadMove(line, "%q is not a seat (write \"SEAT: MOVE\", SEAT a number)", seatText)
	}
	return seat, move, true, nil
}

// FormatSeatMove returns seat's move m as the line "SEAT: MOVE" that
// ParseSeatMove reads back.
func FormatSeatMove(s State, seat int, m Move) string {
	return strconv.Itoa(seat) + ": " + s.FormatMove(m)
}

// Step reads a line "SEAT: MOVE" and applies it with Apply.
func Step(s State, line string) error {
	seat, m, err := ParseSeatMove(s, line)
	if err != nil {
		return err
	}
	return Apply(s, seat, m)
}

// LegalText returns seat's legal moves in notation, sorted by byte order
// (as a script report lists them); empty when seat may not act.
func LegalText(s State, seat int) []string {
	out, _ := AppendLegalText(nil, s, seat, nil)
	if out == nil {
		out = []string{}
	}
	return out
}

// AppendLegalText appends seat's legal moves in notation to out, sorted
// by byte order among themselves, using buf for the moves (a server lists
// them after every move, in buffers it keeps); it returns out and buf.
func AppendLegalText(out []string, s State, seat int, buf []Move) ([]string, []Move) {
	buf = s.Legal(seat, buf[:0])
	from := len(out)
	for _, m := range buf {
		out = append(out, s.FormatMove(m))
	}
	slices.Sort(out[from:])
	return out, buf
}
