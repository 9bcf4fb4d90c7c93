package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// OpenSQLite opens (creating it if missing) the SQLite database in the file
// at path and migrates it. The database runs in WAL mode; a move is
// committed before AppendMove returns, so a crash of the server loses none.
// Moves arriving together from many tables are committed together (group
// commit): one transaction, one statement, one write to the WAL, for all of
// them, appended to the move log and folded into the moves table every few
// seconds (movelog.go). The WAL is copied back into the database (a
// checkpoint, with its fsyncs) every 50 ms by a goroutine of its own on a
// connection of its own, so the writer never waits for the disk; so often,
// a checkpoint catches up with the writer now and then even under constant
// load, and the WAL starts over.
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	open := func() (*sql.DB, error) {
		q := url.Values{}
		for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)",
			"foreign_keys(1)", "wal_autocheckpoint(0)"} {
			q.Add("_pragma", p)
		}
		u := url.URL{Scheme: "file", Opaque: path, RawQuery: q.Encode()}
		db, err := sql.Open("sqlite", u.String())
		if err != nil {
			return nil, fmt.Errorf("store: opening %s: %w", path, err)
		}
		// One connection: SQLite has one writer anyway, and this way
		// writers queue in Go rather than retrying on a busy database.
		db.SetMaxOpenConns(1)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, fmt.Errorf("store: opening %s: %w", path, err)
		}
		return db, nil
	}
	db, err := open()
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db, goose.DialectSQLite3, "sqlite"); err != nil {
		db.Close()
		return nil, err
	}
	ckpt, err := open()
	if err != nil {
		db.Close()
		return nil, err
	}
	s, err := newSQLStore(ctx, db, false, 1)
	if err != nil {
		db.Close()
		ckpt.Close()
		return nil, err
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go checkpoints(ckpt, quit, done)
	s.stop = func() {
		close(quit)
		<-done
	}
	return s, nil
}

// checkpoints copies the log into the database every 50 ms without
// blocking the writer (PASSIVE), and truncates the log on the way out.
func checkpoints(db *sql.DB, quit, done chan struct{}) {
	defer close(done)
	defer db.Close()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			db.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		case <-quit:
			db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
			return
		}
	}
}
