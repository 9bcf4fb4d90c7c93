package table

// The table's timers (grace periods, turn clocks, bot delays, unloading)
// tested in synctest bubbles: time is fake, so every wait is exact and the
// tests take no real time. Everything a table starts must end inside the
// bubble, so the tables here keep their moves in a memStore (see
// memstore_test.go) and play with the built-in random and heuristic bots.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/games/golf"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// bubbleManager returns a manager on a fresh memStore, to be called inside
// a bubble; it is closed when the bubble's test ends.
func bubbleManager(t *testing.T, cfg Config) (*Manager, *memStore) {
	t.Helper()
	mem := newMemStore()
	cfg.Store = mem
	if cfg.Games == nil {
		cfg.Games = games.Registry
	}
	if cfg.StandIn == "" {
		cfg.StandIn = "random"
	}
	if cfg.Queue == 0 {
		cfg.Queue = 4096 // the tests read frames in bursts
	}
	m := NewManager(cfg)
	t.Cleanup(m.Close) // inside the bubble, before it ends
	return m, mem
}

// golfTable creates a one-hole Golf table with a fixed seed.
func golfTable(t *testing.T, m *Manager, req CreateRequest) protocol.TableInfo {
	t.Helper()
	seed := uint64(42)
	req.Game, req.Seed = "golf", &seed
	if req.Options == nil {
		req.Options = map[string]any{"holes": 1}
	}
	info, err := m.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// step lets fake time run for d, then waits for every goroutine of the
// bubble to be blocked.
func step(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// frame is any frame a table sends (state, seats, welcome, error).
type frame struct {
	protocol.State
	Code string `json:"code"`
}

// watch reads a sub's frames.
type watch struct {
	t      *testing.T
	sub    *Sub
	all    []frame
	closed bool // the table closed the sub
}

func attach(t *testing.T, m *Manager, id, token string) (*Table, *watch) {
	t.Helper()
	tb, sub, err := m.Attach(context.Background(), id, token, token == "")
	if err != nil {
		t.Fatal(err)
	}
	return tb, &watch{t: t, sub: sub}
}

// read returns the frames queued since the last read (all of them, after
// synctest.Wait).
func (w *watch) read() []frame {
	w.t.Helper()
	var out []frame
	for {
		fr, open := w.sub.Next()
		if !open {
			w.closed = true
			return out
		}
		if fr == nil {
			return out
		}
		var f frame
		if err := json.Unmarshal(fr.Data, &f); err != nil {
			w.t.Fatalf("frame %s: %v", fr.Data, err)
		}
		if f.Type == protocol.TypeError {
			w.t.Errorf("an error frame: %s", fr.Data)
		}
		out = append(out, f)
		w.all = append(w.all, f)
	}
}

// state returns the last state frame read.
func (w *watch) state() frame {
	w.t.Helper()
	for i := len(w.all) - 1; i >= 0; i-- {
		if w.all[i].Type == protocol.TypeState {
			return w.all[i]
		}
	}
	w.t.Fatal("no state frame")
	return frame{}
}

// events returns the events of frames of kind for seat (-2: any seat) and,
// for moves, by by ("*": anyone).
func events(frames []frame, kind string, seat int, by string) []protocol.Event {
	var out []protocol.Event
	for _, f := range frames {
		for _, ev := range f.Events {
			if ev.Kind == kind && (seat == -2 || ev.Seat == seat) && (by == "*" || ev.By == by) {
				out = append(out, ev)
			}
		}
	}
	return out
}

func seatState(f frame, n int) string {
	for _, s := range f.Seats {
		if s.Seat == n {
			return s.State
		}
	}
	return ""
}

// clockOf returns the remaining time a frame shows on seat n's clock.
func clockOf(f frame, n int) (time.Duration, bool) {
	for _, c := range f.Clocks {
		if c.Seat == n {
			return time.Duration(c.RemainingMS) * time.Millisecond, true
		}
	}
	return 0, false
}

// timedMove is a move event and how long its seat's decision had lasted.
type timedMove struct {
	ev   protocol.Event
	took time.Duration
}

// decisions times every move in frames (a spectator's, read from before
// the game started or from start on) from the moment its decision began:
// the seat's turn came, it moved and still had to act, or its stand-in
// took over.
func decisions(start time.Time, frames []frame) []timedMove {
	began := map[int]time.Time{}
	var acting game.Seats
	var out []timedMove
	first := true
	for _, f := range frames {
		var mover = -1
		now := start
		if len(f.Events) > 0 {
			now = f.Events[0].At
		} else if !first {
			continue // a sync: nothing changed
		}
		for _, ev := range f.Events {
			switch ev.Kind {
			case protocol.EventMove:
				out = append(out, timedMove{ev, ev.At.Sub(began[ev.Seat])})
				mover = ev.Seat
			case protocol.EventStandIn:
				began[ev.Seat] = ev.At
			}
		}
		if f.Type != protocol.TypeState {
			continue
		}
		first = false
		next := game.SeatsOf(f.ToAct...)
		for _, n := range f.ToAct {
			if !acting.Has(n) || n == mover {
				began[n] = now
			}
		}
		acting = next
	}
	return out
}

// loaded returns table id if it is in memory, without loading it.
func loaded(m *Manager, id string) *Table {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tables[id]
}

// playOut plays w's seat (the first legal move whenever it may act) until
// the game ends, within limit of fake time.
func playOut(t *testing.T, tb *Table, w *watch, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		synctest.Wait()
		w.read()
		st := w.state()
		if st.Status == store.StatusOver {
			return
		}
		if w.closed {
			t.Fatalf("the table closed the player's sub: %v", w.sub.Err())
		}
		if len(st.Legal) > 0 {
			if err := sendMove(tb, w.sub, st.Legal[0]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end within %v", limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGrace drops a seated player mid-game, twice. Back within the grace
// period, nothing plays the seat and the first period's timer is void;
// away for the whole grace period, the seat gets its stand-in exactly when
// the period ends and not a millisecond before, the stand-in moves with
// the table's bot delay, and the player's return stops it, even in the
// middle of a decision.
func TestGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const grace, delay = 2 * time.Second, 500 * time.Millisecond
		ctx := context.Background()
		m, mem := bubbleManager(t, Config{BotDelay: delay, Grace: grace})
		start := time.Now()
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		tb, w := attach(t, m, info.ID, "")
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		_, ann := attach(t, m, info.ID, j.Token)
		synctest.Wait()
		w.read()
		if st := ann.read(); len(st) < 2 || ann.state().Status != store.StatusPlaying || len(ann.state().Legal) == 0 {
			t.Fatalf("Ann's first frames: %+v", st)
		}
		stored := func() []store.Move {
			ms, err := mem.Moves(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			return ms
		}
		seat0 := func(ms []store.Move) (n int) {
			for _, mv := range ms {
				if mv.Seat == 0 {
					n++
				}
			}
			return n
		}

		// Away and back within the grace period.
		tb.Detach(ann.sub)
		synctest.Wait()
		fs := w.read()
		if away := events(fs, protocol.EventAway, 0, "*"); len(away) != 1 || !away[0].At.Equal(start) || seatState(fs[len(fs)-1], 0) != protocol.SeatAway {
			t.Fatalf("on dropping: %+v", fs)
		}
		step(grace / 2)
		_, ann = attach(t, m, info.ID, j.Token)
		synctest.Wait()
		fs = w.read()
		if back := events(fs, protocol.EventBack, 0, "*"); len(back) != 1 || back[0].At.Sub(start) != grace/2 || seatState(fs[len(fs)-1], 0) != protocol.SeatHere {
			t.Fatalf("on coming back: %+v", fs)
		}
		step(grace / 4)
		away := time.Now() // start + 1.5 s
		tb.Detach(ann.sub)
		// The first period would have ended at start + 2 s: nothing then.
		step(grace/4 + time.Millisecond)
		if n := seat0(stored()); n != 0 || len(events(w.read(), protocol.EventStandIn, -2, "*")) != 0 {
			t.Fatalf("the first grace period's timer played seat 0 (%d moves)", n)
		}

		// Away past the grace period: the stand-in, on the millisecond.
		step(grace - time.Since(away) - time.Millisecond)
		if n := seat0(stored()); n != 0 || len(events(w.read(), protocol.EventStandIn, -2, "*")) != 0 {
			t.Fatalf("1 ms before the grace period ended: %d moves of seat 0, or a stand-in", n)
		}
		step(time.Millisecond)
		fs = w.read()
		si := events(fs, protocol.EventStandIn, 0, "*")
		if len(si) != 1 || si[0].At.Sub(away) != grace || seatState(fs[len(fs)-1], 0) != protocol.SeatStandIn {
			t.Fatalf("when the grace period ended: %+v", fs)
		}

		// The stand-in plays; then, as soon as seat 0 must decide again
		// (its stand-in thinking), Ann comes back.
		for {
			step(time.Millisecond)
			w.read()
			st := w.state()
			if st.Status != store.StatusPlaying {
				t.Fatalf("the game ended with the stand-in playing: %+v", st)
			}
			if len(events(w.all, protocol.EventMove, 0, "standin")) >= 3 && slices.Contains(st.ToAct, 0) {
				break
			}
			if time.Since(start) > time.Minute {
				t.Fatal("the stand-in did not play")
			}
		}
		var thinking bool
		tb.call(ctx, func() { thinking = tb.seats[0].thinking })
		if !thinking {
			t.Fatal("the stand-in is not thinking about seat 0's decision")
		}
		before := len(stored())
		_, ann = attach(t, m, info.ID, j.Token)
		back := time.Now()
		synctest.Wait()
		fs = w.read()
		if ev := events(fs, protocol.EventBack, 0, "*"); len(ev) != 1 || !ev[0].At.Equal(back) || seatState(fs[len(fs)-1], 0) != protocol.SeatHere {
			t.Fatalf("on coming back from the stand-in: %+v", fs)
		}
		ann.read()
		if st := ann.state(); len(st.Legal) == 0 || st.Seq != before {
			t.Fatalf("Ann's state on coming back: seq %d (stored %d), legal %v", st.Seq, before, st.Legal)
		}
		// The stand-in's pending move is void, and nothing plays for Ann.
		step(time.Minute)
		if ms := stored(); len(ms) != before {
			t.Fatalf("after Ann came back: %+v", ms[before:])
		}
		playOut(t, tb, ann, 10*time.Minute)
		synctest.Wait()
		w.read()
		for _, mv := range stored()[before:] {
			if mv.Seat == 0 && mv.By != "" {
				t.Errorf("after Ann came back, seat 0 was played by %q: %+v", mv.By, mv)
			}
		}

		// Every bot and stand-in move came after the table's delay.
		for _, d := range decisions(start, w.all) {
			if d.ev.By != "" && (d.took < delay/2 || d.took >= delay*3/2) {
				t.Errorf("move %d (seat %d, by %s) came %v into its decision", d.ev.N, d.ev.Seat, d.ev.By, d.took)
			}
			if d.ev.Seat == 0 && d.ev.By == "standin" && d.ev.At.Before(away.Add(grace)) {
				t.Errorf("a stand-in move in the grace period: %+v", d.ev)
			}
		}
	})
}

// TestTurnClock gives a connected player who does not move a clock: the
// state shows it counting down, another seat's move does not reset it, and
// when it runs out the stand-in moves for the player, on the millisecond,
// and the player stays seated. A move in time stops the clock, and the
// next decision gets a whole clock of its own.
func TestTurnClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const clock, delay = time.Second, 500 * time.Millisecond
		ctx := context.Background()
		m, mem := bubbleManager(t, Config{BotDelay: delay, Grace: time.Minute})
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}, Clock: clock.Seconds()})
		if info.Clock != clock.Seconds() {
			t.Errorf("Info.Clock %v, want %v", info.Clock, clock.Seconds())
		}
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		tb, ann := attach(t, m, info.ID, j.Token)
		synctest.Wait()
		ann.read()
		if c, ok := clockOf(ann.state(), 0); !ok || c != clock || len(ann.state().Clocks) != 1 {
			t.Fatalf("clocks at the start: %+v, want seat 0's with %v", ann.state().Clocks, clock)
		}

		// The bot reveals (it has no clock); Ann's clock runs on.
		step(400 * time.Millisecond)
		sendSync(tb, ann.sub)
		for _, f := range ann.read() {
			if f.Type != protocol.TypeState {
				continue
			}
			now := start.Add(400 * time.Millisecond)
			if len(f.Events) > 0 {
				now = f.Events[0].At
			}
			want := time.Duration((clock - now.Sub(start)).Milliseconds()) * time.Millisecond
			if c, ok := clockOf(f, 0); !ok || c != want || len(f.Clocks) != 1 {
				t.Errorf("at %v: clocks %+v, want seat 0's with %v", now.Sub(start), f.Clocks, want)
			}
		}
		step(clock - 400*time.Millisecond - time.Millisecond)
		if got := events(ann.read(), protocol.EventMove, 0, "*"); len(got) != 0 {
			t.Fatalf("seat 0 moved before its clock ran out: %+v", got)
		}
		step(time.Millisecond)
		fs := ann.read()
		ran := events(fs, protocol.EventMove, 0, "*")
		if len(ran) != 1 || ran[0].By != "clock" || ran[0].At.Sub(start) != clock {
			t.Fatalf("when the clock ran out: %+v", ran)
		}
		if st := ann.state(); seatState(st, 0) != protocol.SeatHere {
			t.Errorf("after the clock moved, seat 0 is %q, want here", seatState(st, 0))
		}

		// Ann's next turn: she draws halfway through her clock.
		for len(ann.state().Legal) == 0 {
			step(time.Millisecond)
			ann.read()
			if time.Since(start) > time.Minute {
				t.Fatal("Ann's turn did not come")
			}
		}
		turn := ann.state().Events[0].At // the move that made it Ann's turn
		// (The frame of that move does not show her clock: see
		// TestTurnClockInTheTurnsFrame. A sync does.)
		if c, ok := clockOf(syncState(t, tb, ann), 0); !ok || c != msLeft(turn.Add(clock)) {
			t.Fatalf("%v into Ann's turn, clocks %+v, want %v", time.Since(turn), ann.state().Clocks, msLeft(turn.Add(clock)))
		}
		step(clock / 2)
		draw := ann.state().Legal[0]
		if !strings.HasPrefix(draw, "draw") {
			t.Fatalf("Ann's turn begins with %v, want a draw", ann.state().Legal)
		}
		drew := time.Now()
		if err := sendMove(tb, ann.sub, draw); err != nil {
			t.Fatal(err)
		}
		if c, ok := clockOf(syncState(t, tb, ann), 0); !ok || c != clock || len(ann.state().Legal) == 0 {
			t.Fatalf("after drawing, Ann holds a card with clocks %+v, want a whole %v", ann.state().Clocks, clock)
		}
		// The draw's deadline passes unnoticed; the second decision's
		// clock runs out a whole clock after the draw.
		step(clock - time.Millisecond)
		if got := events(ann.all, protocol.EventMove, 0, "clock"); len(got) != 1 {
			t.Fatalf("clock moves %+v: the draw should have stopped the clock of %v", got, turn.Sub(start))
		}
		step(time.Millisecond)
		ann.read()
		got := events(ann.all, protocol.EventMove, 0, "clock")
		if len(got) != 2 || got[1].At.Sub(drew) != clock {
			t.Fatalf("the second decision's clock: %+v (the draw at %v)", got, drew.Sub(start))
		}

		// Ann plays on and makes her own moves.
		playOut(t, tb, ann, 10*time.Minute)
		ms, _ := mem.Moves(ctx, info.ID)
		own := 0
		for _, mv := range ms {
			if mv.Seat == 0 && mv.By == "" {
				own++
			}
		}
		if own == 0 {
			t.Error("Ann made none of her own moves")
		}
		if c := ann.state().Clocks; len(c) != 0 {
			t.Errorf("clocks %+v after the end", c)
		}
	})
}

