package store

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations
var migrations embed.FS

// sqlStore is the Store over database/sql that both dialects share. Queries
// are written with ? placeholders and rebound to $n for PostgreSQL.
type sqlStore struct {
	db *sql.DB
	pg bool
	// batches are PostgreSQL's checked inserts of 1, 2, 4, ... moves
	// (batchQuery), prepared once; nil for SQLite.
	batches map[int]*sql.Stmt
	// log is SQLite's move log (movelog.go), which its one writer
	// stores moves through; nil for PostgreSQL.
	log *moveLog
	// PostgreSQL's fast path (insertKnown): plain inserts of 1, 2, 4, ...
	// moves, and the writers' memory of the last move stored of each
	// table, under knownMu.
	plain   map[int]*sql.Stmt
	knownMu sync.Mutex
	known   lastMoves
	// appends feeds the group-commit writers: every move goes through
	// them.
	appends chan appendReq
	written sync.WaitGroup
	stop    func() // stops helpers (SQLite's checkpoints) before the database closes
}

// pgLeaseLock makes PostgreSQL's lease check lock the table's row until
// the move commits: a node taking the table over (Acquire updates the
// row) waits for a move in flight under the old lease and then reads it,
// or the move waits for the takeover and then finds the epoch changed. So
// no committed move is missed by the new owner.
const pgLeaseLock = "FOR SHARE"

// newSQLStore prepares the store's inserts of moves and starts writers
// (at least one) group-commit writers, each storing the moves waiting
// when it is free. SQLite has one, which stores moves through its move
// log (movelog.go).
func newSQLStore(ctx context.Context, db *sql.DB, pg bool, writers int) (*sqlStore, error) {
	s := &sqlStore{db: db, pg: pg}
	s.appends = make(chan appendReq, maxBatch*writers)
	if !pg {
		l, err := newMoveLog(ctx, db)
		if err != nil {
			return nil, err
		}
		s.log = l
		s.written.Go(func() { l.run(s.appends) })
		return s, nil
	}
	var err error
	if s.batches, err = prepareRuns(ctx, db, s.batchQuery); err != nil {
		return nil, err
	}
	if s.plain, err = prepareRuns(ctx, db, func(n int) string {
		return s.q(plainQuery("moves", n, " ON CONFLICT (table_id, n) DO NOTHING RETURNING table_id, n"))
	}); err != nil {
		s.closeStmts()
		return nil, err
	}
	s.known = lastMoves{}
	for range writers {
		s.written.Go(s.writer)
	}
	return s, nil
}

// migrate brings the schema up to date with the dialect's embedded SQL,
// under locker if it is not nil (see pgMigrationLock).
func migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, dir string, locker lock.SessionLocker) error {
	sub, err := fs.Sub(migrations, "migrations/"+dir)
	if err != nil {
		return err
	}
	var opts []goose.ProviderOption
	if locker != nil {
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db, sub, opts...)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrating: %w", err)
	}
	return nil
}

// q rebinds a query's ? placeholders for the dialect.
func (s *sqlStore) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

func (s *sqlStore) CreateTable(ctx context.Context, t *Table) error {
	if t.ID == "" {
		return errors.New("store: a table needs an id")
	}
	opts, seats, settings, result, err := encodeTable(t)
	if err != nil {
		return err
	}
	now := time.Now()
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now
	}
	t.UpdatedAt = now
	var epoch int64
	if t.Lease.Node != "" {
		epoch = 1
	}
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO tables
		(id, game, options, seed, settings, seats, status, result, rematch_of, rematch, created_at, updated_at,
		owner, lease_epoch, lease_until)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, `+s.now()+` + ?
		WHERE NOT EXISTS (SELECT 1 FROM tables WHERE id = ?)`),
		t.ID, t.Game, opts, int64(t.Seed), settings, seats, t.Status, result, t.RematchOf, t.Rematch,
		micros(t.CreatedAt), micros(t.UpdatedAt), t.Lease.Node, epoch, t.Lease.TTL.Microseconds(), t.ID)
	if err != nil {
		if s.exists(ctx, t.ID) {
			return fmt.Errorf("store: table %s: %w", t.ID, ErrExists)
		}
		return fmt.Errorf("store: creating table %s: %w", t.ID, sqliteFault(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: table %s: %w", t.ID, ErrExists)
	}
	t.Lease.Epoch = epoch
	return nil
}

// now is the database's clock in microseconds, as SQL.
func (s *sqlStore) now() string {
	if s.pg {
		return `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)`
	}
	return `CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)`
}

// holds reports whether table id's lease still has epoch.
func (s *sqlStore) holds(ctx context.Context, id string, epoch int64) bool {
	var e int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT lease_epoch FROM tables WHERE id = ?`), id).Scan(&e)
	return err == nil && e == epoch
}

