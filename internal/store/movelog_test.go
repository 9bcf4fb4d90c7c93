package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// logRows returns how many rows SQLite's move log and moves table hold.
func logRows(t *testing.T, s *sqlStore) (log, moves int) {
	t.Helper()
	if err := s.db.QueryRow(`SELECT (SELECT COALESCE(SUM(json_array_length(moves)), 0) FROM move_batches), (SELECT COUNT(*) FROM moves)`).Scan(&log, &moves); err != nil {
		t.Fatal(err)
	}
	return log, moves
}

// TestMoveLogFolds checks that moves stored through the log reach the
// moves table by a fold, that the log is emptied, and that reads see every
// move before, during and after.
func TestMoveLogFolds(t *testing.T) {
	defer func(d time.Duration) { foldEvery = d }(foldEvery)
	foldEvery = 50 * time.Millisecond
	ctx := context.Background()
	st, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	const tables, moves = 40, 30
	for i := range tables {
		if err := s.CreateTable(ctx, &Table{ID: fmt.Sprint("t", i), Game: "golf", Status: StatusPlaying}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range tables {
		id := fmt.Sprint("t", i)
		wg.Go(func() {
			for n := range moves {
				if err := s.AppendMove(ctx, id, Move{N: n, Seat: n % 2, Text: fmt.Sprint("m", n)}); err != nil {
					t.Error(err)
					return
				}
				// Every read sees each move stored so far, once, in order.
				got, err := s.Moves(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) != n+1 {
					t.Errorf("%s after move %d: %d moves read", id, n, len(got))
					return
				}
				for k, m := range got {
					if m.N != k || m.Text != fmt.Sprint("m", k) {
						t.Errorf("%s move %d read as %+v", id, k, m)
						return
					}
				}
				if rec, err := s.Table(ctx, id); err != nil || rec.Moves != n+1 {
					t.Errorf("%s after move %d: Table says %v moves (%v)", id, n, rec, err)
					return
				}
				if n%7 == 0 {
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		log, all := logRows(t, s)
		if log == 0 && all == tables*moves {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after folding: %d rows in the log, %d in moves; want 0 and %d", log, all, tables*moves)
		}
		time.Sleep(20 * time.Millisecond)
	}
	list, err := s.Tables(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range list {
		if rec.Moves != moves {
			t.Errorf("%s: %d moves listed, want %d", rec.ID, rec.Moves, moves)
		}
	}
	// A move that is not the next is still refused once folded.
	if err := s.AppendMove(ctx, "t0", Move{N: moves - 1, Text: "again"}); err == nil {
		t.Error("a move number taken (folded) was stored again")
	}
}

// TestMoveLogRecovered checks that a database whose log still holds moves
// (a server killed before the fold, or between the fold and the delete)
// gives every move once after opening, with the log folded (a move of a
// table no longer there is left out).
func TestMoveLogRecovered(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	st := openWithTable(t, path, "t")
	db := st.(*sqlStore).db
	// Moves 0-1 folded, move 1 also still in the log, moves 2-3 in the log only.
	for _, q := range []string{
		`INSERT INTO moves (table_id, n, seat, move, by_whom, at) VALUES ('t', 0, 0, 'a', '', 1), ('t', 1, 1, 'b', '', 2)`,
		`INSERT INTO move_batches (moves) VALUES ('[["t",1,1,"b","",2]]'), ('[["t",2,0,"c","bot",3],["gone",0,0,"x","",3],["t",3,1,"d","",4]]')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	st, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Moves(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "c", "d"}
	if len(got) != len(want) {
		t.Fatalf("moves after opening: %+v, want %v", got, want)
	}
	for i, m := range got {
		if m.N != i || m.Text != want[i] {
			t.Errorf("move %d: %+v, want %q", i, m, want[i])
		}
	}
	if got[2].By != "bot" || got[3].At.UnixMicro() != 4 {
		t.Errorf("recovered moves lost their fields: %+v", got[2:])
	}
	if log, _ := logRows(t, st.(*sqlStore)); log != 0 {
		t.Errorf("%d rows left in the log after opening, want 0", log)
	}
	if err := st.AppendMove(ctx, "t", Move{N: 4, Text: "e"}); err != nil {
		t.Errorf("the next move after the recovered ones: %v", err)
	}
	if err := st.AppendMove(ctx, "t", Move{N: 3, Text: "again"}); err == nil {
		t.Error("a recovered move's number was taken again")
	}
}

// countHandler counts the records logged through it.
type countHandler struct{ n atomic.Int64 }

func (h *countHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (h *countHandler) Handle(context.Context, slog.Record) error { h.n.Add(1); return nil }
func (h *countHandler) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h *countHandler) WithGroup(string) slog.Handler             { return h }

// TestMoveLogFoldFails checks that a fold that keeps failing waits before
// it tries again (no busy loop, no flood of errors), that new moves are
// stored and read meanwhile, and that the fold goes on once it can.
func TestMoveLogFoldFails(t *testing.T) {
	defer func(d time.Duration) { foldEvery = d }(foldEvery)
	foldEvery = 20 * time.Millisecond
	ctx := context.Background()
	st, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	logged := &countHandler{}
	s.log.log = slog.New(logged) // before the first move: the writer reads it after
	if _, err := s.db.Exec(`CREATE TRIGGER no_fold BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'no room'); END`); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, &Table{ID: "t", Game: "golf", Status: StatusPlaying}); err != nil {
		t.Fatal(err)
	}
	for n := range 20 {
		if err := s.AppendMove(ctx, "t", Move{N: n, Text: fmt.Sprint("m", n)}); err != nil {
			t.Fatalf("move %d while the fold fails: %v", n, err)
		}
		time.Sleep(15 * time.Millisecond)
	}
	if got, err := s.Moves(ctx, "t"); err != nil || len(got) != 20 {
		t.Fatalf("moves read while the fold fails: %d (%v), want 20", len(got), err)
	}
	if n := logged.n.Load(); n < 1 || n > 3 {
		t.Errorf("%d errors logged in 0.3 s of a failing fold; want 1 to 3 (one a second)", n)
	}
	if _, err := s.db.Exec(`DROP TRIGGER no_fold`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if log, all := logRows(t, s); log == 0 && all == 20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fold did not go on once it could")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlainArgsBoxes checks that the arguments with the writer's kept
// boxes are those boxed anew, numbers past the boxed ones and strings
// past the bound included, that a box is kept (the same string is the
// same box), and that the words kept are bounded.
func TestPlainArgsBoxes(t *testing.T) {
	at := time.UnixMicro(1_700_000_000_123_456)
	moves := []tableMove{
		{"t1", Move{N: 0, Seat: 1, Text: "draw stock", By: "", At: at}},
		{"t2", Move{N: 4095, Seat: 0, Text: "swap 3", By: "bot", At: at}},
		{"t1", Move{N: 4096, Seat: 7, Text: "swap 3", By: "standin", At: at}},
		{"t1", Move{N: 1 << 40, Seat: 2, Text: "stop", By: "clock", At: at}},
	}
	var bx boxes
	got := plainArgs(nil, moves, &bx)
	if want := plainArgs(nil, moves, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("with boxes %#v\nwant %#v", got, want)
	}
	again := plainArgs(nil, moves, &bx)
	if !reflect.DeepEqual(again, got) {
		t.Fatalf("second time %#v\nwant %#v", again, got)
	}
	if len(bx.ids) != 2 || len(bx.words) != 7 {
		t.Errorf("kept %d ids and %d words, want 2 and 7", len(bx.ids), len(bx.words))
	}
	for i := range maxBoxedWords + 10 {
		m := []tableMove{{"t1", Move{Text: fmt.Sprint("move ", i)}}}
		if v := plainArgs(nil, m, &bx)[3]; v != m[0].m.Text {
			t.Fatalf("move %d: text %v", i, v)
		}
	}
	if len(bx.words) > maxBoxedWords {
		t.Errorf("%d words kept, over the bound %d", len(bx.words), maxBoxedWords)
	}
}

// TestMoveLogStrings checks that moves whose texts and movers need JSON's
// escapes (quotes, backslashes, control characters, <, >, &, U+2028,
// letters past ASCII) come back as they were stored, from the log in
// memory, from the log folded when the database is opened again, and from
// the moves table; and that a text that is not UTF-8 is refused and
// changes nothing.
func TestMoveLogStrings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	st := openWithTable(t, path, `t"1\`)
	texts := []string{`say "hi"`, `back\slash`, "tab\tnew\nline\x00nul", "<b>&amp;</b>", "line\u2028sep", "Zoë ♠ 🂡", "", "swap 3"}
	at := time.UnixMicro(1_700_000_000_000_001).UTC()
	for i, text := range texts {
		m := Move{N: i, Seat: i % 3, Text: text, By: texts[len(texts)-1-i], At: at.Add(time.Duration(i) * time.Microsecond)}
		if err := st.AppendMove(ctx, `t"1\`, m); err != nil {
			t.Fatalf("move %d (%q): %v", i, text, err)
		}
	}
	bad := Move{N: len(texts), Text: "bad \xff byte"}
	if err := st.AppendMove(ctx, `t"1\`, bad); !errors.Is(err, errNotUTF8) {
		t.Errorf("a text not UTF-8: %v, want errNotUTF8", err)
	}
	check := func(when string) {
		t.Helper()
		got, err := st.Moves(ctx, `t"1\`)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(texts) {
			t.Fatalf("%s: %d moves, want %d", when, len(got), len(texts))
		}
		for i, m := range got {
			if m.N != i || m.Seat != i%3 || m.Text != texts[i] || m.By != texts[len(texts)-1-i] || m.At.UnixMicro() != at.UnixMicro()+int64(i) {
				t.Errorf("%s: move %d is %+v", when, i, m)
			}
		}
	}
	check("in the log")
	st.Close()
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check("folded on opening")
	if log, moves := logRows(t, st.(*sqlStore)); log != 0 || moves != len(texts) {
		t.Errorf("after opening: %d moves in the log and %d in the moves table, want 0 and %d", log, moves, len(texts))
	}
}

// TestMoveBatchesMigration checks migration 00006 down and up with moves
// in the log: down folds the batches' moves into the moves table; up
// folds the old log's rows.
func TestMoveBatchesMigration(t *testing.T) {
	ctx := context.Background()
	st := openWithTable(t, filepath.Join(t.TempDir(), "m.db"), "t")
	db := st.(*sqlStore).db
	p := sqliteMigrations(t, db)
	count := func(q string) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := db.Exec(`INSERT INTO move_batches (moves) VALUES ('[["t",0,1,"a \"q\"","",5],["t",1,0,"b","bot",6]]')`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	var text string
	if err := db.QueryRow(`SELECT move FROM moves WHERE table_id = 't' AND n = 0`).Scan(&text); err != nil || text != `a "q"` {
		t.Fatalf("down: move 0 is %q (%v)", text, err)
	}
	if n := count(`SELECT COUNT(*) FROM moves`); n != 2 {
		t.Fatalf("down: %d moves, want 2", n)
	}
	if _, err := db.Exec(`INSERT INTO move_log (table_id, n, seat, move, by_whom, at) VALUES ('t', 2, 1, 'c', '', 7)`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT COUNT(*) FROM moves`); n != 3 {
		t.Errorf("up: %d moves, want 3", n)
	}
	if n := count(`SELECT COUNT(*) FROM move_batches`); n != 0 {
		t.Errorf("up: %d rows in the log, want 0", n)
	}
	st.Close()
}

// openWithTable opens the SQLite database at path with a table id in play.
func openWithTable(t *testing.T, path, id string) Store {
	t.Helper()
	st, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(context.Background(), &Table{ID: id, Game: "golf", Status: StatusPlaying}); err != nil {
		t.Fatal(err)
	}
	return st
}
