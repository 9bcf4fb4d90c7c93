package table

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

// How a node of a cluster runs (see Config.Node). A node owns the tables it
// runs by leases in the store (store.Cluster): it renews them every
// LeaseTTL/4, takes over tables whose lease ran out (their node died)
// within about LeaseTTL, and gives its tables up at once when it stops
// cleanly (Close), telling the other nodes through the store's
// notifications. A request for a table another node owns gets an
// *ElsewhereError naming that node's address: internal/server relays it.

// ErrMoved is why a Sub was closed when its table moved to another node
// (the lease was lost, or this node is stopping): the client should
// reconnect, to any node.
var ErrMoved = errors.New("the table moved to another server; reconnect")

// ElsewhereError is the error of a request for a table another node of
// the cluster runs.
type ElsewhereError struct {
	Table string // the table
	Node  string // its owner
	Addr  string // where the owner is reached ("http://host:port")
}

func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("table %s is run by node %s at %s", e.Table, e.Node, e.Addr)
}

// Notifications the nodes send each other (store.Notifier).
const (
	noteReleased = "released" // a node gave up tables: take them over
	noteLobby    = "lobby"    // the lobby changed
)

// defaultLeaseTTL is how long a lease lasts unless renewed.
const defaultLeaseTTL = 5 * time.Second

// clustered reports whether the manager is a node of a cluster.
func (m *Manager) clustered() bool { return m.cluster != nil }

// NodeID returns the manager's node id ("" when it runs alone).
func (m *Manager) NodeID() string { return m.cfg.Node }

// acquire takes table id's lease for this node, or says who has it.
func (m *Manager) acquire(ctx context.Context, id string) (store.Lease, error) {
	l, ok, err := m.cluster.Acquire(ctx, id, m.cfg.Node, m.cfg.LeaseTTL)
	if errors.Is(err, store.ErrNotFound) {
		return l, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return l, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if ok {
		return l, nil
	}
	n, err := m.cluster.Node(ctx, l.Node, 3*m.cfg.LeaseTTL)
	if err != nil {
		return l, fmt.Errorf("%w: table %s's node %s is not answering; it is taken over within %v", ErrUnavailable, id, l.Node, m.cfg.LeaseTTL)
	}
	return l, &ElsewhereError{Table: id, Node: l.Node, Addr: n.Addr}
}

// runCluster keeps the node's heartbeat and leases, and takes over tables
// nobody runs, until the manager closes.
func (m *Manager) runCluster() {
	defer close(m.clusterDone)
	// The node's store calls end when it leaves, so leaving never waits
	// for one.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-m.clusterQuit
		cancel()
	}()
	if n, ok := m.cfg.Store.(store.Notifier); ok {
		go m.listen(ctx, n)
	}
	tick := time.NewTicker(m.cfg.LeaseTTL / 4)
	defer tick.Stop()
	// renewed is when the last renewal that the store answered began:
	// the leases it renewed last until about a lease after it, by the
	// database's clock.
	renewed := time.Now()
	for {
		select {
		case <-m.clusterQuit:
			return
		case <-m.sweepNow:
			m.sweep(ctx)
			continue
		case <-tick.C:
		}
		began := time.Now()
		if m.beat(ctx) {
			renewed = began
			m.setLost(false)
		} else if time.Since(renewed) > m.cfg.LeaseTTL*3/4 {
			// Without the store this node cannot know its leases still
			// hold: it lets its tables go before they lapse, and takes
			// them back (or another node does) once the store answers.
			// Until then it is not ready (Ready).
			if m.Live() > 0 {
				m.log.Error("the leases could not be renewed; letting this node's tables go", "since", time.Since(renewed).Round(time.Millisecond))
			}
			m.setLost(true)
			m.dropAll(ErrMoved)
		}
		m.sweep(ctx)
	}
}

// beat sends the heartbeat and renews the leases; tables whose lease is
// gone are unloaded. It reports whether the store answered.
func (m *Manager) beat(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.LeaseTTL/2)
	defer cancel()
	if err := m.cluster.Heartbeat(ctx, m.cfg.Node, m.cfg.Advertise); err != nil {
		m.log.Warn("cluster heartbeat", "err", err)
		return false
	}
	m.mu.Lock()
	local := slices.Collect(maps.Values(m.tables))
	m.mu.Unlock()
	held, err := m.cluster.Renew(ctx, m.cfg.Node, m.cfg.LeaseTTL)
	if err != nil {
		m.log.Warn("renewing leases", "err", err)
		return false
	}
	m.stats.SetLeases(len(held))
	keep := make(map[string]bool, len(held))
	for _, id := range held {
		keep[id] = true
	}
	for _, t := range local {
		if !keep[t.id] {
			m.log.Warn("a table's lease was lost; unloading it", "table", t.id)
			t.post(func() { t.unload(ErrMoved) })
		}
	}
	return true
}

// sweep takes over the tables whose lease ran out, in random order so
// that several nodes share them.
func (m *Manager) sweep(ctx context.Context) {
	for range 50 {
		octx, cancel := m.storeCtx(ctx)
		ids, err := m.cluster.Orphans(octx, 100)
		cancel()
		if err != nil || len(ids) == 0 {
			return
		}
		rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		took := 0
		for _, id := range ids {
			select {
			case <-m.clusterQuit:
				return
			default:
			}
			lctx, cancel := context.WithTimeout(ctx, m.cfg.LeaseTTL)
			_, err := m.Get(lctx, id)
			cancel()
			if err == nil {
				took++
				m.stats.Takeover()
			}
		}
		if took == 0 {
			return
		}
	}
}

