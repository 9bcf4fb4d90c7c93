package server_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

func golfTable(e *env, seats []string, extra map[string]any) protocol.TableInfo {
	req := map[string]any{"game": "golf", "options": map[string]any{"holes": 1, "players": len(seats)}, "seats": seats, "seed": 42}
	for k, v := range extra {
		req[k] = v
	}
	return e.create(req)
}

func seatState(m msg, seat int) string {
	for _, s := range m.Seats {
		if s.Seat == seat {
			return s.State
		}
	}
	return ""
}

func hasEvent(m msg, kind string, seat int) bool {
	return slices.ContainsFunc(m.Events, func(ev protocol.Event) bool { return ev.Kind == kind && ev.Seat == seat })
}

// TestReconnect drops a player's connection mid-game: the others see the
// seat away, nothing plays it during the grace period, and the token
// holder takes it back on reconnecting and finishes the game. A wrong
// token is refused.
func TestReconnect(t *testing.T) {
	e := newEnv(t, envConfig{grace: time.Minute})
	info := golfTable(e, []string{"open", "random"}, nil)
	watcher := e.dial(info.ID, "", "spectator")
	ann := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, ann.Token, "Ann")
	rng := rand.New(rand.NewPCG(1, 2))
	a.play(rng, 20*time.Second, func(seq int) bool { return seq >= 6 })
	a.drop()
	m := watcher.waitFor("seat 0 away", 10*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventAway, 0) })
	if seatState(m, 0) != protocol.SeatAway {
		t.Errorf("seat 0 is %q after dropping, want away", seatState(m, 0))
	}
	before := len(e.moves(info.ID))
	time.Sleep(200 * time.Millisecond)
	stored := e.moves(info.ID)
	for _, mv := range stored[before:] {
		if mv.Seat == 0 {
			t.Errorf("seat 0 moved while away within its grace: %+v", mv)
		}
	}

	// A token of no seat is refused, and the connection closed.
	bad, _, err := dialRaw(t, e.url, info.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	badc := &client{t: t, name: "impostor", c: bad, notify: make(chan struct{}, 1), closed: make(chan struct{})}
	go badc.readLoop()
	badc.send(map[string]any{"v": 1, "type": "hello", "token": "00112233445566778899aabbccddeeff"})
	if r := badc.next(5 * time.Second); r.Type != protocol.TypeError || r.Code != protocol.CodeBadToken {
		t.Errorf("a wrong token: %s, want a bad_token error", r.raw)
	}
	<-badc.closed

	a2 := e.dial(info.ID, ann.Token, "Ann again")
	if a2.seat != 0 {
		t.Fatalf("reconnected to seat %d, want 0", a2.seat)
	}
	st := a2.next(5 * time.Second)
	if st.Type != protocol.TypeState || st.Seq != len(stored) || seatState(st, 0) != protocol.SeatHere {
		t.Errorf("state on reconnecting: seq %d (stored %d), seat 0 %q", st.Seq, len(stored), seatState(st, 0))
	}
	watcher.waitFor("seat 0 back", 10*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventBack, 0) })
	if refused := a2.play(rng, 30*time.Second, nil); len(refused) > 0 {
		t.Errorf("refused: %s", describe(refused))
	}
	for _, mv := range e.moves(info.ID) {
		if mv.Seat == 0 && mv.By != "" {
			t.Errorf("seat 0 was played by %q: %+v", mv.By, mv)
		}
	}
	checkFrames(t, e.history(info.ID), a2)
	checkFrames(t, e.history(info.ID), watcher)
}

