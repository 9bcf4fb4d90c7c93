package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"parlour/internal/jsonw"
)

// SQLite's moves go through a log (migrations 00005 and 00006). The moves
// table is kept in (table, number) order, so with thousands of live tables
// every move of a commit would land on a page of its own, and storing a
// move would cost a 4 KiB page written to the WAL (and later copied back
// by a checkpoint). The log is kept in the order moves are stored, a
// commit's moves in one row (move_batches: a JSON array of them), so a
// commit of a few hundred moves is one insert that writes the log's last
// page or two.
// Every foldEvery the log is folded into the moves table, a few hundred
// moves a transaction between the commits of new moves, the transactions
// spread over most of the next foldEvery (foldPace), with each table's
// moves of those seconds together (several on one page), and the rows
// folded are then deleted from the log, a range at a time.
//
// The writer is the only one to write moves, so it keeps in memory what
// the log holds (pending, by table, for the reads), and the last move
// stored of each table it has seen (so a move needs no query to show it is
// the next one). Opening the database folds what the log holds first, so
// every row of the log was written by this process.

// foldEvery is how long the log collects moves before they are folded into
// the moves table. A fold costs about the same for each table it stores
// whatever its moves (a page written), so the longer, the less a move
// costs, and the more memory the pending moves take (docs/perf/node.md).
// (A variable for the tests.)
var foldEvery = 9 * time.Second

const (
	// maxFree and maxFreeCap bound what free keeps: that many buffers of
	// at most that many bytes (some hundred moves).
	maxFree    = 1 << 16
	maxFreeCap = 4096
	// foldChunk is about how many moves one folding transaction stores;
	// a move arriving meanwhile waits for it.
	foldChunk = 128
	// deleteChunk is how many rows of the log (commits, of up to maxBatch
	// moves each) one deleting transaction removes: a few hundred KiB of
	// pages, not a generation's megabytes at once (a move arriving
	// meanwhile waits for it).
	deleteChunk = 64
	// foldRetry is how long the fold waits after a step failed (the disk
	// full, say) before it tries again; new moves are stored meanwhile.
	foldRetry = time.Second
)

// moveLog is the SQLite store's log of moves and its writer's memory.
type moveLog struct {
	db *sql.DB
	// folds inserts moves into the moves table; stmts are the writer's
	// other statements (exec).
	folds *runs
	stmts stmtCache[string]
	log   *slog.Logger
	// faults tells log of commits failing (moves refused) and
	// working again, foldFaults of the fold's steps.
	faults, foldFaults *faultLog

	// mu guards cur and folding, which the writer changes and readers
	// (Moves, the move counts) read.
	mu sync.Mutex
	// cur are the moves stored in the log since the generation being
	// folded began, by table, in order.
	cur map[string]packed
	// folding are the moves of the generation being folded, by table,
	// until their table's moves are in the moves table; nil when no fold
	// is under way.
	folding map[string]packed

	// The rest is the writer goroutine's alone.

	// free are the bytes of folded moves, emptied, for cur's next
	// tables, and spare the emptied map of the last generation folded,
	// for the next cur: a busy log's memory of pending moves is used
	// again, not made anew every few seconds.
	free  [][]byte
	spare map[string]packed
	// words are the strings of the moves unpacked to be folded.
	words words

	// last is the number of the last move stored of each table seen.
	last lastMoves
	// toFold are the tables of folding still to fold, in key order.
	toFold []string
	// deleteFrom and deleteTo are the log rows (seq) of the generation
	// folded, still to delete: deleteFrom < seq <= deleteTo.
	deleteFrom, deleteTo int64
	// genStart is when cur began.
	genStart time.Time
	// pace spreads the steps of the fold under way.
	pace foldPace
	// retryAt is when the fold goes on after a step failed.
	retryAt time.Time
	// boxes are the arguments' values the writer keeps boxed.
	boxes boxes
	// Buffers the writer reuses from one commit to the next.
	logged   []byte // the log's row of a commit (appendBatch)
	batch    []appendReq
	moves    []tableMove
	unpacked []Move               // a table's moves to fold (foldStep)
	arg      [1]driver.NamedValue // exec's argument
	refused  []error
	next     map[string]int
}

