package table

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/metrics"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// scrape reads the parlour_ series of reg's /metrics, by name as written
// (labels included).
func scrape(t *testing.T, reg *metrics.Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := map[string]float64{}
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "parlour_") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestInboxBound fills a table's inbox to its limit (Config.Inbox) while
// its actor is held, and checks that a connection's message is refused
// with busy (its id echoed), the server's refusal and a Detach wait in
// the owed list and still arrive, requests (Join, Leave, Public, Attach)
// are refused with ErrBusy, the
// table's own work is still taken, the depth shows in the metrics, and
// nothing else changed: no move, no seat taken, and once the inbox
// drains the table takes messages again.
func TestInboxBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		reg := metrics.New()
		const limit = 4
		m, mem := bubbleManager(t, Config{Grace: time.Hour, Inbox: limit, Metrics: reg})
		tb, ann, bob, spec := seated(t, m, 1)
		before := tb.Info()

		release := make(chan struct{})
		tb.post(func() { <-release })
		synctest.Wait() // the actor holds, the inbox is empty
		for range limit {
			if !tb.post(func() {}) {
				t.Fatal("the table's own work was refused")
			}
		}
		if got := scrape(t, reg); got["parlour_inbox_queued"] != limit || got["parlour_inbox_max"] != limit {
			t.Errorf("inbox depth in the metrics: queued %v, max %v; want %d", got["parlour_inbox_queued"], got["parlour_inbox_max"], limit)
		}

		if err := tb.Handle(ctx, ann, []byte(`{"v":1,"type":"move","move":"reveal 0","id":"m1"}`)); err != nil {
			t.Fatalf("Handle past the limit: %v, want the refusal as a frame", err)
		}
		tb.Refuse(bob, protocol.CodeRateLimited, "slow down", "r1")
		for name, err := range map[string]error{
			"Join":   func() error { _, err := m.Join(ctx, tb.ID(), -1, "Cy"); return err }(),
			"Leave":  m.Leave(ctx, tb.ID(), "no such token"),
			"Public": func() error { _, _, err := m.Public(ctx, tb.ID()); return err }(),
			"Attach": func() error { _, _, err := m.Attach(ctx, tb.ID(), "", true); return err }(),
		} {
			if !errors.Is(err, ErrBusy) || !errors.Is(err, ErrUnavailable) {
				t.Errorf("%s past the limit: %v, want ErrBusy (an ErrUnavailable)", name, err)
			}
		}
		own := make(chan struct{})
		if !tb.post(func() { close(own) }) {
			t.Fatal("the table's own work was refused past the limit")
		}
		tb.Detach(spec)
		if d := tb.inboxDepth(); d != limit+2 {
			t.Errorf("inbox depth %d, want the limit, the table's own work and one settling the owed", d)
		}

		close(release)
		synctest.Wait()
		select {
		case <-own:
		default:
			t.Error("the table's own work did not run")
		}
		if got := drain(t, ann); len(got) != 1 || got[0].Type != protocol.TypeError || got[0].Code != protocol.CodeBusy ||
			got[0].ID != "m1" || !strings.Contains(got[0].Message, strconv.Itoa(limit)) {
			t.Errorf("Ann got %+v, want one busy refusal of m1 naming the limit", got)
		}
		if got := drain(t, bob); len(got) != 1 || got[0].Code != protocol.CodeRateLimited || got[0].ID != "r1" {
			t.Errorf("Bob got %+v, want the server's refusal", got)
		}
		if _, open := spec.Next(); open {
			t.Error("the spectator's Detach past the limit did not detach it")
		}
		if moves, _ := mem.Moves(ctx, tb.ID()); len(moves) != 0 {
			t.Errorf("%d moves stored, want none", len(moves))
		}
		after := tb.Info()
		if after.Moves != before.Moves || !slices.Equal(after.Open, before.Open) || after.Status != before.Status {
			t.Errorf("the table changed: %+v, was %+v", after, before)
		}
		if got := scrape(t, reg); got[`parlour_refusals_total{code="busy"}`] != 1 || got["parlour_inbox_queued"] != 0 {
			t.Errorf("metrics after: busy refusals %v, inbox %v; want 1 and 0", got[`parlour_refusals_total{code="busy"}`], got["parlour_inbox_queued"])
		}

		// Drained, the table takes Ann's move.
		if err := tb.Handle(ctx, ann, []byte(`{"v":1,"type":"move","move":"reveal 0","id":"m3"}`)); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := ofType(drain(t, ann), protocol.TypeState); len(got) != 1 || got[0].Seq != 1 {
			t.Errorf("after the inbox drained Ann's move gave %+v, want the state of move 1", got)
		}
	})
}

