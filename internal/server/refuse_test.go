package server_test

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/server"
)

// expectError reads the next frame and checks it is a refusal with code.
func expectError(t *testing.T, cl *client, code, what string) msg {
	t.Helper()
	m := cl.next(5 * time.Second)
	for m.Type == protocol.TypeSeats { // who sits where may change meanwhile
		m = cl.next(5 * time.Second)
	}
	if m.Type != protocol.TypeError || m.Code != code {
		t.Errorf("%s: got %s, want a %s error", what, m.raw, code)
	}
	if strings.TrimSpace(m.Message) == "" {
		t.Errorf("%s: the refusal gives no reason: %s", what, m.raw)
	}
	return m
}

// TestRefusedMoves sends every kind of bad input over a real connection:
// each is refused with a clear error to its sender only, and changes
// nothing.
func TestRefusedMoves(t *testing.T) {
	e := newEnv(t, envConfig{readLimit: 2048})
	info := golfTable(e, []string{"open", "open"}, nil)
	ann := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, ann.Token, "Ann")
	a.next(5 * time.Second) // the waiting state
	a.move("reveal 0")
	expectError(t, a, protocol.CodeNotStarted, "a move before the seats are filled")

	bob := e.join(info.ID, 1, "Bob")
	b := e.dial(info.ID, bob.Token, "Bob")
	watcher := e.dial(info.ID, "", "spectator")
	a.waitFor("the start", 5*time.Second, func(m msg) bool { return m.Type == protocol.TypeState && m.Status == "playing" })
	b.next(5 * time.Second)
	watcher.next(5 * time.Second)

	watcher.move("reveal 0")
	expectError(t, watcher, protocol.CodeSpectator, "a spectator's move")

	cases := []struct {
		send any
		code string
		what string
	}{
		{map[string]any{"v": 1, "type": "move", "move": "1: reveal 0", "id": "m1"}, protocol.CodeNotYourSeat, "SEAT: MOVE for another seat"},
		{map[string]any{"v": 1, "type": "move", "move": "reveal 0", "seat": 1}, protocol.CodeNotYourSeat, "a seat field for another seat"},
		{map[string]any{"v": 1, "type": "move", "move": "draw stock"}, protocol.CodeIllegalMove, "a move not legal now"},
		{map[string]any{"v": 1, "type": "move", "move": "frobnicate 7"}, protocol.CodeBadMove, "not a move"},
		{map[string]any{"v": 1, "type": "move", "move": "reveal 9"}, protocol.CodeBadMove, "a column that is not there"},
		{map[string]any{"v": 1, "type": "move", "move": "x: reveal 0"}, protocol.CodeBadMove, "a seat that is not a number"},
		{map[string]any{"v": 1, "type": "move", "move": "reveal " + strings.Repeat("0", 300)}, protocol.CodeTooLarge, "a move text over the limit"},
		{map[string]any{"v": 1, "type": "move"}, protocol.CodeBadMessage, "a move with no move"},
		{`{"v":1,"type":`, protocol.CodeBadMessage, "broken JSON"},
		{`[1,2,3]`, protocol.CodeBadMessage, "JSON that is not an object"},
		{map[string]any{"v": 1, "type": "dance"}, protocol.CodeBadMessage, "an unknown type"},
		{map[string]any{"v": 2, "type": "move", "move": "reveal 0"}, protocol.CodeBadVersion, "another protocol version"},
		{map[string]any{"type": "move", "move": "reveal 0"}, protocol.CodeBadVersion, "no version"},
		{map[string]any{"v": 1, "type": "hello", "token": ann.Token}, protocol.CodeBadMessage, "a second hello"},
	}
	for _, c := range cases {
		a.send(c.send)
		m := expectError(t, a, c.code, c.what)
		if c.code == protocol.CodeNotYourSeat && m.ID == "" && strings.Contains(c.what, "SEAT") {
			t.Errorf("%s: the refusal does not echo the id: %s", c.what, m.raw)
		}
	}
	a.c.Write(t.Context(), websocket.MessageBinary, []byte{1, 2, 3})
	expectError(t, a, protocol.CodeBadMessage, "a binary message")

	// Nothing changed, and nobody else heard of it.
	if n := len(e.moves(info.ID)); n != 0 {
		t.Fatalf("%d moves stored after refusals", n)
	}
	a.send(map[string]any{"v": 1, "type": "sync"})
	if m := a.waitFor("a state", 5*time.Second, func(m msg) bool { return m.Type != protocol.TypeSeats }); m.Type != protocol.TypeState || m.Seq != 0 || len(m.Legal) == 0 {
		t.Errorf("sync after refusals: %s", m.raw)
	}

	// A legal move; then the same seat again is out of turn.
	a.move("reveal 0")
	a.waitFor("its move", 5*time.Second, func(m msg) bool { return hasEvent(m, protocol.EventMove, 0) })
	a.move("reveal 1")
	expectError(t, a, protocol.CodeNotYourTurn, "a second choice")
	if n := len(e.moves(info.ID)); n != 1 {
		t.Errorf("%d moves stored, want 1", n)
	}
	for _, other := range []*client{b, watcher} {
		for {
			m, ok := other.tryNext(200 * time.Millisecond)
			if !ok {
				break
			}
			if m.Type == protocol.TypeError {
				t.Errorf("%s got another connection's refusal: %s", other.name, m.raw)
			}
		}
	}

	// A frame over the read limit closes the connection.
	a.send(map[string]any{"v": 1, "type": "move", "move": strings.Repeat("x", 4000)})
	<-a.closed
	if got := websocket.CloseStatus(a.connErr()); got != websocket.StatusMessageTooBig {
		t.Errorf("an oversized frame closed the connection with %v (%v), want %v", got, a.connErr(), websocket.StatusMessageTooBig)
	}
	if n := len(e.moves(info.ID)); n != 1 {
		t.Errorf("%d moves stored, want 1", n)
	}
}

