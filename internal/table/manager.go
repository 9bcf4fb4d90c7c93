package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"parlour/bot"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Manager.
type Config struct {
	// Store keeps the tables. Required.
	Store store.Store
	// Games is the registry of games. Required.
	Games *game.Registry
	// Bots finds a bot by name; nil means bot.ByName.
	Bots func(name string) (bot.Bot, bool)
	// BotNames are the bots a table's seat may ask for; nil means
	// bot.Names (external bots add their names).
	BotNames []string
	// BotDelay is the mean pause before a bot moves, so play looks human
	// (each pause is drawn between half and one and a half of it). 0: none.
	BotDelay time.Duration
	// Grace is the default grace period of a dropped player's seat.
	Grace time.Duration
	// StandIn is the default stand-in bot; "" picks "heuristic" when
	// there is one, else "random".
	StandIn string
	// Think is the default time a table's search bots (the levels easy,
	// medium, hard) think per move, for tables created without one (see
	// CreateRequest.Think); 0: each level's own iterations, cut short at
	// bot.LevelCap. At most MaxThinkMS milliseconds.
	Think time.Duration
	// Workers is the number of workers of the manager's search pool, the
	// most bot decisions that run at once over all its tables, each on
	// one goroutine (searchpool.go); 0 means runtime.GOMAXPROCS(0).
	Workers int
	// SearchQueue is the most bot decisions waiting for a worker of the
	// search pool; past it a bot plays the heuristic's move. 0 means 64
	// per worker.
	SearchQueue int
	// Inbox is the most work a table's inbox holds before the table
	// refuses its connections' messages (protocol.CodeBusy) and requests
	// (ErrBusy); 0 means 512. The table's own work is never refused
	// (table.go).
	Inbox int
	// ChatQueue is the most chat messages of a table waiting to be
	// stored; past it the table refuses chat (protocol.CodeChatBacklog).
	// 0 means protocol.ChatHistory.
	ChatQueue int
	// Queue is the number of frames a connection may fall behind before it
	// is dropped; 0 means 256 (docs/protocol.md).
	Queue int
	// Unload is how long a finished table nobody watches stays in memory;
	// 0 means 10 minutes, negative never.
	Unload time.Duration
	// Expire is how long a waiting table that no person has joined (bots
	// do not count) lives: then it is deleted from the store, so tables
	// made and left empty do not pile up. 0: never (expire.go).
	Expire time.Duration
	// Abandon is how long a table nobody is connected to, playing or
	// waiting with a person seated, stays in memory: then it is unloaded,
	// kept in the store and loaded again when asked for. 0: never; in a
	// cluster never, since every unfinished table has an owner there.
	Abandon time.Duration
	// Logger logs; nil discards.
	Logger *slog.Logger
	// Metrics receives the tables' measurements; nil: none.
	Metrics Metrics
	// Cluster makes the manager a node of a cluster on a shared store
	// (which must be a store.Cluster): each table runs on one node at a
	// time, by a lease (see cluster.go).
	Cluster bool
	// Node is the node's id in the cluster; "" picks a random one.
	Node string
	// Advertise is where the other nodes reach this one
	// ("http://host:port"). Required with Cluster.
	Advertise string
	// LeaseTTL is how long a table's lease lasts unless renewed, and so
	// about how long a dead node's tables wait for a new owner; 0 means
	// 5 seconds.
	LeaseTTL time.Duration
	// StoreTimeout bounds every call to the store (health.go): a move
	// not committed within it is refused with ErrUnavailable. 0 means 2
	// seconds.
	StoreTimeout time.Duration
}

// Metrics receives what the tables measure; *metrics.Metrics is one. The
// methods are called on hot paths and must be cheap.
type Metrics interface {
	TableOpened()
	TableClosed()
	Move(game string)
	StoreCommit(d time.Duration)
	SetLeases(n int)
	Takeover()
	MoveToView(d time.Duration)
	Refusal(code string)
	// SearchFallback counts a bot decision the search pool had no time
	// or room for, played by the heuristic instead.
	SearchFallback()
	// SearchThink records the time from a bot decision given to the
	// search pool to its move, the wait for a worker included.
	SearchThink(d time.Duration)
	// SearchPaced records the time a search on the pool waited while
	// the node or the machine wanted the processors (internal/pace).
	SearchPaced(d time.Duration)
	// Depth has the metrics read the depth of one of the manager's
	// queues at each scrape, calling depth from the scraper's goroutine:
	// name is "inbox" (work waiting in the tables' inboxes, summed),
	// "inbox_max" (the most in one inbox), "actors_ready" (tables
	// waiting for an actor), "chat" (chat messages waiting to be
	// stored), "search_queued" (bot decisions waiting for the search
	// pool), "search_busy" (its workers running one) or
	// "search_workers" (its size).
	Depth(name string, depth func() int)
	StoreUp(up bool)
}

