package store_test

import (
	"path/filepath"
	"testing"

	"parlour/internal/pgtest"
	"parlour/internal/store/storetest"
)

// TestSQLiteChat runs the chat contract against SQLite files.
func TestSQLiteChat(t *testing.T) {
	storetest.RunChat(t, storetest.DSN(func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "parlour.db")
	}))
}

// TestPostgresChat runs the chat contract against a real PostgreSQL
// server, as TestPostgres does.
func TestPostgresChat(t *testing.T) {
	storetest.RunChat(t, storetest.DSN(func(t *testing.T) string { return pgtest.Database(t, "parlour_test") }))
}