// TestBadHellos refuses connections that do not start with a good hello.
func TestBadHellos(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "random"}, nil)
	for _, c := range []struct {
		hello any
		code  string
	}{
		{map[string]any{"v": 1, "type": "hello"}, protocol.CodeBadToken},
		{map[string]any{"v": 1, "type": "hello", "token": "not-a-token"}, protocol.CodeBadToken},
		{map[string]any{"v": 3, "type": "hello", "spectate": true}, protocol.CodeBadVersion},
		{map[string]any{"v": 1, "type": "move", "move": "reveal 0"}, protocol.CodeBadMessage},
		{"hello", protocol.CodeBadMessage},
	} {
		conn, _, err := dialRaw(t, e.url, info.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		cl := &client{t: t, name: "hello", c: conn, notify: make(chan struct{}, 1), closed: make(chan struct{})}
		go cl.readLoop()
		cl.send(c.hello)
		expectError(t, cl, c.code, "hello "+strings.TrimSpace(string(mustJSON(c.hello))))
		select {
		case <-cl.closed:
		case <-time.After(5 * time.Second):
			t.Errorf("hello %v: the connection stays open", c.hello)
		}
	}
	// A table that does not exist is not upgraded at all.
	_, resp, err := dialRaw(t, e.url, "0000000000000000", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing table: %v %v, want 404", resp, err)
	}
}

func mustJSON(v any) []byte {
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	b, _ := jsonMarshal(v)
	return b
}

