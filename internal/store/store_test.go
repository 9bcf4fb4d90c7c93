package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"parlour/internal/pgtest"
	"parlour/internal/store"
	"parlour/internal/store/storetest"
)

// TestSQLite runs the store contract against SQLite files.
func TestSQLite(t *testing.T) {
	storetest.Run(t, storetest.DSN(func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "parlour.db")
	}))
}

// TestPostgres runs the store contract against a real PostgreSQL server
// (PARLOUR_TEST_POSTGRES, or the one .ci/run starts), each subtest in a
// database of its own. It skips only when no server answers and CI is not
// set; under CI a missing server fails.
func TestPostgres(t *testing.T) {
	storetest.Run(t, storetest.DSN(func(t *testing.T) string { return pgtest.Database(t, "parlour_test") }))
}

// TestOpenRefusesUnknownDatabases checks the DSN forms Open takes.
func TestOpenRefusesUnknownDatabases(t *testing.T) {
	for _, dsn := range []string{"mysql://x", "sqlite:", "/tmp/x.db", ""} {
		_, err := store.Open(context.Background(), dsn)
		if err == nil || !strings.Contains(err.Error(), "sqlite:PATH") {
			t.Errorf("Open(%q) = %v, want a refusal naming the forms", dsn, err)
		}
	}
	_, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"))
	if err == nil {
		t.Error("opening a file in a missing directory succeeded")
	}
	if errors.Is(err, store.ErrNotFound) {
		t.Errorf("a bad path is not a missing table: %v", err)
	}
}

// TestPostgresTwoNodes checks PostgreSQL's fast path for moves (the
// writers' memory of each table's last move) with two stores on one
// database, as two nodes are: after the other node wrote moves under its
// lease, this one's memory lets no move through that is not next.
func TestPostgresTwoNodes(t *testing.T) {
	dsn := pgtest.Database(t, "parlour_test")
	ctx := context.Background()
	open := func() store.Store {
		s, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	if err := a.CreateTable(ctx, &store.Table{ID: "t", Game: "golf", Status: store.StatusPlaying,
		Lease: store.Lease{Node: "a", TTL: time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendMove(ctx, "t", store.Move{N: 0, Text: "m0", Lease: 1}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	take := func(s store.Store, node string) int64 {
		t.Helper()
		l, ok, err := s.(store.Cluster).Acquire(ctx, "t", node, time.Millisecond)
		if err != nil || !ok {
			t.Fatalf("%s taking the table: %v %v", node, ok, err)
		}
		time.Sleep(20 * time.Millisecond)
		return l.Epoch
	}
	eb := take(b, "b")
	for n := 1; n <= 2; n++ {
		if err := b.AppendMove(ctx, "t", store.Move{N: n, Text: fmt.Sprint("b", n), Lease: eb}); err != nil {
			t.Fatalf("b's move %d: %v", n, err)
		}
	}
	ea := take(a, "a")
	// a remembers move 0 as its last: move 1 looks next to it, but b took it.
	if err := a.AppendMove(ctx, "t", store.Move{N: 1, Text: "a1", Lease: ea}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a's move 1 after b's: %v, want ErrConflict", err)
	}
	if err := a.AppendMove(ctx, "t", store.Move{N: 4, Text: "gap", Lease: ea}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a's move after a gap: %v, want ErrConflict", err)
	}
	if err := a.AppendMove(ctx, "t", store.Move{N: 3, Text: "a3", Lease: ea}); err != nil {
		t.Fatalf("a's next move: %v", err)
	}
	moves, err := b.Moves(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range moves {
		got = append(got, m.Text)
	}
	if strings.Join(got, " ") != "m0 b1 b2 a3" {
		t.Errorf("moves %v, want m0 b1 b2 a3", got)
	}
}

// TestPostgresLeaseUpdatesAreHeapOnly checks that updating a lease (as a
// node's renewals do, every table's row every quarter of the lease) is a
// heap-only update on PostgreSQL: the new version of the row fits on its
// page and no index changes (the tables table's fillfactor leaves room).
func TestPostgresLeaseUpdatesAreHeapOnly(t *testing.T) {
	dsn := pgtest.Database(t, "parlour_test")
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 300
	for i := range n {
		if err := s.CreateTable(ctx, &store.Table{ID: fmt.Sprintf("t%03d", i), Game: "golf", Status: store.StatusPlaying,
			Seats: []store.Seat{{Kind: store.KindHuman, Name: "Ann"}, {Kind: store.KindBot, Bot: "random"}},
			Lease: store.Lease{Node: "a", TTL: time.Minute}}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET lease_until = lease_until + 1 WHERE owner = 'a'`); err != nil {
		t.Fatal(err)
	}
	var updated, hot int
	if err := tx.QueryRowContext(ctx, `SELECT pg_stat_get_xact_tuples_updated('tables'::regclass),
		pg_stat_get_xact_tuples_hot_updated('tables'::regclass)`).Scan(&updated, &hot); err != nil {
		t.Fatal(err)
	}
	if updated != n || hot < n*9/10 {
		t.Errorf("renewing %d leases: %d rows updated, %d of them heap-only; want all, and at least 90%% heap-only", n, updated, hot)
	}
}
