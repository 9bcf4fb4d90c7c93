// Package pace lets a server's searches think in the processor time the
// rest of the machine leaves over.
//
// A search on a server (a bot's decision on the tables' search pool, a
// game's analysis) asks its Pacer every few iterations whether it may go
// on (bot.Search.Pace). While something else wants the processors, the
// Pacer waits, wait at a time, with the search's goroutine parked, so
// that its P and its core serve the rest, until the search's time is up.
// Something wants the processors when a goroutine of the process waits
// for a P, when more of them run than the machine has cores, or (on
// Linux) when more threads of the whole machine are ready to run than it
// has cores: the tables, the store, and whatever else shares the machine
// go first. On a busy node a search thinks fewer iterations in its time;
// on an idle one, all it may.
//
// The searches used to run on threads at nice 19 instead. The kernel
// rarely ran such a thread on a busy machine, and while it waited, the
// thread held one of the process's Ps, which nothing else could use,
// and every stop of the world waited for it (docs/perf/node.md, "Search
// bots and the node's Ps").
package pace

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"time"
)

// wait is how long a Pacer waits before it looks again.
const wait = 500 * time.Microsecond

// A Pacer paces one search at a time (a bot.Pacer). Its zero value is not
// usable; New makes one and Close ends it.
type Pacer struct {
	// Quit, once closed, lets the searches go on at once: the table or
	// the analysis they think for has ended, and they are to answer
	// soon. Nil: never.
	Quit <-chan struct{}

	waited  time.Duration // waited since the last Waited
	cores   int
	samples [2]metrics.Sample // the process's goroutines runnable, running
	load    *loadavg          // the machine's threads ready to run; nil if unknown
	timer   *time.Timer
}

// New returns a Pacer.
func New() *Pacer {
	p := &Pacer{cores: runtime.NumCPU(), load: openLoadavg(), timer: time.NewTimer(time.Hour)}
	p.timer.Stop()
	p.samples[0].Name = "/sched/goroutines/runnable:goroutines"
	p.samples[1].Name = "/sched/goroutines/running:goroutines"
	return p
}

// Close releases what p holds.
func (p *Pacer) Close() {
	p.timer.Stop()
	if p.load != nil {
		p.load.close()
	}
}

// Pace returns once nothing else wants the processors, at until at the
// latest, or once Quit is closed. With a zero until (a search with no
// time limit) it waits once at most, so that such a search still ends.
func (p *Pacer) Pace(until time.Time) {
	for p.Wanted() {
		d := wait
		if !until.IsZero() {
			left := time.Until(until)
			if left <= 0 {
				return
			}
			d = min(d, left)
		}
		start := time.Now()
		p.timer.Reset(d)
		select {
		case <-p.timer.C:
			p.waited += time.Since(start)
		case <-p.Quit:
			p.timer.Stop()
			p.waited += time.Since(start)
			return
		}
		if until.IsZero() {
			return
		}
	}
}

// Waited returns the time Pace has waited since the last call to Waited
// (since New, at the first).
func (p *Pacer) Waited() time.Duration {
	d := p.waited
	p.waited = 0
	return d
}

// Wanted reports whether something other than the searches wants the
// processors: a goroutine of the process waiting for a P, more of them
// running than there are cores, or more threads of the machine ready to
// run than there are cores.
func (p *Pacer) Wanted() bool {
	metrics.Read(p.samples[:])
	if p.samples[0].Value.Uint64() > 0 || p.samples[1].Value.Uint64() > uint64(p.cores) {
		return true
	}
	if p.load != nil {
		if n, ok := p.load.runnable(); ok && n > p.cores {
			return true
		}
	}
	return false
}

// parseRunnable returns the threads ready to run that a text of the form
// of Linux's /proc/loadavg gives ("0.50 0.40 0.30 3/412 9876": the fourth
// field's first number, the reading thread among them).
func parseRunnable(b []byte) (int, bool) {
	for range 3 {
		i := bytes.IndexByte(b, ' ')
		if i < 0 {
			return 0, false
		}
		b = b[i+1:]
	}
	n, digits := 0, 0
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		digits++
	}
	if digits == 0 || digits == len(b) || b[digits] != '/' {
		return 0, false
	}
	return n, true
}
