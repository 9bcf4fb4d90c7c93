package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// stuckStore is a store that can stop answering (a database frozen, or
// cut off by a network that drops packets): while stuck, every call waits
// for its context to end. With inDoubt set, a move is stored but its
// caller is told its commit was not confirmed.
type stuckStore struct {
	*memStore
	stuck   atomic.Bool
	inDoubt atomic.Bool
}

// wait blocks a call while the store is stuck, until ctx ends.
func (s *stuckStore) wait(ctx context.Context) error {
	if !s.stuck.Load() {
		return nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		panic("stuckstore: a store call without a deadline")
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Until(deadline)):
		return context.DeadlineExceeded
	}
}

func (s *stuckStore) AppendMove(ctx context.Context, id string, m store.Move) error {
	if err := s.wait(ctx); err != nil {
		return fmt.Errorf("%w (%w)", store.ErrInDoubt, err)
	}
	if err := s.memStore.AppendMove(ctx, id, m); err != nil {
		return err
	}
	if s.inDoubt.Load() {
		return fmt.Errorf("%w (%w)", store.ErrInDoubt, context.DeadlineExceeded)
	}
	return nil
}

func (s *stuckStore) UpdateTable(ctx context.Context, t *store.Table) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.memStore.UpdateTable(ctx, t)
}

func (s *stuckStore) Table(ctx context.Context, id string) (*store.Table, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.memStore.Table(ctx, id)
}

func (s *stuckStore) Ping(ctx context.Context) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.memStore.Ping(ctx)
}

// rawWatch reads a sub's frames as type, code and seq.
type rawFrame struct {
	Type  string   `json:"type"`
	Code  string   `json:"code"`
	Seq   int      `json:"seq"`
	Legal []string `json:"legal"`
}

// frames returns the frames queued on sub, and whether it is still open.
func frames(t *testing.T, sub *Sub) ([]rawFrame, bool) {
	t.Helper()
	var out []rawFrame
	for {
		fr, open := sub.Next()
		if !open {
			return out, false
		}
		if fr == nil {
			return out, true
		}
		var f rawFrame
		if err := json.Unmarshal(fr.Data, &f); err != nil {
			t.Fatalf("frame %s: %v", fr.Data, err)
		}
		out = append(out, f)
	}
}

// lastOf returns the last frame of type typ in fs.
func lastOf(fs []rawFrame, typ string) (rawFrame, bool) {
	for i := len(fs) - 1; i >= 0; i-- {
		if fs[i].Type == typ {
			return fs[i], true
		}
	}
	return rawFrame{}, false
}

// moveMsg is a move message of the table protocol.
func moveMsg(move string) []byte {
	b, _ := json.Marshal(map[string]any{"v": protocol.Version, "type": "move", "move": move})
	return b
}

