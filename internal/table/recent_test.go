package table

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// gateStore is a memStore whose Moves, the read of the log of the recent
// past, waits for gate to close (when set) and fails while broken.
type gateStore struct {
	*memStore
	gate   chan struct{}
	broken atomic.Bool
	reads  atomic.Int64
}

func (s *gateStore) Moves(ctx context.Context, id string) ([]store.Move, error) {
	s.reads.Add(1)
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.broken.Load() {
		return nil, errors.New("disk on fire")
	}
	return s.memStore.Moves(ctx, id)
}

func types(frames []anyFrame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, f.Type)
	}
	return out
}

// TestRecentLogComesFirst connects a spectator while the log of the
// table's recent past is slow to work out (the store's read of the moves
// waits): the table plays on meanwhile, a move and a chat message are
// made, and the late spectator gets its welcome, its state, then the log
// up to that state, then the move and the message, in order, nothing
// twice. The log's events are those a spectator connected from the start
// was told. With the store failing, the connection gets no log, and the
// frames after it come all the same. A table that is only played, with
// nobody connecting, never reads its moves back.
func TestRecentLogComesFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gs := &gateStore{memStore: newMemStore()}
		m := NewManager(Config{Store: gs, Games: games.Registry, StandIn: "random", Queue: 4096, Grace: time.Hour})
		t.Cleanup(m.Close)
		ctx := context.Background()

		seed := uint64(3)
		bots, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"random", "random"}, Options: map[string]any{"holes": 1}, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		step(time.Minute)
		if in, _ := m.Info(ctx, bots.ID); in.Status != store.StatusOver || gs.reads.Load() != 0 {
			t.Errorf("a bots' game nobody watched: %+v; the moves were read %d times", in, gs.reads.Load())
		}

		tb, ann, bob, spec := seated(t, m, 1)
		for _, mv := range []struct {
			sub  *Sub
			text string
		}{{ann, "reveal 0"}, {bob, "reveal 2"}} {
			if err := sendMove(tb, mv.sub, mv.text); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		live := drain(t, spec)
		drain(t, bob)
		var mover *Sub
		var legal []string
		for _, f := range drain(t, ann) {
			if f.Type == protocol.TypeState && len(f.Legal) > 0 {
				mover, legal = ann, f.Legal
			}
		}
		if mover == nil {
			mover = bob
			sendSync(tb, bob)
			synctest.Wait()
			for _, f := range drain(t, bob) {
				legal = f.Legal
			}
		}

		gs.gate = make(chan struct{})
		var late *Sub
		attached := make(chan struct{})
		go func() {
			defer close(attached)
			var err error
			if _, late, err = m.Attach(ctx, tb.ID(), "", true); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait() // the late spectator waits for the moves
		if err := sendMove(tb, mover, legal[0]); err != nil {
			t.Fatal(err)
		}
		sendChat(tb, ann, "meanwhile", "")
		synctest.Wait()
		live = append(live, drain(t, spec)...)
		close(gs.gate)
		<-attached
		synctest.Wait()
		got := drain(t, late)
		want := []string{protocol.TypeWelcome, protocol.TypeState, protocol.TypeLog, protocol.TypeState, protocol.TypeChat}
		if !slices.Equal(types(got), want) {
			t.Fatalf("the late spectator's frames: %v, want %v", types(got), want)
		}
		if got[1].Seq != 2 || got[2].Seq != 2 || got[3].Seq != 3 || got[4].Text != "meanwhile" {
			t.Errorf("the late spectator's frames: %q", []string{got[1].raw, got[2].raw, got[3].raw, got[4].raw})
		}
		log := got[2].Events
		if len(log) != 3 || log[0].Kind != protocol.EventStart || !log[0].At.Equal(log[1].At) {
			t.Fatalf("the log: %s", got[2].raw)
		}
		var told []protocol.Event
		for _, f := range live {
			if f.Type == protocol.TypeState {
				told = append(told, f.Events...)
			}
		}
		if len(told) != 3 || !told[0].Hidden || told[1].Hidden {
			t.Fatalf("the spectator was told %+v", told)
		}
		a, _ := json.Marshal(log[1:])
		b, _ := json.Marshal(told[:2])
		if string(a) != string(b) {
			t.Errorf("the log tells\n%s\nthe spectator was told\n%s", a, b)
		}
		if ev := got[3].Events; len(ev) != 1 || ev[0].N != 3 {
			t.Errorf("the move made meanwhile: %s", got[3].raw)
		}

		// The store fails: no log, the rest as always.
		gs.gate = nil
		gs.broken.Store(true)
		_, late2, err := m.Attach(ctx, tb.ID(), "", true)
		if err != nil {
			t.Fatal(err)
		}
		sendChat(tb, bob, "still here", "")
		synctest.Wait()
		got = drain(t, late2)
		want = []string{protocol.TypeWelcome, protocol.TypeState, protocol.TypeChat, protocol.TypeChat}
		if !slices.Equal(types(got), want) || got[3].Text != "still here" {
			t.Errorf("with the store failing, the frames %v, want %v", types(got), want)
		}
	})
}
