package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkFold measures the fold of the move log into the moves table:
// generations of four moves of each of 1,000 tables, folded a step at a
// time as the writer folds them (ns/move, and the memory a move costs).
func BenchmarkFold(b *testing.B) {
	ctx := context.Background()
	const tables, perTable = 1000, 4
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
	}
	slices.Sort(ids)
	db := foldDB(b, ids)
	l, err := newMoveLog(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		l.folding = make(map[string][]Move, tables)
		for _, id := range ids {
			for j := range perTable {
				n := i*perTable + j
				l.folding[id] = append(l.folding[id], Move{N: n, Seat: n % 4, Text: "swap 3", By: "bot", At: at})
			}
		}
		l.toFold = append(l.toFold[:0], ids...)
		b.StartTimer()
		for len(l.toFold) > 0 {
			if !l.foldStep() {
				b.Fatal("a step of the fold failed")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tables*perTable), "ns/move")
}

// foldDB makes an SQLite database with a table for each of ids and
// returns it opened again without a store, on one connection: a move log
// made on it has no writer running. It is closed when tb ends.
func foldDB(tb testing.TB, ids []string) *sql.DB {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), "f.db")
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	for _, id := range ids {
		if err := st.CreateTable(ctx, &Table{ID: id, Game: "golf", Status: StatusPlaying}); err != nil {
			tb.Fatal(err)
		}
	}
	st.Close()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	return db
}
