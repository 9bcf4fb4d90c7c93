package table

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"parlour/internal/store"
)

// memStore is a store.Store and store.Cluster in memory, for tests inside
// a synctest bubble: the SQLite store starts goroutines and does I/O
// outside the bubble, so the bubble would never be durably blocked and
// fake time would never move.
//
// It keeps what the SQL stores keep, the way they keep it: options, seats,
// settings and result as JSON (options come back with json.Number
// numbers), times to the microsecond in UTC, and every table and move
// copied in and out, so a caller's later changes to a *store.Table reach
// the store only through UpdateTable. Leases and fenced writes follow the
// SQL stores too, with time.Now (the bubble's clock) as the database's
// clock.
type memStore struct {
	mu     sync.Mutex
	tables map[string]*memTable
	nodes  map[string]store.Node
	closed bool
}

type memTable struct {
	id, game         string
	options          string // JSON
	seed             uint64
	settings         string // JSON; "{}" when none
	seats            string // JSON
	status           string
	result           string // JSON; "" before the end
	rematchOf        string
	rematch          string
	created, updated time.Time
	moves            []store.Move
	chat             []store.ChatMessage // the last messages, oldest first
	owner            string              // the lease's node; "" never owned
	epoch            int64               // the lease's epoch; 0 never leased
	until            time.Time           // the lease's end; zero once released
}

var (
	_ store.Store   = (*memStore)(nil)
	_ store.Cluster = (*memStore)(nil)
)

func newMemStore() *memStore {
	return &memStore{tables: map[string]*memTable{}, nodes: map[string]store.Node{}}
}

// memTime is a time as the SQL stores give it back.
func memTime(t time.Time) time.Time { return time.UnixMicro(t.UnixMicro()).UTC() }

// lock takes the store for one call; an error if ctx is done or the store
// is closed.
func (s *memStore) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("memstore: closed")
	}
	return nil
}

// encode is the JSON the SQL stores write for a table's columns.
func memEncode(t *store.Table) (opts, seats, settings, result string, err error) {
	o := t.Options
	if o == nil {
		o = map[string]any{}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return "", "", "", "", fmt.Errorf("memstore: options: %w", err)
	}
	opts = string(b)
	st := t.Seats
	if st == nil {
		st = []store.Seat{}
	}
	if b, err = json.Marshal(st); err != nil {
		return "", "", "", "", fmt.Errorf("memstore: seats: %w", err)
	}
	seats = string(b)
	settings = "{}"
	if len(t.Settings) > 0 {
		if !json.Valid(t.Settings) {
			return "", "", "", "", errors.New("memstore: settings are not JSON")
		}
		settings = string(t.Settings)
	}
	if len(t.Result) > 0 {
		if !json.Valid(t.Result) {
			return "", "", "", "", errors.New("memstore: result is not JSON")
		}
		result = string(t.Result)
	}
	return opts, seats, settings, result, nil
}

// decode returns a fresh store.Table, sharing nothing with the store.
func (r *memTable) decode() (*store.Table, error) {
	t := &store.Table{
		ID: r.id, Game: r.game, Seed: r.seed, Settings: json.RawMessage(r.settings), Status: r.status,
		RematchOf: r.rematchOf, Rematch: r.rematch, CreatedAt: r.created, UpdatedAt: r.updated,
		Moves: len(r.moves), Lease: store.Lease{Node: r.owner, Epoch: r.epoch, Until: r.until},
	}
	dec := json.NewDecoder(strings.NewReader(r.options))
	dec.UseNumber()
	if err := dec.Decode(&t.Options); err != nil {
		return nil, fmt.Errorf("memstore: table %s options: %w", r.id, err)
	}
	if err := json.Unmarshal([]byte(r.seats), &t.Seats); err != nil {
		return nil, fmt.Errorf("memstore: table %s seats: %w", r.id, err)
	}
	if r.result != "" {
		t.Result = json.RawMessage(r.result)
	}
	return t, nil
}