// TestStandIn drops a player past a short grace period: the stand-in bot
// plays the seat, the game goes on, and the player takes the seat back by
// reconnecting with the token.
func TestStandIn(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "random"}, map[string]any{"grace": 0.01, "options": map[string]any{"holes": 2, "players": 2}})
	watcher := e.dial(info.ID, "", "spectator")
	ann := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, ann.Token, "Ann")
	rng := rand.New(rand.NewPCG(3, 4))
	a.play(rng, 20*time.Second, func(seq int) bool { return seq >= 4 })
	a.drop()
	watcher.waitFor("the stand-in", 10*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventStandIn, 0) })
	standins := 0
	watcher.waitFor("stand-in moves", 10*time.Second, func(m msg) bool {
		for _, ev := range m.Events {
			if ev.Kind == protocol.EventMove && ev.Seat == 0 && ev.By == "standin" {
				standins++
			}
		}
		return standins >= 3 || m.Status == store.StatusOver
	})
	if standins < 3 {
		t.Fatalf("%d stand-in moves before the game ended", standins)
	}
	a2 := e.dial(info.ID, ann.Token, "Ann again")
	watcher.waitFor("seat 0 back", 10*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventBack, 0) || m.Status == store.StatusOver })
	a2.play(rng, 30*time.Second, nil)
	moves := e.moves(info.ID)
	var by []string
	for _, mv := range moves {
		if mv.Seat == 0 {
			by = append(by, mv.By)
		}
	}
	if !slices.Contains(by, "standin") {
		t.Errorf("seat 0's moves were chosen by %v: no stand-in", by)
	}
	// Once back, the player's own moves (if the game lasted) are its own.
	last := by[len(by)-1]
	final := a2.lastState()
	if final.Status != store.StatusOver {
		t.Errorf("the game did not end: %s", final.raw)
	}
	if last != "" && last != "standin" {
		t.Errorf("seat 0's last move by %q", last)
	}
	h := e.history(info.ID)
	checkFrames(t, h, watcher)
	checkFrames(t, h, a2)
}

// TestRestartRecovery stops the server mid-game and starts it again on the
// same database: the table is rebuilt from its seed and moves, the players
// reconnect with their tokens and finish, and no move is lost.
func TestRestartRecovery(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := e.create(map[string]any{"game": "golf", "options": map[string]any{"holes": 2, "players": 3},
		"seats": []string{"open", "open", "random"}, "seed": 99})
	ann := e.join(info.ID, 0, "Ann")
	bob := e.join(info.ID, 1, "Bob")
	a := e.dial(info.ID, ann.Token, "Ann")
	b := e.dial(info.ID, bob.Token, "Bob")
	rng := rand.New(rand.NewPCG(7, 8))
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.play(rand.New(rand.NewPCG(9, 10)), 20*time.Second, func(seq int) bool { return seq >= 12 })
	}()
	a.play(rng, 20*time.Second, func(seq int) bool { return seq >= 12 })
	<-done
	before := e.moves(info.ID)
	if len(before) < 12 {
		t.Fatalf("%d moves before the restart", len(before))
	}
	seenA := a.lastState().Seq
	e.restart()
	if seenA > len(before) {
		t.Fatalf("Ann saw %d moves, %d were stored", seenA, len(before))
	}
	// Closed by the shutdown, as every connection is.
	select {
	case <-a.closed:
	case <-time.After(5 * time.Second):
		t.Error("Ann's connection survived the restart")
	}
	var got protocol.TableInfo
	if code := e.do("GET", "/api/tables/"+info.ID, nil, &got); code != http.StatusOK || got.Status != store.StatusPlaying || got.Moves != len(before) {
		t.Fatalf("after the restart: %d %+v", code, got)
	}
	a2 := e.dial(info.ID, ann.Token, "Ann")
	b2 := e.dial(info.ID, bob.Token, "Bob")
	if st := a2.next(5 * time.Second); st.Seq != len(before) {
		t.Errorf("Ann reconnects at move %d, %d stored", st.Seq, len(before))
	}
	done = make(chan struct{})
	go func() {
		defer close(done)
		b2.play(rand.New(rand.NewPCG(11, 12)), 30*time.Second, nil)
	}()
	a2.play(rng, 30*time.Second, nil)
	<-done
	after := e.moves(info.ID)
	if len(after) <= len(before) {
		t.Fatalf("no move after the restart")
	}
	for i, mv := range before {
		if after[i].Text != mv.Text || after[i].Seat != mv.Seat {
			t.Errorf("move %d changed over the restart: %+v, was %+v", i, after[i], mv)
		}
	}
	h := e.history(info.ID)
	if !h.states[len(h.states)-1].Result().Over {
		t.Error("the game did not end")
	}
	checkFrames(t, h, a2)
	checkFrames(t, h, b2)
}

