package store_test

import (
	"context"
	"path/filepath"
	"runtime/metrics"
	"testing"
	"time"

	"parlour/internal/store"
)

// goroutinesCreated returns how many goroutines the process has started.
func goroutinesCreated(tb testing.TB) uint64 {
	tb.Helper()
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		tb.Fatalf("the runtime has no %s", s[0].Name)
	}
	return s[0].Value.Uint64()
}

// TestWriterStartsNoGoroutines checks that SQLite's writer starts no
// goroutine for a commit: every move of a node waits on it, and a
// goroutine started for each commit (database/sql's watch of a
// transaction's context, the driver's of a statement's) is work for the
// scheduler and the collector on that one path.
func TestWriterStartsNoGoroutines(t *testing.T) {
	s, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateTable(ctx, &store.Table{ID: "t", Game: "golf", Status: store.StatusPlaying}); err != nil {
		t.Fatal(err)
	}
	// Moves with a deadline, as a table stores them; one at a time, so
	// each is a commit of its own.
	const moves = 200
	before := goroutinesCreated(t)
	for n := range moves {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := s.AppendMove(ctx, "t", store.Move{N: n, Seat: n % 4, Text: "draw stock"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	if started := goroutinesCreated(t) - before; started > moves/10 {
		t.Errorf("%d commits started %d goroutines, want at most %d", moves, started, moves/10)
	}
	got, err := s.Moves(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != moves {
		t.Errorf("%d moves stored, want %d", len(got), moves)
	}
}