func (s *memStore) CreateTable(ctx context.Context, t *store.Table) error {
	if t.ID == "" {
		return errors.New("memstore: a table needs an id")
	}
	opts, seats, settings, result, err := memEncode(t)
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.tables[t.ID]; ok {
		return fmt.Errorf("memstore: table %s: %w", t.ID, store.ErrExists)
	}
	now := time.Now()
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now
	}
	t.UpdatedAt = now
	// A lease's node gets the first lease; without one the table is
	// nobody's, and an orphan at once.
	var epoch int64
	if t.Lease.Node != "" {
		epoch = 1
	}
	s.tables[t.ID] = &memTable{
		id: t.ID, game: t.Game, options: opts, seed: t.Seed, settings: settings, seats: seats,
		status: t.Status, result: result, rematchOf: t.RematchOf, rematch: t.Rematch,
		created: memTime(t.CreatedAt), updated: memTime(t.UpdatedAt), moves: []store.Move{},
		owner: t.Lease.Node, epoch: epoch, until: memTime(now.Add(t.Lease.TTL)),
	}
	t.Lease.Epoch = epoch
	return nil
}

func (s *memStore) UpdateTable(ctx context.Context, t *store.Table) error {
	_, seats, settings, result, err := memEncode(t)
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[t.ID]
	if !ok {
		return fmt.Errorf("memstore: table %s: %w", t.ID, store.ErrNotFound)
	}
	if t.Lease.Epoch != 0 && t.Lease.Epoch != r.epoch {
		return fmt.Errorf("memstore: table %s: %w", t.ID, store.ErrLeaseLost)
	}
	t.UpdatedAt = time.Now()
	// Game, options, seed and creation time never change.
	r.settings, r.seats, r.status, r.result = settings, seats, t.Status, result
	r.rematchOf, r.rematch, r.updated = t.RematchOf, t.Rematch, memTime(t.UpdatedAt)
	return nil
}

func (s *memStore) AppendMove(ctx context.Context, tableID string, m store.Move) error {
	if m.N < 0 {
		return fmt.Errorf("memstore: move %d of table %s: %w", m.N, tableID, store.ErrConflict)
	}
	if m.At.IsZero() {
		m.At = time.Now()
	}
	m.At = memTime(m.At)
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[tableID]
	if !ok {
		return fmt.Errorf("memstore: table %s: %w", tableID, store.ErrNotFound)
	}
	if m.Lease != 0 && m.Lease != r.epoch {
		return fmt.Errorf("memstore: move %d of table %s: %w", m.N, tableID, store.ErrLeaseLost)
	}
	m.Lease = 0 // not stored
	if m.N != len(r.moves) {
		return fmt.Errorf("memstore: move %d of table %s is not the next one (%d stored): %w", m.N, tableID, len(r.moves), store.ErrConflict)
	}
	r.moves = append(r.moves, m)
	return nil
}

func (s *memStore) Table(ctx context.Context, id string) (*store.Table, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[id]
	if !ok {
		return nil, fmt.Errorf("memstore: table %s: %w", id, store.ErrNotFound)
	}
	return r.decode()
}

func (s *memStore) Moves(ctx context.Context, tableID string) ([]store.Move, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[tableID]
	if !ok {
		return nil, fmt.Errorf("memstore: table %s: %w", tableID, store.ErrNotFound)
	}
	return append([]store.Move{}, r.moves...), nil
}

func (s *memStore) AppendChat(ctx context.Context, tableID string, m store.ChatMessage, keep int) error {
	if m.At.IsZero() {
		m.At = time.Now()
	}
	m.At = memTime(m.At)
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[tableID]
	if !ok {
		return fmt.Errorf("memstore: table %s: %w", tableID, store.ErrNotFound)
	}
	r.chat = append(r.chat, m)
	if keep > 0 && len(r.chat) > keep {
		r.chat = append([]store.ChatMessage{}, r.chat[len(r.chat)-keep:]...)
	}
	return nil
}

func (s *memStore) Chat(ctx context.Context, tableID string, limit int) ([]store.ChatMessage, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[tableID]
	if !ok {
		return nil, fmt.Errorf("memstore: table %s: %w", tableID, store.ErrNotFound)
	}
	from := 0
	if limit > 0 {
		from = max(0, len(r.chat)-limit)
	}
	return append([]store.ChatMessage{}, r.chat[from:]...), nil
}

