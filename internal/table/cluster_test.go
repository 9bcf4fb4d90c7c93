package table

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"parlour/games"
	"parlour/internal/store"
)

// cutStore is a node's view of a shared store that can be cut off (a
// network partition, a database that went away): while down, every call
// the node makes fails.
type cutStore struct {
	*memStore
	down atomic.Bool
}

var errCut = errors.New("cutstore: the database is unreachable")

func (c *cutStore) cut() error {
	if c.down.Load() {
		return errCut
	}
	return nil
}

func (c *cutStore) AppendMove(ctx context.Context, id string, m store.Move) error {
	if err := c.cut(); err != nil {
		return err
	}
	return c.memStore.AppendMove(ctx, id, m)
}

func (c *cutStore) UpdateTable(ctx context.Context, t *store.Table) error {
	if err := c.cut(); err != nil {
		return err
	}
	return c.memStore.UpdateTable(ctx, t)
}

func (c *cutStore) Table(ctx context.Context, id string) (*store.Table, error) {
	if err := c.cut(); err != nil {
		return nil, err
	}
	return c.memStore.Table(ctx, id)
}

func (c *cutStore) Heartbeat(ctx context.Context, id, addr string) error {
	if err := c.cut(); err != nil {
		return err
	}
	return c.memStore.Heartbeat(ctx, id, addr)
}

func (c *cutStore) Acquire(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, bool, error) {
	if err := c.cut(); err != nil {
		return store.Lease{}, false, err
	}
	return c.memStore.Acquire(ctx, id, node, ttl)
}

func (c *cutStore) Renew(ctx context.Context, node string, ttl time.Duration) ([]string, error) {
	if err := c.cut(); err != nil {
		return nil, err
	}
	return c.memStore.Renew(ctx, node, ttl)
}

func (c *cutStore) Orphans(ctx context.Context, limit int) ([]string, error) {
	if err := c.cut(); err != nil {
		return nil, err
	}
	return c.memStore.Orphans(ctx, limit)
}

// node starts a cluster node on store st.
func node(t *testing.T, id string, st store.Store, ttl time.Duration) *Manager {
	t.Helper()
	m := NewManager(Config{Store: st, Games: games.Registry, Cluster: true, Node: id, Advertise: "http://" + id, LeaseTTL: ttl,
		StandIn: "random", Queue: 4096, Grace: time.Hour})
	t.Cleanup(m.Close)
	if _, err := m.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestClusterTakeover runs two nodes on one store and cuts the first off
// the store mid-game: its table's lease runs out, it lets the table go
// (closing the connections with ErrMoved) and the second node takes the
// table over, rebuilt with every move made; the cut-off node's writes are
// refused, and once the store is back it sends requests for the table to
// the new owner. All in fake time, with exact times.
func TestClusterTakeover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ttl = 2 * time.Second
		ctx := context.Background()
		mem := newMemStore()
		pa := &cutStore{memStore: mem}
		a := node(t, "a", pa, ttl)
		b := node(t, "b", mem, ttl)

		info := golfTable(t, a, CreateRequest{Seats: []string{"open", "random"}})
		j, err := a.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		var away *ElsewhereError
		if _, err := b.Get(ctx, info.ID); !errors.As(err, &away) || away.Addr != "http://a" || away.Node != "a" {
			t.Fatalf("node b asked for a's table: %v, want an ElsewhereError for http://a", err)
		}
		tb, ann := attach(t, a, info.ID, j.Token)
		synctest.Wait()
		ann.read()
		if err := sendMove(tb, ann.sub, ann.state().Legal[0]); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		ann.read()
		made := ann.state().Seq
		if made < 1 {
			t.Fatalf("no move was made (seq %d)", made)
		}

		// a loses the store.
		pa.down.Store(true)
		cutAt := time.Now()
		for a.Live() > 0 && time.Since(cutAt) < 2*ttl {
			step(ttl / 8)
		}
		if a.Live() != 0 {
			t.Fatalf("node a still runs the table %v after losing the store", time.Since(cutAt))
		}
		if gone := time.Since(cutAt); gone > ttl {
			t.Errorf("node a let the table go %v after losing the store, want before its lease ran out (%v)", gone, ttl)
		}
		if err := a.Ready(); err == nil {
			t.Errorf("node a is ready after letting its tables go for want of the store")
		}
		ann.read()
		if !ann.closed || !errors.Is(ann.sub.Err(), ErrMoved) {
			t.Fatalf("a's connection: closed %v, err %v; want closed with ErrMoved", ann.closed, ann.sub.Err())
		}
		for b.Live() == 0 && time.Since(cutAt) < 3*ttl {
			step(ttl / 8)
		}
		if b.Live() != 1 {
			t.Fatalf("node b did not take the table over within %v", 3*ttl)
		}
		t.Logf("takeover %v after the cut (lease %v)", time.Since(cutAt), ttl)

		// The table on b has every move; Ann plays on there.
		tb2, ann2 := attach(t, b, info.ID, j.Token)
		synctest.Wait()
		ann2.read()
		if st := ann2.state(); st.Seq < made {
			t.Fatalf("node b rebuilt the table with %d moves, %d were made", st.Seq, made)
		}
		// a's stale write (under its old lease) is refused.
		stale := store.Move{N: ann2.state().Seq, Seat: 0, Text: "draw", Lease: 1}
		if err := mem.AppendMove(ctx, info.ID, stale); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("a write under the old lease: %v, want ErrLeaseLost", err)
		}
		for range 3 {
			st := ann2.state()
			if st.Status != store.StatusPlaying {
				break
			}
			if len(st.Legal) > 0 {
				if err := sendMove(tb2, ann2.sub, st.Legal[0]); err != nil {
					t.Fatal(err)
				}
			}
			step(time.Second)
			ann2.read()
		}
		if ann2.state().Seq <= made {
			t.Fatalf("no move on node b after the takeover (seq %d)", ann2.state().Seq)
		}

		// The store comes back: a knows b has the table.
		pa.down.Store(false)
		step(ttl)
		if _, err := a.Get(ctx, info.ID); !errors.As(err, &away) || away.Node != "b" {
			t.Fatalf("node a asked for the table after the store returned: %v, want an ElsewhereError for b", err)
		}
	})
}

