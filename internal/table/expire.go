package table

import (
	"errors"
	"maps"
	"slices"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

// Idle tables. A table costs memory (its state, its actor's inbox, its
// lobby entry) for as long as it is loaded, and a table nobody uses must
// not keep it: the janitor, one goroutine of the manager, looks at every
// table's lobby entry now and then and tells the table's actor when it
// has been idle too long. The actor looks again (what the entry said may
// have changed since) and then:
//
//   - a waiting table no person has joined, for Config.Expire: is deleted
//     from the store and unloaded, its spectators told ErrExpired. It is
//     gone for good: a restart does not bring it back.
//   - a table nobody is connected to, playing or waiting with a person
//     seated, for Config.Abandon: is unloaded. It stays in the store, and
//     the next request for it (Get) loads it again, its absent players'
//     grace starting over.
//
// A finished table leaves memory by itself (maybeIdle, Config.Unload).

// ErrExpired is why a table's connections closed when it expired: nobody
// joined it for Config.Expire, and it was deleted.
var ErrExpired = errors.New("the table expired: nobody joined it")

// idleness is what the janitor sees of a table.
type idleness int

const (
	inUse     idleness = iota // in use, or finished (maybeIdle's)
	unjoined                  // waiting, no person seated
	unwatched                 // playing, or waiting with a person seated; nobody connected
)

// idleOf classifies a table by its lobby entry.
func idleOf(info *protocol.TableInfo) idleness {
	seated := false
	for _, s := range info.Seats {
		if s.Kind == store.KindHuman && s.State != protocol.SeatOpen {
			seated = true
		}
	}
	switch {
	case info.Status == store.StatusWaiting && !seated:
		return unjoined
	case info.Status != store.StatusWaiting && info.Status != store.StatusPlaying:
		return inUse
	case info.Spectators > 0:
		return inUse
	}
	for _, s := range info.Seats {
		if s.State == protocol.SeatHere {
			return inUse
		}
	}
	return unwatched
}

// played reports whether a table counts toward a node's most tables: it
// is playing, or waiting with a person seated. A table nobody joined
// does not (it expires), nor does a finished one (it unloads).
func played(info *protocol.TableInfo) bool {
	switch info.Status {
	case store.StatusPlaying:
		return true
	case store.StatusWaiting:
		return idleOf(info) != unjoined
	}
	return false
}

// Played returns the number of tables in memory that are played: playing,
// or waiting with a person seated. It is what a node's most tables
// counts; tables nobody joined and finished ones leave by themselves.
func (m *Manager) Played() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, t := range m.tables {
		if played(t.info.Load()) {
			n++
		}
	}
	return n
}

// janitorTick is how often the janitor looks: a tenth of the shorter of
// Expire and Abandon, between 10 ms and 30 s.
func janitorTick(limits ...time.Duration) time.Duration {
	tick := 30 * time.Second
	for _, d := range limits {
		if d > 0 {
			tick = min(tick, d/10)
		}
	}
	return max(tick, 10*time.Millisecond)
}

// abandonAfter is Config.Abandon as it applies to this manager: never in
// a cluster, where another node would take an unloaded table over at
// once.
func (m *Manager) abandonAfter() time.Duration {
	if m.clustered() {
		return 0
	}
	return m.cfg.Abandon
}

// startJanitor starts the janitor if tables may expire or be abandoned.
func (m *Manager) startJanitor() {
	expire, abandon := m.cfg.Expire, m.abandonAfter()
	if expire <= 0 && abandon <= 0 {
		return
	}
	m.janitorQuit, m.janitorDone = make(chan struct{}), make(chan struct{})
	go m.janitor(m.janitorQuit, janitorTick(expire, abandon))
}

// stopJanitor stops the janitor and waits for it; it may be called more
// than once.
func (m *Manager) stopJanitor() {
	m.mu.Lock()
	quit := m.janitorQuit
	m.janitorQuit = nil
	m.mu.Unlock()
	if quit != nil {
		close(quit)
		<-m.janitorDone
	}
}

// idleMark is since when the janitor has seen a table idle, and how.
type idleMark struct {
	how   idleness
	since time.Time
}

// janitor looks at the tables every tick until quit closes.
func (m *Manager) janitor(quit <-chan struct{}, tick time.Duration) {
	defer close(m.janitorDone)
	tk := time.NewTicker(tick)
	defer tk.Stop()
	marks := map[*Table]idleMark{}
	for {
		select {
		case <-quit:
			return
		case now := <-tk.C:
			marks = m.lookIdle(now, marks)
		}
	}
}

// lookIdle marks the tables idle at now, given the marks of the last look,
// tells the actors of those idle too long, and returns the new marks.
func (m *Manager) lookIdle(now time.Time, marks map[*Table]idleMark) map[*Table]idleMark {
	m.mu.Lock()
	tables := slices.Collect(maps.Values(m.tables))
	m.mu.Unlock()
	next := make(map[*Table]idleMark, len(marks))
	for _, t := range tables {
		how := idleOf(t.info.Load())
		if how == inUse {
			continue
		}
		mark, ok := marks[t]
		if !ok || mark.how != how {
			mark = idleMark{how: how, since: now}
		}
		next[t] = mark
		switch idle := now.Sub(mark.since); {
		case how == unjoined && m.cfg.Expire > 0 && idle >= m.cfg.Expire:
			t.post(t.expire)
		case how == unwatched && m.abandonAfter() > 0 && idle >= m.abandonAfter():
			t.post(t.abandon)
		}
	}
	return next
}

// joined reports whether a person holds a seat (on the actor).
func (t *Table) joined() bool {
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.token != "" {
			return true
		}
	}
	return false
}

// expire deletes and unloads the table if it still waits with no person
// seated (on the actor). A store that fails leaves it as it is, for the
// janitor's next look.
func (t *Table) expire() {
	if t.status != store.StatusWaiting || t.joined() {
		return
	}
	ctx, cancel := t.storeCtx()
	defer cancel()
	err := t.m.cfg.Store.DeleteTable(ctx, t.rec)
	switch {
	case err == nil, errors.Is(err, store.ErrNotFound):
	case t.lostLease(err):
		return
	default:
		t.log().Warn("deleting a table nobody joined", "err", err)
		return
	}
	t.unload(ErrExpired)
	t.m.notify(noteLobby)
}

// abandon unloads the table if nobody is connected to it and it is
// unfinished (on the actor): it stays in the store.
func (t *Table) abandon() {
	if len(t.subs) > 0 || t.status == store.StatusOver || (t.status == store.StatusWaiting && !t.joined()) {
		return
	}
	t.unload(nil)
}
