package store

import (
	"context"
	"path/filepath"
	"testing"
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
