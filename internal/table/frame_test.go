package table

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/game"
	"parlour/games/golf"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// TestPooledFrame checks a pooled frame: the same bytes as json.Marshal
// gives, kept until every holder has released it, and only then given
// back to the pool.
func TestPooledFrame(t *testing.T) {
	tb := &Table{m: &Manager{cfg: Config{Queue: 1}}}
	msg := protocol.State{V: protocol.Version, Type: protocol.TypeState, Table: "<b>&</b>", ToAct: []int{1}, View: map[string]int{"x": 1}}
	want, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	f := tb.encodePooled(&msg)
	if string(f.Data) != string(want) {
		t.Fatalf("pooled frame %s, want %s", f.Data, want)
	}
	a, b := &Sub{}, &Sub{}
	tb.send(a, f)
	tb.send(b, f)
	f.Release() // the table is done with it: the two queues still hold it
	if f.Data == nil || string(f.Data) != string(want) {
		t.Fatal("a frame in two queues was given back after the table released it")
	}
	next(t, a).Release()
	if f.Data == nil {
		t.Fatal("a frame still in one queue was given back")
	}
	next(t, b).Release()
	if f.Data != nil || f.refs.Load() != 0 {
		t.Error("a frame every holder released was not given back")
	}

	// A frame not pooled is never touched.
	p := tb.encode(msg)
	p.Release()
	if string(p.Data) != string(want) {
		t.Error("Release changed a frame not pooled")
	}
}

// next takes sub's next frame, which must be queued.
func next(t *testing.T, sub *Sub) *Frame {
	t.Helper()
	f, _ := sub.Next()
	if f == nil {
		t.Fatal("no frame queued")
	}
	return f
}

// TestQueueGivesBackABurst checks that a sub's queue keeps the room of a
// few frames once emptied, and gives back what a burst made it grow to.
func TestQueueGivesBackABurst(t *testing.T) {
	s := &Sub{}
	for range 3 {
		s.push(&Frame{})
	}
	for range 3 {
		next(t, s)
	}
	if f, open := s.Next(); f != nil || !open || cap(s.queue) == 0 || s.head != 0 {
		t.Fatalf("an emptied queue: frame %v, open %v, room %d, head %d", f, open, cap(s.queue), s.head)
	}
	for range maxKeptQueue + 1 {
		s.push(&Frame{})
	}
	for s.queued() > 0 {
		next(t, s)
	}
	s.Next()
	if cap(s.queue) != 0 {
		t.Errorf("a queue emptied after a burst keeps room for %d frames", cap(s.queue))
	}
	s.push(&Frame{})
	s.shut()
	if f, open := s.Next(); f == nil || !open {
		t.Error("a frame queued before the end was not given")
	}
	if f, open := s.Next(); f != nil || open {
		t.Error("an ended, emptied queue is still open")
	}
}

// TestStateViewIsTheGames checks that a state message whose view the
// game writes itself (golf.State.AppendView, through stateView) encodes
// as the message with the game's View does, and lists the legal moves as
// game.LegalText does, for every seat and a spectator, after every move
// of a random match.
func TestStateViewIsTheGames(t *testing.T) {
	o, err := game.Resolve(golf.Game{}, map[string]any{"players": 3, "holes": 2})
	if err != nil {
		t.Fatal(err)
	}
	st, err := golf.Game{}.New(o, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{m: &Manager{}, id: "t1", st: st, status: store.StatusPlaying}
	if _, ok := tb.viewFor(0, new(stateView)).(*stateView); !ok {
		t.Fatal("golf's state does not write its own views")
	}
	rng := rand.New(rand.NewPCG(7, 1))
	var buf []game.Move
	sc := &scratch{seats: tb.seatInfos()} // used again for every message, as a broadcast does
	for tb.moves = 0; st.ToAct() != 0; tb.moves++ {
		for n := game.Spectator; n < 3; n++ {
			tb.fillState(sc, n, nil)
			reused, err := protocol.AppendState(nil, &sc.state)
			if err != nil {
				t.Fatal(err)
			}
			msg := freshState(tb, n)
			if want := game.LegalText(st, n); n >= 0 && !slices.Equal(msg.Legal, want) {
				t.Fatalf("move %d, seat %d: legal %q, want %q", tb.moves, n, msg.Legal, want)
			}
			got, err := protocol.AppendState(nil, &msg)
			if err != nil {
				t.Fatal(err)
			}
			msg.View = st.View(n)
			want, err := json.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) || string(reused) != string(want) {
				t.Fatalf("move %d, seat %d:\n got %s\nreused %s\nwant %s", tb.moves, n, got, reused, want)
			}
		}
		act := st.ToAct().List()
		seat := act[rng.IntN(len(act))]
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
}

// freshState is the state as seat n (or a spectator) sees it, filled in a
// scratch of its own, to compare with one filled in a scratch used again.
func freshState(tb *Table, n int) protocol.State {
	sc := &scratch{seats: tb.seatInfos()}
	tb.fillState(sc, n, nil)
	return sc.state
}