// noMetrics discards measurements.
type noMetrics struct{}

func (noMetrics) TableOpened()                {}
func (noMetrics) TableClosed()                {}
func (noMetrics) Move(string)                 {}
func (noMetrics) StoreCommit(d time.Duration) {}
func (noMetrics) SetLeases(int)               {}
func (noMetrics) Takeover()                   {}
func (noMetrics) MoveToView(time.Duration)    {}
func (noMetrics) Refusal(string)              {}
func (noMetrics) SearchFallback()             {}
func (noMetrics) SearchThink(time.Duration)   {}
func (noMetrics) SearchPaced(time.Duration)   {}
func (noMetrics) Depth(string, func() int)    {}
func (noMetrics) StoreUp(bool)                {}

// Manager holds the live tables.
type Manager struct {
	cfg       Config
	log       *slog.Logger
	actors    *actors
	mu        sync.Mutex
	tables    map[string]*Table
	closed    bool
	rematchMu sync.Mutex
	moveCount atomic.Int64
	stats     Metrics
	lobby     *lobbyCache
	stopping  atomic.Bool // Close has begun
	// releasing (under mu) are the tables whose lease this node is giving
	// up (release), each until the store has it: a Get of one waits for
	// that first, or the release, landing after the lease was taken again,
	// would end the new one while the table runs here.
	releasing map[string]chan struct{}
	// chatWriters are the goroutines storing chat messages: Close waits
	// for them.
	chatWriters sync.WaitGroup
	// searches is the pool the tables' bots choose on; chatQueued
	// counts the chat messages waiting to be stored, over the tables.
	searches   *searchPool
	chatQueued atomic.Int64
	// recentSlots bounds how many connections' logs of the recent past
	// (recent.go) are worked out at once: one per worker.
	recentSlots chan struct{}
	leaveOnce   sync.Once // the cluster is left once, by Close
	// health is what the node knows of its store; the prober updates it
	// until probeQuit closes (health.go).
	health     health
	probeQuit  chan struct{}
	probeDone  chan struct{}
	closeProbe sync.Once

	// The janitor of idle tables (expire.go); nil janitorQuit: none runs.
	janitorQuit chan struct{}
	janitorDone chan struct{}

	// A node of a cluster's state (nil cluster: alone).
	cluster     store.Cluster
	clusterQuit chan struct{}
	clusterDone chan struct{}
	sweepNow    chan struct{}
}