// syncState asks for a fresh state frame for w and returns it.
func syncState(t *testing.T, tb *Table, w *watch) frame {
	t.Helper()
	if err := sendSync(tb, w.sub); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	w.read()
	return w.state()
}

// msLeft is the time to deadline a clock shows now (whole milliseconds).
func msLeft(deadline time.Time) time.Duration {
	return time.Duration(time.Until(deadline).Milliseconds()) * time.Millisecond
}

// TestTurnClockInTheTurnsFrame checks that the state frame that starts a
// person's decision shows the decision's clock: the table schedules the
// decision a move leads to before it tells anyone of the move (it once
// broadcast first, and a client saw the clock only with the next frame).
func TestTurnClockInTheTurnsFrame(t *testing.T) {
	var missing []string
	synctest.Test(t, func(t *testing.T) {
		const clock = time.Second
		ctx := context.Background()
		m, _ := bubbleManager(t, Config{BotDelay: 500 * time.Millisecond, Grace: time.Minute})
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}, Clock: clock.Seconds()})
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		tb, ann := attach(t, m, info.ID, j.Token)
		for moves := 0; moves < 6; {
			synctest.Wait()
			for _, f := range ann.read() {
				if f.Type != protocol.TypeState || len(f.Legal) == 0 || len(f.Events) == 0 {
					continue
				}
				if c, ok := clockOf(f, 0); !ok || c != clock {
					missing = append(missing, fmt.Sprintf("after move %d: clocks %+v", f.Seq, f.Clocks))
				}
			}
			if st := ann.state(); st.Status != store.StatusPlaying {
				t.Fatalf("the game is %s", st.Status)
			} else if len(st.Legal) > 0 {
				if err := sendMove(tb, ann.sub, st.Legal[0]); err != nil {
					t.Fatal(err)
				}
				moves++
				continue
			}
			step(10 * time.Millisecond)
		}
	})
	if len(missing) > 0 {
		t.Errorf("the frame starting a decision shows no clock for it (%s)", strings.Join(missing, "; "))
	}
}

