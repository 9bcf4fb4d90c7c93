package game

import "strconv"

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

// AppendJSONIntRows appends rows as encoding/json writes a [][]int.
func AppendJSONIntRows(b []byte, rows [][]int) []byte {
	return AppendJSONList(b, rows, func(b []byte, row *[]int) []byte { return AppendJSONInts(b, *row) })
}
