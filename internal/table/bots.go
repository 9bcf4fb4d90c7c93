package table

import (
	"errors"
	mrand "math/rand/v2"
	"parlour/bot"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"time"
)

// botPlays reports whether a bot chooses the seat's moves now.
func (t *Table) botPlays(s *seat) bool {
	return t.status == store.StatusPlaying && (s.kind == store.KindBot || s.token == "" || s.standin)
}

// schedule starts bots and clocks for the seats to act.
func (t *Table) schedule() {
	if t.status != store.StatusPlaying {
		return
	}
	act := t.st.ToAct()
	now := time.Now()
	for _, s := range t.seats {
		if !act.Has(s.n) || t.botPlays(s) {
			if !s.deadline.IsZero() {
				s.deadline = time.Time{}
				s.clockGen++
			}
		}
		if !act.Has(s.n) {
			continue
		}
		if t.botPlays(s) {
			if !s.thinking {
				by := "bot"
				if s.kind == store.KindHuman {
					by = "standin"
				}
				t.think(s, by, t.botDelay())
			}
			continue
		}
		if t.set.ClockMS > 0 && s.deadline.IsZero() {
			d := time.Duration(t.set.ClockMS) * time.Millisecond
			s.deadline = now.Add(d)
			s.clockGen++
			// One timer per seat, set again for each deadline: a
			// timer left from an earlier one wakes the seat for
			// nothing (fired looks at the deadline).
			if s.clock == nil {
				t.wakeable(s)
				s.clock = time.AfterFunc(d, func() { t.wake(s) })
			} else {
				s.clock.Reset(d)
			}
		}
	}
}

func (t *Table) botDelay() time.Duration {
	d := t.m.cfg.BotDelay
	if d <= 0 {
		return 0
	}
	return time.Duration(float64(d) * (0.5 + t.rng.Float64()))
}

// clockRanOut has the stand-in make the move of a person out of time,
// once the seat's deadline has passed.
func (t *Table) clockRanOut(s *seat) {
	if s.deadline.IsZero() || time.Now().Before(s.deadline) || t.status != store.StatusPlaying || !t.st.ToAct().Has(s.n) || t.botPlays(s) || s.thinking {
		return
	}
	t.think(s, "clock", 0)
}

// think has the seat's bot (or stand-in) choose a move after delay. What
// the think needs is kept in the seat, not in closures made for each move
// (the timer's is the only one): who moves, the seed of the choice, and
// how often it has waited for a slow connection. A quick bot (one that
// chooses in microseconds, reading the state only) chooses on the actor,
// from the state itself; any other on a copy of the state, off the actor
// (on the manager's search pool, searchpool.go), and the choice comes
// back to the actor.
func (t *Table) think(s *seat, by string, delay time.Duration) {
	s.job++
	s.thinking = true
	s.thinkBy, s.thinkSeed, s.thinkWaited = by, t.rng.Uint64(), 0
	switch {
	case delay > 0:
		// Nothing waits out the delay but the seat's timer: no
		// goroutine, and no copy of the state until the bot starts to
		// choose.
		t.arm(s, delay)
	case quick(t.botOf(s)):
		// After what the actor is doing now (a move's frames go out
		// before the next move is made).
		t.arm(s, 0)
	default:
		t.startThink(s)
	}
}

// arm starts the think under way at s after delay: on the actor after
// what it is doing now when delay is 0, else when the seat's timer fires.
// The timer is made once and set again for each move (a bot's move costs
// no timer and no closure). A fire is acted on once, and only for the
// think it was set for, at or after its time: one of an earlier think
// already on its way to the actor when the timer was set again is
// ignored.
func (t *Table) arm(s *seat, delay time.Duration) {
	s.armedJob, s.armedAt = s.job, time.Now().Add(delay)
	t.wakeable(s)
	if delay <= 0 {
		t.wake(s)
		return
	}
	t.setTimer(s, delay)
}

// setTimer has the seat's timer wake the seat after d: the timer is made
// once and set again each time.
func (t *Table) setTimer(s *seat, d time.Duration) {
	if s.timer == nil {
		s.timer = time.AfterFunc(d, func() { t.wake(s) })
		return
	}
	s.timer.Reset(d)
}

