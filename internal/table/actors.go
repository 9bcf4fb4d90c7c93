package table

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// The tables' actors run on long-lived goroutines (actors), not on a
// goroutine started each time a table's inbox fills. The garbage
// collector charges its marking to the goroutines that allocate while it
// runs, and a goroutine's first allocation in a cycle costs it a share of
// at least 64 KiB of marking. A goroutine started per move on a busy node
// would make thousands of such first allocations in every cycle, and the
// moves of every table would stall for the length of each mark. A few
// dozen long-lived actors each pay their share once and then allocate on
// credit.
//
// A table with work goes to the actor that went idle last, or to a new
// one if none is idle, up to maxActors; past that it waits its turn in a
// line (people's work first, below), and the next actor done with a table
// takes it. The actors in use are as few as the tables busy at once: the
// rest wait unused and end after actorIdle, and every idle one ends once
// the manager closes.
//
// The bound matters while the collector marks: moves are slower then, so
// more tables wait for an actor; a new actor's first allocation is
// charged its share of the marking, and so are the goroutines asking for
// actors (a connection's, a bot's timer's) for starting them. Unbounded,
// the hundreds of actors a mark would start hold every table up. An actor
// blocks only on the store (a move's commit, which no other table's work
// holds up), so tables waiting for one wait for a commit at most.
// (docs/perf/node.md has the runs.)

// actorIdle is how long an actor with nothing to run lives on: longer
// than between two collections of a busy server, so the actors a mark
// needed are there for the next one. (An idle actor holds a small stack.)
const actorIdle = 10 * time.Second

// maxActors bounds the actors running at once: twice a full group
// commit's moves, so the store's writer still gets full batches.
const maxActors = 512

// Tables waiting for an actor wait in two lines. One holds the tables
// with work a person brought (a connection's message, a request); the
// other those with only the table's own work (a bot's move, a timer).
// An actor takes from the people's line first, and from the other once
// that is empty or its first table has waited ownWait. So when every
// actor is busy (while the collector marks, say), a person's move waits
// behind other people's work only, and a bot's, which comes after a
// think nobody times to the millisecond, waits a little longer.
// (docs/perf/node.md has the runs.)

// ownWait is the longest a table with only its own work waits while
// tables with people's work go first.
const ownWait = 500 * time.Millisecond

// The line a table waits in for an actor (Table.waits).
const (
	waitsNot    = iota // it is not waiting
	waitsPeople        // in the people's line
	waitsOwn           // in the line of the tables' own work
)

// line is a first-in, first-out list of tables waiting for an actor:
// entries[next:], each with when it joined (the people's line leaves that
// zero).
type line struct {
	entries []entry
	next    int
}

// entry is a table in a line and when it joined it.
type entry struct {
	t  *Table
	at time.Time
}

// push adds t, which joined at at, to the end of the line.
func (l *line) push(t *Table, at time.Time) {
	l.entries = append(l.entries, entry{t, at})
}

// len returns the number of entries in the line.
func (l *line) len() int { return len(l.entries) - l.next }

// pop removes the first entry and returns its table.
func (l *line) pop() *Table {
	t := l.entries[l.next].t
	l.entries[l.next] = entry{}
	if l.next++; l.next == len(l.entries) {
		l.entries, l.next = l.entries[:0], 0
	}
	return t
}

// actors hands tables with work to idle actors.
type actors struct {
	mu sync.Mutex
	// idle are the idle actors' hands, the last to go idle at the end.
	idle []chan *Table
	// live counts the actors; max bounds them (0: maxActors).
	live, max int
	// people and own are the lines of the tables with work that wait for
	// an actor, and queued counts those tables. A table waits at most
	// once: start is called for it only when its inbox gets work while
	// no actor runs it (Table.running, set under its mu until run finds
	// its inbox empty), and it stays "running" from then until an actor
	// has taken it from a line and run it dry. So the lines hold no more
	// than the tables with work, at most the live tables, besides the
	// entries that tables moved to the people's line (promote) leave
	// behind in the other: an entry whose table does not wait in that
	// line (Table.waits) is passed over.
	people, own line
	queued      int
	closed      bool
}

