package tui

import (
	"strconv"
	"strings"

	"parlour/card"
	"parlour/game"
)

// words writes a live-log template (game.Narrator; the "text" of a move
// event) with game.Words: {N} as seat N's name, "you" for the viewer's
// own seat, and [C] as the card C drawn by drawCard.
func words(tmpl string, viewer int, name func(int) string, drawCard func(card.Card) string) string {
	return game.Words(tmpl, func(seat int) string {
		if seat == viewer {
			return "you"
		}
		return name(seat)
	}, drawCard)
}

// moveTemplate is the log template of a move when the game has no words
// for it: "{N}: draw stock", its cards marked as cards; "{N} has chosen"
// for a simultaneous choice the receiver may not read, "{N} moved" for
// another move it may not read.
func moveTemplate(seat int, move string, hidden, simultaneous bool) string {
	who := "{" + strconv.Itoa(seat) + "}"
	if hidden || move == "" {
		if simultaneous {
			return who + " has chosen"
		}
		return who + " moved"
	}
	fields := strings.Fields(move)
	for i, f := range fields {
		if c, err := card.Parse(f); err == nil && c.String() == f {
			fields[i] = "[" + f + "]"
		}
	}
	return who + ": " + strings.Join(fields, " ")
}

// narration is a move's log templates: full for a receiver that may read
// the move, blind for the others.
type narration struct {
	full, blind string
}

// narrate returns the log templates of move m of seat in s, before it is
// applied: the game's own words when it has them, or the move's notation.
// Which one a receiver reads follows game.MayReadMove, known once the
// move is applied.
func narrate(s game.State, seat int, m game.Move, simultaneous bool) narration {
	text := s.FormatMove(m)
	if n, ok := s.(game.Narrator); ok {
		full, blind := n.Narrate(seat, m)
		if full != "" {
			if blind == "" {
				blind = moveTemplate(seat, "", true, simultaneous)
			}
			return narration{full: full, blind: blind}
		}
	}
	return narration{full: moveTemplate(seat, text, false, simultaneous), blind: moveTemplate(seat, "", true, simultaneous)}
}