// TestBotDelay checks that a bot moves between half and one and a half of
// Config.BotDelay after its decision begins, the delays varying, and with
// no delay a bots' game takes no time at all.
func TestBotDelay(t *testing.T) {
	t.Run("delay", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			const delay = 800 * time.Millisecond
			m, _ := bubbleManager(t, Config{BotDelay: delay})
			start := time.Now()
			info := golfTable(t, m, CreateRequest{Seats: []string{"random", "heuristic"}})
			_, w := attach(t, m, info.ID, "")
			for w.read(); w.state().Status != store.StatusOver; w.read() {
				step(time.Second)
				if time.Since(start) > time.Hour {
					t.Fatal("the game did not end")
				}
			}
			ds := decisions(start, w.all)
			if len(ds) < 10 {
				t.Fatalf("%d moves", len(ds))
			}
			var sum time.Duration
			seen := map[time.Duration]bool{}
			for _, d := range ds {
				if d.ev.By != "bot" || d.took < delay/2 || d.took >= delay*3/2 {
					t.Errorf("move %d (seat %d, by %q) came %v into its decision, want %v to %v", d.ev.N, d.ev.Seat, d.ev.By, d.took, delay/2, delay*3/2)
				}
				sum += d.took
				seen[d.took] = true
			}
			mean := sum / time.Duration(len(ds))
			if len(seen) < len(ds)/2 || mean < delay*3/4 || mean > delay*5/4 {
				t.Errorf("%d moves took %d different times, %v on average; want them spread about %v", len(ds), len(seen), mean, delay)
			}
		})
	})
	t.Run("none", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m, mem := bubbleManager(t, Config{})
			start := time.Now()
			info := golfTable(t, m, CreateRequest{Seats: []string{"random", "heuristic"}})
			synctest.Wait()
			ms, err := mem.Moves(context.Background(), info.ID)
			if got, _ := m.Info(context.Background(), info.ID); err != nil || got.Status != store.StatusOver || len(ms) < 10 {
				t.Fatalf("without a delay, no time passed and the game is %s after %d moves (%v)", got.Status, len(ms), err)
			}
			for _, mv := range ms {
				if !mv.At.Equal(start) {
					t.Errorf("move %d at %v, want at once", mv.N, mv.At.Sub(start))
				}
			}
		})
	})
}