func (s *sqlStore) exists(ctx context.Context, id string) bool {
	var one int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT 1 FROM tables WHERE id = ?`), id).Scan(&one)
	return err == nil
}

func encodeTable(t *Table) (opts, seats, settings, result string, err error) {
	o := t.Options
	if o == nil {
		o = map[string]any{}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return "", "", "", "", fmt.Errorf("store: options: %w", err)
	}
	opts = string(b)
	st := t.Seats
	if st == nil {
		st = []Seat{}
	}
	if b, err = json.Marshal(st); err != nil {
		return "", "", "", "", fmt.Errorf("store: seats: %w", err)
	}
	seats = string(b)
	settings = "{}"
	if len(t.Settings) > 0 {
		if !json.Valid(t.Settings) {
			return "", "", "", "", errors.New("store: settings are not JSON")
		}
		settings = string(t.Settings)
	}
	if len(t.Result) > 0 {
		if !json.Valid(t.Result) {
			return "", "", "", "", errors.New("store: result is not JSON")
		}
		result = string(t.Result)
	}
	return opts, seats, settings, result, nil
}

func (s *sqlStore) UpdateTable(ctx context.Context, t *Table) error {
	_, seats, settings, result, err := encodeTable(t)
	if err != nil {
		return err
	}
	t.UpdatedAt = time.Now()
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE tables SET settings = ?, seats = ?, status = ?, result = ?,
		rematch_of = ?, rematch = ?, updated_at = ? WHERE id = ? AND (? = 0 OR lease_epoch = ?)`),
		settings, seats, t.Status, result, t.RematchOf, t.Rematch, micros(t.UpdatedAt), t.ID, t.Lease.Epoch, t.Lease.Epoch)
	if err != nil {
		return fmt.Errorf("store: updating table %s: %w", t.ID, sqliteFault(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if t.Lease.Epoch != 0 && s.exists(ctx, t.ID) {
			return fmt.Errorf("store: table %s: %w", t.ID, ErrLeaseLost)
		}
		return fmt.Errorf("store: table %s: %w", t.ID, ErrNotFound)
	}
	return nil
}

func (s *sqlStore) AppendMove(ctx context.Context, tableID string, m Move) error {
	if m.N < 0 {
		return fmt.Errorf("store: move %d of table %s: %w", m.N, tableID, ErrConflict)
	}
	if m.At.IsZero() {
		m.At = time.Now()
	}
	// Group commit: a writer stores the moves of many tables in one
	// transaction. The request carries ctx's deadline: a writer drops a
	// request whose deadline has passed, and commits under the latest
	// deadline of its batch.
	r := appendReq{id: tableID, m: m, done: doneChans.Get().(chan error)}
	r.deadline, _ = ctx.Deadline()
	select {
	case s.appends <- r:
	case <-ctx.Done():
		doneChans.Put(r.done)
		return fmt.Errorf("store: appending move %d of table %s: %w", m.N, tableID, ctx.Err())
	}
	select {
	case err := <-r.done:
		doneChans.Put(r.done) // a writer answers a request once
		return err
	case <-ctx.Done():
		// The writer has the move and may still commit it: r.done is
		// left to it (buffered, so its answer never blocks).
		return fmt.Errorf("store: appending move %d of table %s: %w (%w)", m.N, tableID, ErrInDoubt, ctx.Err())
	}
}

// commitCtx returns the context a writer commits batch under: its
// latest deadline, or none if a request has none, with the requests
// liveRequests keeps.
func commitCtx(batch []appendReq) (context.Context, context.CancelFunc, []appendReq) {
	batch = liveRequests(batch)
	var latest time.Time
	for _, r := range batch {
		if r.deadline.IsZero() {
			return context.Background(), func() {}, batch
		}
		if r.deadline.After(latest) {
			latest = r.deadline
		}
	}
	if latest.IsZero() {
		return context.Background(), func() {}, batch
	}
	ctx, cancel := context.WithDeadline(context.Background(), latest)
	return ctx, cancel, batch
}

// liveRequests answers the requests of batch whose deadline has already
// passed (their callers have given up, and the move is not stored) and
// returns the rest, in batch's memory.
func liveRequests(batch []appendReq) []appendReq {
	now := time.Now()
	live := batch[:0]
	for _, r := range batch {
		if !r.deadline.IsZero() && !r.deadline.After(now) {
			r.done <- fmt.Errorf("store: appending move %d of table %s: %w", r.m.N, r.id, context.DeadlineExceeded)
			continue
		}
		live = append(live, r)
	}
	return live
}

// doneChans are the channels writers answer appendReqs on, used again.
var doneChans = sync.Pool{New: func() any { return make(chan error, 1) }}

func (s *sqlStore) appendArgs(tableID string, m Move) []any {
	return []any{tableID, m.N, m.Seat, m.Text, m.By, micros(m.At), m.Lease}
}

// refusal says why a move was not stored: its table is missing, the lease
// it was written under is gone, or its number is not the next one (taken,
// or after a gap).
func (s *sqlStore) refusal(ctx context.Context, tableID string, m Move) error {
	if !s.exists(ctx, tableID) {
		return fmt.Errorf("store: table %s: %w", tableID, ErrNotFound)
	}
	if m.Lease != 0 && !s.holds(ctx, tableID, m.Lease) {
		return fmt.Errorf("store: move %d of table %s: %w", m.N, tableID, ErrLeaseLost)
	}
	return fmt.Errorf("store: move %d of table %s is not the next one: %w", m.N, tableID, ErrConflict)
}

// appendReq is a move waiting for the group-commit writer.
type appendReq struct {
	id   string
	m    Move
	done chan error
	// deadline is when the caller stops waiting; zero: never.
	deadline time.Time
}

// maxBatch is the most moves one group commit stores.
const maxBatch = 256

// writer stores queued moves, as many as are waiting (up to maxBatch) in
// one transaction: many tables' moves for one commit instead of one each.
// Before a commit it lingers as the last batch says (pacer), so batches
// grow with the load and a quiet server's move waits for its own commit
// only.
func (s *sqlStore) writer() {
	var p pacer
	var buf []appendReq
	for r := range s.appends {
		buf = p.gather(buf[:0], r, s.appends)
		p.commit(len(buf), func() { s.commit(buf) })
	}
}

// Group commit's pacing (pacer).
const (
	// maxLinger is the longest a writer waits for more moves before a
	// commit.
	maxLinger = 2 * time.Millisecond
	// lingerPerMove is how much longer it waits for each move of the
	// last batch past the first.
	lingerPerMove = 100 * time.Microsecond
	// lingerBelow is how many moves make a batch big enough to commit at
	// once: past it a linger saves little, and adds to the wait of every
	// move of a backlog.
	lingerBelow = 64
)

// pacer spaces a group-commit writer's commits. A commit's own cost (a
// transaction, a statement, a write to the log, on PostgreSQL a round trip
// and a flush) is most of a small batch's, so under load the writer waits
// a little for more moves before it commits: lingerPerMove for each move
// past the first of the last batch, at most maxLinger, and only while the
// batch has fewer than lingerBelow moves. A quiet server's batches are
// single moves, stored at once; a busy one's grow to the moves of a couple
// of milliseconds, for a fraction of the cost a move.
//
// The writer lingers waiting for the moves themselves, which wake it as
// they come, with a timer only for the end of the linger, and never in a
// sleep: while the garbage collector marks, a sleeping goroutine wakes
// late and then waits again for a processor, and every table's moves
// would back up behind the writer. (docs/perf/node.md has the traces.)
type pacer struct {
	last  int       // the moves of the last batch
	ended time.Time // when its commit ended
	timer *time.Timer
}

// left returns how much of the linger after the last commit is left.
func (p *pacer) left() time.Duration {
	linger := min(maxLinger, time.Duration(max(p.last-1, 0))*lingerPerMove)
	return linger - time.Since(p.ended)
}

// gather appends r and the requests behind it to batch: those waiting,
// then, while the batch has fewer than lingerBelow, those that come in
// what is left of the linger; maxBatch at most.
func (p *pacer) gather(batch []appendReq, r appendReq, appends chan appendReq) []appendReq {
	batch = append(batch, r)
	for len(batch) < maxBatch {
		select {
		case r, ok := <-appends:
			if !ok {
				return batch
			}
			batch = append(batch, r)
			continue
		default:
		}
		d := p.left()
		if len(batch) >= lingerBelow || d <= 0 {
			return batch
		}
		if p.timer == nil {
			p.timer = time.NewTimer(d)
		} else {
			p.timer.Reset(d)
		}
		select {
		case r, ok := <-appends:
			p.timer.Stop()
			if !ok {
				return batch
			}
			batch = append(batch, r)
		case <-p.timer.C:
			return batch
		}
	}
	return batch
}

// commit runs commit, of a batch of n moves.
func (p *pacer) commit(n int, commit func()) {
	commit()
	p.last, p.ended = n, time.Now()
}

func (s *sqlStore) commit(batch []appendReq) {
	ctx, cancel, batch := commitCtx(batch)
	defer cancel()
	if len(batch) == 0 {
		return
	}
	stored, err := s.insertBatch(ctx, batch)
	answer(batch, func(i int) error {
		r := batch[i]
		switch {
		case err != nil:
			return fmt.Errorf("store: appending move %d of table %s: %w", r.m.N, r.id, err)
		case stored[moveKey{r.id, r.m.N}]:
			return nil
		default:
			// Refused by a condition (rare): say which.
			return s.refusal(ctx, r.id, r.m)
		}
	})
}

// answer answers each request of a committed batch, batch[i] with
// answerOf(i): the people's moves (Move.By "") first, then the rest. Each
// answer readies the goroutine waiting for it, in line behind those
// readied before it, so on a busy node a person's view goes out ahead of
// a bot's move, whose pace nobody times to the millisecond: the order
// people's work already has while it waits for an actor (internal/table).
// (docs/perf/node.md has the runs.)
func answer(batch []appendReq, answerOf func(i int) error) {
	for _, people := range [2]bool{true, false} {
		for i, r := range batch {
			if (r.m.By == "") == people {
				r.done <- answerOf(i)
			}
		}
	}
}

// moveKey names one move of one table.
type moveKey struct {
	table string
	n     int
}

// insertBatch stores a batch of moves in one transaction, each only if
// batchQuery's conditions hold for it, and returns the moves stored. Most
// go in by insertKnown's plain inserts; the rest by batchQuery, whose
// conditions are checked for each move. Many moves go in one statement, so
// a statement's cost (and the writer's trips through database/sql) is paid
// a few times a batch, not once a move; the statements are prepared once,
// for 1, 2, 4, ... moves, and a batch is cut into such runs (parsing a
// statement for each batch would cost more than its inserts).
func (s *sqlStore) insertBatch(ctx context.Context, batch []appendReq) (map[moveKey]bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	stored := make(map[moveKey]bool, len(batch))
	if batch, err = s.insertKnown(ctx, tx, batch, stored); err != nil {
		return nil, err
	}
	args := make([]any, 0, 7*min(len(batch), maxBatch))
	for rest := batch; len(rest) > 0; {
		n := runLen(len(rest))
		args = args[:0]
		for _, r := range rest[:n] {
			args = append(args, s.appendArgs(r.id, r.m)...)
		}
		if err := queryStored(ctx, tx, s.batches[n], args, stored); err != nil {
			return nil, err
		}
		rest = rest[n:]
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	s.remember(stored)
	return stored, nil
}

// insertKnown stores, with plain inserts, the moves of batch that need no
// check of their own: their table is there with the lease they were
// written under (its row locked FOR SHARE until the commit, pgLeaseLock,
// one query for the batch), and their number follows the last move the
// writers stored of the table (or is 0). The database still refuses a
// number taken (the primary key). It adds the moves stored to stored and
// returns the rest of batch, for batchQuery: the first moves after a
// takeover or a restart, and those refused. A move this node stored is
// never removed, and one stored by another node since means another lease
// epoch, so the memory only ever lets through a move that follows one
// stored.
func (s *sqlStore) insertKnown(ctx context.Context, tx *sql.Tx, batch []appendReq, stored map[moveKey]bool) ([]appendReq, error) {
	ids := make([]string, 0, len(batch))
	seen := make(map[string]bool, len(batch))
	for _, r := range batch {
		if !seen[r.id] {
			seen[r.id] = true
			ids = append(ids, r.id)
		}
	}
	// ORDER BY: the rows are locked in one order, whatever the batch's.
	rows, err := tx.QueryContext(ctx, `SELECT id, lease_epoch FROM tables WHERE id = ANY($1) ORDER BY id `+pgLeaseLock, ids)
	if err != nil {
		return nil, err
	}
	epochs := make(map[string]int64, len(ids))
	for rows.Next() {
		var id string
		var epoch int64
		if err := rows.Scan(&id, &epoch); err != nil {
			rows.Close()
			return nil, err
		}
		epochs[id] = epoch
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var plain []tableMove
	rest := make([]appendReq, 0, len(batch))
	s.knownMu.Lock()
	for _, r := range batch {
		epoch, there := epochs[r.id]
		last, ok := s.known[r.id]
		if there && (r.m.Lease == 0 || epoch == r.m.Lease) && (r.m.N == 0 || ok && last == r.m.N-1) {
			plain = append(plain, tableMove{r.id, r.m})
			continue
		}
		rest = append(rest, r)
	}
	s.knownMu.Unlock()
	for len(plain) > 0 {
		n := runLen(len(plain))
		args := plainArgs(make([]any, 0, 6*n), plain[:n], nil)
		if err := queryStored(ctx, tx, s.plain[n], args, stored); err != nil {
			return nil, err
		}
		plain = plain[n:]
	}
	return rest, nil
}

// runLen is the length of the next run of a batch of left moves: the
// longest of 1, 2, 4, ... maxBatch (the sizes the statements are prepared
// for) that fits.
func runLen(left int) int {
	n := 1
	for n*2 <= left && n*2 <= maxBatch {
		n *= 2
	}
	return n
}

// queryStored runs st with args in tx and adds the moves it returns (as
// table and number) to stored.
func queryStored(ctx context.Context, tx *sql.Tx, st *sql.Stmt, args []any, stored map[moveKey]bool) error {
	rows, err := tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k moveKey
		if err := rows.Scan(&k.table, &k.n); err != nil {
			return err
		}
		stored[k] = true
	}
	return rows.Err()
}

// remember notes the last move stored of each table, for insertKnown.
func (s *sqlStore) remember(stored map[moveKey]bool) {
	s.knownMu.Lock()
	defer s.knownMu.Unlock()
	for k := range stored {
		if last, ok := s.known[k.table]; !ok || k.n > last {
			s.known.note(k.table, k.n)
		}
	}
}

// batchQuery is PostgreSQL's insert of n moves, each (seven values, as
// appendArgs gives them) stored only if its table exists, the move before
// it is there (the list stays whole, with no gap) and, when a lease epoch
// is given, the table's lease still has it. A move whose number is taken is left out by the
// primary key (ON CONFLICT DO NOTHING: no error to spoil the batch's
// transaction). It returns the moves stored.
func (s *sqlStore) batchQuery(n int) string {
	var q strings.Builder
	q.WriteString("WITH v (t, n, seat, mv, by_whom, at, lease) AS (VALUES ")
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT))")
	}
	q.WriteString(`)
	INSERT INTO moves (table_id, n, seat, move, by_whom, at)
	SELECT t, n, seat, mv, by_whom, at FROM v
	WHERE EXISTS (SELECT 1 FROM tables WHERE id = v.t)
	AND (v.n = 0 OR EXISTS (SELECT 1 FROM moves WHERE table_id = v.t AND moves.n = v.n - 1))
	AND (v.lease = 0 OR EXISTS (SELECT 1 FROM tables WHERE id = v.t AND lease_epoch = v.lease ` + pgLeaseLock + `))
	ON CONFLICT (table_id, n) DO NOTHING
	RETURNING table_id, n`)
	return s.q(q.String())
}

