package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A node never waits on its store without a deadline: every store call is
// bounded by Config.StoreTimeout, and a prober pings the store about once
// a second. While the store does not answer, the node says so (Ready), a
// move is refused at once with ErrUnavailable instead of waiting out a
// deadline of its own, and once a ping is answered again play goes on by
// itself.

// defaultStoreTimeout is Config.StoreTimeout's default.
const defaultStoreTimeout = 2 * time.Second

// probeEvery is how often the prober pings the store.
const probeEvery = time.Second

// errStoreDown is why a move is refused while the store does not answer.
var errStoreDown = errors.New("the database is not answering")

// health is what the node knows of its store: whether it answers, and
// since when it does not.
type health struct {
	mu    sync.Mutex
	down  bool
	since time.Time // when it went down
	why   error     // the failure that took it down
	// lost is set while a node of a cluster has let its tables go for
	// want of the store (cluster.go).
	lost bool
}

// storeDown reports whether the store is known not to answer.
func (m *Manager) storeDown() bool {
	m.health.mu.Lock()
	defer m.health.mu.Unlock()
	return m.health.down
}

// storeFailed notes that a store call did not answer in time: the store is
// taken as down until a ping is answered. It logs the change once.
func (m *Manager) storeFailed(err error) {
	h := &m.health
	h.mu.Lock()
	was := h.down
	if !was {
		h.down, h.since, h.why = true, time.Now(), err
	}
	h.mu.Unlock()
	if !was {
		m.log.Error("the database is not answering; moves are refused until it does", "err", err)
		m.stats.StoreUp(false)
	}
}

// storeAnswered notes that the store answered a ping.
func (m *Manager) storeAnswered() {
	h := &m.health
	h.mu.Lock()
	was, since := h.down, h.since
	h.down, h.why = false, nil
	h.mu.Unlock()
	if was {
		m.log.Warn("the database answers again; play goes on", "after", time.Since(since).Round(time.Millisecond))
		m.stats.StoreUp(true)
	}
}

// setLost records whether a node of a cluster has let its tables go
// because it could not renew its leases.
func (m *Manager) setLost(lost bool) {
	m.health.mu.Lock()
	m.health.lost = lost
	m.health.mu.Unlock()
}

// Ready reports whether the node can serve play: its store answers and,
// in a cluster, it holds its leases. If not, the error says why. It does
// not call the store: the prober pings it about once a second.
func (m *Manager) Ready() error {
	h := &m.health
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.down:
		return fmt.Errorf("%w for %v: %v", errStoreDown, time.Since(h.since).Round(time.Second), h.why)
	case h.lost:
		return errors.New("the node lost its leases for want of the database; other nodes run its tables")
	}
	return nil
}

// probe pings the store every probeEvery, each ping bounded by half the
// store timeout (a store that takes longer to answer a query of nothing
// would not store a move in time either), until the manager closes.
func (m *Manager) probe() {
	defer close(m.probeDone)
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	for {
		select {
		case <-m.probeQuit:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), m.cfg.StoreTimeout/2)
		err := m.cfg.Store.Ping(ctx)
		cancel()
		if err != nil {
			m.storeFailed(err)
		} else {
			m.storeAnswered()
		}
	}
}

// deadlineCtx is a context with a deadline and no Done channel: the
// context a table stores its moves under, set again for each move. The
// store's writer answers a move by its deadline itself
// (store.Store.AppendMove), so a move needs no timer of its own
// (docs/perf/README.md).
type deadlineCtx struct{ at time.Time }

// Deadline returns the deadline.
func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.at, true }

// Done returns nil: the context is never cancelled.
func (c *deadlineCtx) Done() <-chan struct{} { return nil }

// Err returns nil, as Done is never closed.
func (c *deadlineCtx) Err() error { return nil }

// Value returns nil: the context carries no values.
func (c *deadlineCtx) Value(any) any { return nil }

// storeCtx bounds a store call made for ctx by the store timeout.
func (m *Manager) storeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, m.cfg.StoreTimeout)
}

// timedOut reports whether err is a store call that ran out of time.
func timedOut(err error) bool {
	return errors.Is(err, context.DeadlineExceeded)
}