// TestUnload checks that a finished table nobody watches leaves memory
// exactly Config.Unload after its end, or after its last watcher left,
// and comes back from the store when asked for.
func TestUnload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const unload = time.Minute
		ctx := context.Background()
		// Bots with no delay: the game ends as it starts.
		m, mem := bubbleManager(t, Config{Unload: unload})
		end := time.Now()
		info := golfTable(t, m, CreateRequest{Seats: []string{"random", "random"}})
		tb := loaded(m, info.ID)
		synctest.Wait()
		ms, _ := mem.Moves(ctx, info.ID)
		if tb.Info().Status != store.StatusOver || len(ms) == 0 {
			t.Fatalf("the bots' game is %s after %d moves", tb.Info().Status, len(ms))
		}
		step(unload - time.Millisecond)
		if loaded(m, info.ID) != tb {
			t.Fatalf("unloaded before %v", unload)
		}
		step(time.Millisecond)
		if loaded(m, info.ID) != nil {
			t.Fatalf("still loaded %v after the end", time.Since(end))
		}
		select {
		case <-tb.done:
		default:
			t.Fatal("the unloaded table's goroutine runs on")
		}

		// Asked for, it comes back; watched, it stays.
		tb2, w := attach(t, m, info.ID, "")
		if tb2 == tb || loaded(m, info.ID) != tb2 {
			t.Fatal("the table was not loaded again")
		}
		synctest.Wait()
		if st := func() frame { w.read(); return w.state() }(); st.Status != store.StatusOver || st.Seq != len(ms) {
			t.Fatalf("reloaded: %s at move %d, want over at %d", st.Status, st.Seq, len(ms))
		}
		step(2 * unload)
		if loaded(m, info.ID) != tb2 {
			t.Fatal("a watched table was unloaded")
		}
		tb2.Detach(w.sub)
		step(unload - time.Millisecond)
		if loaded(m, info.ID) != tb2 {
			t.Fatalf("unloaded less than %v after its watcher left", unload)
		}
		step(time.Millisecond)
		if loaded(m, info.ID) != nil {
			t.Fatalf("still loaded %v after its watcher left", unload)
		}
	})
}

