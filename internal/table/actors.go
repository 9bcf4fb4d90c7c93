package table

import (
	"slices"
	"sync"
	"time"
)

// The tables' actors run on long-lived goroutines (actors), not on a
// goroutine started each time a table's inbox fills. The garbage
// collector charges its marking to the goroutines that allocate while it
// runs, and a goroutine's first allocation in a cycle costs it a share of
// at least 64 KiB of marking. At 10,000 tables a goroutine started per
// move (and one per bot's timer) made thousands of such first allocations
// in every cycle: the moves of every table stalled for the length of the
// mark, some 200 ms, every few seconds. A few dozen long-lived actors
// each pay their share once and then allocate on credit.
//
// A table with work goes to the actor that went idle last, or to a new
// one if none is idle, so a table never waits for another's move to be
// stored, and the actors in use are as few as the tables busy at once: the
// rest wait unused and end after actorIdle, and every idle one ends once
// the manager closes.

// actorIdle is how long an actor with nothing to run lives on.
const actorIdle = time.Second

// actors hands tables with work to idle actors.
type actors struct {
	mu sync.Mutex
	// idle are the idle actors' hands, the last to go idle at the end.
	idle   []chan *Table
	closed bool
}

// start runs t's inbox on the actor that went idle last, or on a new one
// if none is idle. It never blocks.
func (a *actors) start(t *Table) {
	a.mu.Lock()
	if n := len(a.idle); n > 0 && !a.closed {
		hand := a.idle[n-1]
		a.idle[n-1] = nil
		a.idle = a.idle[:n-1]
		a.mu.Unlock()
		hand <- t // buffered: the actor is waiting for it
		return
	}
	a.mu.Unlock()
	go a.act(t)
}

// act runs t, then the tables it is handed, until it has been idle for
// actorIdle or the actors stop.
func (a *actors) act(t *Table) {
	hand := make(chan *Table, 1)
	idle := time.NewTimer(actorIdle)
	defer idle.Stop()
	for t != nil {
		t.run()
		a.mu.Lock()
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