// newMoveLog folds what the log holds into the moves table and makes the
// writer's memory of it (empty); the writer's statements are prepared
// when first run (stmtCache).
func newMoveLog(ctx context.Context, db *sql.DB) (*moveLog, error) {
	if _, err := db.ExecContext(ctx, `INSERT INTO moves (table_id, n, seat, move, by_whom, at)
		SELECT json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'), json_extract(m.value, '$[2]'),
			json_extract(m.value, '$[3]'), json_extract(m.value, '$[4]'), json_extract(m.value, '$[5]')
		FROM move_batches b, json_each(b.moves) m
		WHERE EXISTS (SELECT 1 FROM tables t WHERE t.id = json_extract(m.value, '$[0]')) ORDER BY 1, 2
		ON CONFLICT (table_id, n) DO NOTHING`); err != nil {
		return nil, fmt.Errorf("store: folding the move log: %w", sqliteFault(err))
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM move_batches`); err != nil {
		return nil, fmt.Errorf("store: emptying the move log: %w", sqliteFault(err))
	}
	var file string // for the log
	if err := db.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return nil, fmt.Errorf("store: naming the database: %w", err)
	}
	l := &moveLog{db: db, log: slog.Default(), cur: map[string]packed{}, last: lastMoves{}, genStart: time.Now(),
		folds:      &runs{query: func(n int) string { return plainQuery("moves", n, " ON CONFLICT (table_id, n) DO NOTHING") }},
		faults:     newFaultLog(file, "moves are refused until it can be written again", "moves are stored again"),
		foldFaults: newFaultLog(file, "the move log is folded into the moves table later", "the move log is folded again"),
	}
	l.folds.bx = &l.boxes
	return l, nil
}

// close releases the prepared statements.
func (l *moveLog) close() {
	l.folds.stmts.close(l.db)
	l.stmts.close(l.db)
}

// exec runs query on c with arg as its one argument (none if nil), the
// statement prepared once (stmtCache): BEGIN, COMMIT and the log's insert
// run for every commit.
func (l *moveLog) exec(ctx context.Context, c *sql.Conn, query string, arg any) error {
	return c.Raw(func(dc any) error {
		st, err := l.stmts.on(ctx, dc, query, sameQuery)
		if err != nil {
			return err
		}
		l.arg[0] = driver.NamedValue{Ordinal: 1, Value: arg}
		args := l.arg[:0]
		if arg != nil {
			args = l.arg[:1]
		}
		_, err = st.ExecContext(ctx, args)
		l.arg[0].Value = nil
		return err
	})
}

// sameQuery is the query of a statement kept by its text.
func sameQuery(q string) string { return q }

// inTx runs f in a transaction on a connection of its own (for runs),
// and commits if f returns no error. The transaction is begun and ended
// by statements of its own rather than a database/sql Tx, and the writer
// passes a context that never ends: a Tx starts a goroutine to watch its
// context, and the driver one for each statement whose context can end,
// which made several goroutines for every commit of the one goroutine
// every move waits on (docs/perf/README.md, "A writer that starts no
// goroutines"). No caller is held by it: each waits for its answer under
// its own deadline (AppendMove).
func (l *moveLog) inTx(ctx context.Context, f func(c *sql.Conn) error) error {
	c, err := l.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := l.exec(ctx, c, "BEGIN", nil); err != nil {
		return err
	}
	err = f(c)
	if err == nil {
		err = l.exec(ctx, c, "COMMIT", nil)
	}
	if err != nil {
		// A failed statement or COMMIT can leave the transaction open;
		// a ROLLBACK with none open only fails, which changes nothing.
		c.ExecContext(context.Background(), "ROLLBACK")
		return err
	}
	return nil
}

// prepareRuns prepares query(n) for n = 1, 2, 4, ... maxBatch.
func prepareRuns(ctx context.Context, db *sql.DB, query func(n int) string) (map[int]*sql.Stmt, error) {
	out := map[int]*sql.Stmt{}
	for n := 1; n <= maxBatch; n *= 2 {
		st, err := db.PrepareContext(ctx, query(n))
		if err != nil {
			for _, st := range out {
				st.Close()
			}
			return nil, fmt.Errorf("store: preparing an insert of %d moves: %w", n, err)
		}
		out[n] = st
	}
	return out, nil
}

// plainQuery inserts n moves (six values each: table, number, seat, move,
// by whom, time) into table, with tail after the values.
func plainQuery(table string, n int, tail string) string {
	var q strings.Builder
	q.WriteString("INSERT INTO " + table + " (table_id, n, seat, move, by_whom, at) VALUES ")
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?)")
	}
	q.WriteString(tail)
	return q.String()
}

// plainArgs appends to args the values plainQuery takes for moves, with
// the boxes bx keeps (nil: boxed anew).
func plainArgs(args []any, moves []tableMove, bx *boxes) []any {
	for _, m := range moves {
		// driver.Values (int64, not int), for runs as for database/sql.
		if bx == nil {
			args = append(args, m.id, int64(m.m.N), int64(m.m.Seat), m.m.Text, m.m.By, micros(m.m.At))
			continue
		}
		args = append(args, kept(&bx.ids, maxRemembered, m.id), boxInt(m.m.N), boxInt(m.m.Seat),
			kept(&bx.words, maxBoxedWords, m.m.Text), kept(&bx.words, maxBoxedWords, m.m.By), micros(m.m.At))
	}
	return args
}

// boxes keeps the values a writer passes as arguments again and again
// (table ids, move texts, who moved) boxed as the driver takes them:
// boxing a string is an allocation, and SQLite's writer passes each move's
// again when it folds the log. A writer's own, not shared.
type boxes struct {
	ids, words map[string]any
}

// maxBoxedWords bounds the move texts and movers kept boxed (past it they
// start over); table ids are bounded as the last moves are
// (maxRemembered).
const maxBoxedWords = 1 << 12

// smallInts are the numbers below 4096 boxed as int64: move numbers and
// seats.
var smallInts = func() (out [4096]any) {
	for i := range out {
		out[i] = int64(i)
	}
	return out
}()

// boxInt returns n boxed as an int64.
func boxInt(n int) any {
	if n >= 0 && n < len(smallInts) {
		return smallInts[n]
	}
	return int64(n)
}

// kept returns s boxed, the box kept in *m, which starts over once it
// holds limit.
func kept(m *map[string]any, limit int, s string) any {
	if v, ok := (*m)[s]; ok {
		return v
	}
	if *m == nil || len(*m) >= limit {
		*m = make(map[string]any)
	}
	v := any(s)
	(*m)[s] = v
	return v
}

// errNotUTF8 refuses a move whose text or mover is not UTF-8, which the
// log's JSON cannot hold as it is (nor can PostgreSQL's text).
var errNotUTF8 = errors.New("its text or mover is not valid UTF-8")

// appendBatch appends the log's row for moves: a JSON array of
// [table_id, n, seat, move, by_whom, at] arrays (at in microseconds), the
// strings valid UTF-8.
func appendBatch(b []byte, moves []tableMove) []byte {
	b = append(b, '[')
	for i, m := range moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonw.AppendString(b, m.id)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.m.N), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.m.Seat), 10)
		b = append(b, ',')
		b = jsonw.AppendString(b, m.m.Text)
		b = append(b, ',')
		b = jsonw.AppendString(b, m.m.By)
		b = append(b, ',')
		b = strconv.AppendInt(b, micros(m.m.At), 10)
		b = append(b, ']')
	}
	return append(b, ']')
}

// tableMove is one move with its table.
type tableMove struct {
	id string
	m  Move
}

// run is the writer: it stores the moves that come in, as many as are
// waiting (up to maxBatch) a transaction, and between those commits it
// folds the log, a chunk at a time, each step once it is due (foldPace)
// and foldFirst lets it go before the moves waiting. It returns once
// appends is closed and drained.
func (l *moveLog) run(appends chan appendReq) {
	tick := time.NewTicker(foldEvery / 4)
	defer tick.Stop()
	// due fires when the next step of the fold is due (l.pace).
	due := time.NewTimer(time.Hour)
	defer due.Stop()
	var p pacer
	stepped := false // a step of the fold since the last commit
	commit := func(r appendReq) {
		l.batch = p.gather(l.batch[:0], r, appends)
		p.commit(len(l.batch), func() { l.commit(l.batch) })
		stepped = false
	}
	for {
		underWay := l.folding != nil || l.deleteTo > l.deleteFrom
		if !underWay && len(l.cur) > 0 && time.Since(l.genStart) >= foldEvery {
			l.startFold()
			underWay = l.folding != nil
		}
		now := time.Now()
		next := l.pace.next()
		if underWay && !now.Before(l.retryAt) && !now.Before(next) && l.foldFirst(len(appends), p.left(), stepped) {
			if l.foldStep() {
				l.pace.taken++
			} else {
				l.retryAt = time.Now().Add(foldRetry)
			}
			stepped = true
			continue
		}
		var dueC <-chan time.Time
		if underWay && now.Before(next) {
			due.Reset(next.Sub(now))
			dueC = due.C
		}
		select {
		case r, ok := <-appends:
			if !ok {
				return
			}
			commit(r)
		case <-tick.C:
		case <-dueC:
		}
	}
}

// foldFirst reports whether the writer takes a step of the fold under way
// before it stores the moves waiting (waiting of them), with linger left
// of the pacer's wait after the last commit, and stepped if it has taken
// a step since that commit. A step goes first when no move waits, and in
// a linger the writer would sleep through anyway; otherwise one step
// follows each commit, so a move waits for one step at most, unless
// lingerBelow moves are backed up: then the moves go first, until the
// fold is late (the next one due).
func (l *moveLog) foldFirst(waiting int, linger time.Duration, stepped bool) bool {
	switch {
	case waiting == 0:
		return true
	case waiting < lingerBelow:
		return linger > 0 || !stepped
	default:
		return !stepped && time.Since(l.genStart) >= foldEvery
	}
}

// commit stores a batch of moves in the log in one transaction, each only
// if its table is there, it is the table's next move and, with a lease
// epoch, the table's lease still has it, and answers each request.
func (l *moveLog) commit(batch []appendReq) {
	batch = liveRequests(batch)
	if len(batch) == 0 {
		return
	}
	ctx := context.Background() // see inTx
	refused := append(l.refused[:0], make([]error, len(batch))...)
	defer func() { l.refused = refused[:0] }()
	if l.next == nil {
		l.next = map[string]int{}
	}
	next := l.next // the last move of each table with this batch's
	defer clear(next)
	moves := l.moves[:0]
	defer func() { l.moves = moves[:0] }()
	err := l.inTx(ctx, func(c *sql.Conn) error {
		for i, r := range batch {
			last, ok := next[r.id]
			if !ok {
				var (
					exists bool
					err    error
				)
				if last, exists, err = l.lastOf(ctx, c, r.id); err != nil {
					return err
				}
				if !exists {
					refused[i] = fmt.Errorf("store: table %s: %w", r.id, ErrNotFound)
					continue
				}
			}
			if r.m.Lease != 0 {
				var epoch int64
				if err := c.QueryRowContext(ctx, `SELECT lease_epoch FROM tables WHERE id = ?`, r.id).Scan(&epoch); err != nil {
					return err
				}
				if epoch != r.m.Lease {
					refused[i] = fmt.Errorf("store: move %d of table %s: %w", r.m.N, r.id, ErrLeaseLost)
					next[r.id] = last
					continue
				}
			}
			if r.m.N != last+1 {
				refused[i] = fmt.Errorf("store: move %d of table %s is not the next one: %w", r.m.N, r.id, ErrConflict)
				next[r.id] = last
				continue
			}
			if !utf8.ValidString(r.m.Text) || !utf8.ValidString(r.m.By) {
				refused[i] = fmt.Errorf("store: move %d of table %s: %w", r.m.N, r.id, errNotUTF8)
				next[r.id] = last
				continue
			}
			next[r.id] = r.m.N
			m := r.m
			m.Lease = 0
			moves = append(moves, tableMove{r.id, m})
		}
		if len(moves) == 0 {
			return nil
		}
		l.logged = appendBatch(l.logged[:0], moves)
		// As bytes, which the driver copies, rather than a string made
		// for it; cast, so that the row is text (json_each reads a blob
		// as SQLite's binary JSON).
		return l.exec(ctx, c, `INSERT INTO move_batches (moves) VALUES (CAST(? AS TEXT))`, l.logged)
	})
	// A commit that failed changed nothing, in the database or here: its
	// moves are refused, and the next commit starts from the same memory.
	if err != nil {
		err = sqliteFault(err)
		l.faults.failed(l.log, err, len(batch))
	} else {
		l.faults.ok(l.log)
		for id, n := range next {
			l.last.note(id, n)
		}
		l.mu.Lock()
		for _, m := range moves {
			p, ok := l.cur[m.id]
			if !ok && len(l.free) > 0 {
				p.b, l.free = l.free[len(l.free)-1], l.free[:len(l.free)-1]
			}
			l.cur[m.id] = p.add(m.m)
		}
		l.mu.Unlock()
	}
	answer(batch, func(i int) error {
		switch {
		case refused[i] != nil:
			return refused[i]
		case err != nil:
			return fmt.Errorf("store: appending move %d of table %s: %w", batch[i].m.N, batch[i].id, err)
		default:
			return nil
		}
	})
}

// maxRemembered bounds a writer's memory of tables' last moves (about
// 100 bytes a table); past it the memory starts over, and each table's
// next move is looked up once more.
const maxRemembered = 1 << 17

// lastMoves is a writer's memory of the number of the last move stored of
// each table, of at most maxRemembered tables.
type lastMoves map[string]int

// note remembers n as table id's last move.
func (m lastMoves) note(id string, n int) {
	if _, ok := m[id]; !ok && len(m) >= maxRemembered {
		clear(m)
	}
	m[id] = n
}

// lastOf returns the number of the last move stored of table id (-1 for
// none) and whether the table is there at all.
func (l *moveLog) lastOf(ctx context.Context, c *sql.Conn, id string) (last int, exists bool, err error) {
	if n, ok := l.last[id]; ok {
		return n, true, nil
	}
	return l.lookUpLast(ctx, c, id)
}

// lookUpLast is lastOf for a table not remembered: a query (its results'
// addresses go to Scan, so they are on the heap, which a remembered
// table's answer need not be).
func (l *moveLog) lookUpLast(ctx context.Context, c *sql.Conn, id string) (last int, exists bool, err error) {
	if err := c.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tables WHERE id = ?),
		COALESCE((SELECT MAX(n) FROM moves WHERE table_id = ?), -1)`, id, id).Scan(&exists, &last); err != nil {
		return 0, false, err
	}
	// The pending moves are the writer's own: no lock to read them.
	for _, p := range []packed{l.folding[id], l.cur[id]} {
		if p.n > 0 {
			last = max(last, p.last)
		}
	}
	if exists {
		l.last.note(id, last)
	}
	return last, exists, nil
}