// boomGame is Golf whose states panic on the move text "boom".
type boomGame struct{ golf.Game }

func (g boomGame) Name() string { return "boom-golf" }

func (g boomGame) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	st, err := g.Game.New(opts, seed, deals)
	return boomState{st}, err
}

type boomState struct{ game.State }

func (s boomState) ParseMove(seat int, text string) (game.Move, error) {
	if strings.TrimSpace(text) == "boom" {
		panic("boom")
	}
	return s.State.ParseMove(seat, text)
}

func (s boomState) Clone() game.State { return boomState{s.State.Clone()} }

// TestPanicStopsOnlyItsTable checks that a panic in one table's game closes
// that table's connections, leaves the other tables playing, and that the
// table comes back from the store with every move.
func TestPanicStopsOnlyItsTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m, _ := bubbleManager(t, Config{Games: game.NewRegistry(boomGame{}, golf.Game{}), BotDelay: 100 * time.Millisecond, Grace: time.Minute})
		one := map[string]any{"holes": 1}
		info, err := m.Create(ctx, CreateRequest{Game: "boom-golf", Options: one, Seats: []string{"open", "open"}})
		if err != nil {
			t.Fatal(err)
		}
		other, err := m.Create(ctx, CreateRequest{Game: "golf", Options: one, Seats: []string{"random", "random"}})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.Join(ctx, info.ID, 0, "Ann")
		m.Join(ctx, info.ID, 1, "Bob")
		tb, ann := attach(t, m, info.ID, a.Token)
		sendMove(tb, ann.sub, "reveal 1")
		synctest.Wait()
		ann.read()
		if st := ann.state(); st.Seq != 1 {
			t.Fatalf("after a move: %+v", st)
		}
		step(time.Second)
		playing := m.Moves()
		if oi, _ := m.Info(ctx, other.ID); oi.Status != store.StatusPlaying {
			t.Fatalf("the other table is %s before the panic", oi.Status)
		}
		sendMove(tb, ann.sub, "boom")
		synctest.Wait()
		ann.read()
		switch fr, open := ann.sub.Next(); {
		case fr != nil:
			t.Fatal("a frame after the panic")
		case open:
			t.Fatal("the panicking table's connection is open")
		}
		if !errors.Is(ann.sub.Err(), ErrClosed) {
			t.Errorf("after the panic the sub ended with %v, want ErrClosed", ann.sub.Err())
		}
		// The table comes back from the store; the other table plays on.
		_, again := attach(t, m, info.ID, a.Token)
		synctest.Wait()
		again.read()
		if st := again.state(); st.Seq != 1 {
			t.Errorf("rebuilt at move %d, want 1", st.Seq)
		}
		step(time.Hour)
		if oi, _ := m.Info(ctx, other.ID); oi.Status != store.StatusOver || m.Moves() <= playing {
			t.Errorf("the other table is %s after %d moves (%d before the panic)", oi.Status, m.Moves(), playing)
		}
	})
}

