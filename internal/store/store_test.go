package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"parlour/internal/pgtest"
	"parlour/internal/store"
	"parlour/internal/store/storetest"
)

// TestSQLite runs the store contract against SQLite files.
func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "parlour.db")
	})
}

// TestPostgres runs the store contract against a real PostgreSQL server
// (PARLOUR_TEST_POSTGRES, or the one .ci/run starts), each subtest in a
// database of its own. It skips only when no server answers and CI is not
// set; under CI a missing server fails.
func TestPostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T) string { return pgtest.Database(t, "parlour_test") })
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