// TestStoreStops: while the store does not answer, a person's move is
// refused with unavailable within the store timeout (and, once the node
// knows, at once), nothing is made, and the node is not ready; once the
// store answers again the node is ready within about a second and the
// same move is made. A move whose commit was in doubt but stored is found
// by the next move: the table is rebuilt from the store with it.
func TestStoreStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 2 * time.Second
		st := &stuckStore{memStore: newMemStore()}
		m := NewManager(Config{Store: st, Games: games.Registry, StandIn: "random", Queue: 4096, Grace: time.Hour, StoreTimeout: timeout})
		t.Cleanup(m.Close)
		ctx := context.Background()
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		tb, sub, err := m.Attach(ctx, info.ID, j.Token, false)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		fs, _ := frames(t, sub)
		state, ok := lastOf(fs, protocol.TypeState)
		if !ok || len(state.Legal) == 0 {
			t.Fatalf("no state with a move for Ann: %+v", fs)
		}
		move, seq := state.Legal[0], state.Seq

		// The store stops answering.
		st.stuck.Store(true)
		start := time.Now()
		if err := tb.Handle(ctx, sub, moveMsg(move)); err != nil {
			t.Fatal(err)
		}
		var refused time.Duration
		for refused == 0 && time.Since(start) < 10*time.Second {
			step(100 * time.Millisecond)
			fs, _ = frames(t, sub)
			if e, ok := lastOf(fs, protocol.TypeError); ok {
				if e.Code != protocol.CodeUnavailable {
					t.Fatalf("the move was refused with %q, want %q", e.Code, protocol.CodeUnavailable)
				}
				refused = time.Since(start)
			}
			if s, ok := lastOf(fs, protocol.TypeState); ok && s.Seq != seq {
				t.Fatalf("a move was made while the store did not answer (seq %d to %d)", seq, s.Seq)
			}
		}
		if refused == 0 || refused > timeout+100*time.Millisecond {
			t.Fatalf("the move was answered %v after it was sent, want a refusal within the store timeout (%v)", refused, timeout)
		}
		if err := m.Ready(); err == nil {
			t.Errorf("the node is ready while its store does not answer")
		}
		// Known down: the next move is refused at once.
		start = time.Now()
		tb.Handle(ctx, sub, moveMsg(move))
		synctest.Wait()
		fs, _ = frames(t, sub)
		if e, ok := lastOf(fs, protocol.TypeError); !ok || e.Code != protocol.CodeUnavailable || time.Since(start) != 0 {
			t.Errorf("a move while the store is known down: %+v after %v, want unavailable at once", fs, time.Since(start))
		}

		// The store answers again: ready within about a second, and the
		// move is made.
		st.stuck.Store(false)
		back := time.Now()
		for m.Ready() != nil && time.Since(back) < 5*time.Second {
			step(100 * time.Millisecond)
		}
		if d := time.Since(back); d > probeEvery+200*time.Millisecond {
			t.Errorf("ready %v after the store answered again, want within about %v", d, probeEvery)
		}
		tb.Handle(ctx, sub, moveMsg(move))
		synctest.Wait()
		fs, _ = frames(t, sub)
		if s, ok := lastOf(fs, protocol.TypeState); !ok || s.Seq <= seq {
			t.Fatalf("after the store came back, the move was not made: %+v", fs)
		}
		made := storedMoves(t, st.memStore, info.ID)

		// A commit in doubt that was stored after all.
		cur := syncLegal(t, tb, sub)
		if len(cur.Legal) == 0 {
			t.Fatalf("Ann has no move to try a commit in doubt with: %+v", cur)
		}
		st.inDoubt.Store(true)
		tb.Handle(ctx, sub, moveMsg(cur.Legal[0]))
		synctest.Wait()
		st.inDoubt.Store(false)
		fs, _ = frames(t, sub)
		if e, ok := lastOf(fs, protocol.TypeError); !ok || e.Code != protocol.CodeUnavailable {
			t.Fatalf("a move in doubt: %+v, want refused with unavailable", fs)
		}
		if got := storedMoves(t, st.memStore, info.ID); got != made+1 {
			t.Fatalf("the store has %d moves, want %d (the one in doubt stored)", got, made+1)
		}
		// Once the store answers a ping, the next move finds the store
		// ahead of the table: the table is rebuilt, its connection told
		// to reconnect.
		step(probeEvery + 100*time.Millisecond)
		tb.Handle(ctx, sub, moveMsg(cur.Legal[0]))
		synctest.Wait()
		if _, open := frames(t, sub); open || !errors.Is(sub.Err(), ErrMoved) {
			t.Fatalf("after a move in doubt was found stored: open %v, err %v; want closed with ErrMoved", open, sub.Err())
		}
		_, sub2, err := m.Attach(ctx, info.ID, j.Token, false)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		fs, _ = frames(t, sub2)
		if s, ok := lastOf(fs, protocol.TypeState); !ok || s.Seq < made+1 {
			t.Fatalf("the rebuilt table's state: %+v, want every stored move (%d)", fs, made+1)
		}
	})
}

// syncLegal asks the table for its state and returns it.
func syncLegal(t *testing.T, tb *Table, sub *Sub) rawFrame {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"v": protocol.Version, "type": "sync"})
	if err := tb.Handle(context.Background(), sub, b); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	fs, _ := frames(t, sub)
	s, ok := lastOf(fs, protocol.TypeState)
	if !ok {
		t.Fatalf("no state after a sync: %+v", fs)
	}
	return s
}

// storedMoves returns how many moves st holds of table id.
func storedMoves(t *testing.T, st *memStore, id string) int {
	t.Helper()
	moves, err := st.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(moves)
}
