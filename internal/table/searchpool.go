package table

import (
	mrand "math/rand/v2"
	"sync"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/internal/pace"
)

// The search pool. The bots that think (the levels easy, medium and hard,
// and any bot that is neither quick nor external) choose on the manager's
// one pool of Config.Workers workers, shared by every table, not on a
// goroutine of their own per decision: however many tables have a bot to
// move, no more searches run at once than there are workers, each on one
// goroutine (Search.Workers 1), so a busy node shares its cores among the
// decisions rather than piling goroutines on them.
//
// A decision waits in the pool's queue for a worker, and its wait counts
// against its think limit (its time budget, or its cap; bot.LevelCap for
// a search that has neither): the search thinks what is left, so a bot
// answers within its limit as its player sees it however long it waited.
// A decision whose limit was spent waiting, that finds the queue full
// (Config.SearchQueue), or whose choice has not come back by its limit
// (and a little grace: the table's timer, Table.searchOverdue), is played
// by the heuristic instead (a fallback, counted in the metrics). The heuristic keeps the game going at once:
// a decision that waited for room would only wait longer, holding its
// table up, and one that waited past its limit would keep a person
// waiting beyond what the table promised.
//
// The searches are paced (internal/pace): they think in the processor
// time the tables, the connections, the store and the rest of the
// machine leave over, all of it on an idle node and little on a busy
// one. A person's move is not held up by a bot's think at another table;
// the search thinks fewer iterations in its time instead.
//
// External bots (bot.Seater) wait on their own programs, not on a core:
// each of their decisions still runs on a goroutine of its own.

// searchPool runs the tables' bot decisions on a fixed number of workers.
type searchPool struct {
	size  int // the most decisions run at once
	limit int // the most decisions waiting
	stats Metrics

	mu    sync.Mutex
	queue []*decision // waiting, oldest first from head
	head  int
	busy  int // workers running (each takes decisions until none waits)
}

// decision is one bot's choice for a seat, made on the pool: the bot, a
// copy of the state, and what the seat's think was (job, seed, by), with
// the time it was queued.
type decision struct {
	t      *Table
	s      *seat
	b      bot.Bot
	st     game.State
	seat   int
	gen    int
	seed   uint64
	by     string
	queued time.Time
}

// newSearchPool returns a pool of size workers and a queue of limit.
func newSearchPool(size, limit int, stats Metrics) *searchPool {
	return &searchPool{size: size, limit: limit, stats: stats}
}

// submit starts a worker for d if fewer than size run, or else queues d;
// false, with nothing queued, if limit decisions wait already.
func (p *searchPool) submit(d *decision) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	d.queued = time.Now()
	if p.busy < p.size {
		p.busy++
		go p.work(d)
		return true
	}
	if len(p.queue)-p.head >= p.limit {
		return false
	}
	p.queue = append(p.queue, d)
	return true
}

// work runs d and then the waiting decisions, oldest first, until none is
// left, each search paced by the worker's pacer.
func (p *searchPool) work(d *decision) {
	pc := pace.New()
	defer pc.Close()
	p.run(d, pc)
	for {
		p.mu.Lock()
		if p.head == len(p.queue) {
			p.queue, p.head = p.queue[:0], 0
			p.busy--
			p.mu.Unlock()
			return
		}
		d := p.queue[p.head]
		p.queue[p.head] = nil
		p.head++
		p.mu.Unlock()
		p.run(d, pc)
	}
}

// run makes decision d, a search paced by pc, and hands the choice to
// its table.
func (p *searchPool) run(d *decision, pc *pace.Pacer) {
	select {
	case <-d.t.quit:
		return
	default:
	}
	b, ok := hurried(d.b, d.st.Game(), time.Since(d.queued))
	if !ok {
		b = bot.Heuristic{}
		p.stats.SearchFallback()
	}
	if s, isSearch := b.(bot.Search); isSearch {
		pc.Quit, s.Pace = d.t.quit, pc
		b = s
	}
	m, ok := d.t.choose(b, d.st, d.seat, mrand.New(mrand.NewPCG(d.seed, uint64(d.gen))))
	p.stats.SearchThink(time.Since(d.queued))
	p.stats.SearchPaced(pc.Waited())
	d.t.answer(d.s, choice{gen: d.gen, move: m, ok: ok, by: d.by})
}

// waiting returns the number of decisions waiting for a worker.
func (p *searchPool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue) - p.head
}

// running returns the number of workers running decisions.
func (p *searchPool) running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy
}

// hurried returns b as it is to choose in g after waiting for waited: a
// search bot (a level or a Search) on one goroutine, with its think limit
// (its budget, or its cap over its iterations; bot.LevelCap if it has
// neither) less waited; false if nothing of the limit is left. Any other
// bot is returned as it is.
func hurried(b bot.Bot, g game.Game, waited time.Duration) (bot.Bot, bool) {
	s, ok := searchOf(b, g)
	if !ok {
		return b, true
	}
	if s.Think <= 0 && s.Iterations <= 0 {
		// Its iterations stay the target, under the cap.
		s.Iterations = bot.DefaultIterations
	}
	left := limitOf(s) - waited
	if left <= 0 {
		return nil, false
	}
	s.Think, s.Workers = left, 1
	return s, true
}

// searchOf returns the search b runs in g, if b is a search bot (a level
// or a Search).
func searchOf(b bot.Bot, g game.Game) (bot.Search, bool) {
	switch x := b.(type) {
	case bot.Leveled:
		return x.Settings(g), true
	case bot.Search:
		return x, true
	}
	return bot.Search{}, false
}

// thinkLimit returns the most a decision of b in g may take, its wait
// for a worker included (see hurried): its time budget, or its cap; 0 if
// b is not a search bot.
func thinkLimit(b bot.Bot, g game.Game) time.Duration {
	s, ok := searchOf(b, g)
	if !ok {
		return 0
	}
	return limitOf(s)
}

// limitOf returns the most a decision of s may take: its time budget, or
// bot.LevelCap for a search that has none (its iterations under the cap).
func limitOf(s bot.Search) time.Duration {
	if s.Think > 0 {
		return s.Think
	}
	return bot.LevelCap
}

// external reports whether b is an external bot, whose decisions wait on
// its program rather than on a core.
func external(b bot.Bot) bool {
	switch b.(type) {
	case bot.Seat, bot.Seater:
		return true
	}
	return false
}