// TestOriginCheck refuses WebSocket upgrades from other sites' pages.
func TestOriginCheck(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "random"}, nil)
	_, resp, err := dialRaw(t, e.url, info.ID, http.Header{"Origin": {"http://evil.example"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign origin: %v %v, want 403", resp, err)
	}
	c, _, err := dialRaw(t, e.url, info.ID, http.Header{"Origin": {e.url}})
	if err != nil {
		t.Fatalf("the server's own origin: %v", err)
	}
	c.CloseNow()
}

// TestRateLimit drops messages over a connection's rate with a refusal and
// keeps the connection.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, envConfig{rate: 5, burst: 5})
	info := golfTable(e, []string{"open", "random"}, nil)
	ann := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, ann.Token, "Ann")
	a.next(5 * time.Second)
	for range 30 {
		a.send(map[string]any{"v": 1, "type": "sync"})
	}
	limited, states := 0, 0
	for limited+states < 30 {
		m := a.next(5 * time.Second)
		switch {
		case m.Type == protocol.TypeError && m.Code == protocol.CodeRateLimited:
			limited++
		case m.Type == protocol.TypeState && len(m.Events) == 0:
			states++ // a sync's answer (a state after the bot's move has it)
		}
	}
	if limited < 20 || states < 5 {
		t.Errorf("30 messages at once: %d rate limited, %d answered", limited, states)
	}
	time.Sleep(300 * time.Millisecond)
	a.send(map[string]any{"v": 1, "type": "sync"})
	m := a.next(5 * time.Second)
	for m.Type == protocol.TypeState && len(m.Events) > 0 || m.Type == protocol.TypeSeats {
		m = a.next(5 * time.Second) // the bot's moves, not answers
	}
	if m.Type != protocol.TypeState {
		t.Errorf("after a pause: %s", m.raw)
	}
}

// TestLobbyRefusals checks the lobby API's answers to bad requests.
func TestLobbyRefusals(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "random"}, nil)
	for _, c := range []struct {
		method, path string
		body         any
		status       int
		code         string
	}{
		{"POST", "/api/tables", map[string]any{"game": "nonesuch"}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "options": map[string]any{"holes": 0}}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "options": map[string]any{"wings": 2}}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "options": map[string]any{"players": 2}, "seats": []string{"open"}}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "seats": []string{"open", "skynet"}}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "seats": []string{"open", "search/100000000"}}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "clock": -1}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "standin": "skynet"}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "think": -1}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "think": 10001}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "think": "500ms"}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "seed": -1}, 400, "bad_request"},
		{"POST", "/api/tables", map[string]any{"game": "golf", "bogus": 1}, 400, "bad_request"},
		{"POST", "/api/tables", `{"game":"golf"} {"game":"damn"}`, 400, "bad_request"},
		{"POST", "/api/tables", `{"game":"golf","options":{"x":"` + strings.Repeat("y", 70000) + `"}}`, 413, "too_large"},
		{"POST", "/api/tables/" + info.ID + "/join", map[string]any{"seat": 1}, 409, "seat_taken"},
		{"POST", "/api/tables/" + info.ID + "/join", map[string]any{"seat": 5}, 400, "bad_request"},
		{"POST", "/api/tables/" + info.ID + "/join", map[string]any{"name": strings.Repeat("n", 40)}, 400, "bad_request"},
		{"POST", "/api/tables/" + info.ID + "/join", map[string]any{"name": "a\x00b"}, 400, "bad_request"},
		{"POST", "/api/tables/0000000000000000/join", map[string]any{}, 404, "not_found"},
		{"POST", "/api/tables/" + info.ID + "/leave", map[string]any{"token": "nope"}, 403, "bad_token"},
		{"GET", "/api/tables/0000000000000000", nil, 404, "not_found"},
		{"GET", "/api/tables/" + info.ID + "/replay", nil, 409, "not_over"},
		{"GET", "/api/tables/" + info.ID + "/replay/0", nil, 409, "not_over"},
		{"GET", "/api/tables/" + info.ID + "/replay/x", nil, 400, "bad_request"},
		{"GET", "/api/tables?status=bogus", nil, 400, "bad_request"},
		{"GET", "/api/games/nonesuch", nil, 404, "not_found"},
	} {
		var out protocol.APIError
		status := e.do(c.method, c.path, c.body, &out)
		if status != c.status || out.Error.Code != c.code || out.Error.Message == "" {
			t.Errorf("%s %s %v: %d %+v, want %d %s", c.method, c.path, c.body, status, out, c.status, c.code)
		}
	}
	e.join(info.ID, 0, "Ann")
	var out protocol.APIError
	if status := e.do("POST", "/api/tables/"+info.ID+"/join", map[string]any{}, &out); status != 409 || out.Error.Code != "seat_taken" {
		t.Errorf("joining a full table: %d %+v", status, out)
	}
}

