// Package runner plays numbered matches on a pool of worker goroutines and
// reports progress as they finish: the one loop behind parlour tournament
// (internal/arena) and parlour sim (sim). It knows nothing of games: what
// match i is, its seed and where its outcome goes are the caller's.
package runner

import (
	"context"
	"runtime"
	"sync"
)

// Workers returns the number of workers that play n matches when w are
// asked for: w, or one per core (runtime.GOMAXPROCS) when w is 0 or less,
// and never more than n.
func Workers(w, n int) int {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, n)
}

// Run plays matches 0 to n-1 by calling play(w, i) for match i on worker w,
// one of Workers(workers, n) goroutines numbered from 0. Matches are handed
// out in order and each worker plays its matches one after another, so play
// may keep state of its own per worker, indexed by w. Which worker plays a
// match is left to the scheduler: for a run to be reproducible, what play
// does with match i must depend on i alone.
//
// progress, if not nil, is called after each match that play returned
// without an error, with the number of matches done so far and n, never
// concurrently.
//
// Once ctx ends or play returns an error, Run stops handing out matches and
// returns when those under way are over: with the error of the
// lowest-numbered match that failed, else ctx's error, else nil.
func Run(ctx context.Context, n, workers int, progress func(done, total int), play func(w, i int) error) error {
	workers = Workers(workers, n)
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu     sync.Mutex
		done   int
		failed = -1 // the lowest-numbered match that failed
		err    error
		wg     sync.WaitGroup
	)
	for w := range workers {
		wg.Go(func() {
			for i := range jobs {
				if e := play(w, i); e != nil {
					mu.Lock()
					if failed < 0 || i < failed {
						failed, err = i, e
					}
					mu.Unlock()
					cancel()
					continue
				}
				mu.Lock()
				done++
				if progress != nil {
					progress(done, n)
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range n {
		select {
		case jobs <- i:
		case <-stop.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return err
	}
	return ctx.Err()
}