func (s *memStore) Tables(ctx context.Context, q store.Query) ([]*store.Table, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var rs []*memTable
	for _, r := range s.tables {
		if len(q.Status) == 0 || slices.Contains(q.Status, r.status) {
			rs = append(rs, r)
		}
	}
	// By creation time, then id, as the SQL stores order them.
	slices.SortFunc(rs, func(a, b *memTable) int {
		c := cmp.Or(a.created.Compare(b.created), strings.Compare(a.id, b.id))
		if q.Newest {
			return -c
		}
		return c
	})
	if q.Limit > 0 && len(rs) > q.Limit {
		rs = rs[:q.Limit]
	}
	out := []*store.Table{}
	for _, r := range rs {
		t, err := r.decode()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (s *memStore) Heartbeat(ctx context.Context, id, addr string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.nodes[id] = store.Node{ID: id, Addr: addr, Seen: memTime(time.Now())}
	return nil
}

func (s *memStore) Depart(ctx context.Context, id string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.nodes, id)
	return nil
}

func (s *memStore) Node(ctx context.Context, id string, fresh time.Duration) (store.Node, error) {
	if err := s.lock(ctx); err != nil {
		return store.Node{}, err
	}
	defer s.mu.Unlock()
	n, ok := s.nodes[id]
	if !ok || !n.Seen.After(time.Now().Add(-fresh)) {
		return store.Node{}, fmt.Errorf("memstore: node %s: %w", id, store.ErrNoNode)
	}
	return n, nil
}

func (s *memStore) Acquire(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, bool, error) {
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, false, err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[id]
	if !ok {
		return store.Lease{}, false, fmt.Errorf("memstore: table %s: %w", id, store.ErrNotFound)
	}
	now := time.Now()
	live := r.until.After(now)
	if r.owner == "" || r.owner == node || !live {
		if r.owner != node || !live {
			r.epoch++ // a new owner, or the same one after its lease ran out
		}
		r.owner, r.until = node, memTime(now.Add(ttl))
	}
	return store.Lease{Node: r.owner, Epoch: r.epoch, Until: r.until}, r.owner == node, nil
}

func (s *memStore) Renew(ctx context.Context, node string, ttl time.Duration) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	now := time.Now()
	out := []string{}
	for id, r := range s.tables {
		if r.owner == node && r.until.After(now) {
			r.until = memTime(now.Add(ttl))
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (s *memStore) Release(ctx context.Context, node string, ids []string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for id, r := range s.tables {
		if r.owner == node && (ids == nil || slices.Contains(ids, id)) {
			r.until = time.Time{}
		}
	}
	return nil
}

func (s *memStore) Orphans(ctx context.Context, limit int) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	now := time.Now()
	var rs []*memTable
	for _, r := range s.tables {
		if (r.status == store.StatusWaiting || r.status == store.StatusPlaying) && !r.until.After(now) {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b *memTable) int { return cmp.Or(a.until.Compare(b.until), strings.Compare(a.id, b.id)) })
	out := []string{}
	for _, r := range rs[:min(max(limit, 0), len(rs))] {
		out = append(out, r.id)
	}
	return out, nil
}

func (s *memStore) Ping(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("memstore: closed")
	}
	return nil
}

func (s *memStore) DeleteTable(ctx context.Context, t *store.Table) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.tables[t.ID]
	switch {
	case !ok:
		return fmt.Errorf("memstore: table %s: %w", t.ID, store.ErrNotFound)
	case t.Lease.Epoch != 0 && t.Lease.Epoch != r.epoch:
		return fmt.Errorf("memstore: table %s: %w", t.ID, store.ErrLeaseLost)
	case r.status != store.StatusWaiting:
		return fmt.Errorf("memstore: table %s is %s, not waiting: %w", t.ID, r.status, store.ErrConflict)
	}
	delete(s.tables, t.ID)
	return nil
}