// TestSlowSubscriberIsDropped checks that a connection that does not keep
// up is dropped rather than waited for, and play goes on. (In a bubble, so
// the player acts on the latest state only: no race with the bot's moves.)
func TestSlowSubscriberIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const queue = 4
		ctx := context.Background()
		m, _ := bubbleManager(t, Config{Queue: queue, Grace: time.Minute})
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random"}})
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		_, slow, err := m.Attach(ctx, info.ID, "", true)
		if err != nil {
			t.Fatal(err)
		}
		tb, ann := attach(t, m, info.ID, j.Token)
		playOut(t, tb, ann, time.Hour)
		if n := len(events(ann.all, protocol.EventMove, 0, "")); n == 0 {
			t.Error("Ann made no move")
		}
		n := 0
		for {
			fr, open := slow.Next()
			if !open {
				break
			}
			if fr == nil {
				t.Fatal("the slow sub is still open after the game")
			}
			n++
		}
		if n > queue || !errors.Is(slow.Err(), ErrSlow) {
			t.Errorf("the slow sub got %d frames and ended with %v; want at most %d and ErrSlow", n, slow.Err(), queue)
		}
		if got, _ := m.Info(ctx, info.ID); got.Spectators != 0 {
			t.Errorf("%d spectators left", got.Spectators)
		}
	})
}