// TestRematch starts a new table with the same seats from a finished one.
func TestRematch(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "random"}, nil)
	ann := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, ann.Token, "Ann")
	var res protocol.JoinResult
	if code := e.do("POST", "/api/tables/"+info.ID+"/rematch", map[string]any{"token": ann.Token}, nil); code != http.StatusConflict {
		t.Errorf("a rematch before the end: %d, want 409", code)
	}
	a.play(rand.New(rand.NewPCG(1, 1)), 20*time.Second, nil)
	if code := e.do("POST", "/api/tables/"+info.ID+"/rematch", map[string]any{"token": "nope"}, nil); code != http.StatusForbidden {
		t.Errorf("a rematch with a bad token: %d, want 403", code)
	}
	if code := e.do("POST", "/api/tables/"+info.ID+"/rematch", map[string]any{"token": ann.Token}, &res); code != http.StatusOK {
		t.Fatalf("rematch: %d", code)
	}
	if res.Table == info.ID || res.Seat != 0 || len(res.Token) != 32 {
		t.Errorf("rematch: %+v", res)
	}
	a.waitFor("the rematch notice", 5*time.Second, func(m msg) bool { return m.Type == protocol.TypeRematch && m.Rematch == res.Table })
	var ni protocol.TableInfo
	e.do("GET", "/api/tables/"+res.Table, nil, &ni)
	if ni.RematchOf != info.ID || ni.Status != store.StatusPlaying || ni.Seats[1].Kind != store.KindBot || ni.Seats[0].Name != "Ann" {
		t.Errorf("the rematch table: %+v", ni)
	}
	var oi protocol.TableInfo
	e.do("GET", "/api/tables/"+info.ID, nil, &oi)
	if oi.Rematch != res.Table {
		t.Errorf("the old table links to rematch %q, want %q", oi.Rematch, res.Table)
	}
	a2 := e.dial(res.Table, res.Token, "Ann")
	a2.play(rand.New(rand.NewPCG(2, 2)), 20*time.Second, nil)
}

// TestLeave frees a seat: before the start anyone may take it; in a
// running game the stand-in plays it until someone joins.
func TestLeave(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "open"}, nil)
	ann := e.join(info.ID, 0, "Ann")
	if code := e.do("POST", "/api/tables/"+info.ID+"/leave", map[string]any{"token": ann.Token}, nil); code != http.StatusOK {
		t.Fatalf("leave: %d", code)
	}
	var got protocol.TableInfo
	e.do("GET", "/api/tables/"+info.ID, nil, &got)
	if !slices.Equal(got.Open, []int{0, 1}) {
		t.Errorf("after leaving, open seats %v", got.Open)
	}
	ann = e.join(info.ID, 0, "Ann")
	bob := e.join(info.ID, 1, "Bob")
	a := e.dial(info.ID, ann.Token, "Ann")
	b := e.dial(info.ID, bob.Token, "Bob")
	if code := e.do("POST", "/api/tables/"+info.ID+"/leave", map[string]any{"token": bob.Token}, nil); code != http.StatusOK {
		t.Fatalf("leave: %d", code)
	}
	<-b.closed
	a.waitFor("seat 1 left", 5*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventLeave, 1) })
	a.play(rand.New(rand.NewPCG(3, 3)), 20*time.Second, nil)
	var standin int
	for _, mv := range e.moves(info.ID) {
		if mv.Seat == 1 && mv.By == "standin" {
			standin++
		}
	}
	if standin == 0 {
		t.Error("nobody played the seat that was left")
	}
	if code := e.do("POST", "/api/tables/"+info.ID+"/leave", map[string]any{"token": bob.Token}, nil); code != http.StatusForbidden {
		t.Errorf("leaving twice: %d, want 403", code)
	}
}

// TestBotLevels plays short games between the lighter bot levels and a
// person, with the heuristic stand-in taking over a dropped seat, so the
// server works with the bots bot.ByName names (the heavier levels only
// think longer).
func TestBotLevels(t *testing.T) {
	e := newEnv(t, envConfig{standIn: "heuristic", grace: time.Millisecond})
	for _, name := range []string{"heuristic", "easy"} {
		if !slices.Contains(botNames(t, e), name) {
			t.Logf("no %s bot", name)
			continue
		}
		info := golfTable(e, []string{"open", name, "random"}, map[string]any{"standin": "heuristic"})
		j := e.join(info.ID, 0, "Ann")
		a := e.dial(info.ID, j.Token, "Ann")
		a.play(rand.New(rand.NewPCG(1, 1)), 30*time.Second, func(seq int) bool { return seq >= 5 })
		a.drop()
		watcher := e.dial(info.ID, "", "spectator")
		watcher.waitFor("the end", 60*time.Second, func(m msg) bool { return m.Status == store.StatusOver })
		by := map[string]bool{}
		for _, mv := range e.moves(info.ID) {
			by[fmt.Sprint(mv.Seat, mv.By)] = true
		}
		if !by["1bot"] || !by["0standin"] {
			t.Errorf("%s: moves by %v; want the %s bot's and the stand-in's", info.ID, by, name)
		}
	}
}

func botNames(t *testing.T, e *env) []string {
	var names []string
	e.do("GET", "/api/bots", nil, &names)
	return names
}
