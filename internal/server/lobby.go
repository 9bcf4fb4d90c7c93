package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/table"
)

// lobbyEvery is how often the lobby feed looks at the lists while anyone
// watches, and lobbyKeepAlive how often a quiet stream gets a comment line
// (so that proxies do not close it).
const (
	lobbyEvery     = time.Second
	lobbyKeepAlive = 15 * time.Second
)

// lobbyFeed pushes the lobby's lists to every page watching them
// (GET /api/lobby/events). One goroutine reads the lists every lobbyEvery
// while anyone watches, however many do, and a watcher is sent them only
// when they changed: the lobby is pushed, not polled by each page.
type lobbyFeed struct {
	mu      sync.Mutex
	last    []byte               // the last event sent, whole
	watch   map[chan []byte]bool // each watcher's queue of one event
	running bool                 // the reading goroutine runs
}

// newLobbyFeed returns a feed nobody watches yet.
func newLobbyFeed() *lobbyFeed {
	return &lobbyFeed{watch: map[chan []byte]bool{}}
}

// subscribe adds a watcher, starting the reader if it is the first, and
// returns its channel, primed with the last event if there is one.
func (f *lobbyFeed) subscribe(ctx context.Context, m *table.Manager) chan []byte {
	c := make(chan []byte, 1)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watch[c] = true
	if f.last != nil {
		c <- f.last
	}
	if !f.running {
		f.running = true
		go f.run(ctx, m)
	}
	return c
}

// unsubscribe removes a watcher.
func (f *lobbyFeed) unsubscribe(c chan []byte) {
	f.mu.Lock()
	delete(f.watch, c)
	f.mu.Unlock()
}

// run reads the lists now and every lobbyEvery until nobody watches (or
// ctx ends), and hands each watcher the lists when they changed. A watcher
// that has not taken the previous event gets the newer one in its place.
func (f *lobbyFeed) run(ctx context.Context, m *table.Manager) {
	tick := time.NewTicker(lobbyEvery)
	defer tick.Stop()
	for {
		ev, err := readLobby(ctx, m)
		f.mu.Lock()
		if len(f.watch) == 0 || ctx.Err() != nil {
			f.running, f.last = false, nil
			f.mu.Unlock()
			return
		}
		if err == nil && !bytes.Equal(ev, f.last) {
			f.last = ev
			for c := range f.watch {
				select {
				case <-c:
				default:
				}
				c <- ev
			}
		}
		f.mu.Unlock()
		select {
		case <-tick.C:
		case <-ctx.Done():
		}
	}
}

// readLobby reads the three lists from m and returns them as one event's
// data line.
func readLobby(ctx context.Context, m *table.Manager) ([]byte, error) {
	var l protocol.LobbyTables
	var err error
	if l.Open, err = m.List(ctx, table.FilterOpen); err != nil {
		return nil, err
	}
	if l.Live, err = m.List(ctx, table.FilterLive); err != nil {
		return nil, err
	}
	if l.Over, err = m.List(ctx, table.FilterOver); err != nil {
		return nil, err
	}
	return json.Marshal(l)
}

// lobbyEvents is GET /api/lobby/events: a stream of server-sent events,
// one "tables" event with the three lists at once and another whenever
// they change.
func (s *Server) lobbyEvents(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	rc := http.NewResponseController(w)
	// send writes b and flushes it, giving up on a client that does not
	// read it within the server's write timeout.
	send := func(b ...[]byte) bool {
		rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
		for _, p := range b {
			if _, err := w.Write(p); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if !send([]byte(": the lobby's tables\n\n")) {
		return
	}
	c := s.lobby.subscribe(s.ctx, m)
	defer s.lobby.unsubscribe(c)
	keep := time.NewTicker(lobbyKeepAlive)
	defer keep.Stop()
	for {
		var ok bool
		select {
		case ev := <-c:
			ok = send([]byte("event: tables\ndata: "), ev, []byte("\n\n"))
		case <-keep.C:
			ok = send([]byte(": still here\n\n"))
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
		if !ok {
			return
		}
	}
}