// TestBotsWaitForASlowReader checks that bots with no pause wait for a
// connection that reads slowly, rather than fill its queue and have it
// dropped, and that it sees every move.
func TestBotsWaitForASlowReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const queue = 8
		ctx := context.Background()
		m, _ := bubbleManager(t, Config{Queue: queue, Grace: time.Minute})
		info := golfTable(t, m, CreateRequest{Seats: []string{"open", "random", "random"}})
		j, err := m.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		_, slow := attach(t, m, info.ID, "")
		done := make(chan []frame)
		go func() {
			// One frame every 20 ms: far slower than bots with no pause.
			for {
				time.Sleep(20 * time.Millisecond)
				fr, open := slow.sub.Next()
				if !open {
					done <- slow.all
					return
				}
				if fr == nil {
					continue
				}
				var f frame
				if err := json.Unmarshal(fr.Data, &f); err != nil {
					t.Errorf("frame %s: %v", fr.Data, err)
				}
				slow.all = append(slow.all, f)
				if f.Status == store.StatusOver {
					done <- slow.all
					return
				}
			}
		}()
		tb, ann := attach(t, m, info.ID, j.Token)
		playOut(t, tb, ann, time.Hour)
		all := <-done
		if err := slow.sub.Err(); err != nil {
			t.Fatalf("the slow reader was dropped: %v", err)
		}
		last := ann.state()
		moves := len(events(all, protocol.EventMove, -2, "*"))
		if all[len(all)-1].Status != store.StatusOver || moves != last.Seq || all[len(all)-1].Seq != last.Seq {
			t.Errorf("the slow reader saw %d moves and ended at move %d (%s); the game ended at move %d", moves, all[len(all)-1].Seq, all[len(all)-1].Status, last.Seq)
		}
	})
}

// TestArmedThink checks the seat's reused think timer (arm): a fire that
// reaches the actor before the think's time (one of an earlier think, on
// its way when the timer was set again) starts nothing, the think starts
// at its time, and a fire after that starts no second one.
func TestArmedThink(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m, mem := bubbleManager(t, Config{BotDelay: time.Second})
		info := golfTable(t, m, CreateRequest{Seats: []string{"random", "random"}})
		tb := loaded(m, info.ID)
		synctest.Wait()
		moves := func() int {
			ms, err := mem.Moves(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			return len(ms)
		}
		var (
			first time.Time
			armed []*seat
		)
		tb.call(ctx, func() {
			for _, s := range tb.seats {
				if s.armedJob != 0 {
					armed = append(armed, s)
					if first.IsZero() || s.armedAt.Before(first) {
						first = s.armedAt
					}
					tb.post(s.fire) // early
				}
			}
		})
		if len(armed) == 0 {
			t.Fatal("no bot's think is armed at the start")
		}
		synctest.Wait()
		if n := moves(); n != 0 {
			t.Fatalf("early fires made %d moves, want none before %v", n, time.Until(first))
		}
		step(time.Until(first))
		after := moves()
		if after == 0 {
			t.Fatal("no move at the think's time")
		}
		tb.call(ctx, func() {
			for _, s := range armed {
				tb.fired(s) // late, and again
			}
		})
		synctest.Wait()
		if n := moves(); n != after {
			t.Errorf("fires after the think started made %d more moves", n-after)
		}
	})
}
