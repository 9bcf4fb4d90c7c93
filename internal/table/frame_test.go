package table

import (
	"encoding/json"
	"testing"

	"parlour/internal/protocol"
)

// TestPooledFrame checks a pooled frame: the same bytes as json.Marshal
// gives, kept until every holder has released it, and only then given
// back to the pool.
func TestPooledFrame(t *testing.T) {
	tb := &Table{}
	msg := protocol.State{V: protocol.Version, Type: protocol.TypeState, Table: "<b>&</b>", ToAct: []int{1}, View: map[string]int{"x": 1}}
	want, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	f := tb.encodePooled(&msg)
	if string(f.Data) != string(want) {
		t.Fatalf("pooled frame %s, want %s", f.Data, want)
	}
	a, b := &Sub{c: make(chan *Frame, 1)}, &Sub{c: make(chan *Frame, 1)}
	tb.send(a, f)
	tb.send(b, f)
	f.Release() // the table is done with it: the two queues still hold it
	if f.Data == nil || string(f.Data) != string(want) {
		t.Fatal("a frame in two queues was given back after the table released it")
	}
	(<-a.c).Release()
	if f.Data == nil {
		t.Fatal("a frame still in one queue was given back")
	}
	(<-b.c).Release()
	if f.Data != nil || f.buf != nil {
		t.Error("a frame every holder released was not given back")
	}

	// A frame not pooled is never touched.
	p := tb.encode(msg)
	p.Release()
	if string(p.Data) != string(want) {
		t.Error("Release changed a frame not pooled")
	}
}
