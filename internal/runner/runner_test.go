package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func TestWorkers(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ w, n, want int }{
		{3, 10, 3},
		{3, 2, 2},
		{0, 1_000_000, cores},
		{-1, 1_000_000, cores},
		{0, 1, 1},
		{4, 0, 0},
	} {
		if got := Workers(c.w, c.n); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.w, c.n, got, c.want)
		}
	}
}

// TestRunEveryMatchOnce plays every match once, on workers numbered below
// the number asked for, no two of a worker's matches at once, and reports
// progress 1 to n in order.
func TestRunEveryMatchOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 8, 50} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			const n = 40
			want := Workers(workers, n)
			played := make([]atomic.Int32, n)
			busy := make([]atomic.Int32, want)
			var seen []int
			var running atomic.Int32
			progress := func(done, total int) {
				if running.Add(1) != 1 {
					t.Error("progress called concurrently")
				}
				defer running.Add(-1)
				if total != n {
					t.Errorf("progress total %d, want %d", total, n)
				}
				seen = append(seen, done)
			}
			err := Run(context.Background(), n, workers, progress, func(w, i int) error {
				if w < 0 || w >= want {
					t.Errorf("match %d on worker %d, want 0 to %d", i, w, want-1)
					return nil
				}
				if busy[w].Add(1) != 1 {
					t.Errorf("worker %d plays two matches at once", w)
				}
				defer busy[w].Add(-1)
				played[i].Add(1)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range played {
				if c := played[i].Load(); c != 1 {
					t.Errorf("match %d played %d times", i, c)
				}
			}
			for k, d := range seen {
				if d != k+1 {
					t.Fatalf("progress reported %v, want 1 to %d", seen, n)
				}
			}
			if len(seen) != n {
				t.Errorf("progress called %d times, want %d", len(seen), n)
			}
		})
	}
}

// TestRunInOrder hands the matches out in order: one worker plays them
// 0, 1, 2...
func TestRunInOrder(t *testing.T) {
	var order []int
	if err := Run(context.Background(), 10, 1, nil, func(w, i int) error {
		order = append(order, i)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(order, want) {
		t.Errorf("played %v, want %v", order, want)
	}
}

// TestRunAllWorkers runs the workers at once: every worker holds a match
// until all of them have one.
func TestRunAllWorkers(t *testing.T) {
	const workers = 4
	var wg sync.WaitGroup
	wg.Add(workers)
	var mu sync.Mutex
	used := map[int]bool{}
	if err := Run(context.Background(), workers, workers, nil, func(w, i int) error {
		mu.Lock()
		used[w] = true
		mu.Unlock()
		wg.Done()
		wg.Wait()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(used) != workers {
		t.Errorf("%d workers played, want %d", len(used), workers)
	}
}

// TestRunCancel stops handing out matches once the context ends and
// returns its error.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 1000
	var played atomic.Int32
	err := Run(ctx, n, 2, nil, func(w, i int) error {
		if played.Add(1) == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want %v", err, context.Canceled)
	}
	if p := played.Load(); p == n {
		t.Errorf("all %d matches played: Run did not stop when the context ended", p)
	}
}

// TestRunError stops handing out matches at a failed one, reports progress
// for the others only, and returns the error of the lowest-numbered match
// that failed.
func TestRunError(t *testing.T) {
	const n = 1000
	var played, succeeded atomic.Int32
	done := 0
	err := Run(context.Background(), n, 4, func(d, total int) { done = d }, func(w, i int) error {
		played.Add(1)
		if i >= 7 && i%2 == 1 {
			return fmt.Errorf("match %d", i)
		}
		succeeded.Add(1)
		return nil
	})
	if err == nil || err.Error() != "match 7" {
		t.Errorf("Run returned %v, want match 7", err)
	}
	if p := played.Load(); p == n {
		t.Errorf("all %d matches played: Run did not stop at the failure", p)
	}
	if s := int(succeeded.Load()); done != s {
		t.Errorf("progress reported %d done, want the %d that succeeded", done, s)
	}
}
