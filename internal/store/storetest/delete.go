package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"parlour/internal/store"
)

// testDelete checks DeleteTable: a waiting table goes with its chat, for
// good (a reopened store does not have it); a table whose game has begun
// is refused and kept, and so is a delete under a lease the table no
// longer has.
func testDelete(t *testing.T, db Opener) {
	ctx := context.Background()
	s := db(t)
	closed := false
	defer func() {
		if !closed {
			s.Close()
		}
	}()
	gone, kept := sample("gone"), sample("kept")
	kept.Status = store.StatusPlaying
	for _, tb := range []*store.Table{gone, kept} {
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendChat(ctx, "gone", store.ChatMessage{Seat: 0, Name: "Ann", Text: "anyone?", At: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "kept", store.Move{N: 0, Text: "draw"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTable(ctx, kept); !errors.Is(err, store.ErrConflict) {
		t.Errorf("deleting a table in play: %v, want ErrConflict", err)
	}
	if err := s.DeleteTable(ctx, gone); err != nil {
		t.Fatalf("deleting a waiting table: %v", err)
	}
	if err := s.DeleteTable(ctx, gone); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting it again: %v, want ErrNotFound", err)
	}
	if _, err := s.Chat(ctx, "gone", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted table's chat: %v, want ErrNotFound", err)
	}
	if list, err := s.Tables(ctx, store.Query{Status: []string{store.StatusWaiting}}); err != nil || len(list) != 0 {
		t.Errorf("waiting tables after the delete: %d, %v; want none", len(list), err)
	}

	// A delete under a lease another node took is refused.
	leased := sample("leased")
	leased.Lease = store.Lease{Node: "a", TTL: time.Millisecond}
	if err := s.CreateTable(ctx, leased); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if _, ok, err := cluster(t, s).Acquire(ctx, "leased", "b", time.Hour); err != nil || !ok {
		t.Fatalf("b taking the table over: %v %v", ok, err)
	}
	if err := s.DeleteTable(ctx, leased); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("a stale owner's delete: %v, want ErrLeaseLost", err)
	}

	closed = true
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = db.open(t)
	if _, err := s.Table(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted table after a reopen: %v, want ErrNotFound", err)
	}
	for _, id := range []string{"kept", "leased"} {
		if _, err := s.Table(ctx, id); err != nil {
			t.Errorf("table %s after a reopen: %v", id, err)
		}
	}
	if moves, err := s.Moves(ctx, "kept"); err != nil || len(moves) != 1 {
		t.Errorf("the kept table's moves: %d, %v; want 1", len(moves), err)
	}
}