func (s *memStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// TestMemStore holds the memory store to the parts of the store contract
// (internal/store/storetest) the table tests lean on.
func TestMemStore(t *testing.T) {
	ctx := context.Background()
	s := newMemStore()
	sample := func(id string, created time.Time) *store.Table {
		return &store.Table{
			ID: id, Game: "golf", Options: map[string]any{"players": 3, "holes": 1}, Seed: 1<<63 + 12345,
			Settings: json.RawMessage(`{"clock_ms":1500}`),
			Seats:    []store.Seat{{Kind: store.KindHuman, Name: "Ann", TokenHash: "ab12"}, {Kind: store.KindHuman}, {Kind: store.KindBot, Bot: "random"}},
			Status:   store.StatusWaiting, CreatedAt: created,
		}
	}
	base := time.Now().Add(-time.Hour).Truncate(time.Microsecond)
	t1 := sample("t1", base.Add(time.Second))
	if err := s.CreateTable(ctx, t1); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, sample("t1", base)); !errors.Is(err, store.ErrExists) {
		t.Errorf("creating t1 twice: %v, want ErrExists", err)
	}

	// What comes back is a copy, with json.Number options.
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := got.Options["players"].(json.Number); !ok || n.String() != "3" {
		t.Errorf("options[players] = %#v, want json.Number 3", got.Options["players"])
	}
	if got.Seed != t1.Seed || !got.CreatedAt.Equal(t1.CreatedAt) || !reflect.DeepEqual(got.Seats, t1.Seats) || got.Result != nil {
		t.Errorf("read back %+v, stored %+v", got, t1)
	}
	t1.Seats[1].Name = "changed after the create"
	got.Seats[0].Name = "changed after the read"
	got.Settings[2] = 'X'
	if again, _ := s.Table(ctx, "t1"); again.Seats[0].Name != "Ann" || again.Seats[1].Name != "" || string(again.Settings) != `{"clock_ms":1500}` {
		t.Errorf("the store shares memory with its callers: %+v", again)
	}

	// An update writes seats, settings, status, result and links only.
	up := sample("t1", base.Add(time.Hour))
	up.Game, up.Seed, up.Status, up.Rematch = "damn", 7, store.StatusOver, "t9"
	up.Result = json.RawMessage(`{"over":true}`)
	if err := s.UpdateTable(ctx, up); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Table(ctx, "t1")
	if got.Game != "golf" || got.Seed != t1.Seed || !got.CreatedAt.Equal(t1.CreatedAt) || got.Status != store.StatusOver ||
		got.Rematch != "t9" || string(got.Result) != `{"over":true}` || got.UpdatedAt.Before(got.CreatedAt) {
		t.Errorf("after an update: %+v", got)
	}
	if err := s.UpdateTable(ctx, sample("nope", base)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("updating a missing table: %v, want ErrNotFound", err)
	}

	// Moves are numbered from 0 with no gap and no repeat.
	if ms, err := s.Moves(ctx, "t1"); err != nil || ms == nil || len(ms) != 0 {
		t.Errorf("moves of a new table: %v, %v; want an empty list", ms, err)
	}
	for _, n := range []int{1, -1} {
		if err := s.AppendMove(ctx, "t1", store.Move{N: n}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("move %d first: %v, want ErrConflict", n, err)
		}
	}
	at := time.Now()
	for n := range 3 {
		if err := s.AppendMove(ctx, "t1", store.Move{N: n, Seat: n % 2, Text: fmt.Sprint("m", n), By: "bot", At: at}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendMove(ctx, "t1", store.Move{N: 1, Text: "again"}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a repeated number: %v, want ErrConflict", err)
	}
	ms, err := s.Moves(ctx, "t1")
	if err != nil || len(ms) != 3 || ms[2].Text != "m2" || ms[2].By != "bot" || !ms[2].At.Equal(at.Truncate(time.Microsecond)) || ms[2].At.Location() != time.UTC {
		t.Errorf("moves: %+v, %v", ms, err)
	}
	ms[0].Text = "changed"
	if again, _ := s.Moves(ctx, "t1"); again[0].Text != "m0" {
		t.Error("Moves shares its list with the store")
	}
	if _, err := s.Moves(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("moves of a missing table: %v, want ErrNotFound", err)
	}
	if err := s.AppendMove(ctx, "nope", store.Move{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a move of a missing table: %v, want ErrNotFound", err)
	}
	if _, err := s.Table(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a missing table: %v, want ErrNotFound", err)
	}

	// Queries filter by status and order by creation time, then id.
	for i, st := range []string{store.StatusPlaying, store.StatusWaiting, store.StatusPlaying} {
		if err := s.CreateTable(ctx, func() *store.Table {
			x := sample(fmt.Sprint("q", i), base.Add(-time.Duration(i)*time.Second))
			x.Status = st
			return x
		}()); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(q store.Query) []string {
		ts, err := s.Tables(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, x := range ts {
			out = append(out, x.ID)
		}
		return out
	}
	for _, c := range []struct {
		q    store.Query
		want []string
	}{
		{store.Query{}, []string{"q2", "q1", "q0", "t1"}},
		{store.Query{Status: []string{store.StatusPlaying, store.StatusWaiting}}, []string{"q2", "q1", "q0"}},
		{store.Query{Status: []string{store.StatusPlaying, store.StatusOver}, Limit: 2, Newest: true}, []string{"t1", "q0"}},
		{store.Query{Status: []string{"nonesuch"}}, []string{}},
	} {
		if got := ids(c.q); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.q, got, c.want)
		}
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Table(ctx, "t1"); err == nil {
		t.Error("a closed store still answers")
	}
}

// TestMemStoreCluster holds the memory store to the store contract's move
// counts, leases, fenced writes and nodes (internal/store/storetest), in a
// bubble so that leases run out in no time.
func TestMemStoreCluster(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := newMemStore()
		rec := func(id string, l store.Lease) *store.Table {
			return &store.Table{ID: id, Game: "golf", Seats: []store.Seat{{Kind: store.KindHuman}}, Status: store.StatusWaiting, Lease: l}
		}
		t1 := rec("t1", store.Lease{Node: "a", TTL: time.Hour})
		if err := s.CreateTable(ctx, t1); err != nil || t1.Lease.Epoch != 1 {
			t.Fatalf("a created table's lease has epoch %d (%v), want 1", t1.Lease.Epoch, err)
		}
		if err := s.CreateTable(ctx, rec("t2", store.Lease{})); err != nil { // nobody's: an orphan
			t.Fatal(err)
		}
		for n := range 3 {
			if err := s.AppendMove(ctx, "t1", store.Move{N: n, Text: "draw", Lease: 1}); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.Table(ctx, "t1")
		list, _ := s.Tables(ctx, store.Query{})
		if got.Moves != 3 || len(list) != 2 || list[0].Moves != 3 || list[1].Moves != 0 {
			t.Fatalf("move counts: Table %d, Tables %+v", got.Moves, list)
		}
		if got.Lease.Node != "a" || got.Lease.Epoch != 1 || got.Lease.Until.Sub(time.Now()) != time.Hour {
			t.Fatalf("t1's lease reads %+v", got.Lease)
		}

		if l, ok, err := s.Acquire(ctx, "t1", "b", time.Hour); err != nil || ok || l.Node != "a" || l.Epoch != 1 {
			t.Fatalf("b took a's live lease: %+v %v %v", l, ok, err)
		}
		if l, ok, err := s.Acquire(ctx, "t1", "a", time.Hour); err != nil || !ok || l.Epoch != 1 {
			t.Fatalf("a renewing its own lease: %+v %v %v (the epoch must not change)", l, ok, err)
		}
		if _, _, err := s.Acquire(ctx, "nope", "a", time.Hour); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("acquiring a missing table: %v, want ErrNotFound", err)
		}
		if orphans, err := s.Orphans(ctx, 10); err != nil || !slices.Equal(orphans, []string{"t2"}) {
			t.Fatalf("orphans %v %v, want [t2]", orphans, err)
		}
		if held, err := s.Renew(ctx, "a", time.Hour); err != nil || !slices.Equal(held, []string{"t1"}) {
			t.Fatalf("a holds %v %v, want [t1]", held, err)
		}
		// A lease that runs out is anyone's, with a new epoch.
		if _, ok, err := s.Acquire(ctx, "t2", "b", time.Millisecond); err != nil || !ok {
			t.Fatalf("b taking the orphan: %v %v", ok, err)
		}
		time.Sleep(time.Millisecond)
		if held, err := s.Renew(ctx, "b", time.Hour); err != nil || len(held) != 0 {
			t.Fatalf("b renewed a lease that ran out: %v %v", held, err)
		}
		if l, ok, err := s.Acquire(ctx, "t2", "a", time.Hour); err != nil || !ok || l.Node != "a" || l.Epoch != 2 {
			t.Fatalf("a taking the expired lease: %+v %v %v, want epoch 2", l, ok, err)
		}
		// Released leases are free at once.
		if err := s.Release(ctx, "a", []string{"t2"}); err != nil {
			t.Fatal(err)
		}
		if held, _ := s.Renew(ctx, "a", time.Hour); !slices.Equal(held, []string{"t1"}) {
			t.Fatalf("after releasing t2, a holds %v", held)
		}
		if err := s.Release(ctx, "a", nil); err != nil {
			t.Fatal(err)
		}
		if l, ok, err := s.Acquire(ctx, "t1", "b", time.Hour); err != nil || !ok || l.Epoch != 2 {
			t.Fatalf("b taking the released lease: %+v %v %v, want epoch 2", l, ok, err)
		}

		// a's writes under epoch 1 are refused, and change nothing.
		if err := s.AppendMove(ctx, "t1", store.Move{N: 3, Text: "draw", Lease: 1}); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("a stale owner's move: %v, want ErrLeaseLost", err)
		}
		stale := *t1
		stale.Status = store.StatusOver
		if err := s.UpdateTable(ctx, &stale); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("a stale owner's update: %v, want ErrLeaseLost", err)
		}
		if err := s.AppendMove(ctx, "t1", store.Move{N: 3, Text: "pass", Lease: 2}); err != nil {
			t.Fatalf("the new owner's move: %v", err)
		}
		if got, _ := s.Table(ctx, "t1"); got.Status != store.StatusWaiting || got.Moves != 4 {
			t.Fatalf("after the stale writes: %s, %d moves", got.Status, got.Moves)
		}
		if err := s.UpdateTable(ctx, rec("nope", store.Lease{Epoch: 1})); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a fenced update of a missing table: %v, want ErrNotFound", err)
		}

		// Nodes.
		s.Heartbeat(ctx, "a", "http://127.0.0.1:1")
		s.Heartbeat(ctx, "a", "http://127.0.0.1:2")
		if n, err := s.Node(ctx, "a", time.Minute); err != nil || n.Addr != "http://127.0.0.1:2" || !n.Seen.Equal(time.Now()) {
			t.Fatalf("node a: %+v %v", n, err)
		}
		time.Sleep(20 * time.Millisecond)
		if _, err := s.Node(ctx, "a", 10*time.Millisecond); !errors.Is(err, store.ErrNoNode) {
			t.Fatalf("a node not seen lately: %v, want ErrNoNode", err)
		}
		s.Depart(ctx, "a")
		if _, err := s.Node(ctx, "a", time.Minute); !errors.Is(err, store.ErrNoNode) {
			t.Fatalf("a departed node: %v, want ErrNoNode", err)
		}
	})
}

