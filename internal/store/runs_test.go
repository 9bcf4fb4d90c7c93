package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"
	"time"
)

// TestRunsOnANewConnection checks that the fold's inserts go on once
// database/sql has closed the connection their statements were prepared
// on and opened another (as it does after an interrupted statement). Their
// statements went with the old connection: closing them there crashed the
// driver.
func TestRunsOnANewConnection(t *testing.T) {
	ctx := context.Background()
	db := foldDB(t, []string{"a", "b"})
	l, err := newMoveLog(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	at := time.Now()
	fold := func(id string, n int) {
		t.Helper()
		err := l.inTx(ctx, func(c *sql.Conn) error {
			return l.folds.insert(ctx, c, []tableMove{{id, Move{N: n, Seat: n % 2, Text: "swap 3", At: at}}})
		})
		if err != nil {
			t.Fatalf("folding move %d of %s: %v", n, id, err)
		}
	}
	fold("a", 0)
	// The connection is called bad, so database/sql closes it.
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Raw(func(any) error { return driver.ErrBadConn }); !errors.Is(err, driver.ErrBadConn) {
		t.Fatalf("the connection's end: %v", err)
	}
	c.Close()
	fold("a", 1)
	fold("b", 0)
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM moves`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("the moves table holds %d moves, want 3", n)
	}
}
