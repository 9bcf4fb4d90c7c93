package store_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"parlour/internal/store"
	"parlour/internal/store/storetest"
)

// TestSQLite runs the store contract against SQLite files.
func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "parlour.db")
	})
}

// defaultPostgres is the server .ci/run starts: a local PostgreSQL with a
// role that may create databases.
const defaultPostgres = "postgres://parlour:parlour@127.0.0.1:5432/postgres?sslmode=disable"

// TestPostgres runs the store contract against a real PostgreSQL server
// (PARLOUR_TEST_POSTGRES, or the one .ci/run starts), each subtest in a
// database of its own. It skips only when no server answers and CI is not
// set; under CI a missing server fails.
func TestPostgres(t *testing.T) {
	dsn := os.Getenv("PARLOUR_TEST_POSTGRES")
	if dsn == "" {
		dsn = defaultPostgres
	}
	admin, err := sql.Open("pgx", dsn)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = admin.PingContext(ctx)
		cancel()
	}
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("no PostgreSQL server at %s (set PARLOUR_TEST_POSTGRES): %v", dsn, err)
		}
		t.Fatalf("CI is set but no PostgreSQL server answers at %s: %v", dsn, err)
	}
	defer admin.Close()
	storetest.Run(t, func(t *testing.T) string {
		b := make([]byte, 6)
		rand.Read(b)
		name := "parlour_test_" + hex.EncodeToString(b)
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatalf("creating database %s: %v", name, err)
		}
		t.Cleanup(func() {
			if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
				t.Errorf("dropping database %s: %v", name, err)
			}
		})
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		return u.String()
	})
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
