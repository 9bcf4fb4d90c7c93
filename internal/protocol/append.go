package protocol

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"parlour/game"
)

// A table server encodes a state message for each seat after every move;
// with encoding/json's reflection that was about 8% of a busy node's
// processor time (profiled at 10,000 tables). AppendState writes the same
// bytes by hand.

// jsonAppender is a view that appends its own JSON, the bytes
// encoding/json would write for it (golf.View does).
type jsonAppender interface {
	AppendJSON(b []byte) []byte
}

// AppendState appends msg as json.Marshal writes it. The view is
// appended by its AppendJSON method when it has one, else by
// encoding/json. The error is encoding/json's for a view it cannot
// encode, or for a time it cannot write (a year past 9999); dst is then
// returned as it was.
func AppendState(dst []byte, msg *State) ([]byte, error) {
	b := dst
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(msg.V), 10)
	b = append(b, `,"type":`...)
	b = appendString(b, msg.Type)
	b = append(b, `,"table":`...)
	b = appendString(b, msg.Table)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(msg.Seat), 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(msg.Seq), 10)
	b = append(b, `,"status":`...)
	b = appendString(b, msg.Status)
	b = append(b, `,"to_act":`...)
	b = game.AppendJSONInts(b, msg.ToAct)
	b = append(b, `,"legal":`...)
	b = game.AppendJSONList(b, msg.Legal, func(b []byte, s *string) []byte { return appendString(b, *s) })
	b = append(b, `,"view":`...)
	if v, ok := msg.View.(jsonAppender); ok {
		b = v.AppendJSON(b)
	} else {
		data, err := json.Marshal(msg.View)
		if err != nil {
			return dst, err
		}
		b = append(b, data...)
	}
	b = append(b, `,"result":{"deal":`...)
	r := &msg.Result
	b = strconv.AppendInt(b, int64(r.Deal), 10)
	b = append(b, `,"deal_scores":`...)
	b = game.AppendJSONIntRows(b, r.DealScores)
	b = append(b, `,"totals":`...)
	b = game.AppendJSONInts(b, r.Totals)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, r.Over)
	b = append(b, `,"winners":`...)
	b = game.AppendJSONInts(b, r.Winners)
	b = append(b, `},"seats":`...)
	b = game.AppendJSONList(b, msg.Seats, appendSeat)
	b = append(b, `,"clocks":`...)
	b = game.AppendJSONList(b, msg.Clocks, func(b []byte, c *Clock) []byte {
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(c.Seat), 10)
		b = append(b, `,"remaining_ms":`...)
		b = strconv.AppendInt(b, c.RemainingMS, 10)
		return append(b, '}')
	})
	b = append(b, `,"events":`...)
	var err error
	b = game.AppendJSONList(b, msg.Events, func(b []byte, e *Event) []byte {
		if err != nil {
			return b
		}
		b, err = appendEvent(b, e)
		return b
	})
	if err != nil {
		return dst, err
	}
	return append(b, '}'), nil
}

// appendSeat appends a SeatInfo.
func appendSeat(b []byte, s *SeatInfo) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"kind":`...)
	b = appendString(b, s.Kind)
	if s.Bot != "" {
		b = append(b, `,"bot":`...)
		b = appendString(b, s.Bot)
	}
	if s.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, s.Name)
	}
	b = append(b, `,"state":`...)
	b = appendString(b, s.State)
	if s.Level != "" {
		b = append(b, `,"level":`...)
		b = appendString(b, s.Level)
	}
	return append(b, '}')
}

// appendEvent appends an Event; the error is for a time RFC 3339 cannot
// write, which encoding/json refuses too.
func appendEvent(b []byte, e *Event) ([]byte, error) {
	b = append(b, `{"kind":`...)
	b = appendString(b, e.Kind)
	if e.N != 0 {
		b = append(b, `,"n":`...)
		b = strconv.AppendInt(b, int64(e.N), 10)
	}
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	if e.Move != "" {
		b = append(b, `,"move":`...)
		b = appendString(b, e.Move)
	}
	if e.Hidden {
		b = append(b, `,"hidden":true`...)
	}
	if e.Text != "" {
		b = append(b, `,"text":`...)
		b = appendString(b, e.Text)
	}
	if e.Deal != 0 {
		b = append(b, `,"deal":`...)
		b = strconv.AppendInt(b, int64(e.Deal), 10)
	}
	if len(e.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = game.AppendJSONInts(b, e.Scores)
	}
	if e.By != "" {
		b = append(b, `,"by":`...)
		b = appendString(b, e.By)
	}
	b = append(b, `,"at":"`...)
	b, err := e.At.AppendText(b) // what MarshalJSON quotes
	if err != nil {
		return b, err
	}
	return append(b, `"}`...), nil
}

// appendString appends s as a JSON string, as encoding/json writes it:
// quotes, backslashes and control characters escaped, and <, >, &, U+2028
// and U+2029 too; invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
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
