package server_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// recentLog returns the log of the recent past cl got on connecting, and
// checks where it came: right after the state that followed the welcome
// and the kept chat, with that state's seq.
func (cl *client) recentLog(timeout time.Duration) msg {
	cl.t.Helper()
	end := time.Now().Add(timeout)
	for {
		all := cl.all()
		for i, m := range all {
			if m.Type != protocol.TypeLog {
				continue
			}
			j := i - 1
			for j > 0 && all[j].Type == protocol.TypeChat && all[j].Old {
				j--
			}
			if j != 1 || all[0].Type != protocol.TypeWelcome || all[1].Type != protocol.TypeState {
				cl.t.Errorf("%s: the log is frame %d, after %s", cl.name, i, describeTypes(all[:i]))
			} else if all[1].Seq != m.Seq {
				cl.t.Errorf("%s: the log ends at move %d, the state before it at %d", cl.name, m.Seq, all[1].Seq)
			}
			if n := countType(all, protocol.TypeLog); n != 1 {
				cl.t.Errorf("%s: %d logs of the recent past", cl.name, n)
			}
			return m
		}
		if time.Now().After(end) {
			cl.t.Fatalf("%s: no log of the recent past within %v (frames: %s)", cl.name, timeout, describeTypes(all))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// saw waits until cl has got the state after move seq (read or not).
func (cl *client) saw(seq int, timeout time.Duration) {
	cl.t.Helper()
	end := time.Now().Add(timeout)
	for !slices.ContainsFunc(cl.all(), func(m msg) bool { return m.Type == protocol.TypeState && m.Seq >= seq }) {
		if time.Now().After(end) {
			cl.t.Fatalf("%s: no state after move %d within %v", cl.name, seq, timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func describeTypes(ms []msg) string {
	var types []string
	for _, m := range ms {
		types = append(types, m.Type)
	}
	return strings.Join(types, ", ")
}

func countType(ms []msg, typ string) int {
	n := 0
	for _, m := range ms {
		if m.Type == typ {
			n++
		}
	}
	return n
}

// liveEvents returns the game's events (moves, deal ends, the start, the
// end) cl was told live, in order: those of its state frames.
func liveEvents(cl *client) []protocol.Event {
	var out []protocol.Event
	for _, m := range cl.all() {
		if m.Type != protocol.TypeState {
			continue
		}
		for _, ev := range m.Events {
			switch ev.Kind {
			case protocol.EventMove, protocol.EventDeal, protocol.EventStart, protocol.EventOver:
				out = append(out, ev)
			}
		}
	}
	return out
}

// expectedLog returns what a log up to move seq holds, from the events a
// connection of the same seat was told live: the events of the last
// protocol.LogMoves moves, each with the deal and match ends that followed
// it, and the start if the log reaches back to it.
func expectedLog(live []protocol.Event, seq int) []protocol.Event {
	first := max(0, seq-protocol.LogMoves) // moves after it are told
	var out []protocol.Event
	owner := 0 // the move an event follows; 0: the start
	for _, ev := range live {
		if ev.Kind == protocol.EventMove {
			owner = ev.N
		}
		if owner > first && owner <= seq || owner == 0 && first == 0 {
			out = append(out, ev)
		}
	}
	return out
}

// firstMove returns the number of the first move in evs (0 if the start
// is there, or no move).
func firstMove(evs []protocol.Event) int {
	for _, ev := range evs {
		switch ev.Kind {
		case protocol.EventStart:
			return 0
		case protocol.EventMove:
			return ev.N
		}
	}
	return 0
}

// since returns the events of a log from move n on (a connection that
// came after the first moves of the match was not told them live).
func since(evs []protocol.Event, n int) []protocol.Event {
	for i, ev := range evs {
		if n == 0 || ev.Kind == protocol.EventMove && ev.N >= n {
			return evs[i:]
		}
	}
	return nil
}

// compareLog reports how got (a log) differs from want (expectedLog). The
// start is compared by its kind and place only: the log gives it the first
// move's time, the start's own time not being kept.
func compareLog(t *testing.T, who string, got, want []protocol.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: the log has %d events, %d were told live\nlog:  %s\nlive: %s", who, len(got), len(want), eventsJSON(got), eventsJSON(want))
		return
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Kind == protocol.EventStart && w.Kind == protocol.EventStart {
			if i != 0 || g.Seat != -1 {
				t.Errorf("%s: event %d is the start: %+v", who, i, g)
			}
			continue
		}
		if gj, wj := eventsJSON([]protocol.Event{g}), eventsJSON([]protocol.Event{w}); gj != wj {
			t.Errorf("%s: event %d of the log is %s; told live as %s", who, i, gj, wj)
		}
	}
}

func eventsJSON(evs []protocol.Event) string {
	b, _ := json.Marshal(evs)
	return string(b)
}

// checkRecent connects a spectator and a second tab of seat 0 to a table
// and checks their logs of the recent past against what the spectator w
// and seat 0's a, connected from the start, were told live: the same
// events, the last protocol.LogMoves moves' in order, hidden and in words
// as they were told; seat 0 reads its own moves in full.
func checkRecent(t *testing.T, e *env, id, token string, w, a *client, h func() *history) (spectatorLog, seatLog msg) {
	t.Helper()
	w2 := e.dial(id, "", "late spectator")
	a2 := e.dial(id, token, "seat 0 again")
	defer w2.close()
	defer a2.close()
	spectatorLog, seatLog = w2.recentLog(10*time.Second), a2.recentLog(10*time.Second)
	for _, c := range []struct {
		late, live *client
		log        msg
	}{{w2, w, spectatorLog}, {a2, a, seatLog}} {
		c.live.saw(c.log.Seq, 10*time.Second)
		live := liveEvents(c.live)
		want := expectedLog(live, c.log.Seq)
		compareLog(t, c.late.name, since(c.log.Events, firstMove(live)), want)
		var ns []int
		for _, ev := range c.log.Events {
			if ev.Kind == protocol.EventMove {
				ns = append(ns, ev.N)
			}
		}
		if len(ns) != min(c.log.Seq, protocol.LogMoves) || len(ns) > 0 && (ns[len(ns)-1] != c.log.Seq || ns[0] != c.log.Seq-len(ns)+1) {
			t.Errorf("%s: a log up to move %d tells moves %v", c.late.name, c.log.Seq, ns)
		}
		if c.log.Table != id || c.log.V != 1 {
			t.Errorf("%s: the log %s", c.late.name, c.log.raw)
		}
	}
	for _, ev := range seatLog.Events {
		if ev.Kind == protocol.EventMove && ev.Seat == 0 && (ev.Hidden || ev.Move == "" || ev.Text == "") {
			t.Errorf("seat 0's own move in its log: %+v", ev)
		}
	}
	hist := h()
	checkFrames(t, hist, w2)
	checkFrames(t, hist, a2)
	return spectatorLog, seatLog
}

// TestRecentLog plays a match of every game, a person at seat 0 and bots
// at the others, watched from the start by a spectator. Past the 40th
// move once a deal has ended, and again at the end, a late spectator and
// a second tab of seat 0 connect: each gets, after its welcome, state and chat, a log of the
// table's last 40 moves exactly as a connection of its seat was told them
// live (hidden moves hidden, words full or blind, deal ends in their
// places, the end of the match last), and no card it may not see.
func TestRecentLog(t *testing.T) {
	e := newEnv(t, envConfig{})
	for i, g := range games.Registry.All() {
		t.Run(g.Name(), func(t *testing.T) {
			e.t = t
			lo, _ := g.Players()
			opts := shortFor(g)
			opts["players"] = lo
			if g.Name() == "golf" {
				opts["holes"] = 3
				delete(opts, "target") // three holes, whatever the scores
			}
			seats := make([]string, lo)
			seats[0] = "open"
			for s := 1; s < lo; s++ {
				seats[s] = "random"
			}
			info := e.create(map[string]any{"game": g.Name(), "options": opts, "seats": seats, "seed": 300 + i})
			w := e.dial(info.ID, "", "spectator")
			if l := w.recentLog(10 * time.Second); l.Seq != 0 || len(l.Events) != 0 || !strings.Contains(string(l.raw), `"events":[]`) {
				t.Errorf("a waiting table's log: %s", l.raw)
			}
			j := e.join(info.ID, 0, "Ann")
			a := e.dial(info.ID, j.Token, "Ann")
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			// Mid-match: past the 40th move, once a deal has ended (so
			// that its end is among the moves told). A game whose first
			// deal is its last is only checked at the end.
			dealt := func() bool {
				return slices.ContainsFunc(a.all(), func(m msg) bool { return countKind(m.Events, protocol.EventDeal) > 0 })
			}
			a.play(rng, 60*time.Second, func(seq int) bool { return seq > protocol.LogMoves && dealt() })
			history := func() *history { return e.history(info.ID) }
			if st := a.lastState(); st.Status != store.StatusOver {
				wl, al := checkRecent(t, e, info.ID, j.Token, w, a, history)
				if g.Name() == "golf" && (countKind(wl.Events, protocol.EventDeal) == 0 || countKind(al.Events, protocol.EventDeal) == 0) {
					t.Errorf("golf: no hole's end in the logs at move %d", wl.Seq)
				}
				a.play(rng, 60*time.Second, nil)
			} else if g.Name() == "golf" {
				t.Error("golf: three holes were over before the 41st move")
			}
			wl, al := checkRecent(t, e, info.ID, j.Token, w, a, history)
			for _, l := range []msg{wl, al} {
				if n := len(l.Events); n == 0 || l.Events[n-1].Kind != protocol.EventOver {
					t.Errorf("the log of a finished match: %s", l.raw)
				}
			}
		})
	}
}

func countKind(evs []protocol.Event, kind string) int {
	n := 0
	for _, ev := range evs {
		if ev.Kind == kind {
			n++
		}
	}
	return n
}

// TestRecentLogAtTheStart: a table whose game has begun with no move made
// tells only the start; the log comes once per connection, not again on
// sync; a log reaches back to the start while at most 40 moves were made.
func TestRecentLogAtTheStart(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "open"}, nil)
	ann := e.join(info.ID, 0, "Ann")
	a, w := e.dial(info.ID, ann.Token, "Ann"), e.dial(info.ID, "", "spectator")
	for _, cl := range []*client{a, w} {
		if l := cl.recentLog(10 * time.Second); l.Seq != 0 || len(l.Events) != 0 {
			t.Errorf("%s: the log of a table still waiting for Bob: %s", cl.name, l.raw)
		}
	}
	bob := e.join(info.ID, 1, "Bob")
	b := e.dial(info.ID, bob.Token, "Bob")
	for _, cl := range []*client{a, b, w} {
		cl.waitFor("the game under way", 10*time.Second, func(m msg) bool {
			return m.Type == protocol.TypeState && m.Status == store.StatusPlaying
		})
	}
	w2 := e.dial(info.ID, "", "late spectator")
	if l := w2.recentLog(10 * time.Second); l.Seq != 0 || len(l.Events) != 1 || l.Events[0].Kind != protocol.EventStart || l.Events[0].Seat != -1 {
		t.Errorf("the log of a game begun with no move: %s", l.raw)
	}
	w2.send(map[string]any{"v": 1, "type": "sync"})
	w2.waitFor("the sync's state", 10*time.Second, func(m msg) bool { return m.Type == protocol.TypeState })
	a.move("reveal 0")
	b.move("reveal 2")
	// Bob's move and Ann's chat come on two connections: the chat waits
	// until Ann has seen the move, so the log below holds both reveals.
	a.waitFor("Bob's reveal", 10*time.Second, func(m msg) bool { return m.Type == protocol.TypeState && m.Seq == 2 })
	chat(a, "after the reveals")
	nextChat(t, w2)
	if n := countType(w2.all(), protocol.TypeLog); n != 1 {
		t.Errorf("%d logs to one connection", n)
	}
	a2 := e.dial(info.ID, ann.Token, "Ann again")
	got := a2.recentLog(10 * time.Second)
	want := expectedLog(liveEvents(a), got.Seq)
	compareLog(t, "Ann again", got.Events, want)
	if got.Seq != 2 || len(got.Events) != 3 || got.Events[0].Kind != protocol.EventStart || !got.Events[0].At.Equal(got.Events[1].At) {
		t.Errorf("Ann's log after the reveals: %s", got.raw)
	}
	checkFrames(t, e.history(info.ID), a2)
}
