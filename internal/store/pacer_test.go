package store

import (
	"testing"
	"testing/synctest"
	"time"
)

// reqs returns n requests for the pacer (only their count matters).
func reqs(n int) []appendReq {
	return make([]appendReq, n)
}

// TestPacerGather checks the group commit's pacing: a quiet writer
// commits at once, a busy one lingers for more moves (which wake it as
// they come) until the linger ends or the batch has lingerBelow moves, and
// a backlog is committed without a wait.
func TestPacerGather(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		appends := make(chan appendReq, maxBatch)
		var p pacer
		timed := func(waiting int) (int, time.Duration) {
			t.Helper()
			for _, r := range reqs(waiting) {
				appends <- r
			}
			start := time.Now()
			batch := p.gather(nil, appendReq{}, appends)
			return len(batch), time.Since(start)
		}

		// A quiet writer (its last batch one move) stores what waits now.
		if n, d := timed(3); n != 4 || d != 0 {
			t.Fatalf("quiet: a batch of %d after %v, want 4 at once", n, d)
		}

		// After a batch of 11 moves it lingers 1 ms: moves coming in it
		// join the batch; one after it waits for the next.
		p.commit(11, func() {})
		go func() {
			time.Sleep(500 * time.Microsecond)
			appends <- appendReq{}
			appends <- appendReq{}
			time.Sleep(time.Millisecond)
			appends <- appendReq{}
		}()
		if n, d := timed(1); n != 4 || d != time.Millisecond {
			t.Fatalf("busy: a batch of %d after %v, want 4 after 1ms", n, d)
		}
		synctest.Wait()
		<-appends

		// A backlog of lingerBelow moves is stored at once, linger or not.
		p.commit(40, func() {})
		if n, d := timed(lingerBelow); n != lingerBelow+1 || d != 0 {
			t.Fatalf("backlog: a batch of %d after %v, want %d at once", n, d, lingerBelow+1)
		}

		// The linger ends as soon as the batch reaches lingerBelow.
		p.commit(40, func() {})
		go func() {
			time.Sleep(300 * time.Microsecond)
			for range lingerBelow - 10 {
				appends <- appendReq{}
			}
		}()
		if n, d := timed(9); n != lingerBelow || d != 300*time.Microsecond {
			t.Fatalf("filled: a batch of %d after %v, want %d after 300µs", n, d, lingerBelow)
		}

		// At most maxBatch moves a batch.
		if n, _ := timed(maxBatch); n != maxBatch {
			t.Fatalf("a batch of %d, want at most %d", n, maxBatch)
		}
		for len(appends) > 0 {
			<-appends
		}

		// A closed queue ends the linger.
		p.commit(40, func() {})
		close(appends)
		if n, d := timed(0); n != 1 || d != 0 {
			t.Fatalf("closed: a batch of %d after %v, want 1 at once", n, d)
		}
	})
}

// TestFoldFirst checks when the move log's writer takes a step of a fold
// before the moves waiting: with none waiting, in a linger, once after
// each commit, but not ahead of a backlog unless the fold is late.
func TestFoldFirst(t *testing.T) {
	l := &moveLog{genStart: time.Now()}
	late := &moveLog{genStart: time.Now().Add(-2 * foldEvery)}
	for _, c := range []struct {
		l       *moveLog
		waiting int
		linger  time.Duration
		stepped bool
		want    bool
	}{
		{l, 0, 0, true, true},
		{l, 5, time.Millisecond, true, true},
		{l, 5, 0, false, true},
		{l, 5, 0, true, false},
		{l, lingerBelow, time.Millisecond, false, false},
		{late, lingerBelow, 0, false, true},
		{late, lingerBelow, 0, true, false},
	} {
		if got := c.l.foldFirst(c.waiting, c.linger, c.stepped); got != c.want {
			t.Errorf("foldFirst(%d waiting, linger %v, stepped %v, late %v) = %v, want %v",
				c.waiting, c.linger, c.stepped, c.l == late, got, c.want)
		}
	}
}

// TestFoldPace checks that a fold's steps are due evenly over foldSpread of
// foldEvery from its start, and at once past the steps planned.
func TestFoldPace(t *testing.T) {
	began := time.Now()
	spread := time.Duration(float64(foldEvery) * foldSpread)
	f := foldPace{began: began, planned: 4}
	for k := range 4 {
		f.taken = k
		if got, want := f.next(), began.Add(spread*time.Duration(k)/4); !got.Equal(want) {
			t.Errorf("step %d of 4 due at %v after the start, want %v", k, got.Sub(began), want.Sub(began))
		}
	}
	for _, f := range []foldPace{{began: began, planned: 4, taken: 4}, {began: began, planned: 4, taken: 9}, {began: began}} {
		if got := f.next(); !got.Equal(began) {
			t.Errorf("%d of %d steps taken: next due %v after the start, want at once", f.taken, f.planned, got.Sub(began))
		}
	}
	for _, c := range []struct{ moves, rows, want int }{
		{0, 0, 0},
		{1, 1, 2},
		{foldChunk, deleteChunk, 2},
		{foldChunk + 1, deleteChunk + 1, 4},
		{45000, 1500, 352 + 24},
	} {
		if got := foldSteps(c.moves, c.rows); got != c.want {
			t.Errorf("foldSteps(%d moves, %d rows) = %d, want %d", c.moves, c.rows, got, c.want)
		}
	}
}
