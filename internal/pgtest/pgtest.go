// Package pgtest gives tests a PostgreSQL database of their own: on the
// server PARLOUR_TEST_POSTGRES names, or the one .ci/run starts.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// DefaultServer is the server .ci/run starts: a local PostgreSQL with a
// role that may create databases.
const DefaultServer = "postgres://parlour:parlour@127.0.0.1:5432/postgres?sslmode=disable"

// Database creates an empty database named prefix_<random> and returns
// its DSN; it is dropped when the test ends (its cleanup is registered
// first, so it runs after the test's own). It skips the test in -short
// mode, and when no server answers and CI is not set; under CI a missing
// server fails.
func Database(t testing.TB, prefix string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL: skipped in -short mode; the full run covers it")
	}
	dsn := os.Getenv("PARLOUR_TEST_POSTGRES")
	if dsn == "" {
		dsn = DefaultServer
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
	b := make([]byte, 6)
	rand.Read(b)
	name := prefix + "_" + hex.EncodeToString(b)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		admin.Close()
		t.Fatalf("creating database %s: %v", name, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		// FORCE ends the sessions left in the database, but a role
		// without pg_signal_backend (which .ci/run grants) may not end
		// an autovacuum worker's: that refusal passes with the worker.
		var err error
		for range 10 {
			if _, err = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err == nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Errorf("dropping database %s: %v", name, err)
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