// gatedChat is a store whose chat writes wait for gate.
type gatedChat struct {
	*memStore
	gate chan struct{}
}

func (g gatedChat) AppendChat(ctx context.Context, id string, m store.ChatMessage, keep int) error {
	<-g.gate
	return g.memStore.AppendChat(ctx, id, m, keep)
}

// TestChatQueueBound holds the table's chat writer at the store and
// checks that past Config.ChatQueue messages waiting a chat is refused
// with chat_backlog to its writer alone, neither relayed nor kept nor
// charged to the seat's rate, and that the depth shows in the metrics.
func TestChatQueueBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		reg := metrics.New()
		mem := newMemStore()
		g := gatedChat{memStore: mem, gate: make(chan struct{})}
		m := NewManager(Config{Store: g, Games: games.Registry, StandIn: "random", Grace: time.Hour, Queue: 4096, ChatQueue: 2, Metrics: reg})
		t.Cleanup(m.Close)
		tb, ann, bob, spec := seated(t, m, 1)

		sendChat(tb, ann, "one", "")
		synctest.Wait() // the writer holds "one" at the store
		sendChat(tb, ann, "two", "")
		sendChat(tb, ann, "three", "")
		synctest.Wait()
		if got := scrape(t, reg)["parlour_chat_queued"]; got != 2 {
			t.Errorf("parlour_chat_queued = %v, want 2", got)
		}
		sendChat(tb, ann, "four", "c4")
		synctest.Wait()
		got := drain(t, ann)
		if texts := chatTexts(got); !slices.Equal(texts, []string{"one", "two", "three"}) {
			t.Errorf("Ann saw %q relayed", texts)
		}
		if errs := ofType(got, protocol.TypeError); len(errs) != 1 || errs[0].Code != protocol.CodeChatBacklog || errs[0].ID != "c4" || errs[0].Message == "" {
			t.Errorf("Ann got refusals %+v, want one chat_backlog for c4", errs)
		}
		for name, sub := range map[string]*Sub{"Bob": bob, "the spectator": spec} {
			if got := drain(t, sub); !slices.Equal(chatTexts(got), []string{"one", "two", "three"}) || len(got) != 3 {
				t.Errorf("%s got %+v, want the three messages relayed", name, got)
			}
		}

		close(g.gate)
		synctest.Wait()
		if got := scrape(t, reg); got["parlour_chat_queued"] != 0 || got[`parlour_refusals_total{code="chat_backlog"}`] != 1 {
			t.Errorf("metrics after: chat queued %v, chat_backlog refusals %v; want 0 and 1", got["parlour_chat_queued"], got[`parlour_refusals_total{code="chat_backlog"}`])
		}
		// The refused message was not charged: two more fit Ann's burst
		// of five.
		sendChat(tb, ann, "five", "")
		sendChat(tb, ann, "six", "")
		synctest.Wait()
		if got := drain(t, ann); !slices.Equal(chatTexts(got), []string{"five", "six"}) || len(got) != 2 {
			t.Errorf("after the store caught up Ann got %+v, want five and six relayed", got)
		}
		stored, err := mem.Chat(ctx, tb.ID(), 0)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, c := range stored {
			texts = append(texts, c.Text)
		}
		if !slices.Equal(texts, []string{"one", "two", "three", "five", "six"}) {
			t.Errorf("stored %q", texts)
		}
	})
}

// slowBot counts the decisions it is making at once, each of which waits
// for gate.
type slowBot struct {
	gate <-chan struct{}

	mu               sync.Mutex
	now, most, total int
}

func (b *slowBot) Name() string { return "slow" }

func (b *slowBot) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	b.mu.Lock()
	b.now++
	b.most = max(b.most, b.now)
	b.total++
	b.mu.Unlock()
	<-b.gate
	b.mu.Lock()
	b.now--
	b.mu.Unlock()
	return bot.Random{}.Choose(s, seat, rng)
}

func (b *slowBot) counts() (now, most, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.now, b.most, b.total
}

