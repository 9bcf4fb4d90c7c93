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
// a generation of 4 or 12 moves of each of 1,000 tables (a table's moves
// of 3 or 9 s of the mix: see foldEvery), folded a step at a time as the
// writer folds them (ns/move, and the memory a move costs), into tables
// that already hold foldHistory moves each. Each generation's rows are
// deleted again before the next, so every one meets the same moves table
// and the figure does not grow with b.N.
func BenchmarkFold(b *testing.B) {
	for _, perTable := range []int{4, 12} {
		b.Run(fmt.Sprintf("moves=%d", perTable), func(b *testing.B) { benchmarkFold(b, perTable) })
	}
}

// foldHistory is how many moves each table holds before BenchmarkFold's
// generation: a table a minute or so into a game, more than a page of
// the moves table.
const foldHistory = 120

// benchmarkFold is BenchmarkFold with perTable moves a table a generation.
func benchmarkFold(b *testing.B, perTable int) {
	ctx := context.Background()
	const tables = 1000
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
	// generation makes moves first to first+count-1 of every table the
	// generation to fold.
	generation := func(first, count int) {
		l.folding = make(map[string]packed, tables)
		for _, id := range ids {
			for n := first; n < first+count; n++ {
				l.folding[id] = l.folding[id].add(Move{N: n, Seat: n % 4, Text: "swap 3", By: "bot", At: at})
			}
		}
		l.toFold = append(l.toFold[:0], ids...)
	}
	fold := func() {
		for len(l.toFold) > 0 {
			if !l.foldStep() {
				b.Fatal("a step of the fold failed")
			}
		}
	}
	generation(0, foldHistory)
	fold()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, err := db.Exec(`DELETE FROM moves WHERE n >= ?`, foldHistory); err != nil {
			b.Fatal(err)
		}
		generation(foldHistory, perTable)
		b.StartTimer()
		fold()
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