// TestLobby checks the lobby's listings, the health check and the page.
func TestLobby(t *testing.T) {
	e := newEnv(t, envConfig{})
	var list []protocol.GameInfo
	if code := e.do("GET", "/api/games", nil, &list); code != 200 || len(list) != len(games.Registry.All()) {
		t.Fatalf("games: %d, %d games", code, len(list))
	}
	for i, g := range games.Registry.All() {
		lo, hi := g.Players()
		gi := list[i]
		if gi.ID != g.Name() || gi.Name != g.Title() || gi.MinPlayers != lo || gi.MaxPlayers != hi || gi.Rules == "" || len(gi.Options) == 0 {
			t.Errorf("game %d: %+v", i, gi)
		}
		// What the front ends share comes from the game's Info.
		info := g.Info()
		sides := map[int][]int{}
		maps.Copy(sides, info.Sides)
		if gi.Deal != info.Deal || gi.Deals != info.Deals || gi.LowWins != info.LowWins || gi.OneDeal != info.OneDeal ||
			!reflect.DeepEqual(gi.Sides, sides) {
			t.Errorf("%s: deal %q/%q, low_wins %v, one_deal %v, sides %v; Info() = %+v", gi.ID, gi.Deal, gi.Deals, gi.LowWins, gi.OneDeal, gi.Sides, info)
		}
	}
	var bots []string
	if e.do("GET", "/api/bots", nil, &bots); len(bots) == 0 || bots[0] != "random" {
		t.Errorf("bots: %v", bots)
	}
	open := golfTable(e, []string{"open", "random"}, nil)
	full := golfTable(e, []string{"random", "random"}, nil)
	var tables []protocol.TableInfo
	e.do("GET", "/api/tables", nil, &tables)
	if len(tables) != 1 || tables[0].ID != open.ID {
		t.Errorf("open tables: %+v", tables)
	}
	e.do("GET", "/api/tables?status=live", nil, &tables)
	if len(tables) != 2 && !(len(tables) == 1 && tables[0].ID == open.ID) {
		t.Errorf("live tables: %d", len(tables))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.do("GET", "/api/tables?status=over", nil, &tables)
		if len(tables) == 1 && tables[0].ID == full.ID || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(tables) != 1 || tables[0].ID != full.ID || tables[0].Result == nil || !tables[0].Result.Over || tables[0].Moves == 0 {
		t.Errorf("finished tables: %+v", tables)
	}
	var pub struct {
		Seq  int            `json:"seq"`
		View map[string]any `json:"view"`
	}
	if code := e.do("GET", "/api/tables/"+open.ID+"/public", nil, &pub); code != 200 || pub.View == nil {
		t.Errorf("public view: %d %+v", code, pub)
	}
	for path, want := range map[string]string{"/healthz": "ok", "/": "<title>Parlour</title>", "/web/app.js": "protocol version 1"} {
		resp, err := http.Get(e.url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d %.80q", path, resp.StatusCode, body)
		}
	}
	// Before Ready, the health check says not yet.
	starting := httptest.NewServer(server.New(server.Config{Games: games.Registry}))
	defer starting.Close()
	for _, path := range []string{"/healthz", "/api/tables"} {
		resp, err := http.Get(starting.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("GET %s before ready: %d, want 503", path, resp.StatusCode)
		}
	}
}