// wake has the actor look at what is due at seat s (fired): its armed
// think, its clock, its bot's choice. The seat has one piece of work in
// the inbox at most: a wake while one is there is left to it (it looks
// at the seat when it runs, after the wake).
func (t *Table) wake(s *seat) {
	if s.woken.CompareAndSwap(false, true) {
		t.post(s.fire)
	}
}

// wakeable makes the seat's fire, once (on the actor, before anything
// that may wake the seat).
func (t *Table) wakeable(s *seat) {
	if s.fire == nil {
		s.fire = func() { t.fired(s) }
	}
}

// fired does what is due at seat s (on the actor): starts the armed
// think if its time has come, has the stand-in move if the seat's clock
// ran out, and takes the choice its bot came back with.
func (t *Table) fired(s *seat) {
	s.woken.Store(false)
	if s.armedJob != 0 && s.armedJob == s.job && !time.Now().Before(s.armedAt) {
		s.armedJob = 0
		t.startThink(s)
	}
	t.clockRanOut(s)
	s.answerMu.Lock()
	c := s.answer
	s.answer = nil
	s.answerMu.Unlock()
	if c != nil {
		if c.gen == s.job {
			s.searchDue = time.Time{}
		}
		t.botMoved(s, c.gen, c.move, c.ok, c.by) // (a void think's is ignored)
	}
	if !s.searchDue.IsZero() && !time.Now().Before(s.searchDue) {
		t.searchOverdue(s)
	}
}

// searchOverdue has the heuristic make the move of seat s whose search
// is past its think limit (the pool's workers run on what processor time
// the tables leave, and a busy node may leave too little): the think's
// job is voided, so the search's late choice is ignored, and the
// fallback is counted.
func (t *Table) searchOverdue(s *seat) {
	s.searchDue = time.Time{}
	s.job++
	t.m.stats.SearchFallback()
	t.chooseNow(s, bot.Heuristic{})
}

// choice is a bot's move for a think (gen) of a seat, made off the actor:
// ok is false if the bot panicked.
type choice struct {
	gen  int
	move game.Move
	ok   bool
	by   string
}

// answer hands the actor c, the choice of a think of seat s made off the
// actor. The seat keeps the choice of its newest think only (an earlier
// think's is void once a newer one has begun), so its choices take no
// more room in the inbox than its wake.
func (t *Table) answer(s *seat, c choice) {
	s.answerMu.Lock()
	if s.answer == nil || c.gen >= s.answer.gen {
		s.answer = &c
	}
	s.answerMu.Unlock()
	t.wake(s)
}

// botOf returns the bot that chooses seat s's moves: its own, or the
// stand-in for a person's seat.
func (t *Table) botOf(s *seat) bot.Bot {
	if s.kind != store.KindBot {
		return t.stand
	}
	return s.b
}

// choose returns b's move for seat n in st, drawing from r; not ok if b
// panicked (which the log is told of).
func (t *Table) choose(b bot.Bot, st game.State, n int, r *mrand.Rand) (m game.Move, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			t.m.log.Error("a bot panicked", "table", t.id, "bot", b.Name(), "panic", r)
		}
	}()
	return b.Choose(st, n, r), true
}

// startThink has the bot choose the move of the think under way at seat
// s, from a generator seeded with the think's seed and job, unless a
// connection has fallen behind: then it waits for it (botWait, up to
// botWaitLimit times) rather than have it dropped as too slow (a table of
// bots with no pause can outrun any reader).
func (t *Table) startThink(s *seat) {
	if s.thinkWaited < botWaitLimit && t.backlogged() {
		s.thinkWaited++
		t.arm(s, botWait)
		return
	}
	b, gen, seed, by, n := t.botOf(s), s.job, s.thinkSeed, s.thinkBy, s.n
	if quick(b) {
		t.chooseNow(s, b)
		return
	}
	t.wakeable(s) // for the answer
	if external(b) {
		st := t.st.Clone()
		go func() {
			select {
			case <-t.quit:
				return
			default:
			}
			m, ok := t.choose(b, st, n, mrand.New(mrand.NewPCG(seed, uint64(gen))))
			t.answer(s, choice{gen: gen, move: m, ok: ok, by: by})
		}()
		return
	}
	d := &decision{t: t, s: s, b: b, st: t.st.Clone(), seat: n, gen: gen, seed: seed, by: by}
	if !t.m.searches.submit(d) {
		// The pool's queue is full: the heuristic moves at once.
		t.m.stats.SearchFallback()
		t.chooseNow(s, bot.Heuristic{})
		return
	}
	if limit := thinkLimit(b, t.g); limit > 0 {
		// The seat's timer is free while its think runs: it wakes the
		// seat if the choice is late.
		due := limit + overdueGrace
		s.searchDue = time.Now().Add(due)
		t.setTimer(s, due)
	}
}