// TestClusterHandover checks a clean stop: the stopping node's
// connections close with ErrMoved, and the other node runs the table
// within a quarter of a lease (its next look), not after the lease.
func TestClusterHandover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ttl = 4 * time.Second
		ctx := context.Background()
		mem := newMemStore()
		a := node(t, "a", mem, ttl)
		b := node(t, "b", mem, ttl)
		info := golfTable(t, a, CreateRequest{Seats: []string{"open", "random"}})
		j, err := a.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		_, ann := attach(t, a, info.ID, j.Token)
		synctest.Wait()
		stopAt := time.Now()
		a.Close()
		synctest.Wait()
		ann.read()
		if !ann.closed || !errors.Is(ann.sub.Err(), ErrMoved) {
			t.Fatalf("a's connection after a clean stop: closed %v, err %v; want ErrMoved", ann.closed, ann.sub.Err())
		}
		for b.Live() == 0 && time.Since(stopAt) < ttl {
			step(ttl / 16)
		}
		if took := time.Since(stopAt); b.Live() != 1 || took > ttl/4 {
			t.Fatalf("node b runs %d tables %v after a's clean stop, want 1 within %v", b.Live(), took, ttl/4)
		}
		if _, err := b.Info(ctx, info.ID); err != nil {
			t.Fatal(fmt.Errorf("the table on node b: %w", err))
		}
	})
}

// slowRelease is a shared store whose releases of leases take a while to
// land (a busy database).
type slowRelease struct {
	*memStore
	delay time.Duration
}

func (s *slowRelease) Release(ctx context.Context, node string, ids []string) error {
	time.Sleep(s.delay)
	return s.memStore.Release(ctx, node, ids)
}

// TestReleaseBeforeLoadAgain unloads a table and asks for it again while
// the release of its lease is still on its way to the store: the node must
// load it under a lease the release cannot end, so another node cannot
// take over a table this one runs.
func TestReleaseBeforeLoadAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ttl = 2 * time.Second
		ctx := context.Background()
		mem := newMemStore()
		a := node(t, "a", &slowRelease{memStore: mem, delay: 300 * time.Millisecond}, ttl)
		info := golfTable(t, a, CreateRequest{Seats: []string{"open", "random"}})
		tb, err := a.Get(ctx, info.ID)
		if err != nil {
			t.Fatal(err)
		}
		a.forget(tb) // its lease is being released, slowly
		again, err := a.Get(ctx, info.ID)
		if err != nil {
			t.Fatalf("loading the table again: %v", err)
		}
		if again == tb {
			t.Fatalf("the table was not loaded again")
		}
		time.Sleep(time.Second) // the release has landed
		synctest.Wait()
		if l, ok, err := mem.Acquire(ctx, info.ID, "b", ttl); err != nil || ok {
			t.Fatalf("another node took over the table node a runs (lease %+v, %v)", l, err)
		}
		if again.rec.Lease.Epoch == tb.rec.Lease.Epoch {
			t.Errorf("loaded again under the lease it gave up (epoch %d)", again.rec.Lease.Epoch)
		}
	})
}
