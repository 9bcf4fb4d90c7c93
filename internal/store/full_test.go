package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordHandler keeps the messages logged through it, with their levels.
type recordHandler struct {
	mu   sync.Mutex
	msgs []string
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Level.String()+" "+r.Message)
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

// with returns the messages logged that hold s.
func (h *recordHandler) with(s string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.msgs {
		if strings.Contains(m, s) {
			out = append(out, m)
		}
	}
	return out
}

// writerMemory is what SQLite's writer keeps of the moves stored: the
// moves in its log, by table, the tables' move counts, and the last move
// of each table it has seen.
type writerMemory struct {
	pending map[string][]Move
	counts  map[string]int
	last    map[string]int
}

// memoryOf returns the writer's memory of tables. The writer must be idle
// (no move on its way, no fold due).
func memoryOf(s *sqlStore, tables []string) writerMemory {
	m := writerMemory{pending: map[string][]Move{}, counts: s.log.counts(""), last: maps.Clone(s.log.last)}
	for _, id := range tables {
		m.pending[id] = s.log.pending(id)
	}
	return m
}

// TestSQLiteCannotWrite checks what a SQLite store does when its database
// cannot be written: full (max_page_count set to the pages it has, so
// that SQLite fails as on a full disk, with SQLITE_FULL) or read-only
// (query_only, SQLITE_READONLY). AppendMove returns an error that matches
// ErrFull or ErrReadOnly; the writer's memory of the moves does not
// change; the failures are told on the log once, not once a move; and
// once the database can be written again the next moves are stored
// without reopening it, and the moves read (before and after reopening)
// are exactly the ones acknowledged.
func TestSQLiteCannotWrite(t *testing.T) {
	for _, tc := range []struct {
		name         string
		break_, mend string // the statements that make the database unwritable, and writable again
		want         error
		says         string // what the log line says
	}{
		{"full", "PRAGMA max_page_count = %d", "PRAGMA max_page_count = 1000000", ErrFull, "the disk is full"},
		{"read-only", "PRAGMA query_only = 1", "PRAGMA query_only = 0", ErrReadOnly, "it is read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(d time.Duration) { foldEvery = d }(foldEvery)
			foldEvery = time.Hour // no fold changes the memory under test
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "p.db")
			st, err := OpenSQLite(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { st.Close() }()
			s := st.(*sqlStore)
			logged := &recordHandler{}
			s.log.log = slog.New(logged) // before the first move: the writer reads it after
			tables := []string{"a", "b", "c"}
			for _, id := range tables {
				if err := s.CreateTable(ctx, &Table{ID: id, Game: "golf", Status: StatusPlaying}); err != nil {
					t.Fatal(err)
				}
			}
			acked := map[string][]Move{}
			appendNext := func(id string) error {
				m := Move{N: len(acked[id]), Seat: len(acked[id]) % 2, Text: fmt.Sprintf("move %d of %s", len(acked[id]), id),
					At: time.UnixMicro(1_700_000_000_000_000 + int64(len(acked[id]))).UTC()}
				err := s.AppendMove(ctx, id, m)
				if err == nil {
					acked[id] = append(acked[id], m)
				}
				return err
			}
			for range 5 {
				for _, id := range tables {
					if err := appendNext(id); err != nil {
						t.Fatal(err)
					}
				}
			}

			// Unwritable: the moves go on until one is refused (a full
			// database takes moves as long as its pages have room).
			stmt := tc.break_
			if strings.Contains(stmt, "%d") {
				var pages int
				if err := s.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
					t.Fatal(err)
				}
				stmt = fmt.Sprintf(stmt, pages)
			}
			if _, err := s.db.Exec(stmt); err != nil {
				t.Fatal(err)
			}
			var refused error
			for k := 0; refused == nil && k < 10000; k++ {
				refused = appendNext(tables[k%len(tables)])
			}
			if refused == nil {
				t.Fatalf("%s: 10000 moves stored after %q", tc.name, stmt)
			}
			if !errors.Is(refused, tc.want) {
				t.Fatalf("a move refused after %q: %v, want %v", stmt, refused, tc.want)
			}
			if errors.Is(refused, ErrConflict) || errors.Is(refused, ErrNotFound) {
				t.Fatalf("a move refused after %q: %v, matches a refusal of the move itself", stmt, refused)
			}
			mem := memoryOf(s, tables)
			for _, id := range tables {
				if got, want := mem.counts[id], len(acked[id]); got != want {
					t.Fatalf("%s: the writer counts %d moves, %d acknowledged", id, got, want)
				}
			}
			const again = 20 // rounds of moves refused
			for range again {
				for _, id := range tables {
					if err := appendNext(id); !errors.Is(err, tc.want) {
						t.Fatalf("a move of %s while unwritable: %v, want %v", id, err, tc.want)
					}
				}
			}
			if after := memoryOf(s, tables); !reflect.DeepEqual(after, mem) {
				t.Fatalf("the writer's memory changed with moves refused:\nbefore %+v\nafter  %+v", mem, after)
			}
			for _, id := range tables {
				rec, err := s.Table(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				moves, err := s.Moves(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if rec.Moves != len(acked[id]) || !reflect.DeepEqual(moves, acked[id]) {
					t.Fatalf("%s while unwritable: %d moves counted, %d read, %d acknowledged", id, rec.Moves, len(moves), len(acked[id]))
				}
			}
			if told := logged.with(tc.says); len(told) != 1 || !strings.HasPrefix(told[0], "ERROR ") {
				t.Errorf("%d moves refused: told on the log as %q, want one error saying %q", again*len(tables)+1, told, tc.says)
			}

			// Writable again: the moves are stored, with no reopening.
			if _, err := s.db.Exec(tc.mend); err != nil {
				t.Fatal(err)
			}
			for range 5 {
				for _, id := range tables {
					if err := appendNext(id); err != nil {
						t.Fatalf("a move of %s once writable again: %v", id, err)
					}
				}
			}
			if told := logged.with("the database can be written again"); len(told) != 1 || !strings.HasPrefix(told[0], "WARN ") {
				t.Errorf("writable again: told on the log as %q, want one warning", told)
			}
			check := func(when string, st Store) {
				t.Helper()
				for _, id := range tables {
					moves, err := st.Moves(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(moves, acked[id]) {
						t.Errorf("%s: moves of %s read %v\nwant the acknowledged %v", when, id, moves, acked[id])
					}
				}
			}
			check("writable again", s)
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if st, err = OpenSQLite(ctx, path); err != nil {
				t.Fatal(err)
			}
			check("reopened", st)
		})
	}
}

// TestSQLiteFullFolds checks that a full database's failing fold neither
// loses nor repeats a move: with folds every few milliseconds, moves are
// stored until the database is full, refused a while, and stored once
// it has room; then the log is folded whole, and the moves read, before
// and after reopening, are exactly the ones acknowledged.
func TestSQLiteFullFolds(t *testing.T) {
	defer func(d time.Duration) { foldEvery = d }(foldEvery)
	foldEvery = 10 * time.Millisecond
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	s := st.(*sqlStore)
	logged := &recordHandler{}
	s.log.log = slog.New(logged)
	const tables = 40
	acked := make([][]Move, tables)
	appendNext := func(i int) error {
		m := Move{N: len(acked[i]), Text: fmt.Sprintf("a move of %d (%d) %s", i, len(acked[i]), strings.Repeat("x", 40)),
			At: time.UnixMicro(1_700_000_000_000_000).UTC()}
		err := s.AppendMove(ctx, fmt.Sprint("t", i), m)
		if err == nil {
			acked[i] = append(acked[i], m)
		}
		return err
	}
	for i := range tables {
		if err := s.CreateTable(ctx, &Table{ID: fmt.Sprint("t", i), Game: "golf", Status: StatusPlaying}); err != nil {
			t.Fatal(err)
		}
	}
	var pages int
	if err := s.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+8)); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for k := 0; refused < 50 && k < 20000; k++ {
		if err := appendNext(k % tables); err != nil {
			if !errors.Is(err, ErrFull) {
				t.Fatalf("a move refused with the database full: %v, want ErrFull", err)
			}
			refused++
		}
	}
	if refused < 50 {
		t.Fatalf("%d moves refused of 20000 with the database at %d pages", refused, pages+8)
	}
	if _, err := s.db.Exec(`PRAGMA max_page_count = 1000000`); err != nil {
		t.Fatal(err)
	}
	for k := range 5 * tables {
		if err := appendNext(k % tables); err != nil {
			t.Fatalf("a move once the database has room: %v", err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var logged int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM move_batches`).Scan(&logged); err != nil {
			t.Fatal(err)
		}
		if logged == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rows still in the move log 10s after the database had room", logged)
		}
		time.Sleep(20 * time.Millisecond)
	}
	check := func(when string, st Store) {
		t.Helper()
		for i := range tables {
			moves, err := st.Moves(ctx, fmt.Sprint("t", i))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(moves, acked[i]) {
				t.Fatalf("%s: %d moves of t%d read, want the %d acknowledged", when, len(moves), i, len(acked[i]))
			}
		}
	}
	check("folded", s)
	// Each failure is told at once, and so is its end (the next line of
	// a failure going on would come faultEvery later). A fold frees pages
	// of the log, so a full database may take a commit between refusals:
	// failure and end may come more than once, in turn.
	toldInTurn(t, logged.with("moves are"), "moves are refused", "moves are stored again", 1)
	toldInTurn(t, logged.with("the move log is folded"), "folded into the moves table later", "folded again", 0)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = OpenSQLite(ctx, path); err != nil {
		t.Fatal(err)
	}
	check("reopened", st)
	var n int
	if err := st.(*sqlStore).db.QueryRow(`SELECT COUNT(*) FROM moves`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, a := range acked {
		total += len(a)
	}
	if n != total {
		t.Errorf("%d moves in the moves table, %d acknowledged", n, total)
	}
}

// toldInTurn checks lines, a faultLog's, for a failure (lines with fail)
// and its end (with back) told in turn, starting with a failure: at least
// least failures, no more than faultBurst lines in all, and the last
// failure's end told unless the burst ran out.
func toldInTurn(t *testing.T, lines []string, fail, back string, least int) {
	t.Helper()
	for i, l := range lines {
		want := fail
		if i%2 == 1 {
			want = back
		}
		if !strings.Contains(l, want) {
			t.Errorf("line %d of %q: want one with %q", i+1, lines, want)
		}
	}
	switch {
	case len(lines) < 2*least:
		t.Errorf("told on the log as %q: want %q at least %d times, each with %q after it", lines, fail, least, back)
	case len(lines) > faultBurst:
		t.Errorf("told on the log as %q: more than %d lines", lines, faultBurst)
	case len(lines)%2 == 1 && len(lines) < faultBurst:
		t.Errorf("told on the log as %q: the last failure's end is not", lines)
	}
}

// TestFaultLog checks how often a faultLog tells: a failure going on
// once, a failure, its end and a new failure each at once, and a write
// failing and working in turn no more than faultBurst lines (and one
// more if the test took over faultEvery).
func TestFaultLog(t *testing.T) {
	h := &recordHandler{}
	log := slog.New(h)
	f := newFaultLog("p.db", "moves are refused", "moves are stored")
	f.ok(log)
	for range 1000 {
		f.failed(log, fmt.Errorf("committing: %w", ErrFull), 1)
	}
	if got := h.with(""); len(got) != 1 || got[0] != "ERROR "+ErrFull.Error()+"; moves are refused" {
		t.Fatalf("1000 failures told as %q, want one error line", got)
	}
	f.ok(log)
	f.ok(log)
	f.failed(log, errors.New("disk I/O error"), 1)
	want := []string{"ERROR " + ErrFull.Error() + "; moves are refused", "WARN the database can be written again; moves are stored",
		"ERROR a write to the database failed; moves are refused"}
	if got := h.with(""); !reflect.DeepEqual(got, want) {
		t.Fatalf("a failure, its end and a new one told as %q, want %q", got, want)
	}
	start := time.Now()
	for range 1000 {
		f.ok(log)
		f.failed(log, ErrReadOnly, 1)
	}
	limit := faultBurst - len(want)
	if time.Since(start) > faultEvery {
		limit++
	}
	if got := len(h.with("")) - len(want); got > limit || got < 1 {
		t.Errorf("1000 failures and ends in turn told in %d lines, want 1 to %d", got, limit)
	}
}
