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
	path := filepath.Join(b.TempDir(), "f.db")
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	const tables, perTable = 1000, 4
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
		if err := st.CreateTable(ctx, &Table{ID: ids[i], Game: "golf", Status: StatusPlaying}); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()
	slices.Sort(ids)
	// The log on a database of its own, with no writer running.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
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