// slowManager is a manager whose bot "slow" is sb.
func slowManager(t *testing.T, sb *slowBot, cfg Config) *Manager {
	cfg.Bots = func(name string) (bot.Bot, bool) {
		if name == "slow" {
			return sb, true
		}
		return bot.ByName(name)
	}
	cfg.BotNames = append(bot.Names(), "slow")
	m, _ := bubbleManager(t, cfg)
	return m
}

// TestSearchPool plays six tables of slow bots on a pool of two workers:
// no more than two decisions run at once, the others wait in the pool's
// queue, whose depth shows in the metrics, and every game ends once the
// bots may answer.
func TestSearchPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		sb := &slowBot{gate: gate}
		reg := metrics.New()
		m := slowManager(t, sb, Config{Workers: 2, Metrics: reg})
		var ids []string
		for range 6 {
			ids = append(ids, golfTable(t, m, CreateRequest{Seats: []string{"slow", "slow"}}).ID)
		}
		synctest.Wait()
		now, _, _ := sb.counts()
		waiting := m.searches.waiting()
		if now != 2 || waiting < 4 {
			t.Fatalf("%d decisions running and %d waiting, want 2 running and the others (at least 4) waiting", now, waiting)
		}
		got := scrape(t, reg)
		if got["parlour_search_queued"] != float64(waiting) || got["parlour_search_busy"] != 2 || got["parlour_search_workers"] != 2 {
			t.Errorf("metrics: queued %v, busy %v, workers %v; want %d, 2, 2",
				got["parlour_search_queued"], got["parlour_search_busy"], got["parlour_search_workers"], waiting)
		}

		close(gate)
		synctest.Wait()
		_, most, total := sb.counts()
		if most != 2 {
			t.Errorf("%d decisions ran at once, want the pool's 2", most)
		}
		for _, id := range ids {
			if info := loaded(m, id).Info(); info.Status != store.StatusOver {
				t.Errorf("table %s: %s after %d moves, want over", id, info.Status, info.Moves)
			}
		}
		got = scrape(t, reg)
		if got["parlour_search_queued"] != 0 || got["parlour_search_busy"] != 0 || got["parlour_search_fallbacks_total"] != 0 {
			t.Errorf("metrics after: queued %v, busy %v, fallbacks %v; want 0", got["parlour_search_queued"], got["parlour_search_busy"], got["parlour_search_fallbacks_total"])
		}
		if total < 6*4 {
			t.Errorf("%d decisions made for six games", total)
		}
		if n := got["parlour_search_think_seconds_count"]; n != float64(total) {
			t.Errorf("%v think times recorded for %d decisions", n, total)
		}
	})
}

// TestSearchPoolFull: past the pool's queue a bot's decision is played by
// the heuristic at once, so the tables the pool has no room for play on
// while it is held, and the fallbacks are counted.
func TestSearchPoolFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		sb := &slowBot{gate: gate}
		reg := metrics.New()
		m := slowManager(t, sb, Config{Workers: 1, SearchQueue: 1, Metrics: reg})
		var ids []string
		for range 3 {
			ids = append(ids, golfTable(t, m, CreateRequest{Seats: []string{"slow", "slow"}}).ID)
		}
		synctest.Wait()
		if now, _, _ := sb.counts(); now != 1 || m.searches.waiting() != 1 {
			t.Fatalf("%d decisions running and %d waiting, want 1 and 1", now, m.searches.waiting())
		}
		over := 0
		for _, id := range ids {
			if loaded(m, id).Info().Status == store.StatusOver {
				over++
			}
		}
		if over == 0 {
			t.Error("no game played on while the pool was full")
		}
		if got := scrape(t, reg)["parlour_search_fallbacks_total"]; got == 0 {
			t.Error("no fallback counted")
		}
		close(gate)
		synctest.Wait()
		if _, most, _ := sb.counts(); most != 1 {
			t.Errorf("%d decisions ran at once on a pool of one", most)
		}
		for _, id := range ids {
			if info := loaded(m, id).Info(); info.Status != store.StatusOver {
				t.Errorf("table %s: %s, want over", id, info.Status)
			}
		}
	})
}

