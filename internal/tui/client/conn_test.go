package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestKeepAlive: a server that stops answering (it keeps the connection
// open but reads nothing, so no pong comes, as a stopped process would)
// is taken for lost: the connection says it is reconnecting, with
// ErrNoAnswer, and connects again.
func TestKeepAlive(t *testing.T) {
	old := keepAlive
	keepAlive.every, keepAlive.wait = 20*time.Millisecond, 100*time.Millisecond
	defer func() { keepAlive = old }()
	hellos := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		if _, _, err := c.Read(r.Context()); err != nil {
			return
		}
		hellos <- struct{}{}
		welcome, _ := json.Marshal(Frame{V: 1, Type: "welcome", Game: "golf", Seat: 0, Players: 2})
		if c.Write(r.Context(), websocket.MessageText, welcome) != nil {
			return
		}
		<-r.Context().Done() // hangs: reads nothing, answers no ping
	}))
	defer srv.Close()
	c, err := Dial(context.Background(), Invite{Base: srv.URL, Table: "t"}, "token")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var states []string
	deadline := time.After(10 * time.Second)
	for len(hellos) < 2 || len(states) < 3 {
		select {
		case m := <-c.Messages():
			if m.Status == nil {
				continue
			}
			states = append(states, m.Status.State)
			if m.Status.State == Reconnecting && !errors.Is(m.Status.Err, ErrNoAnswer) {
				t.Errorf("reconnecting because %v, want %v", m.Status.Err, ErrNoAnswer)
			}
		case <-deadline:
			t.Fatalf("after 10s: states %v, %d hellos", states, len(hellos))
		}
	}
	if states[0] != Connected || states[1] != Reconnecting || states[2] != Connected {
		t.Errorf("states %v, want connected, reconnecting, connected", states)
	}
}
