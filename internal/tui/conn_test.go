package tui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/internal/tui/client"
)

// fakeTable is a table server speaking the table protocol to one seat: it
// welcomes the seat, sends a Golf state where the seat is to act, and
// hands each move it reads to the test, which answers as it likes. While
// down, it refuses every connection.
type fakeTable struct {
	state []byte
	moves chan string
	conns chan *websocket.Conn

	mu   sync.Mutex
	down bool
}

func newFakeTable(t *testing.T) (*fakeTable, *httptest.Server) {
	t.Helper()
	g, _ := games.Lookup("golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2})
	s, err := g.New(opts, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := json.Marshal(s.View(0))
	state, _ := json.Marshal(client.Frame{V: 1, Type: "state", Table: "abc123", Seat: 0, Seq: 0, Status: "playing", ToAct: []int{0},
		Legal: game.LegalText(s, 0), View: view, Result: client.Result{Totals: []int{0, 0}},
		Seats: []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "human", Name: "Ben", State: "here"}}})
	f := &fakeTable{state: state, moves: make(chan string, 16), conns: make(chan *websocket.Conn, 4)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		down := f.down
		f.mu.Unlock()
		if down {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		if _, _, err := c.Read(ctx); err != nil { // the hello
			return
		}
		welcome, _ := json.Marshal(client.Frame{V: 1, Type: "welcome", Table: "abc123", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
		if c.Write(ctx, websocket.MessageText, welcome) != nil || c.Write(ctx, websocket.MessageText, f.state) != nil {
			return
		}
		f.conns <- c
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var msg struct{ Type, Move string }
			if json.Unmarshal(data, &msg) == nil && msg.Type == "move" {
				f.moves <- msg.Move
			}
		}
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeTable) setDown(down bool) {
	f.mu.Lock()
	f.down = down
	f.mu.Unlock()
}

// pump feeds the connection's messages to the screen until cond holds.
func pump(t *testing.T, m *Model, conn *client.Conn, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg, ok := <-conn.Messages():
			if !ok {
				t.Fatalf("%s: the connection closed; the screen:\n%s", what, screen(m))
			}
			m.Update(remoteMsg{msg})
		case <-deadline:
			t.Fatalf("%s: not so after 10s; the screen:\n%s", what, screen(m))
		}
	}
}

// TestRemoteUnavailableAndReconnect: the terminal client against a table
// server. A move the server could not store is told as such; while the
// connection is down the screen says it is reconnecting, offers no move
// and says nothing of a turn, and a move tried then is not sent; once the
// connection is back and the state has come, moves go again.
func TestRemoteUnavailableAndReconnect(t *testing.T) {
	fake, srv := newFakeTable(t)
	inv := client.Invite{Base: srv.URL, Table: "abc123"}
	conn, err := client.Dial(context.Background(), inv, "token")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	m := newRemoteModel(JoinConfig{Invite: inv, Seat: client.Seat{Seat: 0, Name: "Ann"}, Conn: conn})
	m.w, m.h = 120, 40
	ws := <-fake.conns
	pump(t, m, conn, "the first state", func() bool { return len(m.snap.legal) > 0 })
	if out := screen(m); !strings.Contains(out, "Your move:") {
		t.Fatalf("the seat's turn does not show:\n%s", out)
	}

	// A move the store refused.
	press(m, "enter")
	var move string
	select {
	case move = <-fake.moves:
	case <-time.After(5 * time.Second):
		t.Fatalf("Enter sent no move; the screen:\n%s", screen(m))
	}
	refusal, _ := json.Marshal(client.Frame{V: 1, Type: "error", Code: "unavailable", Message: "the store failed: database is locked", ID: "c1", Move: move})
	if err := ws.Write(context.Background(), websocket.MessageText, refusal); err != nil {
		t.Fatal(err)
	}
	pump(t, m, conn, "the refusal", func() bool { return m.notice != "" })
	if m.notice != "The server could not save your move; try again." || !m.bad {
		t.Errorf("the refusal reads %q (bad %v)", m.notice, m.bad)
	}
	if out := screen(m); !strings.Contains(out, "The server could not save your move; try again.") || !strings.Contains(out, "Your move:") {
		t.Errorf("after the refusal the screen:\n%s", out)
	}

	// The connection drops, and the server refuses to take it back.
	fake.setDown(true)
	ws.Close(websocket.StatusGoingAway, "stopping")
	pump(t, m, conn, "the drop", func() bool { return m.link != "" })
	out := screen(m)
	for _, want := range []string{"connection lost: reconnecting…", "Reconnecting to the table… Moves can be made again once it is back."} {
		if !strings.Contains(out, want) {
			t.Errorf("reconnecting, the screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Your move") || strings.Contains(out, "Waiting for") {
		t.Errorf("reconnecting, the screen tells whose turn it is:\n%s", out)
	}
	press(m, "enter")
	if m.notice != notSent {
		t.Errorf("a move tried while reconnecting: notice %q", m.notice)
	}
	m.focus = focusMove
	typeText(m, move)
	press(m, "enter")
	if m.notice != notSent {
		t.Errorf("a move typed while reconnecting: notice %q", m.notice)
	}

	// Back: the state comes, and play goes on.
	fake.setDown(false)
	pump(t, m, conn, "the reconnection", func() bool { return m.link == "" })
	select {
	case mv := <-fake.moves:
		t.Errorf("a move tried while reconnecting reached the server: %q", mv)
	default:
	}
	if out := screen(m); !strings.Contains(out, "Your move:") || !strings.Contains(out, "Connected again.") || strings.Contains(out, "reconnect") {
		t.Errorf("reconnected, the screen:\n%s", out)
	}
	press(m, "enter")
	select {
	case <-fake.moves:
	case <-time.After(5 * time.Second):
		t.Fatalf("after reconnecting, Enter sent no move; the screen:\n%s", screen(m))
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startJoinedLines starts PlayJoined in line mode at a fake table, seated
// as Ann at seat 0, and returns the table, what it prints, the pipe to
// type into, its end, and wait, which fails the test unless what it
// prints meets cond within 10 s.
func startJoinedLines(t *testing.T) (fake *fakeTable, out *syncBuffer, typed *io.PipeWriter, done chan error, wait func(what string, cond func(string) bool)) {
	t.Helper()
	fake, srv := newFakeTable(t)
	inv := client.Invite{Base: srv.URL, Table: "abc123"}
	conn, err := client.Dial(context.Background(), inv, "token")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	in, typed := io.Pipe()
	out = &syncBuffer{}
	done = make(chan error, 1)
	go func() {
		done <- PlayJoined(JoinConfig{Invite: inv, Seat: client.Seat{Seat: 0, Name: "Ann"}, Conn: conn}, in, out)
	}()
	wait = func(what string, cond func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond(out.String()) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not so after 10s; the output:\n%s", what, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return fake, out, typed, done, wait
}

// TestJoinedLinesUnavailableAndReconnect: the same in line mode: the
// refusal's words, the drop told, a move typed meanwhile not sent, and
// the moves offered again once the state has come.
func TestJoinedLinesUnavailableAndReconnect(t *testing.T) {
	fake, out, typed, done, wait := startJoinedLines(t)
	typeLine := func(s string) {
		if _, err := io.WriteString(typed, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	ws := <-fake.conns
	wait("the first offer", func(s string) bool { return strings.Count(s, "Your move:") == 1 })
	typeLine("1")
	move := <-fake.moves
	refusal, _ := json.Marshal(client.Frame{V: 1, Type: "error", Code: "unavailable", Message: "the store failed", ID: "c1", Move: move})
	if err := ws.Write(context.Background(), websocket.MessageText, refusal); err != nil {
		t.Fatal(err)
	}
	wait("the refusal", func(s string) bool { return strings.Contains(s, "> The server could not save your move; try again.\n") })

	fake.setDown(true)
	ws.Close(websocket.StatusGoingAway, "stopping")
	wait("the drop", func(s string) bool {
		return strings.Contains(s, "reconnecting… Moves can be made again once it is back.")
	})
	typeLine("1")
	wait("a move typed while down", func(s string) bool { return strings.Contains(s, "Not connected: the move was not sent.") })

	fake.setDown(false)
	wait("the moves offered again", func(s string) bool {
		return strings.Contains(s, "Connected again.") && strings.Count(s, "Your move:") == 2
	})
	select {
	case mv := <-fake.moves:
		t.Errorf("a move typed while down reached the server: %q", mv)
	default:
	}
	typeLine("1")
	select {
	case <-fake.moves:
	case <-time.After(5 * time.Second):
		t.Fatalf("after reconnecting, a typed move was not sent; the output:\n%s", out.String())
	}
	typeLine("quit")
	if err := <-done; err != nil {
		t.Errorf("PlayJoined: %v", err)
	}
}

// TestJoinedLinesNewsBeforePrompt: in line mode, news that comes while the
// prompt waits for a move (a chat line) is printed on lines of its own,
// and the prompt is drawn again after it, not left above it.
func TestJoinedLinesNewsBeforePrompt(t *testing.T) {
	fake, out, typed, done, wait := startJoinedLines(t)
	ws := <-fake.conns
	wait("the offer", func(s string) bool { return strings.HasSuffix(s, "\n> ") })
	if !strings.Contains(out.String(), "Your move: Choose a column of your layout to turn face up.\n") {
		t.Errorf("the turn line does not say what to do:\n%s", out.String())
	}
	chat, _ := json.Marshal(client.Frame{V: 1, Type: "chat", Seat: 1, Name: "Ben", Text: "your turn!"})
	if err := ws.Write(context.Background(), websocket.MessageText, chat); err != nil {
		t.Fatal(err)
	}
	wait("the chat", func(s string) bool { return strings.Contains(s, "your turn!") })
	wait("the prompt again", func(s string) bool { return strings.HasSuffix(s, "your turn!\n> ") })
	if !strings.Contains(out.String(), "> \n[chat] Ben: your turn!\n> ") {
		t.Errorf("the chat is not printed between the prompt and a new one:\n%q", out.String())
	}
	io.WriteString(typed, "quit\n")
	if err := <-done; err != nil {
		t.Errorf("PlayJoined: %v", err)
	}
}
