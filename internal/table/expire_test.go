package table

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"parlour/internal/store"
)

// TestExpire checks Config.Expire: a waiting table no person joined is
// deleted from the store and unloaded once it has waited that long (within
// a tenth more, the janitor's tick), its spectators told why; a table a
// person joined, one whose game began and one of bots only are not; and
// only tables played count toward Played.
func TestExpire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const expire = time.Minute
		ctx := context.Background()
		m, mem := bubbleManager(t, Config{Expire: expire, Grace: time.Hour})
		empty := golfTable(t, m, CreateRequest{Seats: []string{"open", "open"}})
		_, spec := attach(t, m, empty.ID, "")
		half := golfTable(t, m, CreateRequest{Seats: []string{"open", "open"}})
		if _, err := m.Join(ctx, half.ID, 0, "Ann"); err != nil {
			t.Fatal(err)
		}
		playing := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		if _, err := m.Join(ctx, playing.ID, 0, "Bob"); err != nil {
			t.Fatal(err)
		}
		bots := golfTable(t, m, CreateRequest{Seats: []string{"random", "random"}, Grace: new(float64)})
		late := golfTable(t, m, CreateRequest{Seats: []string{"open", "open"}})
		synctest.Wait()
		if n := m.Played(); n != 2 {
			t.Errorf("Played: %d, want 2 (a person seated at one table, a game begun at another)", n)
		}

		// Joined just before it would expire, a table stays.
		step(expire - time.Second)
		if _, err := m.Join(ctx, late.ID, 1, "Cy"); err != nil {
			t.Fatal(err)
		}
		if loaded(m, empty.ID) == nil {
			t.Fatalf("the empty table left before %v", expire)
		}
		step(expire / 5)
		if loaded(m, empty.ID) != nil {
			t.Fatalf("the empty table is still loaded %v after it was made", time.Since(empty.CreatedAt))
		}
		if _, err := mem.Table(ctx, empty.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the expired table in the store: %v, want ErrNotFound", err)
		}
		if _, err := m.Get(ctx, empty.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get of the expired table: %v, want ErrNotFound", err)
		}
		spec.read()
		if !spec.closed || !errors.Is(spec.sub.Err(), ErrExpired) {
			t.Errorf("the spectator's sub: closed %v, %v; want closed with ErrExpired", spec.closed, spec.sub.Err())
		}
		for _, id := range []string{half.ID, playing.ID, bots.ID, late.ID} {
			if _, err := mem.Table(ctx, id); err != nil {
				t.Errorf("table %s: %v", id, err)
			}
		}
		if loaded(m, half.ID) == nil || loaded(m, late.ID) == nil {
			t.Error("a table with a person seated was unloaded")
		}
		if n := m.Played(); n != 3 {
			t.Errorf("Played: %d, want 3", n)
		}
	})
}

// TestAbandon checks Config.Abandon: a table nobody is connected to leaves
// memory once that long has passed since its last connection went, stays
// in the store, and comes back, where it was, when asked for; a table
// someone watches stays.
func TestAbandon(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const abandon = time.Minute
		ctx := context.Background()
		m, mem := bubbleManager(t, Config{Abandon: abandon, Grace: time.Hour})
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		watched := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Join(ctx, watched.ID, 0, "Bob"); err != nil {
			t.Fatal(err)
		}
		_, spec := attach(t, m, watched.ID, "")
		tb, w := attach(t, m, info.ID, j.Token)
		synctest.Wait()
		w.read()
		before := w.state().Seq

		step(10 * abandon)
		if loaded(m, info.ID) != tb {
			t.Fatal("a table its player is connected to was unloaded")
		}
		tb.Detach(w.sub)
		step(abandon - time.Second)
		if loaded(m, info.ID) != tb {
			t.Fatalf("unloaded less than %v after its player left", abandon)
		}
		step(abandon / 5)
		if loaded(m, info.ID) != nil {
			t.Fatalf("still loaded %v after its player left", abandon+abandon/5)
		}
		select {
		case <-tb.done:
		default:
			t.Fatal("the unloaded table's goroutine runs on")
		}
		if rec, err := mem.Table(ctx, info.ID); err != nil || rec.Status != store.StatusPlaying {
			t.Fatalf("the abandoned table in the store: %v, %v; want it playing", rec, err)
		}
		if loaded(m, watched.ID) == nil {
			t.Error("a table a spectator watches was unloaded")
		}
		if n := m.Played(); n != 1 {
			t.Errorf("Played: %d, want 1 (the watched table)", n)
		}

		// Asked for, it comes back where it was, and plays on.
		tb2, w2 := attach(t, m, info.ID, j.Token)
		if tb2 == tb || loaded(m, info.ID) != tb2 {
			t.Fatal("the table was not loaded again")
		}
		synctest.Wait()
		w2.read()
		if st := w2.state(); st.Status != store.StatusPlaying || st.Seq != before {
			t.Fatalf("reloaded: %s at move %d, want playing at %d", st.Status, st.Seq, before)
		}
		playOut(t, tb2, w2, time.Hour)
		spec.read()
		if spec.closed {
			t.Errorf("the spectator's sub was closed: %v", spec.sub.Err())
		}
	})
}

// TestJanitorTick checks how often the janitor looks.
func TestJanitorTick(t *testing.T) {
	for _, c := range []struct {
		limits []time.Duration
		want   time.Duration
	}{
		{[]time.Duration{10 * time.Minute, 0}, 30 * time.Second},
		{[]time.Duration{0, time.Minute}, 6 * time.Second},
		{[]time.Duration{time.Minute, time.Second}, 100 * time.Millisecond},
		{[]time.Duration{time.Millisecond}, 10 * time.Millisecond},
	} {
		if got := janitorTick(c.limits...); got != c.want {
			t.Errorf("janitorTick(%v) = %v, want %v", c.limits, got, c.want)
		}
	}
}