// startFold makes the moves stored so far the generation to fold.
func (l *moveLog) startFold() {
	// The log holds this generation's rows only (the last one's are
	// deleted), so they are its rows from the first to the last. (Its
	// numbers start over at 1 when it has been emptied.)
	var first, last sql.NullInt64
	if err := l.db.QueryRow(`SELECT MIN(seq), MAX(seq) FROM move_batches`).Scan(&first, &last); err != nil {
		l.foldFaults.failed(l.log, sqliteFault(err), 1)
		l.genStart = time.Now()
		return
	}
	next := l.spare
	if next == nil {
		next = map[string]packed{}
	}
	l.mu.Lock()
	l.folding, l.cur, l.spare = l.cur, next, nil
	l.mu.Unlock()
	l.toFold = make([]string, 0, len(l.folding))
	moves := 0
	for id, p := range l.folding {
		l.toFold = append(l.toFold, id)
		moves += p.n
	}
	slices.Sort(l.toFold)
	l.deleteFrom, l.deleteTo = first.Int64-1, last.Int64
	l.genStart = time.Now()
	l.pace = foldPace{began: l.genStart, planned: foldSteps(moves, int(l.deleteTo-l.deleteFrom))}
}

// foldSteps returns how many steps at most fold a generation of moves
// moves in rows rows of the log: each storing step but the last stores
// foldChunk moves or more, and each deleting step deletes deleteChunk
// rows.
func foldSteps(moves, rows int) int {
	return (moves+foldChunk-1)/foldChunk + (rows+deleteChunk-1)/deleteChunk
}

