package protocol

import (
	"encoding/json"
	"strconv"

	"parlour/internal/jsonw"
)

// A table server encodes a state message for each seat after every move,
// so AppendState writes it by hand rather than through encoding/json's
// reflection (docs/perf/README.md).

// jsonAppender is a view that appends its own JSON, the bytes
// encoding/json would write for it (the table's view of a state that is a
// game.ViewAppender).
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
	b = jsonw.AppendString(b, msg.Type)
	b = append(b, `,"table":`...)
	b = jsonw.AppendString(b, msg.Table)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(msg.Seat), 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(msg.Seq), 10)
	b = append(b, `,"status":`...)
	b = jsonw.AppendString(b, msg.Status)
	b = append(b, `,"to_act":`...)
	b = jsonw.AppendInts(b, msg.ToAct)
	b = append(b, `,"legal":`...)
	b = jsonw.AppendList(b, msg.Legal, func(b []byte, s *string) []byte { return jsonw.AppendString(b, *s) })
	b = append(b, `,"view":`...)
	if v, ok := msg.View.(jsonAppender); ok {
		b = v.AppendJSON(b)
	} else {
		view, err := json.Marshal(msg.View)
		if err != nil {
			return dst, err
		}
		b = append(b, view...)
	}
	b = append(b, `,"result":{"deal":`...)
	r := &msg.Result
	b = strconv.AppendInt(b, int64(r.Deal), 10)
	b = append(b, `,"deal_scores":`...)
	b = jsonw.AppendIntRows(b, r.DealScores)
	b = append(b, `,"totals":`...)
	b = jsonw.AppendInts(b, r.Totals)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, r.Over)
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, r.Winners)
	b = append(b, `},"seats":`...)
	b = jsonw.AppendList(b, msg.Seats, appendSeat)
	b = append(b, `,"clocks":`...)
	b = jsonw.AppendList(b, msg.Clocks, func(b []byte, c *Clock) []byte {
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(c.Seat), 10)
		b = append(b, `,"remaining_ms":`...)
		b = strconv.AppendInt(b, c.RemainingMS, 10)
		return append(b, '}')
	})
	b = append(b, `,"events":`...)
	var err error
	b = jsonw.AppendList(b, msg.Events, func(b []byte, e *Event) []byte {
		if err != nil {
			return b
		}
		b, err = appendEvent(b, e)
		return b
	})
	if err != nil {
		return dst, err
	}
	if d := msg.DealEnd; d != nil {
		b = append(b, `,"deal_end":{"deal":`...)
		b = strconv.AppendInt(b, int64(d.Deal), 10)
		b = append(b, `,"scores":`...)
		b = jsonw.AppendInts(b, d.Scores)
		b = append(b, `,"totals":`...)
		b = jsonw.AppendInts(b, d.Totals)
		b = append(b, `,"view":`...)
		view, err := json.Marshal(d.View) // checked and compacted, as encoding/json does
		if err != nil {
			return dst, err
		}
		b = append(b, view...)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// appendSeat appends a SeatInfo.
func appendSeat(b []byte, s *SeatInfo) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"kind":`...)
	b = jsonw.AppendString(b, s.Kind)
	if s.Bot != "" {
		b = append(b, `,"bot":`...)
		b = jsonw.AppendString(b, s.Bot)
	}
	if s.Name != "" {
		b = append(b, `,"name":`...)
		b = jsonw.AppendString(b, s.Name)
	}
	b = append(b, `,"state":`...)
	b = jsonw.AppendString(b, s.State)
	if s.Level != "" {
		b = append(b, `,"level":`...)
		b = jsonw.AppendString(b, s.Level)
	}
	return append(b, '}')
}

// appendEvent appends an Event; the error is for a time RFC 3339 cannot
// write, which encoding/json refuses too.
func appendEvent(b []byte, e *Event) ([]byte, error) {
	b = append(b, `{"kind":`...)
	b = jsonw.AppendString(b, e.Kind)
	if e.N != 0 {
		b = append(b, `,"n":`...)
		b = strconv.AppendInt(b, int64(e.N), 10)
	}
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	if e.Move != "" {
		b = append(b, `,"move":`...)
		b = jsonw.AppendString(b, e.Move)
	}
	if e.Hidden {
		b = append(b, `,"hidden":true`...)
	}
	if e.Text != "" {
		b = append(b, `,"text":`...)
		b = jsonw.AppendString(b, e.Text)
	}
	if e.Deal != 0 {
		b = append(b, `,"deal":`...)
		b = strconv.AppendInt(b, int64(e.Deal), 10)
	}
	if len(e.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = jsonw.AppendInts(b, e.Scores)
	}
	if e.By != "" {
		b = append(b, `,"by":`...)
		b = jsonw.AppendString(b, e.By)
	}
	b = append(b, `,"at":"`...)
	b, err := e.At.AppendText(b) // what MarshalJSON quotes
	if err != nil {
		return b, err
	}
	return append(b, `"}`...), nil
}
