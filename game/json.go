package game

import "strconv"

// AppendJSONInts appends ns as encoding/json writes a []int: null for a
// nil list. (Views that write their own JSON, and the table protocol's
// state messages, share it.)
func AppendJSONInts(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// AppendJSONIntRows appends rows as encoding/json writes a [][]int.
func AppendJSONIntRows(b []byte, rows [][]int) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, row := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONInts(b, row)
	}
	return append(b, ']')
}
