// Package jsonw appends JSON values to byte slices exactly as
// encoding/json writes them, with no reflection and no allocation but the
// slice's growth. The table protocol's state messages, SQLite's move log
// and the games' views that append themselves (game.ViewAppender) write
// their strings and lists with it.
package jsonw

import (
	"strconv"
	"unicode/utf8"

	"parlour/card"
)

// AppendList appends list as encoding/json writes a slice: null for a
// nil one, else its elements, each appended by elem, between brackets and
// commas.
func AppendList[T any](b []byte, list []T, elem func(b []byte, x *T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, &list[i])
	}
	return append(b, ']')
}

// AppendInts appends ns as encoding/json writes a []int.
func AppendInts(b []byte, ns []int) []byte {
	return AppendList(b, ns, appendInt)
}

func appendInt(b []byte, n *int) []byte { return strconv.AppendInt(b, int64(*n), 10) }

// AppendIntRows appends rows as encoding/json writes a [][]int.
func AppendIntRows(b []byte, rows [][]int) []byte {
	return AppendList(b, rows, func(b []byte, row *[]int) []byte { return AppendInts(b, *row) })
}

// AppendRows appends the numbers of flat, n a row (whole rows only), as
// encoding/json writes the [][]int of those rows: a game's finished
// deals' scores, kept flat, written as game.ResultRows makes them.
func AppendRows[T ~int | ~int8](b []byte, flat []T, n int) []byte {
	b = append(b, '[')
	for d := 0; d+n <= len(flat); d += n {
		if d > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for i, x := range flat[d : d+n] {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// AppendBools appends bs as encoding/json writes a []bool.
func AppendBools(b []byte, bs []bool) []byte {
	return AppendList(b, bs, appendBool)
}

func appendBool(b []byte, x *bool) []byte { return strconv.AppendBool(b, *x) }

// AppendCards appends cs as encoding/json writes a []card.Card: each card
// as its own MarshalJSON writes it (card.Card.AppendJSON).
func AppendCards(b []byte, cs []card.Card) []byte {
	return AppendList(b, cs, appendCard)
}

func appendCard(b []byte, c *card.Card) []byte { return c.AppendJSON(b) }

// AppendString appends s as a JSON string, as encoding/json writes it:
// quotes, backslashes and control characters escaped, and <, >, &, U+2028
// and U+2029 too; invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