// tableColumns are a table's columns as scanTable reads them, with its
// move count (the primary key's last entry, not a count of the rows).
const tableColumns = `id, game, options, seed, settings, seats, status, result, rematch_of, rematch, created_at, updated_at,
	owner, lease_epoch, lease_until,
	COALESCE((SELECT MAX(n) + 1 FROM moves WHERE moves.table_id = tables.id), 0)`

type scanner interface{ Scan(dest ...any) error }

func scanTable(r scanner) (*Table, error) {
	var (
		t                             Table
		opts, settings, seats, result string
		seed, created, updated, until int64
	)
	if err := r.Scan(&t.ID, &t.Game, &opts, &seed, &settings, &seats, &t.Status, &result,
		&t.RematchOf, &t.Rematch, &created, &updated, &t.Lease.Node, &t.Lease.Epoch, &until, &t.Moves); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(opts))
	dec.UseNumber()
	if err := dec.Decode(&t.Options); err != nil {
		return nil, fmt.Errorf("store: table %s options: %w", t.ID, err)
	}
	if err := json.Unmarshal([]byte(seats), &t.Seats); err != nil {
		return nil, fmt.Errorf("store: table %s seats: %w", t.ID, err)
	}
	t.Seed = uint64(seed)
	t.Settings = json.RawMessage(settings)
	if result != "" {
		t.Result = json.RawMessage(result)
	}
	t.CreatedAt = fromMicros(created)
	t.UpdatedAt = fromMicros(updated)
	if until > 0 {
		t.Lease.Until = fromMicros(until)
	}
	return &t, nil
}