// TestMemStoreChat holds the memory store to the chat contract
// (storetest.RunChat): in order, the last keep kept, the last limit read,
// missing tables refused.
func TestMemStoreChat(t *testing.T) {
	ctx := context.Background()
	s := newMemStore()
	if err := s.CreateTable(ctx, &store.Table{ID: "t1", Game: "golf", Seats: []store.Seat{{Kind: store.KindHuman}}}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Chat(ctx, "t1", 50); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("a new table's chat: %+v, %v; want an empty list", got, err)
	}
	at := time.Date(2026, 11, 25, 10, 0, 0, 123456789, time.Local)
	for i := range 60 {
		m := store.ChatMessage{Seat: i % 2, Name: "P", Text: fmt.Sprint(i), At: at.Add(-time.Duration(i) * time.Second)}
		if err := s.AppendChat(ctx, "t1", m, 50); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Chat(ctx, "t1", 0)
	if err != nil || len(got) != 50 || got[0].Text != "10" || got[49].Text != "59" {
		t.Fatalf("after 60 messages kept to 50: %d, %v", len(got), err)
	}
	if !got[0].At.Equal(memTime(at.Add(-10*time.Second))) || got[0].At.Location() != time.UTC {
		t.Errorf("a message's time: %v, want %v in UTC to the microsecond", got[0].At, at.Add(-10*time.Second))
	}
	if got, _ := s.Chat(ctx, "t1", 3); len(got) != 3 || got[0].Text != "57" || got[2].Text != "59" {
		t.Errorf("the last 3: %+v", got)
	}
	got[0].Text = "changed after the read"
	if again, _ := s.Chat(ctx, "t1", 0); again[0].Text != "10" {
		t.Errorf("the store shares memory with its callers: %+v", again[0])
	}
	if err := s.AppendChat(ctx, "nope", store.ChatMessage{Text: "x"}, 50); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendChat to a missing table: %v", err)
	}
	if _, err := s.Chat(ctx, "nope", 50); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Chat of a missing table: %v", err)
	}
}
