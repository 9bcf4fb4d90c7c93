package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"

	"parlour/internal/rate"
)

// Errors a SQLite store's writes fail with when the database cannot be
// written at all; match them with errors.Is. (The error matches SQLite's
// own as well.) The write changed nothing, and the store takes writes
// again once the database can be written: nothing needs reopening.
var (
	// ErrFull marks a write refused for want of room (SQLITE_FULL): the
	// disk holding the database or its WAL is full, or the database has
	// reached its max_page_count.
	ErrFull = errors.New("the database cannot be written: the disk is full")
	// ErrReadOnly marks a write to a database that is read-only
	// (SQLITE_READONLY): its file, or the file system holding it.
	ErrReadOnly = errors.New("the database cannot be written: it is read-only")
)

// OpenSQLite opens (creating it if missing) the SQLite database in the file
// at path and migrates it. The database runs in WAL mode; a move is
// committed before AppendMove returns, so a crash of the server loses none.
// Moves arriving together from many tables are committed together (group
// commit): one transaction, one statement, one write to the WAL, for all of
// them, appended to the move log and folded into the moves table every few
// seconds (movelog.go). The WAL is copied back into the database (a
// checkpoint, with its fsyncs) every 50 ms by a goroutine of its own on a
// connection of its own, so the writer never waits for the disk's flushes;
// so often, a checkpoint catches up with the writer now and then even under
// constant load, and the WAL starts over. After each checkpoint the kernel
// is asked to keep where the writer writes next in memory (walAhead).
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
			return nil, fmt.Errorf("store: opening %s: %w", path, sqliteFault(err))
		}
		return db, nil
	}
	db, err := open()
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db, goose.DialectSQLite3, "sqlite", nil); err != nil {
		db.Close()
		return nil, sqliteFault(err)
	}
	ckpt, err := open()
	if err != nil {
		db.Close()
		return nil, err
	}
	ahead := &walAhead{path: path + "-wal"}
	if err := ckpt.QueryRowContext(ctx, "PRAGMA page_size").Scan(&ahead.pageSize); err != nil {
		db.Close()
		ckpt.Close()
		return nil, fmt.Errorf("store: reading the page size of %s: %w", path, sqliteFault(err))
	}
	s, err := newSQLStore(ctx, db, false, 1)
	if err != nil {
		db.Close()
		ckpt.Close()
		return nil, err
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go checkpoints(ckpt, ahead, slog.Default(), newFaultLog(path, "the WAL is copied into the database later, and grows until then",
		"the WAL is copied into the database again"), quit, done)
	s.stop = func() {
		close(quit)
		<-done
	}
	return s, nil
}

// checkpoints copies the log into the database every 50 ms without
// blocking the writer (PASSIVE), and truncates the log on the way out. A
// checkpoint that fails (the disk full) is tried again at the next tick
// (the log keeps every commit meanwhile), and told to faults on log.
// After a checkpoint it has ahead keep where the writer writes next in
// memory.
func checkpoints(db *sql.DB, ahead *walAhead, log *slog.Logger, faults *faultLog, quit, done chan struct{}) {
	defer close(done)
	defer db.Close()
	defer ahead.close()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			// The result: whether it gave up, the frames in the log,
			// and those copied into the database.
			var busy, frames, copied int64
			if err := db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
				faults.failed(log, sqliteFault(err), 1)
			} else {
				faults.ok(log)
				ahead.ask(max(frames, 0))
			}
		case <-quit:
			if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
				faults.failed(log, sqliteFault(err), 1)
			}
			return
		}
	}
}

// sqliteFault returns err marked with ErrFull or ErrReadOnly if it is
// SQLite's SQLITE_FULL or SQLITE_READONLY (with any extended code), and
// err as it is otherwise.
func sqliteFault(err error) error {
	var se *sqlite.Error
	if err == nil || errors.Is(err, ErrFull) || errors.Is(err, ErrReadOnly) || !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w (%w)", ErrFull, err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("%w (%w)", ErrReadOnly, err)
	}
	return err
}

// How often a faultLog tells of failures: a failure going on is told
// again every faultEvery; a change (failing, working again) is told at
// once, but no more than faultBurst lines in a row faster than one every
// faultEvery.
const (
	faultEvery = 10 * time.Second
	faultBurst = 6
)

// faultLog tells a log of one kind of write to the database failing and
// working again: the first failure at once, then a line every faultEvery
// while failures go on (with how many there were since the last line),
// and a line when the write works again. A disk that stays full costs a
// line every faultEvery, not one a failed write, and a write that keeps
// failing and working in turn (a disk nearly full) a line every
// faultEvery once faultBurst are told. It is one goroutine's.
type faultLog struct {
	db string // the database's file
	// then says what follows from a failure, back what follows from the
	// write working again.
	then, back string

	told  bool      // a failure was told, and its end not yet
	last  time.Time // when the last failure was told
	since time.Time // the first failure since the write last worked; zero while it works
	n     int       // failures not told yet
	// lines are the lines that may be told now: at most faultBurst, one
	// more every faultEvery.
	lines rate.Bucket
}

// newFaultLog returns a faultLog for the database in the file at db.
func newFaultLog(db, then, back string) *faultLog {
	return &faultLog{db: db, then: then, back: back,
		lines: rate.Bucket{Rate: 1 / faultEvery.Seconds(), Burst: faultBurst}}
}

// failed notes err, n writes' failure, on log.
func (f *faultLog) failed(log *slog.Logger, err error, n int) {
	now := time.Now()
	if f.since.IsZero() {
		f.since = now
	}
	f.n += n
	if f.told && now.Sub(f.last) < faultEvery || !f.lines.Allow(now) {
		return
	}
	log.Error(faultCause(err)+"; "+f.then, "db", f.db, "failures", f.n, "err", err)
	f.told, f.last, f.n = true, now, 0
}

// ok notes a write that worked, on log.
func (f *faultLog) ok(log *slog.Logger) {
	if f.since.IsZero() {
		return
	}
	if f.told {
		now := time.Now()
		if !f.lines.Allow(now) {
			return // told at a later write that works
		}
		log.Warn("the database can be written again; "+f.back, "db", f.db,
			"after", now.Sub(f.since).Round(time.Millisecond), "failures", f.n)
	}
	f.told, f.since, f.n = false, time.Time{}, 0
}

// faultCause says in words why a write failed.
func faultCause(err error) string {
	switch {
	case errors.Is(err, ErrFull):
		return ErrFull.Error()
	case errors.Is(err, ErrReadOnly):
		return ErrReadOnly.Error()
	}
	return "a write to the database failed"
}