func (s *sqlStore) Table(ctx context.Context, id string) (*Table, error) {
	counts := s.pendingCounts(id)
	t, err := scanTable(s.db.QueryRowContext(ctx, s.q(`SELECT `+tableColumns+` FROM tables WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: table %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: reading table %s: %w", id, err)
	}
	t.Moves = max(t.Moves, counts[id])
	return t, nil
}

// pendingCounts returns the move counts of the tables with moves in
// SQLite's move log (only id's if id is not ""), or nil.
func (s *sqlStore) pendingCounts(id string) map[string]int {
	if s.log == nil {
		return nil
	}
	return s.log.counts(id)
}

func (s *sqlStore) Moves(ctx context.Context, tableID string) ([]Move, error) {
	// SQLite's moves still in its log, taken before the moves table is
	// read: a fold meanwhile leaves them in one or both.
	var pending []Move
	if s.log != nil {
		pending = s.log.pending(tableID)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT n, seat, move, by_whom, at FROM moves WHERE table_id = ? ORDER BY n`), tableID)
	if err != nil {
		return nil, fmt.Errorf("store: reading moves of %s: %w", tableID, err)
	}
	out := []Move{}
	for rows.Next() {
		var m Move
		var at int64
		if err := rows.Scan(&m.N, &m.Seat, &m.Text, &m.By, &at); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: reading moves of %s: %w", tableID, err)
		}
		m.At = fromMicros(at)
		out = append(out, m)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("store: reading moves of %s: %w", tableID, err)
	}
	for _, m := range pending {
		if m.N == len(out) {
			out = append(out, m)
		}
	}
	if len(out) == 0 && !s.exists(ctx, tableID) {
		return nil, fmt.Errorf("store: table %s: %w", tableID, ErrNotFound)
	}
	return out, nil
}

