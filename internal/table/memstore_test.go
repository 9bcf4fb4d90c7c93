package table

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/internal/store"
	"parlour/internal/store/storetest"
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
// clock. TestMemStoreContract holds it to the store contract, as the SQL
// stores are held.
type memStore struct {
	*memData
	closed bool // under mu
}

// memData is what a memStore keeps: its database, which reopen shares.
type memData struct {
	mu     sync.Mutex
	tables map[string]*memTable
	nodes  map[string]store.Node
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
	return &memStore{memData: &memData{tables: map[string]*memTable{}, nodes: map[string]store.Node{}}}
}

// reopen returns another store on s's data, as opening its database
// again would: closing one does not close the other.
func (s *memStore) reopen() *memStore { return &memStore{memData: s.memData} }

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

// TestMemStoreContract runs the store contract (internal/store/storetest)
// against the memory store, which the table tests use in place of a
// database.
func TestMemStoreContract(t *testing.T) {
	newDB := func(t *testing.T) storetest.Opener {
		db := newMemStore()
		return func(*testing.T) store.Store { return db.reopen() }
	}
	t.Run("Store", func(t *testing.T) { storetest.Run(t, newDB) })
	t.Run("Chat", func(t *testing.T) { storetest.RunChat(t, newDB) })
}
