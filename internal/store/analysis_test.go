package store_test

import (
	"path/filepath"
	"testing"

	"parlour/internal/pgtest"
	"parlour/internal/store/storetest"
)

// TestSQLiteAnalyses runs the analyses' contract against SQLite files.
func TestSQLiteAnalyses(t *testing.T) {
	storetest.RunAnalyses(t, storetest.DSN(func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "parlour.db")
	}))
}

// TestPostgresAnalyses runs the analyses' contract against a real
// PostgreSQL server, as TestPostgres does.
func TestPostgresAnalyses(t *testing.T) {
	storetest.RunAnalyses(t, storetest.DSN(func(t *testing.T) string { return pgtest.Database(t, "parlour_test") }))
}