// NewManager returns a manager with no tables loaded; call Recover to load
// the unfinished tables of the store.
func NewManager(cfg Config) *Manager {
	if cfg.Bots == nil {
		cfg.Bots = bot.ByName
	}
	if cfg.BotNames == nil {
		cfg.BotNames = bot.Names()
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.SearchQueue <= 0 {
		cfg.SearchQueue = 64 * cfg.Workers
	}
	if cfg.Inbox <= 0 {
		cfg.Inbox = 512
	}
	if cfg.ChatQueue <= 0 {
		cfg.ChatQueue = protocol.ChatHistory
	}
	cfg.Think = min(max(cfg.Think, 0), MaxThinkMS*time.Millisecond)
	if cfg.StoreTimeout <= 0 {
		cfg.StoreTimeout = defaultStoreTimeout
	}
	if cfg.Unload == 0 {
		cfg.Unload = 10 * time.Minute
	}
	if cfg.StandIn == "" {
		cfg.StandIn = "random"
		if _, ok := cfg.Bots("heuristic"); ok {
			cfg.StandIn = "heuristic"
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manager{cfg: cfg, log: log, tables: map[string]*Table{}, stats: cfg.Metrics, lobby: newLobbyCache(), actors: &actors{},
		recentSlots: make(chan struct{}, cfg.Workers), probeQuit: make(chan struct{}), probeDone: make(chan struct{})}
	if m.stats == nil {
		m.stats = noMetrics{}
	}
	m.searches = newSearchPool(cfg.Workers, cfg.SearchQueue, m.stats)
	m.depths()
	if cfg.Cluster {
		c, ok := cfg.Store.(store.Cluster)
		if !ok {
			panic(fmt.Sprintf("table: a cluster needs a store.Cluster, not %T", cfg.Store))
		}
		if m.cfg.Node == "" {
			m.cfg.Node = nodeID()
		}
		if m.cfg.LeaseTTL <= 0 {
			m.cfg.LeaseTTL = defaultLeaseTTL
		}
		m.cluster = c
		m.clusterQuit, m.clusterDone = make(chan struct{}), make(chan struct{})
		m.sweepNow = make(chan struct{}, 1)
		go m.runCluster()
	}
	go m.probe()
	m.startJanitor()
	return m
}

// newLease is the lease a table made here starts with.
func (m *Manager) newLease() store.Lease {
	if !m.clustered() {
		return store.Lease{}
	}
	return store.Lease{Node: m.cfg.Node, TTL: m.cfg.LeaseTTL}
}

// closeWhy is why a table's connections close when the manager stops:
// in a cluster the table lives on at another node.
func (m *Manager) closeWhy() error {
	if m.clustered() {
		return ErrMoved
	}
	return nil
}

// Live returns the number of tables in memory.
func (m *Manager) Live() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tables)
}

// Moves returns the number of moves the manager's tables have made since
// it started.
func (m *Manager) Moves() int64 { return m.moveCount.Load() }

// BotNames returns the bots a table's seat may ask for.
func (m *Manager) BotNames() []string { return m.cfg.BotNames }

// errLoaded says a table is already in memory.
var errLoaded = errors.New("table already loaded")

// add registers a built table and starts its actor; errLoaded if a table
// with its id is already registered.
func (m *Manager) add(t *Table) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	if _, ok := m.tables[t.id]; ok {
		m.mu.Unlock()
		return errLoaded
	}
	m.tables[t.id] = t
	m.mu.Unlock()
	m.stats.TableOpened()
	t.post(func() {
		if t.status == store.StatusOver && t.rec.Status != store.StatusOver {
			t.finish()
		}
		if t.status == store.StatusPlaying {
			for _, s := range t.seats {
				if s.kind == store.KindHuman && s.token != "" && s.conns == 0 {
					s.away = true
					s.awayGen++
					t.startGrace(s)
				}
			}
		}
		t.schedule()
		t.maybeIdle()
		t.updateInfo()
	})
	return nil
}

func (m *Manager) forget(t *Table) {
	m.mu.Lock()
	gone := m.tables[t.id] == t
	if gone {
		delete(m.tables, t.id)
	}
	m.mu.Unlock()
	if gone {
		m.stats.TableClosed()
		if !m.stopping.Load() {
			m.release(t.id)
		}
	}
}

// Recover loads every unfinished table of the store, so play goes on where
// it stopped. It returns how many it loaded; tables that fail to load are
// logged and skipped.
func (m *Manager) Recover(ctx context.Context) (int, error) {
	if m.clustered() {
		// The node announces itself first (other nodes relay to it only
		// once they know its address), then takes the tables nobody
		// runs; the others' stay theirs.
		if err := m.cluster.Heartbeat(ctx, m.cfg.Node, m.cfg.Advertise); err != nil {
			return 0, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		before := m.Live()
		m.sweep(ctx)
		return m.Live() - before, nil
	}
	recs, err := m.cfg.Store.Tables(ctx, store.Query{Status: []string{store.StatusWaiting, store.StatusPlaying}})
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	n := 0
	for _, rec := range recs {
		if _, err := m.load(ctx, rec); err != nil {
			m.log.Error("a stored table could not be rebuilt", "table", rec.ID, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// load rebuilds a stored table and starts it (or returns the one loaded).
func (m *Manager) load(ctx context.Context, rec *store.Table) (*Table, error) {
	moves, err := m.cfg.Store.Moves(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	t, err := m.build(rec, moves)
	if err != nil {
		return nil, err
	}
	if err := m.add(t); err != nil && !errors.Is(err, errLoaded) {
		return nil, err
	}
	// This one, or the one another request loaded meanwhile.
	return m.Get(ctx, rec.ID)
}

// Get returns a live table, loading it from the store if it is not in
// memory (a finished table that was unloaded).
func (m *Manager) Get(ctx context.Context, id string) (*Table, error) {
	m.mu.Lock()
	t, ok := m.tables[id]
	closed := m.closed
	released := m.releasing[id]
	m.mu.Unlock()
	if ok {
		return t, nil
	}
	if closed {
		return nil, ErrClosed
	}
	ctx, cancel := m.storeCtx(ctx)
	defer cancel()
	if released != nil {
		select {
		case <-released:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: table %s is being let go; try again", ErrUnavailable, id)
		}
	}
	var lease store.Lease
	if m.clustered() {
		l, err := m.acquire(ctx, id)
		if err != nil {
			return nil, err
		}
		lease = l
	}
	rec, err := m.cfg.Store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if m.clustered() && rec.Lease.Epoch != lease.Epoch {
		// Taken over between the two reads: ask again.
		return nil, fmt.Errorf("%w: table %s changed hands; try again", ErrUnavailable, id)
	}
	return m.load(ctx, rec)
}

// with runs f on the table id, once more on a fresh load if the table
// unloaded itself meanwhile.
func (m *Manager) with(ctx context.Context, id string, f func(t *Table) error) error {
	for range 2 {
		t, err := m.Get(ctx, id)
		if err != nil {
			return err
		}
		err = f(t)
		if !errors.Is(err, ErrClosed) {
			return err
		}
		m.forget(t)
	}
	return ErrClosed
}

// Info returns a table's lobby entry.
func (m *Manager) Info(ctx context.Context, id string) (protocol.TableInfo, error) {
	var info protocol.TableInfo
	err := m.with(ctx, id, func(t *Table) error { info = t.Info(); return nil })
	return info, err
}

// Attach connects a client to table id (see Table.Attach).
func (m *Manager) Attach(ctx context.Context, id, token string, spectate bool) (*Table, *Sub, error) {
	var tb *Table
	var sub *Sub
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		tb = t
		sub, err = t.Attach(ctx, token, spectate)
		return err
	})
	return tb, sub, err
}

// Join takes a seat at table id (see Table.Join).
func (m *Manager) Join(ctx context.Context, id string, seat int, name string) (protocol.JoinResult, error) {
	var res protocol.JoinResult
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		res, err = t.Join(ctx, seat, name)
		return err
	})
	return res, err
}

// Leave gives up the seat token holds at table id.
func (m *Manager) Leave(ctx context.Context, id, token string) error {
	return m.with(ctx, id, func(t *Table) error { return t.Leave(ctx, token) })
}

// Public returns table id's spectator view and its number of moves.
func (m *Manager) Public(ctx context.Context, id string) (any, int, error) {
	var view any
	var seq int
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		view, seq, err = t.Public(ctx)
		return err
	})
	return view, seq, err
}

