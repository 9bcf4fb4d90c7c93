package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// stuckWrites cuts the connections whose write has blocked for longer
// than a timeout (a client that stopped reading, its socket's buffers
// full). A session marks the start and the end of each write, two atomic
// stores; one sweeper, every quarter of the timeout while connections are
// watched, closes those stuck past it. A stuck write is cut between one
// and one and a quarter timeouts after it began. (A timer per connection,
// set and stopped around each frame, would keep the runtime's timer heaps
// busy; docs/perf/node.md has what it cost.)
type stuckWrites struct {
	ctx     context.Context // the sweeper ends with it
	timeout time.Duration
	epoch   time.Time // writes are timed from it, on the monotonic clock

	mu      sync.Mutex
	watched map[*watchedWrites]struct{}
	running bool // a sweeper runs
}

// watchedWrites is one connection's writes.
type watchedWrites struct {
	// since is when the write under way began, in nanoseconds after
	// epoch plus one; 0 while none is.
	since atomic.Int64
	cut   func()
	s     *stuckWrites
}

// newStuckWrites returns a watch of writes with timeout; its sweeper runs
// while connections are watched, until ctx (the server's) ends.
func newStuckWrites(ctx context.Context, timeout time.Duration) *stuckWrites {
	return &stuckWrites{ctx: ctx, timeout: timeout, epoch: time.Now(), watched: map[*watchedWrites]struct{}{}}
}

// watch starts watching a connection's writes: cut closes it.
func (s *stuckWrites) watch(cut func()) *watchedWrites {
	w := &watchedWrites{cut: cut, s: s}
	s.mu.Lock()
	s.watched[w] = struct{}{}
	start := !s.running
	s.running = true
	s.mu.Unlock()
	if start {
		go s.sweeper()
	}
	return w
}

// forget stops watching w.
func (s *stuckWrites) forget(w *watchedWrites) {
	s.mu.Lock()
	delete(s.watched, w)
	s.mu.Unlock()
}

// begin marks the start of a write.
func (w *watchedWrites) begin() { w.since.Store(int64(time.Since(w.s.epoch)) + 1) }

// end marks its end.
func (w *watchedWrites) end() { w.since.Store(0) }

// sweep cuts the connections whose write under way began more than the
// timeout before now (a time after epoch), and returns how many.
func (s *stuckWrites) sweep(now time.Duration) int {
	var stuck []*watchedWrites
	s.mu.Lock()
	for w := range s.watched {
		if since := w.since.Load(); since != 0 && now-time.Duration(since-1) > s.timeout {
			stuck = append(stuck, w)
		}
	}
	s.mu.Unlock()
	for _, w := range stuck {
		w.cut()
	}
	return len(stuck)
}

// sweeper sweeps every quarter of the timeout until s.ctx ends or
// nothing is watched.
func (s *stuckWrites) sweeper() {
	tick := time.NewTicker(max(s.timeout/4, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			s.mu.Lock()
			s.running = false
			s.mu.Unlock()
			return
		case <-tick.C:
		}
		s.sweep(time.Since(s.epoch))
		s.mu.Lock()
		if len(s.watched) == 0 {
			s.running = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}