// overdueGrace is how long past a search's think limit its choice may
// come before the heuristic moves instead: the search reads the clock
// only between iterations.
const overdueGrace = 100 * time.Millisecond

// chooseNow has b, a quick bot, make the move of the think under way at
// seat s on the actor, from the state itself.
func (t *Table) chooseNow(s *seat, b bot.Bot) {
	if s.rnd == nil {
		s.rnd = mrand.New(&s.pcg)
	}
	s.pcg.Seed(s.thinkSeed, uint64(s.job))
	m, ok := t.choose(b, t.st, s.n, s.rnd)
	t.botMoved(s, s.job, m, ok, s.thinkBy)
}

const (
	// botWait is how long a bot waits for a connection that has fallen
	// behind before it looks again, and botWaitLimit how many times it
	// waits before it moves all the same (then the connection is dropped
	// if it still does not keep up).
	botWait      = 10 * time.Millisecond
	botWaitLimit = 200
)

// backlogged reports whether a connection's queue is more than half full.
func (t *Table) backlogged() bool {
	for sub := range t.subs {
		if sub.pending() > t.m.cfg.Queue/2 {
			return true
		}
	}
	return false
}

// quick reports whether b chooses a move in microseconds, reading the state
// only (bot.Random, bot.Heuristic): the actor may run it itself.
func quick(b bot.Bot) bool {
	switch b.(type) {
	case bot.Random, bot.Heuristic:
		return true
	}
	return false
}

func (t *Table) botMoved(s *seat, gen int, m game.Move, ok bool, by string) {
	if gen != s.job {
		return
	}
	s.thinking = false
	if t.status != store.StatusPlaying || !t.st.ToAct().Has(s.n) {
		return
	}
	if by == "clock" {
		if t.botPlays(s) {
			t.schedule()
			return
		}
	} else if !t.botPlays(s) {
		t.schedule()
		return
	}
	if !ok {
		m = bot.Random{}.Choose(t.st, s.n, t.rng)
	}
	if err := t.apply(s.n, m, by); err != nil {
		if !errors.Is(err, ErrUnavailable) || !t.m.storeDown() && !errors.Is(err, store.ErrFull) && !errors.Is(err, store.ErrReadOnly) {
			// (An outage of the store is logged by the manager, a full or
			// read-only disk by the store.)
			t.log().Error("a bot's move was refused", "seat", s.n, "err", err)
		}
		if !errors.Is(err, ErrUnavailable) {
			// Play on with a legal move rather than stall the table.
			if err := t.apply(s.n, bot.Random{}.Choose(t.st, s.n, t.rng), by); err != nil {
				t.log().Error("a random move was refused", "seat", s.n, "err", err)
			}
		} else {
			// Try again after a pause: the store may come back.
			s.job++
			gen := s.job
			s.thinking = true
			t.after(time.Second, func() {
				if gen == s.job {
					s.thinking = false
					t.schedule()
				}
			})
			return
		}
	}
	t.schedule()
}

func (t *Table) clocks() []protocol.Clock {
	out := []protocol.Clock{}
	now := time.Now()
	for _, s := range t.seats {
		if !s.deadline.IsZero() {
			out = append(out, protocol.Clock{Seat: s.n, RemainingMS: max(0, s.deadline.Sub(now).Milliseconds())})
		}
	}
	return out
}
