package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// OpenSQLite opens (creating it if missing) the SQLite database in the file
// at path and migrates it. The database runs in WAL mode; a move is
// committed before AppendMove returns, so a crash of the server loses none.
// Moves arriving together from many tables are committed together (group
// commit): one transaction, one write to the log, for all of them. The
// writer copies the log back
// into the database every 1,000 pages (SQLite's automatic checkpoint, in
// the gap between two commits), so the log is reset even under constant
// load, where a checkpoint running beside the writer never catches up.
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	open := func() (*sql.DB, error) {
		q := url.Values{}
		for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)",
			"foreign_keys(1)", "wal_autocheckpoint(1000)"} {
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
	s, err := newSQLStore(ctx, db, false, 1)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