// TestHurried checks the think limit a decision keeps after waiting in
// the pool's queue: the rest of its cap or budget, on one goroutine, its
// iterations kept; none once the wait has used it all.
func TestHurried(t *testing.T) {
	g, err := games.Registry.Lookup("golf")
	if err != nil {
		t.Fatal(err)
	}
	hard, _ := bot.Level("hard")
	easy, _ := bot.Level("easy")
	for _, c := range []struct {
		name   string
		b      bot.Bot
		waited time.Duration
		ok     bool
		think  time.Duration
		iters  int
	}{
		{"hard, no wait", hard, 0, true, bot.LevelCap, hard.Settings(g).Iterations},
		{"hard, waited", hard, 400 * time.Millisecond, true, bot.LevelCap - 400*time.Millisecond, hard.Settings(g).Iterations},
		{"hard, waited its cap", hard, bot.LevelCap, false, 0, 0},
		{"hard on a budget", bot.WithThink(hard, 800*time.Millisecond, 8), 200 * time.Millisecond, true, 600 * time.Millisecond, 0},
		{"easy on a budget, waited past it", bot.WithThink(easy, 800*time.Millisecond, 8), 30 * time.Millisecond, false, 0, 0},
		{"iterations, no cap", bot.Search{Iterations: 500, Workers: 4}, 100 * time.Millisecond, true, bot.LevelCap - 100*time.Millisecond, 500},
		{"no settings", bot.Search{}, 0, true, bot.LevelCap, bot.DefaultIterations},
	} {
		b, ok := hurried(c.b, g, c.waited)
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		s, isSearch := b.(bot.Search)
		if !isSearch || s.Think != c.think || s.Iterations != c.iters || s.Workers != 1 || s.Name() != c.b.Name() {
			t.Errorf("%s: %+v, want think %v, %d iterations, 1 worker, named %s", c.name, b, c.think, c.iters, c.b.Name())
		}
	}
	if b, ok := hurried(bot.Heuristic{}, g, time.Hour); !ok || b != (bot.Heuristic{}) {
		t.Errorf("a bot that is not a search: %v %v, want it as it is", b, ok)
	}
}

// TestReadyListHoldsATableOnce: with every actor busy, a table that gets
// work many times waits in the actors' ready list once, so the list holds
// no more than the tables with work.
func TestReadyListHoldsATableOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &Manager{actors: &actors{max: 1}, cfg: Config{Inbox: 1000}}
		release := make(chan struct{})
		held := &Table{m: m}
		held.post(func() { <-release })
		synctest.Wait()
		ran := 0
		a, b := &Table{m: m}, &Table{m: m}
		for range 100 {
			a.post(func() { ran++ })
			b.post(func() { ran++ })
		}
		if n := m.actors.waiting(); n != 2 {
			t.Errorf("%d tables in the ready list, want the 2 with work", n)
		}
		close(release)
		synctest.Wait()
		if n := m.actors.waiting(); n != 0 || ran != 200 {
			t.Errorf("after: %d tables waiting, %d pieces of work run; want 0 and 200", n, ran)
		}
		m.actors.stop()
	})
}

// TestSearchOverdue: a search bot's decision that its worker does not
// get to in time (the one worker held by another table's bot) is made by
// the heuristic at the bot's think limit, so its game goes on, and each
// such move counts as a fallback; the search's late choice, once the
// worker is free, is ignored.
func TestSearchOverdue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		sb := &slowBot{gate: gate}
		reg := metrics.New()
		m := slowManager(t, sb, Config{Workers: 1, Metrics: reg})
		golfTable(t, m, CreateRequest{Seats: []string{"slow", "slow"}})
		synctest.Wait()
		if now, _, _ := sb.counts(); now != 1 {
			t.Fatalf("%d slow decisions running, want the one that holds the worker", now)
		}
		id := golfTable(t, m, CreateRequest{Seats: []string{"hard", "hard"}}).ID
		synctest.Wait()
		start := time.Now()
		time.Sleep(10 * (bot.LevelCap + overdueGrace))
		synctest.Wait()
		moves := loaded(m, id).Info().Moves
		if moves < 5 {
			t.Errorf("%d moves made by the search bots in %v with their worker held, want one each %v", moves, time.Since(start), bot.LevelCap+overdueGrace)
		}
		if got := scrape(t, reg)["parlour_search_fallbacks_total"]; got < float64(moves) {
			t.Errorf("%v fallbacks counted for %d moves made by the heuristic", got, moves)
		}
		close(gate)
		synctest.Wait()
		if info := loaded(m, id).Info(); info.Moves < moves {
			t.Errorf("the table went from %d moves to %d", moves, info.Moves)
		}
	})
}
