package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"
)

// TestSQLitePragmas checks the settings that make a move safe once stored
// and cheap to store: WAL, synchronous NORMAL (no fsync per commit; a
// crash of the server loses nothing), foreign keys on, and no automatic
// checkpoint (a goroutine of its own checkpoints, off the writer).
func TestSQLitePragmas(t *testing.T) {
	s, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.(*sqlStore).db
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "1", "foreign_keys": "1", "wal_autocheckpoint": "0"} {
		var got string
		if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

// TestSQLiteMovesClustered checks that a database made before migration 4
// keeps every move when its moves table becomes a WITHOUT ROWID table, and
// that a conflicting move is still refused by the new primary key.
func TestSQLiteMovesClustered(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	p := sqliteMigrations(t, db)
	if _, err := p.UpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO tables (id, game, options, seed, settings, seats, status, created_at, updated_at)
		VALUES ('old', 'golf', '{}', 7, '{}', '[]', 'playing', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	for n, mv := range []string{"reveal 0", "reveal 1", "draw stock"} {
		if _, err := db.Exec(`INSERT INTO moves (table_id, n, seat, move, by_whom, at) VALUES ('old', ?, ?, ?, '', ?)`, n, n%2, mv, 100+n); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var schema string
	if err := s.(*sqlStore).db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'moves'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(schema, "WITHOUT ROWID") {
		t.Errorf("moves after migrating: %s, want a WITHOUT ROWID table", schema)
	}
	moves, err := s.Moves(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 3 || moves[0].Text != "reveal 0" || moves[2].Text != "draw stock" || moves[1].Seat != 1 {
		t.Fatalf("moves after migrating: %+v, want the three stored before", moves)
	}
	if err := s.AppendMove(ctx, "old", Move{N: 3, Seat: 0, Text: "swap 2"}); err != nil {
		t.Fatalf("the next move after migrating: %v", err)
	}
	if err := s.AppendMove(ctx, "old", Move{N: 3, Seat: 0, Text: "discard"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a taken move number after migrating: %v, want ErrConflict", err)
	}
}

// sqliteMigrations returns a goose provider of SQLite's migrations on db.
func sqliteMigrations(t *testing.T, db *sql.DB) *goose.Provider {
	t.Helper()
	sub, err := fs.Sub(migrations, "migrations/sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
