package server

import (
	"context"
	"testing"
	"time"
)

// TestStuckWrites checks the sweep: a write under way for longer than the
// timeout has its connection cut, once per sweep that finds it; a write
// within it, a finished one and a connection not writing are left; a
// forgotten connection is not looked at.
func TestStuckWrites(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newStuckWrites(ctx, time.Hour) // the sweeper waits; sweep is called here
	cuts := map[string]int{}
	watch := func(name string) *watchedWrites {
		return s.watch(func() { cuts[name]++ })
	}
	stuck, finished, idle, gone := watch("stuck"), watch("finished"), watch("idle"), watch("gone")
	stuck.begin()
	finished.begin()
	finished.end()
	gone.begin()
	s.forget(gone)
	_ = idle
	began := time.Duration(stuck.since.Load() - 1)

	if n := s.sweep(began + s.timeout); n != 0 || len(cuts) != 0 {
		t.Errorf("at the timeout: %d cut (%v), want none", n, cuts)
	}
	if n := s.sweep(began + s.timeout + time.Millisecond); n != 1 || cuts["stuck"] != 1 || len(cuts) != 1 {
		t.Errorf("past the timeout: %d cut (%v), want the stuck write's", n, cuts)
	}
	stuck.end()
	if n := s.sweep(began + 2*s.timeout); n != 0 {
		t.Errorf("once the write ended: %d cut", n)
	}
}

// TestStuckWritesSweeper checks that the sweeper runs on its own while a
// connection is watched, whichever came and went before, and ends when
// none is.
func TestStuckWritesSweeper(t *testing.T) {
	s := newStuckWrites(context.Background(), 20*time.Millisecond)
	cutter := func(cut chan struct{}) func() {
		return func() {
			select {
			case cut <- struct{}{}:
			default:
			}
		}
	}
	first := s.watch(func() {})
	cut := make(chan struct{}, 1)
	w := s.watch(cutter(cut))
	s.forget(first) // the connection that started the sweeper ends
	w.begin()
	select {
	case <-cut:
	case <-time.After(5 * time.Second):
		t.Fatal("a write stuck for 5 s was not cut (timeout 20 ms)")
	}
	s.forget(w)
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		running := s.running
		s.mu.Unlock()
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweeper still runs 5 s after the last connection was forgotten")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