// listen hears the other nodes: tables released to take over, lobby
// changes. It listens again after a failure.
func (m *Manager) listen(ctx context.Context, n store.Notifier) {
	for ctx.Err() == nil {
		err := n.Listen(ctx, func(msg string) {
			switch {
			case msg == noteReleased:
				select {
				case m.sweepNow <- struct{}{}:
				default:
				}
			case strings.HasPrefix(msg, noteLobby):
				m.lobby.invalidate()
			}
		})
		if ctx.Err() == nil {
			m.log.Warn("listening to the cluster", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// notify tells the other nodes msg, off the caller's goroutine.
func (m *Manager) notify(msg string) {
	n, ok := m.cfg.Store.(store.Notifier)
	if !ok || !m.clustered() {
		m.lobby.invalidate()
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := n.Notify(ctx, msg); err != nil {
			m.log.Warn("notifying the cluster", "err", err)
		}
	}()
}

// dropAll unloads every table, closing its connections with why.
func (m *Manager) dropAll(why error) {
	m.mu.Lock()
	tables := slices.Collect(maps.Values(m.tables))
	m.mu.Unlock()
	for _, t := range tables {
		t.post(func() { t.unload(why) })
	}
}

// leave ends the node's part in the cluster: its leases are released and
// the others told, so they take its tables over at once.
func (m *Manager) leave() {
	close(m.clusterQuit)
	<-m.clusterDone
	if m.storeDown() {
		// The leases lapse by themselves, and the others take the
		// tables over then: nothing to wait for.
		m.log.Warn("leaving the cluster without the database: this node's tables are taken over once their leases lapse")
		return
	}
	ctx, cancel := m.storeCtx(context.Background())
	defer cancel()
	if err := m.cluster.Release(ctx, m.cfg.Node, nil); err != nil {
		m.log.Warn("releasing leases", "err", err)
	}
	if n, ok := m.cfg.Store.(store.Notifier); ok {
		if err := n.Notify(ctx, noteReleased); err != nil {
			m.log.Warn("notifying the cluster", "err", err)
		}
	}
	if err := m.cluster.Depart(ctx, m.cfg.Node); err != nil {
		m.log.Warn("leaving the cluster", "err", err)
	}
}

// release gives up table id's lease (the table was unloaded), off the
// caller's goroutine. Until the store has it, a Get of the table waits
// (Manager.releasing): the release is of this node's lease, whatever its
// epoch, so one that landed after the table was loaded here again would
// leave it running with no lease, for another node to take over.
func (m *Manager) release(id string) {
	if !m.clustered() || m.storeDown() {
		return // without the store, the lease lapses by itself
	}
	// No release of id is under way: the table was loaded again (Get),
	// which waited for the last one to land.
	done := make(chan struct{})
	m.mu.Lock()
	if m.releasing == nil {
		m.releasing = map[string]chan struct{}{}
	}
	m.releasing[id] = done
	m.mu.Unlock()
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := m.cluster.Release(ctx, m.cfg.Node, []string{id}); err != nil {
			m.log.Warn("releasing a lease", "table", id, "err", err)
		}
		m.mu.Lock()
		delete(m.releasing, id)
		m.mu.Unlock()
	}()
}

// unload stops the table (on its actor) and closes its connections with
// why; the next request loads it again, here or on another node.
func (t *Table) unload(why error) {
	t.m.forget(t)
	t.stopping = true
	t.stopWhy = why
}

// lostLease unloads the table if err says another node took it over, and
// reports whether it did.
func (t *Table) lostLease(err error) bool {
	if !errors.Is(err, store.ErrLeaseLost) {
		return false
	}
	t.log().Warn("another node took the table over; unloading it")
	t.unload(ErrMoved)
	return true
}

// nodeID makes a node id: unique among the nodes of a cluster.
func nodeID() string {
	return randomID()[:12]
}

// lobbyCache keeps the lobby entries of tables other nodes run, read from
// the store at most once a second unless a node says the lobby changed.
type lobbyCache struct {
	mu    chan struct{} // a one-slot lock that a request may give up on
	at    time.Time
	infos []protocol.TableInfo
	// stale is set by a change, at any time, and cleared by the read it
	// starts: a change during a read is not lost.
	stale atomic.Bool
}

func newLobbyCache() *lobbyCache {
	c := &lobbyCache{mu: make(chan struct{}, 1)}
	c.stale.Store(true)
	return c
}

func (c *lobbyCache) invalidate() { c.stale.Store(true) }

// remote returns the lobby entries of the unfinished tables that other
// nodes run.
func (m *Manager) remote(ctx context.Context) ([]protocol.TableInfo, error) {
	c := m.lobby
	select {
	case c.mu <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.mu }()
	if !c.stale.Swap(false) && time.Since(c.at) < time.Second {
		return c.infos, nil
	}
	recs, err := m.cfg.Store.Tables(ctx, store.Query{Status: []string{store.StatusWaiting, store.StatusPlaying}, Newest: true, Limit: lobbyLimit})
	if err != nil {
		c.stale.Store(true)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	infos := make([]protocol.TableInfo, 0, len(recs))
	for _, rec := range recs {
		if rec.Lease.Node == m.cfg.Node {
			continue
		}
		if info, err := m.recordInfo(rec); err == nil {
			infos = append(infos, info)
		}
	}
	c.infos, c.at = infos, time.Now()
	return infos, nil
}

// lobbyLimit is the most tables of other nodes the lobby lists.
const lobbyLimit = 500
