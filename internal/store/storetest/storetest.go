// Package storetest is the contract test suite every store.Store passes.
// The store package runs it against SQLite and against a real PostgreSQL
// server.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"parlour/internal/store"
)

// Opener opens a store on one database, which the suite makes fresh and
// empty for each of its tests. Called again, it opens the same database
// again: the suite checks what survives closing a store and opening it
// again, and runs two stores on one database as two nodes of a cluster.
// The caller closes the store it returns.
type Opener func(t *testing.T) store.Store

// DSN returns the databases of newDSN for Run: newDSN returns a DSN for
// store.Open naming a fresh, empty database each time it is called, and
// its Opener opens that DSN.
func DSN(newDSN func(t *testing.T) string) func(t *testing.T) Opener {
	return func(t *testing.T) Opener {
		dsn := newDSN(t)
		return func(t *testing.T) store.Store {
			t.Helper()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatalf("store.Open: %v", err)
			}
			return s
		}
	}
}

// Run runs the contract suite. newDB makes a fresh, empty database for
// each test and returns its Opener (DSN makes them from DSNs; a store
// that is no database, such as a test's store in memory, passes its own).
func Run(t *testing.T, newDB func(t *testing.T) Opener) {
	tests := []struct {
		name string
		run  func(t *testing.T, db Opener)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"CreateTwiceRefused", testCreateTwice},
		{"MissingTable", testMissing},
		{"Update", testUpdate},
		{"MovesInOrder", testMoves},
		{"MovesOutOfOrderRefused", testMovesOutOfOrder},
		{"Query", testQuery},
		{"CallersKeepTheirValues", testCopies},
		{"ConcurrentTables", testConcurrent},
		{"SurvivesReopen", testReopen},
		{"MoveCount", testMoveCount},
		{"Leases", testLeases},
		{"FencedWrites", testFenced},
		{"Nodes", testNodes},
		{"DeleteWaiting", testDelete},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newDB(t)) })
	}
}

// open opens a store on db, closed when the test ends.
func (db Opener) open(t *testing.T) store.Store {
	t.Helper()
	s := db(t)
	t.Cleanup(func() { s.Close() })
	return s
}

