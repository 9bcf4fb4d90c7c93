package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// OpenSQLite opens (creating it if missing) the SQLite database in the file
// at path and migrates it. The database runs in WAL mode; a move is
// committed before AppendMove returns, so a crash of the server loses none.
// Moves arriving together from many tables are committed together (group
// commit): one transaction, one statement, one write to the log, for all of
// them. The log is copied back into the database (a checkpoint, with its
// fsyncs) every 50 ms by a goroutine of its own on a connection of its
// own, so the writer never waits for the disk; so often, a checkpoint
// catches up with the writer now and then even under constant load, and
// the log starts over.
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

// maxRemembered bounds the writer's memory of tables' last moves (about
// 100 bytes a table); past it the memory starts over, and each table's
// next move is checked by query once more.
const maxRemembered = 1 << 17

// plainQuery inserts n moves (six values each: table, number, seat, move,
// by whom, time) with no condition of its own: the primary key refuses a
// number taken and the foreign key a missing table.
func plainQuery(n int) string {
	var q strings.Builder
	q.WriteString("INSERT INTO moves (table_id, n, seat, move, by_whom, at) VALUES ")
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?)")
	}
	return q.String()
}

// preparePlain prepares plainQuery for 1, 2, 4, ... maxBatch moves and
// gives the writer its memory of tables' last moves: SQLite's fast path.
func (s *sqlStore) preparePlain(ctx context.Context) error {
	s.plain = map[int]*sql.Stmt{}
	for n := 1; n <= maxBatch; n *= 2 {
		st, err := s.db.PrepareContext(ctx, plainQuery(n))
		if err != nil {
			for _, st := range s.plain {
				st.Close()
			}
			return fmt.Errorf("store: preparing an insert of %d moves: %w", n, err)
		}
		s.plain[n] = st
	}
	s.last = map[string]int{}
	return nil
}

// insertKnown stores with plain inserts the moves of batch that the writer
// knows to be next: a table's first move, or the move after the last one
// the writer stored of its table, with no lease to check. The database
// still refuses a number taken (the primary key) or a missing table (the
// foreign key); only "the move before is there" comes from memory, and only
// this writer adds moves. Such a statement is cheap: no query before the
// insert and no RETURNING, so no temporary table, and that is most of a
// busy server's moves. A run of moves refused by a constraint (SQLite
// undoes just that statement) is left, with the moves not known, for
// insertChecked, which says which of them may go in; the moves left keep
// their order in batch. Moves stored are added to stored.
func (s *sqlStore) insertKnown(ctx context.Context, tx *sql.Tx, batch []appendReq, stored map[moveKey]bool) ([]appendReq, error) {
	known := make([]appendReq, 0, len(batch))
	left := make(map[moveKey]bool)
	for _, r := range batch {
		last, ok := s.last[r.id]
		if r.m.Lease == 0 && (r.m.N == 0 || ok && last == r.m.N-1) {
			known = append(known, r)
		} else {
			left[moveKey{r.id, r.m.N}] = true
		}
	}
	args := make([]any, 0, 6*min(len(known), maxBatch))
	err := runs(known, func(run []appendReq) error {
		args = args[:0]
		for _, r := range run {
			args = append(args, r.id, r.m.N, r.m.Seat, r.m.Text, r.m.By, micros(r.m.At))
		}
		_, err := tx.StmtContext(ctx, s.plain[len(run)]).ExecContext(ctx, args...)
		if err != nil {
			if !isConstraint(err) {
				return err
			}
			for _, r := range run {
				left[moveKey{r.id, r.m.N}] = true
			}
			return nil
		}
		for _, r := range run {
			stored[moveKey{r.id, r.m.N}] = true
		}
		return nil
	})
	if err != nil || len(left) == 0 {
		return nil, err
	}
	rest := make([]appendReq, 0, len(left))
	for _, r := range batch {
		if left[moveKey{r.id, r.m.N}] {
			rest = append(rest, r)
		}
	}
	return rest, nil
}

// isConstraint reports whether err is SQLite's refusal of a statement by a
// constraint (which undoes that statement only, not its transaction).
func isConstraint(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// remember notes the last move stored of each table, for insertKnown.
func (s *sqlStore) remember(stored map[moveKey]bool) {
	if s.last == nil {
		return
	}
	if len(s.last) > maxRemembered {
		clear(s.last)
	}
	for k := range stored {
		if last, ok := s.last[k.table]; !ok || k.n > last {
			s.last[k.table] = k.n
		}
	}
}