// foldSpread is the part of foldEvery a fold's steps are spread over, so
// that it ends before the next one is due.
const foldSpread = 2.0 / 3

// foldPace spreads a fold's steps evenly over foldSpread of foldEvery from
// its start, rather than taking one after every commit until the fold is
// done. Every foldEvery the fold stores the log's moves of those seconds
// again (about a page a table) and a checkpoint copies those pages: taken
// as fast as the commits allow, that work came in a burst once every
// foldEvery that held the processors, and the moves of that burst waited
// for them (docs/perf/node.md). Spread, the same work leaves the
// processors room for the moves throughout. A step the pace has fallen
// behind on (a fold whose steps failed, or more of them than planned)
// goes as soon as the writer may take one.
type foldPace struct {
	began          time.Time // when the fold started
	planned, taken int       // its steps planned, and taken so far
}

// next returns when the fold's next step is due.
func (f *foldPace) next() time.Time {
	if f.planned <= 0 || f.taken >= f.planned {
		return f.began
	}
	spread := time.Duration(float64(foldEvery) * foldSpread)
	return f.began.Add(spread * time.Duration(f.taken) / time.Duration(f.planned))
}

// foldStep does one transaction of the fold under way: stores the moves
// of the next tables (about foldChunk moves) in the moves table, or, once
// all are there, deletes the next rows of the log. It reports whether the
// step was done; one that failed is tried again later.
func (l *moveLog) foldStep() bool {
	ctx := context.Background()
	if len(l.toFold) > 0 {
		moves := make([]tableMove, 0, foldChunk+16)
		k := 0
		for ; k < len(l.toFold) && len(moves) < foldChunk; k++ {
			id := l.toFold[k]
			l.unpacked = l.folding[id].unpack(l.unpacked[:0], l.words.str)
			for _, m := range l.unpacked {
				moves = append(moves, tableMove{id, m})
			}
		}
		// Each table's moves were unpacked over the last's: clear them
		// all, not only the last table's, to keep no strings alive.
		clear(l.unpacked[:cap(l.unpacked)])
		err := l.inTx(ctx, func(c *sql.Conn) error {
			return l.folds.insert(ctx, c, moves)
		})
		if err != nil {
			l.foldFaults.failed(l.log, sqliteFault(err), 1)
			return false
		}
		l.foldFaults.ok(l.log)
		l.mu.Lock()
		for _, id := range l.toFold[:k] {
			if p := l.folding[id]; cap(p.b) <= maxFreeCap && len(l.free) < maxFree {
				l.free = append(l.free, p.b[:0])
			}
			delete(l.folding, id)
		}
		l.toFold = l.toFold[k:]
		if len(l.toFold) == 0 {
			l.spare, l.folding = l.folding, nil
		}
		l.mu.Unlock()
		return true
	}
	to := min(l.deleteTo, l.deleteFrom+deleteChunk)
	if _, err := l.db.ExecContext(ctx, `DELETE FROM move_batches WHERE seq > ? AND seq <= ?`, l.deleteFrom, to); err != nil {
		l.foldFaults.failed(l.log, sqliteFault(err), 1)
		return false
	}
	l.foldFaults.ok(l.log)
	l.deleteFrom = to
	return true
}

// pending returns table id's moves in the log, in order.
func (l *moveLog) pending(id string) []Move {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, c := l.folding[id], l.cur[id]
	if f.n+c.n == 0 {
		return nil
	}
	return c.unpack(f.unpack(make([]Move, 0, f.n+c.n), copied), copied)
}

// counts returns, for each table with moves in the log, how many moves it
// has stored; only id's if id is not "". A reader takes them before it
// reads the moves table, so a fold meanwhile leaves the moves in one of
// the two.
func (l *moveLog) counts(id string) map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	add := func(id string, p packed) {
		if p.n > 0 {
			out[id] = max(out[id], p.last+1)
		}
	}
	for _, m := range []map[string]packed{l.folding, l.cur} {
		if id != "" {
			add(id, m[id])
			continue
		}
		for id, p := range m {
			add(id, p)
		}
	}
	return out
}
