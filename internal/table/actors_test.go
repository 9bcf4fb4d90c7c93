package table

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// busy returns a table whose inbox holds one piece of work that waits for
// release.
func busy(release <-chan struct{}) *Table {
	return &Table{inbox: []func(){func() { <-release }}, running: true}
}

// TestActorsAreReused checks the actors: a table with work when one is
// idle runs on the one that went idle last, a new actor is started only
// when none is idle, actors idle for actorIdle end, and stop ends the
// rest.
func TestActorsAreReused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := &actors{}
		r1, r2 := make(chan struct{}), make(chan struct{})
		a.start(busy(r1), false)
		a.start(busy(r2), false) // the first is busy: a second actor
		synctest.Wait()
		if a.idleCount() != 0 {
			t.Fatalf("%d actors idle while two tables run", a.idleCount())
		}
		close(r1)
		synctest.Wait()
		close(r2)
		synctest.Wait()
		if a.idleCount() != 2 {
			t.Fatalf("%d actors idle, want 2", a.idleCount())
		}
		a.mu.Lock()
		last := a.idle[1]
		a.mu.Unlock()
		r3 := make(chan struct{})
		a.start(busy(r3), false)
		synctest.Wait()
		a.mu.Lock()
		reused := len(a.idle) == 1 && a.idle[0] != last
		a.mu.Unlock()
		if !reused {
			t.Fatal("a table went to the actor idle longest, not to the last one")
		}
		close(r3)
		synctest.Wait()

		// The actor used last lives on past the other's idle time.
		time.Sleep(actorIdle / 2)
		a.start(busy(closed()), false)
		synctest.Wait()
		time.Sleep(actorIdle/2 + time.Millisecond)
		synctest.Wait()
		if a.idleCount() != 1 {
			t.Fatalf("after the first's idle time %d actors are idle, want 1", a.idleCount())
		}
		time.Sleep(actorIdle / 2)
		synctest.Wait()
		if a.idleCount() != 0 {
			t.Fatalf("after their idle time %d actors are idle, want 0", a.idleCount())
		}

		// stop ends the idle actors; a table started after runs all the
		// same (synctest.Test fails if an actor is left).
		a.start(busy(closed()), false)
		synctest.Wait()
		a.stop()
		ran := make(chan struct{})
		a.start(&Table{inbox: []func(){func() { close(ran) }}, running: true}, false)
		<-ran
	})
}

// closed returns a closed channel.
func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// idleCount is the number of idle actors.
func (a *actors) idleCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.idle)
}

// TestActorsAreBounded checks that past the bound a table with work waits
// for an actor, rather than start one, and that the actors done take the
// waiting tables in order.
func TestActorsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := &actors{max: 2}
		var ran runs
		r1, r2, r3 := make(chan struct{}), make(chan struct{}), make(chan struct{})
		a.start(ran.table("1", r1), false)
		a.start(ran.table("2", r2), false)
		a.start(ran.table("3", r3), false)
		a.start(ran.table("4", closed()), false)
		synctest.Wait()
		a.mu.Lock()
		live, waiting := a.live, a.queued
		a.mu.Unlock()
		if order := ran.order(); live != 2 || waiting != 2 || len(order) != 2 {
			t.Fatalf("%d actors, %d tables waiting, %d run; want 2, 2, 2", live, waiting, len(order))
		}
		close(r2) // its actor takes the third table, then ...
		synctest.Wait()
		close(r3) // ... the fourth
		synctest.Wait()
		close(r1)
		synctest.Wait()
		order := ran.order()
		slices.Sort(order[:2]) // the first two ran at once
		if want := []string{"1", "2", "3", "4"}; !slices.Equal(order, want) {
			t.Fatalf("tables ran in the order %v, want %v", order, want)
		}
		if n := a.idleCount(); n != 2 {
			t.Fatalf("%d actors idle, want 2", n)
		}
		a.stop()
	})
}

// TestPeopleGoFirst checks the actors' two lines: with every actor busy, a
// table with a person's work runs before tables that waited longer with
// only their own, a table whose own work is joined by a person's moves up
// to the people's line (and runs once), and a table's own work that has
// waited ownWait goes ahead of people's work after all.
func TestPeopleGoFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := &actors{max: 1}
		var ran runs
		step := ran.table
		hold := make(chan struct{})
		a.start(step("held", hold), false)
		synctest.Wait()
		own1, own2 := step("own1", closed()), step("own2", closed())
		a.start(own1, false)
		a.start(own2, false)
		a.start(step("person", closed()), true)
		a.promote(own2) // a person's message came for it
		if n := a.waiting(); n != 3 {
			t.Errorf("%d tables waiting, want 3", n)
		}
		close(hold)
		synctest.Wait()
		if order, want := ran.order(), []string{"held", "person", "own2", "own1"}; !slices.Equal(order, want) {
			t.Fatalf("tables ran in the order %v, want %v", order, want)
		}
		if n := a.waiting(); n != 0 {
			t.Errorf("%d tables waiting after all ran, want 0", n)
		}

		ran = runs{}
		hold = make(chan struct{})
		a.start(step("held", hold), false)
		synctest.Wait()
		a.start(step("old", closed()), false)
		time.Sleep(ownWait)
		a.start(step("person", closed()), true)
		close(hold)
		synctest.Wait()
		if order, want := ran.order(), []string{"held", "old", "person"}; !slices.Equal(order, want) {
			t.Fatalf("after ownWait the tables ran in the order %v, want %v", order, want)
		}
		a.stop()
	})
}

// runs notes the order in which tables' work ran.
type runs struct {
	mu   sync.Mutex
	past []string
}

// table returns a running table whose one piece of work notes name, then
// waits for release.
func (r *runs) table(name string, release <-chan struct{}) *Table {
	return &Table{inbox: []func(){func() {
		r.mu.Lock()
		r.past = append(r.past, name)
		r.mu.Unlock()
		<-release
	}}, running: true}
}

// order returns the names noted so far, in order.
func (r *runs) order() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.past)
}