// start runs t's inbox on the actor that went idle last, on a new one if
// none is idle and there are fewer than the bound, or else on an actor
// done later, from the people's line if people says the work is a
// person's. It never blocks.
func (a *actors) start(t *Table, people bool) {
	a.mu.Lock()
	if n := len(a.idle); n > 0 && !a.closed {
		hand := a.idle[n-1]
		a.idle[n-1] = nil
		a.idle = a.idle[:n-1]
		a.mu.Unlock()
		hand <- t // buffered: the actor is waiting for it
		return
	}
	if a.live >= cmp.Or(a.max, maxActors) && !a.closed {
		if people {
			t.waits = waitsPeople
			a.people.push(t, time.Time{})
		} else {
			t.waits = waitsOwn
			a.own.push(t, time.Now())
		}
		a.queued++
		a.mu.Unlock()
		return
	}
	a.live++
	a.mu.Unlock()
	go a.act(t)
}

// act runs t, then the tables waiting and those it is handed, until it has
// been idle for actorIdle or the actors stop.
func (a *actors) act(t *Table) {
	hand := make(chan *Table, 1)
	idle := time.NewTimer(actorIdle)
	defer idle.Stop()
	defer func() {
		a.mu.Lock()
		a.live--
		a.mu.Unlock()
	}()
	for t != nil {
		t.run()
		a.mu.Lock()
		if t = a.take(); t != nil {
			a.mu.Unlock()
			continue
		}
		if a.closed {
			a.mu.Unlock()
			return
		}
		a.idle = append(a.idle, hand)
		a.mu.Unlock()
		t = a.await(hand, idle)
	}
}

// await returns the next table handed to an idle actor, or nil when it is
// to end: stopped, or idle for actorIdle. The timer is set again only when
// it fires, not after every table (a busy actor would move it thousands of
// times a second): an actor busy since it was set looks again later.
func (a *actors) await(hand chan *Table, idle *time.Timer) *Table {
	since := time.Now()
	for {
		select {
		case t := <-hand:
			return t // nil once stopped
		case <-idle.C:
		}
		if d := time.Since(since); d < actorIdle {
			idle.Reset(actorIdle - d)
			continue
		}
		// Idle too long: leave, unless start took this hand meanwhile
		// (then its table is on the way).
		a.mu.Lock()
		i := slices.Index(a.idle, hand)
		if i >= 0 {
			a.idle = slices.Delete(a.idle, i, i+1)
		}
		a.mu.Unlock()
		if i >= 0 {
			return nil
		}
		idle.Reset(actorIdle)
		return <-hand
	}
}

// take returns the next table waiting for an actor, taken from its line,
// or nil if none waits (under a.mu).
func (a *actors) take() *Table {
	for {
		var t *Table
		var from int8
		switch {
		case a.own.len() > 0 && (a.people.len() == 0 || time.Since(a.own.entries[a.own.next].at) >= ownWait):
			t, from = a.own.pop(), waitsOwn
		case a.people.len() > 0:
			t, from = a.people.pop(), waitsPeople
		default:
			return nil
		}
		if t.waits == from {
			t.waits = waitsNot
			a.queued--
			return t
		}
		// An entry left behind when its table moved to the people's
		// line, or ran from there.
	}
}

// promote moves t to the people's line if it waits in the other: a
// person's work came for it (under t.mu).
func (a *actors) promote(t *Table) {
	a.mu.Lock()
	if t.waits == waitsOwn {
		t.waits = waitsPeople
		a.people.push(t, time.Time{})
	}
	a.mu.Unlock()
}

// waiting returns the number of tables waiting for an actor.
func (a *actors) waiting() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.queued
}

// stop ends the idle actors, and each busy one once it is done (a table
// started later runs on an actor of its own, which then ends).
func (a *actors) stop() {
	a.mu.Lock()
	a.closed = true
	idle := a.idle
	a.idle = nil
	a.mu.Unlock()
	for _, hand := range idle {
		close(hand)
	}
}
