package pace

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParseRunnable reads the threads ready to run from texts of the form
// of /proc/loadavg, and refuses the others.
func TestParseRunnable(t *testing.T) {
	for _, c := range []struct {
		in string
		n  int
		ok bool
	}{
		{"0.50 0.40 0.30 3/412 9876\n", 3, true},
		{"12.00 8.10 4.00 17/2048 1\n", 17, true},
		{"0.00 0.00 0.00 0/1 1", 0, true},
		{"0.50 0.40 0.30 /412 9876", 0, false},
		{"0.50 0.40 0.30 3412 9876", 0, false},
		{"0.50 0.40 0.30 3", 0, false},
		{"0.50 0.40", 0, false},
		{"", 0, false},
	} {
		n, ok := parseRunnable([]byte(c.in))
		if n != c.n || ok != c.ok {
			t.Errorf("parseRunnable(%q) = %d, %v; want %d, %v", c.in, n, ok, c.n, c.ok)
		}
	}
}

// busy keeps more goroutines running than there are Ps until the test
// ends.
func busy(t *testing.T) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2*runtime.GOMAXPROCS(0) + 1 {
		wg.Go(func() {
			for !stop.Load() {
			}
		})
	}
	t.Cleanup(func() { stop.Store(true); wg.Wait() })
}

// TestPace: while goroutines that never block want more processors than
// there are, a paced search waits, and it is let go by its end however
// busy the processors stay, at once past its end, after one wait if it
// has no end, and when what it thinks for quits.
func TestPace(t *testing.T) {
	busy(t)
	p := New()
	defer p.Close()
	if !p.Wanted() {
		t.Error("with more goroutines running than processors, the processors are not wanted")
	}
	within := func(what string, f func(), least, most time.Duration) {
		t.Helper()
		start := time.Now()
		f()
		if took := time.Since(start); took < least || took > most {
			t.Errorf("%s: Pace returned after %v, want %v to %v", what, took, least, most)
		}
	}
	const think = 60 * time.Millisecond
	slack := 200 * time.Millisecond
	until := time.Now().Add(think)
	within("busy, until the end of the think", func() { p.Pace(until) }, think-wait, think+slack)
	if w := p.Waited(); w < think-2*wait || w > think+slack {
		t.Errorf("Waited after waiting about %v: %v", think, w)
	}
	if w := p.Waited(); w != 0 {
		t.Errorf("Waited again at once: %v, want 0", w)
	}
	within("past the end of the think", func() { p.Pace(until) }, 0, slack)
	within("no end", func() { p.Pace(time.Time{}) }, wait/2, slack)

	quit := make(chan struct{})
	p.Quit = quit
	time.AfterFunc(think, func() { close(quit) })
	within("quit", func() { p.Pace(time.Now().Add(time.Hour)) }, think-wait, think+slack)
}

// BenchmarkWanted measures one look of a Pacer at the processors, which a
// paced search takes every bot.ClockEvery iterations.
func BenchmarkWanted(b *testing.B) {
	p := New()
	defer p.Close()
	for b.Loop() {
		p.Wanted()
	}
}
