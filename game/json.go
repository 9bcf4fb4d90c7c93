package game

import (
	"strconv"
	"unicode/utf8"

	"parlour/card"
)

// AppendJSONList appends list as encoding/json writes a slice: null for a
// nil one, else its elements, each appended by elem, between brackets and
// commas. (Views that write their own JSON, and the table protocol's state
// messages, write every list through it.)
func AppendJSONList[T any](b []byte, list []T, elem func(b []byte, x *T) []byte) []byte {
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

// AppendJSONInts appends ns as encoding/json writes a []int.
func AppendJSONInts(b []byte, ns []int) []byte {
	return AppendJSONList(b, ns, appendJSONInt)
}

func appendJSONInt(b []byte, n *int) []byte { return strconv.AppendInt(b, int64(*n), 10) }

// AppendJSONCards appends cs as encoding/json writes a []card.Card.
func AppendJSONCards(b []byte, cs []card.Card) []byte {
	return AppendJSONList(b, cs, appendJSONCard)
}

func appendJSONCard(b []byte, c *card.Card) []byte { return c.AppendJSON(b) }

// AppendJSONBools appends bs as encoding/json writes a []bool.
func AppendJSONBools(b []byte, bs []bool) []byte {
	return AppendJSONList(b, bs, appendJSONBool)
}

func appendJSONBool(b []byte, x *bool) []byte { return strconv.AppendBool(b, *x) }

// AppendJSONIntRows appends rows as encoding/json writes a [][]int.
func AppendJSONIntRows(b []byte, rows [][]int) []byte {
	return AppendJSONList(b, rows, func(b []byte, row *[]int) []byte { return AppendJSONInts(b, *row) })
}

// AppendJSONString appends s as a JSON string, as encoding/json writes it:
// quotes, backslashes and control characters escaped, and <, >, &, U+2028
// and U+2029 too; invalid UTF-8 as U+FFFD. (The table protocol's
// messages and SQLite's move log write their strings with it.)
func AppendJSONString(b []byte, s string) []byte {
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
