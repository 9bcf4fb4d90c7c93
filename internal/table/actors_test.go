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
		a.start(busy(r1))
		a.start(busy(r2)) // the first is busy: a second actor
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
		a.start(busy(r3))
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
		a.start(busy(closed()))
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
		a.start(busy(closed()))
		synctest.Wait()
		a.stop()
		ran := make(chan struct{})
		a.start(&Table{inbox: []func(){func() { close(ran) }}, running: true})
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
		var (
			mu    sync.Mutex
			order []int
		)
		step := func(i int, release <-chan struct{}) *Table {
			return &Table{inbox: []func(){func() {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				<-release
			}}, running: true}
		}
		r1, r2, r3 := make(chan struct{}), make(chan struct{}), make(chan struct{})
		a.start(step(1, r1))
		a.start(step(2, r2))
		a.start(step(3, r3))
		a.start(step(4, closed()))
		synctest.Wait()
		a.mu.Lock()
		live, waiting := a.live, len(a.ready)-a.next
		a.mu.Unlock()
		if live != 2 || waiting != 2 || len(order) != 2 {
			t.Fatalf("%d actors, %d tables waiting, %d run; want 2, 2, 2", live, waiting, len(order))
		}
		close(r2) // its actor takes the third table, then ...
		synctest.Wait()
		close(r3) // ... the fourth
		synctest.Wait()
		close(r1)
		synctest.Wait()
		slices.Sort(order[:2]) // the first two ran at once
		if want := []int{1, 2, 3, 4}; !slices.Equal(order, want) {
			t.Fatalf("tables ran in the order %v, want %v", order, want)
		}
		if n := a.idleCount(); n != 2 {
			t.Fatalf("%d actors idle, want 2", n)
		}
		a.stop()
	})
}
