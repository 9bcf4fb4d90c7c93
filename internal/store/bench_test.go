package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"parlour/internal/store"
)

// BenchmarkAppendMoveSQLite measures storing one move, committed, and the
// goroutines started for it (goroutines/op).
func BenchmarkAppendMoveSQLite(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, &store.Table{ID: "t", Game: "golf", Status: store.StatusPlaying}); err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	started := goroutinesCreated(b)
	for b.Loop() {
		// With a deadline, as a table stores its moves.
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := s.AppendMove(ctx, "t", store.Move{N: n, Seat: n % 4, Text: "draw stock"})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(goroutinesCreated(b)-started)/float64(n), "goroutines/op")
}

// BenchmarkAppendMoveSQLiteTables measures storing moves of many tables at
// once, as a busy server does (group commit batches them).
func BenchmarkAppendMoveSQLiteTables(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var next atomic.Int64
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint("t", next.Add(1))
		if err := s.CreateTable(ctx, &store.Table{ID: id, Game: "golf", Status: store.StatusPlaying}); err != nil {
			b.Error(err)
			return
		}
		n := 0
		for pb.Next() {
			if err := s.AppendMove(ctx, id, store.Move{N: n, Seat: n % 4, Text: "draw stock"}); err != nil {
				b.Error(err)
				return
			}
			n++
		}
	})
}

// BenchmarkAppendMoveSQLite10kTables measures storing moves spread over
// 10,240 tables, as a server with ten thousand live tables does: each
// move lands in another table's part of the moves index.
func BenchmarkAppendMoveSQLite10kTables(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var next atomic.Int64
	b.SetParallelism(128)
	b.RunParallel(func(pb *testing.PB) {
		const per = 40
		g := next.Add(1)
		ids := make([]string, per)
		for i := range ids {
			ids[i] = fmt.Sprintf("%x-%d", g*7919, i)
			if err := s.CreateTable(ctx, &store.Table{ID: ids[i], Game: "golf", Status: store.StatusPlaying}); err != nil {
				b.Error(err)
				return
			}
		}
		n := 0
		for pb.Next() {
			if err := s.AppendMove(ctx, ids[n%per], store.Move{N: n / per, Seat: n % 4, Text: "draw stock"}); err != nil {
				b.Error(err)
				return
			}
			n++
		}
	})
}