// Filter selects tables for List.
type Filter string

// Filters.
const (
	// FilterOpen lists unfinished tables with a seat to join.
	FilterOpen Filter = "open"
	// FilterLive lists every unfinished table.
	FilterLive Filter = "live"
	// FilterOver lists recently finished tables.
	FilterOver Filter = "over"
)

// List returns tables for the lobby, newest first.
func (m *Manager) List(ctx context.Context, f Filter) ([]protocol.TableInfo, error) {
	ctx, cancel := m.storeCtx(ctx)
	defer cancel()
	out := []protocol.TableInfo{}
	if f == FilterOver {
		recs, err := m.cfg.Store.Tables(ctx, store.Query{Status: []string{store.StatusOver}, Limit: 100, Newest: true})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		for _, rec := range recs {
			if info, err := m.recordInfo(rec); err == nil {
				out = append(out, info)
			}
		}
	} else {
		if m.clustered() {
			remote, err := m.remote(ctx)
			if err != nil {
				return nil, err
			}
			for _, info := range remote {
				if f == FilterOpen && len(info.Open) == 0 {
					continue
				}
				out = append(out, info)
			}
		}
		m.mu.Lock()
		for _, t := range m.tables {
			info := t.Info()
			if info.Status == store.StatusOver || (f == FilterOpen && len(info.Open) == 0) {
				continue
			}
			out = append(out, info)
		}
		m.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b protocol.TableInfo) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// recordInfo is the lobby entry of a stored table that is not loaded.
func (m *Manager) recordInfo(rec *store.Table) (protocol.TableInfo, error) {
	t, err := m.build(rec, nil)
	if err != nil {
		return protocol.TableInfo{}, err
	}
	info := t.Info()
	if len(rec.Result) > 0 {
		var r protocol.Result
		if json.Unmarshal(rec.Result, &r) == nil {
			info.Result = &r
		}
	}
	info.Moves = rec.Moves
	return info, nil
}

// Close stops every table (their connections are closed with ErrClosed)
// and refuses new ones, and waits for the chat messages written to be
// stored. It does not close the store.
func (m *Manager) Close() {
	m.stopping.Store(true)
	m.stopJanitor()
	m.mu.Lock()
	m.closed = true
	tables := slices.Collect(maps.Values(m.tables))
	m.tables = map[string]*Table{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Go(t.stop)
	}
	wg.Wait()
	m.actors.stop()
	m.chatWriters.Wait()
	m.closeProbe.Do(func() { close(m.probeQuit) })
	<-m.probeDone
	if m.clustered() {
		m.leaveOnce.Do(m.leave)
	}
}