func sample(id string) *store.Table {
	return &store.Table{
		ID:       id,
		Game:     "golf",
		Options:  map[string]any{"players": 3, "holes": 1, "dealer": 2},
		Seed:     1<<63 + 12345, // does not fit an int64: stored bit for bit
		Settings: json.RawMessage(`{"clock_ms":1500,"standin":"random"}`),
		Seats: []store.Seat{
			{Kind: store.KindHuman, Name: "Ann", TokenHash: "ab12"},
			{Kind: store.KindHuman},
			{Kind: store.KindBot, Bot: "random", Name: "random bot"},
		},
		Status:    store.StatusWaiting,
		CreatedAt: time.Now().Add(-time.Minute).Truncate(time.Microsecond),
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameTable(t *testing.T, got, want *store.Table) {
	t.Helper()
	if got.ID != want.ID || got.Game != want.Game || got.Seed != want.Seed || got.Status != want.Status ||
		got.RematchOf != want.RematchOf || got.Rematch != want.Rematch {
		t.Errorf("table = %+v, want %+v", got, want)
	}
	if a, b := jsonOf(t, got.Options), jsonOf(t, want.Options); a != b {
		t.Errorf("options = %s, want %s", a, b)
	}
	if !reflect.DeepEqual(got.Seats, want.Seats) {
		t.Errorf("seats = %+v, want %+v", got.Seats, want.Seats)
	}
	if a, b := compact(t, got.Settings), compact(t, want.Settings); a != b {
		t.Errorf("settings = %s, want %s", a, b)
	}
	if a, b := compact(t, got.Result), compact(t, want.Result); a != b {
		t.Errorf("result = %s, want %s", a, b)
	}
	if !got.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("created at %v, want %v", got.CreatedAt, want.CreatedAt)
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("stored JSON %q: %v", raw, err)
	}
	return jsonOf(t, v)
}

func testCreateAndRead(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	want := sample("t1")
	if err := s.CreateTable(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, want)
	if got.Result != nil {
		t.Errorf("a new table has result %s", got.Result)
	}
	if n, ok := got.Options["players"].(json.Number); !ok || n.String() != "3" {
		t.Errorf("options[players] = %#v, want json.Number 3", got.Options["players"])
	}
	moves, err := s.Moves(ctx, "t1")
	if err != nil || moves == nil || len(moves) != 0 {
		t.Errorf("moves of a new table = %v, %v; want an empty list", moves, err)
	}
}

func testCreateTwice(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	other := sample("t1")
	other.Game = "damn"
	if err := s.CreateTable(ctx, other); !errors.Is(err, store.ErrExists) {
		t.Fatalf("creating t1 again: %v, want ErrExists", err)
	}
	got, err := s.Table(ctx, "t1")
	if err != nil || got.Game != "golf" {
		t.Fatalf("after a refused create: %v %v", got, err)
	}
}

func testMissing(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if _, err := s.Table(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Table: %v, want ErrNotFound", err)
	}
	if _, err := s.Moves(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Moves: %v, want ErrNotFound", err)
	}
	if err := s.AppendMove(ctx, "nope", store.Move{N: 0, Text: "draw stock"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendMove: %v, want ErrNotFound", err)
	}
	if err := s.UpdateTable(ctx, sample("nope")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateTable: %v, want ErrNotFound", err)
	}
}

func testUpdate(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	tb := sample("t1")
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	tb.Seats[1] = store.Seat{Kind: store.KindHuman, Name: "Bob", TokenHash: "cd34"}
	tb.Status = store.StatusOver
	tb.Result = json.RawMessage(`{"over":true,"winners":[1],"totals":[3,-2,7]}`)
	tb.Rematch = "t2"
	tb.RematchOf = "t0"
	tb.Settings = json.RawMessage(`{"clock_ms":0}`)
	// What never changes is not written by an update.
	changed := *tb
	changed.Game = "damn"
	changed.Seed = 7
	if err := s.UpdateTable(ctx, &changed); err != nil {
		t.Fatal(err)
	}
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, tb)
	if got.UpdatedAt.Before(got.CreatedAt) {
		t.Errorf("updated %v before created %v", got.UpdatedAt, got.CreatedAt)
	}
}

func testMoves(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, sample("t2")); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Truncate(time.Microsecond).UTC()
	want := []store.Move{
		{N: 0, Seat: 1, Text: "reveal 0", At: at},
		{N: 1, Seat: 0, Text: "reveal 2", By: "standin", At: at.Add(time.Millisecond)},
		{N: 2, Seat: 2, Text: "reveal 1", By: "bot", At: at.Add(2 * time.Millisecond)},
		{N: 3, Seat: 1, Text: "draw stock", By: "clock", At: at.Add(3 * time.Millisecond)},
	}
	for _, m := range want {
		if err := s.AppendMove(ctx, "t1", m); err != nil {
			t.Fatalf("move %d: %v", m.N, err)
		}
	}
	if err := s.AppendMove(ctx, "t2", store.Move{N: 0, Seat: 2, Text: "reveal 2"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Moves(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d moves, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].N != want[i].N || got[i].Seat != want[i].Seat || got[i].Text != want[i].Text ||
			got[i].By != want[i].By || !got[i].At.Equal(want[i].At) {
			t.Errorf("move %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	other, err := s.Moves(ctx, "t2")
	if err != nil || len(other) != 1 || other[0].Text != "reveal 2" || other[0].At.IsZero() {
		t.Errorf("moves of t2 = %+v, %v", other, err)
	}
}

func testMovesOutOfOrder(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 1, Text: "skipped one"}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a gap: %v, want ErrConflict", err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 0, Text: "first"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 0, Text: "first again"}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a repeated number: %v, want ErrConflict", err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: -1, Text: "before all"}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a negative number: %v, want ErrConflict", err)
	}
	got, err := s.Moves(ctx, "t1")
	if err != nil || len(got) != 1 || got[0].Text != "first" {
		t.Errorf("after refused moves: %+v, %v", got, err)
	}
}

func testQuery(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	base := time.Now().Add(-time.Hour).Truncate(time.Microsecond)
	statuses := []string{store.StatusWaiting, store.StatusPlaying, store.StatusOver, store.StatusPlaying, store.StatusWaiting}
	for i, st := range statuses {
		tb := sample(fmt.Sprintf("t%d", i))
		tb.Status = st
		tb.CreatedAt = base.Add(time.Duration(len(statuses)-i) * time.Second) // newest first
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(ts []*store.Table) []string {
		out := []string{}
		for _, x := range ts {
			out = append(out, x.ID)
		}
		return out
	}
	all, err := s.Tables(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(all), []string{"t4", "t3", "t2", "t1", "t0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("all tables = %v, want %v (oldest first)", got, want)
	}
	live, err := s.Tables(ctx, store.Query{Status: []string{store.StatusWaiting, store.StatusPlaying}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(live), []string{"t4", "t3", "t1", "t0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unfinished tables = %v, want %v", got, want)
	}
	two, err := s.Tables(ctx, store.Query{Status: []string{store.StatusPlaying, store.StatusOver}, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(two), []string{"t3", "t2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("limited = %v, want %v", got, want)
	}
	newest, err := s.Tables(ctx, store.Query{Status: []string{store.StatusWaiting, store.StatusOver}, Limit: 2, Newest: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(newest), []string{"t0", "t2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("newest first = %v, want %v", got, want)
	}
	none, err := s.Tables(ctx, store.Query{Status: []string{"nonesuch"}})
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("no match = %v, %v; want an empty list", none, err)
	}
	if len(all) > 0 {
		sameTable(t, all[4], func() *store.Table {
			tb := sample("t0")
			tb.CreatedAt = base.Add(5 * time.Second)
			return tb
		}())
	}
}

// testCopies checks that a store shares no memory with its callers: a
// table or a move changed by its caller after a write or a read changes
// nothing stored.
func testCopies(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	tb := sample("t1")
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	want := sample("t1")
	want.CreatedAt = tb.CreatedAt
	tb.Seats[1].Name = "changed after the create"
	tb.Options["players"] = 4
	tb.Settings[2] = 'X'
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, want)
	got.Seats[0].Name = "changed after the read"
	got.Options["holes"] = 9
	got.Settings[2] = 'X'
	again, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, again, want)

	at := time.Now().Truncate(time.Microsecond)
	if err := s.AppendMove(ctx, "t1", store.Move{N: 0, Seat: 1, Text: "reveal 0", At: at}); err != nil {
		t.Fatal(err)
	}
	moves, err := s.Moves(ctx, "t1")
	if err != nil || len(moves) != 1 {
		t.Fatalf("moves: %+v, %v", moves, err)
	}
	moves[0].Text = "changed after the read"
	if again, err := s.Moves(ctx, "t1"); err != nil || len(again) != 1 || again[0].Text != "reveal 0" {
		t.Errorf("moves after the caller changed its copy: %+v, %v", again, err)
	}
	list, err := s.Tables(ctx, store.Query{})
	if err != nil || len(list) != 1 {
		t.Fatalf("tables: %+v, %v", list, err)
	}
	list[0].Seats[0].Name = "changed after the read"
	if again, err := s.Table(ctx, "t1"); err != nil || again.Seats[0].Name != "Ann" {
		t.Errorf("the table after the caller changed a listed copy: %+v, %v", again, err)
	}
}

func testConcurrent(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	const tables, moves = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, tables)
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("c%d", i)
			if err := s.CreateTable(ctx, sample(id)); err != nil {
				errs <- err
				return
			}
			for n := range moves {
				if err := s.AppendMove(ctx, id, store.Move{N: n, Seat: n % 3, Text: fmt.Sprintf("move %d", n)}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range tables {
		got, err := s.Moves(ctx, fmt.Sprintf("c%d", i))
		if err != nil || len(got) != moves {
			t.Fatalf("table c%d: %d moves, %v", i, len(got), err)
		}
		for n, m := range got {
			if m.N != n || m.Text != fmt.Sprintf("move %d", n) {
				t.Fatalf("table c%d move %d = %+v", i, n, m)
			}
		}
	}
}

func testReopen(t *testing.T, db Opener) {
	ctx := context.Background()
	s := db(t)
	tb := sample("t1")
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if err := s.AppendMove(ctx, "t1", store.Move{N: n, Text: fmt.Sprintf("m%d", n)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening again migrates nothing twice and finds everything.
	s2 := db.open(t)
	got, err := s2.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, tb)
	moves, err := s2.Moves(ctx, "t1")
	if err != nil || len(moves) != 3 || moves[2].Text != "m2" {
		t.Fatalf("moves after reopening: %+v, %v", moves, err)
	}
	if err := s2.AppendMove(ctx, "t1", store.Move{N: 3, Text: "m3"}); err != nil {
		t.Fatalf("appending after reopening: %v", err)
	}
}

func testMoveCount(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if err := s.AppendMove(ctx, "t1", store.Move{N: n, Seat: 0, Text: "draw"}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.Tables(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Moves != 3 || len(list) != 1 || list[0].Moves != 3 {
		t.Fatalf("move count: Table %d, Tables %v; want 3", got.Moves, list)
	}
}

func cluster(t *testing.T, s store.Store) store.Cluster {
	c, ok := s.(store.Cluster)
	if !ok {
		t.Fatalf("%T is not a store.Cluster", s)
	}
	return c
}

func testLeases(t *testing.T, db Opener) {
	s := db.open(t)
	c := cluster(t, s)
	ctx := context.Background()
	rec := sample("t1")
	rec.Lease = store.Lease{Node: "a", TTL: time.Hour}
	if err := s.CreateTable(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if rec.Lease.Epoch != 1 {
		t.Fatalf("a created table's lease has epoch %d, want 1", rec.Lease.Epoch)
	}
	if err := s.CreateTable(ctx, sample("t2")); err != nil { // nobody's: an orphan
		t.Fatal(err)
	}
	if l, ok, err := c.Acquire(ctx, "t1", "b", time.Hour); err != nil || ok || l.Node != "a" || l.Epoch != 1 {
		t.Fatalf("b took a's live lease: %+v %v %v", l, ok, err)
	}
	if l, ok, err := c.Acquire(ctx, "t1", "a", time.Hour); err != nil || !ok || l.Epoch != 1 {
		t.Fatalf("a renewing its own lease: %+v %v %v (the epoch must not change)", l, ok, err)
	}
	if _, _, err := c.Acquire(ctx, "nope", "a", time.Hour); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("acquiring a missing table: %v, want ErrNotFound", err)
	}
	orphans, err := c.Orphans(ctx, 10)
	if err != nil || len(orphans) != 1 || orphans[0] != "t2" {
		t.Fatalf("orphans %v %v, want [t2]", orphans, err)
	}
	held, err := c.Renew(ctx, "a", time.Hour)
	if err != nil || len(held) != 1 || held[0] != "t1" {
		t.Fatalf("a holds %v %v, want [t1]", held, err)
	}
	// A lease that runs out is anyone's, with a new epoch.
	if _, ok, err := c.Acquire(ctx, "t2", "b", time.Millisecond); err != nil || !ok {
		t.Fatalf("b taking the orphan: %v %v", ok, err)
	}
	time.Sleep(20 * time.Millisecond)
	if held, err := c.Renew(ctx, "b", time.Hour); err != nil || len(held) != 0 {
		t.Fatalf("b renewed a lease that ran out: %v %v", held, err)
	}
	l, ok, err := c.Acquire(ctx, "t2", "a", time.Hour)
	if err != nil || !ok || l.Node != "a" || l.Epoch != 2 {
		t.Fatalf("a taking the expired lease: %+v %v %v, want epoch 2", l, ok, err)
	}
	// Released leases are free at once.
	if err := c.Release(ctx, "a", nil); err != nil {
		t.Fatal(err)
	}
	l, ok, err = c.Acquire(ctx, "t1", "b", time.Hour)
	if err != nil || !ok || l.Epoch != 2 {
		t.Fatalf("b taking the released lease: %+v %v %v, want epoch 2", l, ok, err)
	}
	got, err := s.Table(ctx, "t1")
	if err != nil || got.Lease.Node != "b" || got.Lease.Epoch != 2 || !got.Lease.Until.After(time.Now()) {
		t.Fatalf("table t1's lease reads %+v %v", got.Lease, err)
	}
}

func testFenced(t *testing.T, db Opener) {
	s := db.open(t)
	c := cluster(t, s)
	ctx := context.Background()
	rec := sample("t1")
	rec.Lease = store.Lease{Node: "a", TTL: time.Millisecond}
	if err := s.CreateTable(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 0, Text: "draw", Lease: 1}); err != nil {
		t.Fatalf("a move under the lease: %v", err)
	}
	time.Sleep(20 * time.Millisecond)
	if _, ok, err := c.Acquire(ctx, "t1", "b", time.Hour); err != nil || !ok {
		t.Fatalf("b taking over: %v %v", ok, err)
	}
	// a's writes under epoch 1 are refused, and change nothing.
	if err := s.AppendMove(ctx, "t1", store.Move{N: 1, Text: "draw", Lease: 1}); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a stale owner's move: %v, want ErrLeaseLost", err)
	}
	stale := *rec
	stale.Status = store.StatusOver
	if err := s.UpdateTable(ctx, &stale); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a stale owner's update: %v, want ErrLeaseLost", err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 1, Text: "pass", Lease: 2}); err != nil {
		t.Fatalf("the new owner's move: %v", err)
	}
	moves, err := s.Moves(ctx, "t1")
	if err != nil || len(moves) != 2 || moves[1].Text != "pass" {
		t.Fatalf("moves %v %v", moves, err)
	}
	got, _ := s.Table(ctx, "t1")
	if got.Status != store.StatusWaiting {
		t.Fatalf("the stale update was written: status %s", got.Status)
	}
}

func testNodes(t *testing.T, db Opener) {
	s := db.open(t)
	c := cluster(t, s)
	ctx := context.Background()
	if err := c.Heartbeat(ctx, "a", "http://127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Heartbeat(ctx, "a", "http://127.0.0.1:2"); err != nil {
		t.Fatal(err)
	}
	n, err := c.Node(ctx, "a", time.Minute)
	if err != nil || n.Addr != "http://127.0.0.1:2" {
		t.Fatalf("node a: %+v %v", n, err)
	}
	time.Sleep(20 * time.Millisecond)
	if _, err := c.Node(ctx, "a", 10*time.Millisecond); !errors.Is(err, store.ErrNoNode) {
		t.Fatalf("a node not seen lately: %v, want ErrNoNode", err)
	}
	if err := c.Depart(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Node(ctx, "a", time.Minute); !errors.Is(err, store.ErrNoNode) {
		t.Fatalf("a departed node: %v, want ErrNoNode", err)
	}
}
