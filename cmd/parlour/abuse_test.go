package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// clientAt returns an HTTP client whose connections come from the loopback
// address ip, as a second machine's would come from its own.
func clientAt(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 10 * time.Second}
}

// answer is an API answer: its status, Retry-After, and body.
type answer struct {
	status     int
	retryAfter string
	body       []byte
}

// code returns the error code of a refusal.
func (a answer) code() string {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	json.Unmarshal(a.body, &e)
	return e.Error.Code
}

// call makes an API request from c, with header (name, value pairs).
func call(t *testing.T, c *http.Client, method, url string, body any, header ...string) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: data}
}

// tableID reads a created table's id.
func tableID(t *testing.T, a answer) string {
	t.Helper()
	var info struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(a.body, &info); err != nil || info.ID == "" {
		t.Fatalf("a created table: %s (%v)", a.body, err)
	}
	return info.ID
}

// TestAbuseFromOneClient is the abuse of one client as it was tried, from
// outside, against a real `parlour serve`: a client at 127.0.0.1 loops
// POST /api/tables, with a forged X-Forwarded-For that changes nothing, and
// is refused with 429 and Retry-After once past its limit, while a client
// at 127.0.0.2 creates a table, joins it and plays its game to the end
// (with its chat past its own limit refused, and the first client held to
// its most connections). The first client's tables, which nobody joined,
// expire and are not there after a restart; the played table is.
func TestAbuseFromOneClient(t *testing.T) {
	bin := parlourCommand(t)
	db := filepath.Join(t.TempDir(), "parlour.db")
	// Loopback is exempt by default (a load test on the node's machine):
	// here it stands for two machines.
	flags := []string{"--limit-exempt", "", "--limit-create", "5/1m", "--limit-chat", "3/1m", "--limit-connections", "2", "--expire", "1s"}
	srv := startServe(t, bin, db, "127.0.0.1:0", flags...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	abuser, friend := clientAt("127.0.0.1"), clientAt("127.0.0.2")

	// The loop: every table it makes is refused past the fifth.
	empty := map[string]any{"game": "golf", "seats": []string{"open", "open"}}
	var made []string
	var refused answer
	for i := 0; i < 1000 && refused.status == 0; i++ {
		a := call(t, abuser, "POST", srv.url+"/api/tables", empty, "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i%250))
		switch a.status {
		case http.StatusCreated:
			made = append(made, tableID(t, a))
		case http.StatusTooManyRequests:
			refused = a
		default:
			t.Fatalf("request %d of the loop: %d %s", i+1, a.status, a.body)
		}
	}
	if len(made) != 5 {
		t.Fatalf("the loop made %d tables before its first refusal, want 5 (--limit-create 5/1m)", len(made))
	}
	if ra, err := strconv.Atoi(refused.retryAfter); err != nil || ra < 1 || ra > 60 {
		t.Errorf("the refusal's Retry-After is %q, want 1 to 60 seconds", refused.retryAfter)
	}
	if refused.code() != "rate_limited" {
		t.Errorf("the refusal's body: %s, want code rate_limited", refused.body)
	}
	for range 20 {
		if a := call(t, abuser, "POST", srv.url+"/api/tables", empty); a.status != http.StatusTooManyRequests {
			t.Fatalf("the loop went on: %d %s, want 429", a.status, a.body)
		}
	}

	// Meanwhile a friend at another address plays.
	a := call(t, friend, "POST", srv.url+"/api/tables", map[string]any{"game": "golf", "options": map[string]any{"holes": 1},
		"seats": []string{"open", "random"}, "seed": 7})
	if a.status != http.StatusCreated {
		t.Fatalf("the friend's table: %d %s, want 201", a.status, a.body)
	}
	played := tableID(t, a)
	a = call(t, friend, "POST", srv.url+"/api/tables/"+played+"/join", map[string]any{"name": "Ann"})
	var seat struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if a.status != http.StatusOK || json.Unmarshal(a.body, &seat) != nil {
		t.Fatalf("the friend's join: %d %s", a.status, a.body)
	}

	// The abuser may watch, but with at most two connections at once.
	for i := range 3 {
		ws, resp, err := websocket.Dial(ctx, "ws://"+srv.addr+"/ws/tables/"+played, &websocket.DialOptions{HTTPClient: abuser})
		if i < 2 {
			if err != nil {
				t.Fatalf("the abuser's connection %d: %v", i+1, err)
			}
			defer ws.CloseNow()
			ws.Write(ctx, websocket.MessageText, []byte(`{"v":1,"type":"hello","spectate":true}`))
			continue
		}
		if err == nil {
			ws.CloseNow()
			t.Fatal("the abuser's third connection was let in (--limit-connections 2)")
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("the abuser's third connection: %v, %+v; want 429 with Retry-After", err, resp)
		}
	}

	ws, _, err := websocket.Dial(ctx, "ws://"+srv.addr+"/ws/tables/"+played, &websocket.DialOptions{HTTPClient: friend})
	if err != nil {
		t.Fatalf("the friend's connection: %v", err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	send := func(msg map[string]any) {
		msg["v"] = 1
		data, _ := json.Marshal(msg)
		if err := ws.Write(ctx, websocket.MessageText, data); err != nil {
			t.Fatalf("the friend's write: %v", err)
		}
	}
	send(map[string]any{"type": "hello", "token": seat.Token})
	var (
		chats, swaps int
		flood        map[string]any
		waiting      bool
		over         bool
	)
	for !over {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("the friend's connection: %v", err)
		}
		var f map[string]any
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		switch f["type"] {
		case "welcome":
			for i := range 4 {
				send(map[string]any{"type": "chat", "text": "hi " + strconv.Itoa(i), "id": "c" + strconv.Itoa(i)})
			}
		case "chat":
			chats++
		case "error":
			if f["code"] != "chat_flood" || f["id"] != "c3" {
				t.Fatalf("the friend was refused: %v", f)
			}
			flood = f
		case "state":
			if f["status"] == "over" {
				over = true
				continue
			}
			for _, e := range f["events"].([]any) {
				if ev := e.(map[string]any); ev["kind"] == "move" && ev["seat"] == float64(seat.Seat) {
					waiting = false
				}
			}
			var legal []string
			for _, l := range f["legal"].([]any) {
				legal = append(legal, l.(string))
			}
			if len(legal) > 0 && !waiting {
				waiting = true
				send(map[string]any{"type": "move", "move": golfChoice(legal, &swaps)})
			}
		}
	}
	if chats != 3 || flood == nil {
		t.Errorf("the friend's 4 chat messages: %d relayed, refusal %v; want 3 relayed and the 4th refused (--limit-chat 3/1m)", chats, flood)
	}

	// The abuser's empty tables expire (--expire 1s); the lobby has none.
	deadline := time.Now().Add(30 * time.Second)
	for _, id := range made {
		for call(t, abuser, "GET", srv.url+"/api/tables/"+id, nil).status != http.StatusNotFound {
			if time.Now().After(deadline) {
				t.Fatalf("table %s, which nobody joined, is still there 30 s after it was made", id)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	ws.Close(websocket.StatusNormalClosure, "")

	// After a restart, still gone; the friend's game is there.
	srv.stop()
	srv = startServe(t, bin, db, "127.0.0.1:0", flags...)
	for _, id := range made {
		if a := call(t, friend, "GET", srv.url+"/api/tables/"+id, nil); a.status != http.StatusNotFound || a.code() != "not_found" {
			t.Errorf("expired table %s after a restart: %d %s, want 404 not_found", id, a.status, a.body)
		}
	}
	for _, status := range []string{"open", "live", "over"} {
		a := call(t, friend, "GET", srv.url+"/api/tables?status="+status, nil)
		for _, id := range made {
			if bytes.Contains(a.body, []byte(id)) {
				t.Errorf("expired table %s is listed as %s after a restart", id, status)
			}
		}
	}
	a = call(t, friend, "GET", srv.url+"/api/tables/"+played, nil)
	var info tableInfo
	if a.status != http.StatusOK || json.Unmarshal(a.body, &info) != nil || info.Status != "over" {
		t.Errorf("the played table after a restart: %d %s, want it over", a.status, a.body)
	}
}

// TestMaxTablesCountsPlayed checks that --max-tables counts only the
// tables played: tables nobody joined are made past it; a person seated
// makes a table count, and leaving makes it not count again.
func TestMaxTablesCountsPlayed(t *testing.T) {
	bin := parlourCommand(t)
	srv := startServe(t, bin, filepath.Join(t.TempDir(), "parlour.db"), "127.0.0.1:0", "--max-tables", "1", "--limit-create", "off")
	c := clientAt("127.0.0.1")
	empty := map[string]any{"game": "golf", "seats": []string{"open", "open"}}
	var ids []string
	for i := range 3 {
		a := call(t, c, "POST", srv.url+"/api/tables", empty)
		if a.status != http.StatusCreated {
			t.Fatalf("empty table %d past --max-tables 1: %d %s, want 201", i+1, a.status, a.body)
		}
		ids = append(ids, tableID(t, a))
	}
	a := call(t, c, "POST", srv.url+"/api/tables/"+ids[0]+"/join", map[string]any{"name": "Ann"})
	var seat struct {
		Token string `json:"token"`
	}
	if a.status != http.StatusOK || json.Unmarshal(a.body, &seat) != nil {
		t.Fatalf("joining: %d %s", a.status, a.body)
	}
	a = call(t, c, "POST", srv.url+"/api/tables", empty)
	if a.status != http.StatusServiceUnavailable || a.code() != "full" || a.retryAfter == "" {
		t.Fatalf("a table past --max-tables 1 with one played: %d %q %s, want 503 full with Retry-After", a.status, a.retryAfter, a.body)
	}
	if a := call(t, c, "POST", srv.url+"/api/tables/"+ids[0]+"/leave", map[string]any{"token": seat.Token}); a.status != http.StatusOK {
		t.Fatalf("leaving: %d %s", a.status, a.body)
	}
	if a := call(t, c, "POST", srv.url+"/api/tables", empty); a.status != http.StatusCreated {
		t.Fatalf("a table once nobody plays: %d %s, want 201", a.status, a.body)
	}
}