func (s *sqlStore) Tables(ctx context.Context, q Query) ([]*Table, error) {
	var b bytes.Buffer
	b.WriteString(`SELECT ` + tableColumns + ` FROM tables`)
	args := []any{}
	if len(q.Status) > 0 {
		b.WriteString(` WHERE status IN (`)
		for i, st := range q.Status {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("?")
			args = append(args, st)
		}
		b.WriteString(")")
	}
	if q.Newest {
		b.WriteString(` ORDER BY created_at DESC, id DESC`)
	} else {
		b.WriteString(` ORDER BY created_at, id`)
	}
	if q.Limit > 0 {
		b.WriteString(` LIMIT ?`)
		args = append(args, q.Limit)
	}
	counts := s.pendingCounts("")
	rows, err := s.db.QueryContext(ctx, s.q(b.String()), args...)
	if err != nil {
		return nil, fmt.Errorf("store: listing tables: %w", err)
	}
	defer rows.Close()
	out := []*Table{}
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("store: listing tables: %w", err)
		}
		t.Moves = max(t.Moves, counts[t.ID])
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: listing tables: %w", err)
	}
	return out, nil
}

// Ping reports whether the database answers a query within ctx.
func (s *sqlStore) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("store: the database does not answer: %w", err)
	}
	return nil
}

// Close waits for queued moves to be stored, then closes the database.
// No method may be called during or after Close.
func (s *sqlStore) Close() error {
	close(s.appends)
	s.written.Wait()
	s.closeStmts()
	err := s.db.Close()
	if s.stop != nil {
		s.stop()
	}
	return err
}

// closeStmts releases the prepared statements.
func (s *sqlStore) closeStmts() {
	for _, st := range s.batches {
		st.Close()
	}
	for _, st := range s.plain {
		st.Close()
	}
	if s.log != nil {
		s.log.close()
	}
}
