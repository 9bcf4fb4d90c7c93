package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"parlour/internal/protocol"
)

// Frame is one message of the server, any type: the fields of every type
// of docs/protocol.md side by side (a message fills those of its type).
type Frame struct {
	V    int    `json:"v"`
	Type string `json:"type"` // welcome, state, seats, chat, log, error, rematch

	Table   string `json:"table"`
	Game    string `json:"game"`  // welcome
	Title   string `json:"title"` // welcome
	Seat    int    `json:"seat"`  // welcome, state: whose view; chat: the writer
	Players int    `json:"players"`

	Seq    int             `json:"seq"`    // state, seats, log
	Status string          `json:"status"` // state: waiting, playing, over
	ToAct  []int           `json:"to_act"`
	Legal  []string        `json:"legal"`
	View   json.RawMessage `json:"view"`
	Result Result          `json:"result"`
	Seats  []SeatInfo      `json:"seats"`
	Clocks []Clock         `json:"clocks"`
	Events []Event         `json:"events"` // state, seats; log: the recent past
	// DealEnd is, in the state of a move that ended a deal, that deal's
	// end as this seat sees it (its view shaped as View).
	DealEnd *DealEnd `json:"deal_end"`

	Name string    `json:"name"` // chat: the writer's name
	Text string    `json:"text"` // chat
	At   time.Time `json:"at"`   // chat
	Old  bool      `json:"old"`  // chat: sent again on connecting

	Code    string `json:"code"` // error
	Message string `json:"message"`
	ID      string `json:"id"`
	Move    string `json:"move"`

	Rematch string `json:"rematch"` // rematch: the new table
}

// The frames' parts are the protocol's own types (internal/protocol):
// what happened (Event), a seat (SeatInfo), a turn clock (Clock), where
// the match stands (Result) and a deal's end (DealEnd).
type (
	Event    = protocol.Event
	SeatInfo = protocol.SeatInfo
	Clock    = protocol.Clock
	Result   = protocol.Result
	DealEnd  = protocol.DealEnd
)

// Link states of a connection, in Status.
const (
	Connected    = "connected"    // a hello was answered with a welcome
	Reconnecting = "reconnecting" // the connection dropped; trying again
	Closed       = "closed"       // over for good (Status.Err says why)
)

// Status tells that the connection's state changed.
type Status struct {
	State string
	Err   error         // why it dropped or closed
	Retry time.Duration // Reconnecting: the wait before the next try
}

// Message is what a connection delivers: a server frame, or a change of
// the connection's state.
type Message struct {
	Frame  *Frame
	Status *Status
}

// ErrBadToken is the error of a hello the server refused: no seat of the
// table has that token (the seat was left, or the table is another).
var ErrBadToken = errors.New("the server knows no such seat token")

// ErrSeatLeft is why a connection closed when its seat was left.
var ErrSeatLeft = errors.New("the seat was left")

// ErrNotConnected is returned by Send while the connection is down.
var ErrNotConnected = errors.New("not connected (reconnecting)")

// ErrNoAnswer is why a connection was dropped when the server stopped
// answering its pings (a server that hangs, or a network that went away
// without closing the connection).
var ErrNoAnswer = errors.New("the server stopped answering")

// keepAlive is how often a connection pings the server, and how long it
// waits for the pong before it takes the connection for lost.
var keepAlive = struct{ every, wait time.Duration }{10 * time.Second, 10 * time.Second}

// Conn is a seat's connection to its table. It reconnects by itself with
// the seat's token when the connection drops, until closed.
type Conn struct {
	inv   Invite
	token string
	msgs  chan Message
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{}

	mu sync.Mutex
	ws *websocket.Conn // nil while down
	id int

	release func() // frees the seat's lock (Sit), or nil
}

// Dial connects to the invite's table with a seat's token and says hello.
// It returns once the server has welcomed the seat, or with the reason it
// did not (ErrBadToken for a token the table does not know); after that,
// Messages delivers the welcome and everything that follows.
func Dial(ctx context.Context, inv Invite, token string) (*Conn, error) {
	c := &Conn{inv: inv, token: token, msgs: make(chan Message, 512), done: make(chan struct{})}
	c.ctx, c.stop = context.WithCancel(context.Background())
	ws, welcome, err := c.connect(ctx)
	if err != nil {
		c.stop()
		return nil, err
	}
	c.ws = ws // moves and chat may go at once
	go c.run(ws, welcome)
	return c, nil
}

// Messages delivers the server's frames in order, and changes of the
// connection's state. It is closed after the Closed status.
func (c *Conn) Messages() <-chan Message { return c.msgs }

// Close ends the connection (the seat stays the player's: the token takes
// it back). It waits for the connection's goroutine to end.
func (c *Conn) Close() {
	c.stop()
	c.mu.Lock()
	if c.ws != nil {
		c.ws.Close(websocket.StatusNormalClosure, "bye")
	}
	c.mu.Unlock()
	<-c.done
	if c.release != nil {
		c.release()
		c.release = nil
	}
}

// Move sends a move in notation; the answer is a state (or an error frame).
func (c *Conn) Move(text string) error {
	return c.send(map[string]any{"type": "move", "move": text})
}

// Chat sends a chat message to the table.
func (c *Conn) Chat(text string) error {
	return c.send(map[string]any{"type": "chat", "text": text})
}

// Sync asks for a fresh state.
func (c *Conn) Sync() error { return c.send(map[string]any{"type": "sync"}) }

func (c *Conn) send(msg map[string]any) error {
	c.mu.Lock()
	ws := c.ws
	c.id++
	msg["v"] = 1
	msg["id"] = "c" + strconv.Itoa(c.id)
	c.mu.Unlock()
	if ws == nil {
		return ErrNotConnected
	}
	data, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, data); err != nil {
		return fmt.Errorf("%w: %v", ErrNotConnected, err)
	}
	return nil
}

// connect dials, says hello and reads the welcome.
func (c *Conn) connect(ctx context.Context) (*websocket.Conn, *Frame, error) {
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(dctx, c.inv.socket(), nil)
	if err != nil {
		if resp != nil && resp.StatusCode == 404 {
			return nil, nil, &APIError{Status: 404, Code: "not_found", Message: "no such table: " + c.inv.Table}
		}
		return nil, nil, fmt.Errorf("cannot reach the table: %w", err)
	}
	ws.SetReadLimit(4 << 20)
	hello, _ := json.Marshal(map[string]any{"v": 1, "type": "hello", "token": c.token})
	if err := ws.Write(dctx, websocket.MessageText, hello); err != nil {
		ws.CloseNow()
		return nil, nil, fmt.Errorf("saying hello: %w", err)
	}
	f, err := read(dctx, ws)
	if err != nil {
		ws.CloseNow()
		return nil, nil, fmt.Errorf("waiting for the welcome: %w", err)
	}
	if f.Type == "error" {
		ws.CloseNow()
		if f.Code == "bad_token" {
			return nil, nil, fmt.Errorf("%w: %s", ErrBadToken, f.Message)
		}
		return nil, nil, fmt.Errorf("the table refused the seat: %s", f.Message)
	}
	if f.Type != "welcome" {
		ws.CloseNow()
		return nil, nil, fmt.Errorf("the server said %q before a welcome", f.Type)
	}
	return ws, f, nil
}

// keepAlive pings the server over ws until stop is called; when a pong
// does not come in time it closes ws (the reader then sees the drop) and
// closes quiet.
func (c *Conn) keepAlive(ws *websocket.Conn) (stop func(), quiet <-chan struct{}) {
	ctx, cancel := context.WithCancel(c.ctx)
	q := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(keepAlive.every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			pctx, pcancel := context.WithTimeout(ctx, keepAlive.wait)
			err := ws.Ping(pctx)
			pcancel()
			if err != nil && ctx.Err() == nil {
				close(q)
				ws.CloseNow()
				return
			}
		}
	}()
	return func() { cancel(); <-done }, q
}

func read(ctx context.Context, ws *websocket.Conn) (*Frame, error) {
	_, data, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	f := &Frame{}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("a frame that is not JSON: %w", err)
	}
	return f, nil
}

// deliver hands m to the reader, unless the connection is closing.
func (c *Conn) deliver(m Message) bool {
	select {
	case c.msgs <- m:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// run reads frames until the connection drops, then reconnects, until
// the connection is closed, the seat left or the token refused.
func (c *Conn) run(ws *websocket.Conn, welcome *Frame) {
	defer close(c.done)
	defer close(c.msgs)
	final := func(err error) {
		// The last message gets through even if nobody reads any more.
		select {
		case c.msgs <- Message{Status: &Status{State: Closed, Err: err}}:
		default:
		}
	}
	backoff := 250 * time.Millisecond
	for {
		c.mu.Lock()
		c.ws = ws
		c.mu.Unlock()
		if !c.deliver(Message{Status: &Status{State: Connected}}) || !c.deliver(Message{Frame: welcome}) {
			ws.CloseNow()
			final(c.ctx.Err())
			return
		}
		backoff = 250 * time.Millisecond
		alive, quiet := c.keepAlive(ws)
		var err error
		for {
			var f *Frame
			f, err = read(c.ctx, ws)
			if err != nil {
				break
			}
			if !c.deliver(Message{Frame: f}) {
				break
			}
		}
		alive()
		c.mu.Lock()
		c.ws = nil
		c.mu.Unlock()
		ws.CloseNow()
		select {
		case <-quiet:
			err = ErrNoAnswer
		default:
		}
		if c.ctx.Err() != nil {
			final(nil)
			return
		}
		if websocket.CloseStatus(err) == websocket.StatusNormalClosure {
			final(ErrSeatLeft)
			return
		}
		// Try again, waiting longer each time, up to five seconds.
		for {
			if !c.deliver(Message{Status: &Status{State: Reconnecting, Err: err, Retry: backoff}}) {
				final(nil)
				return
			}
			select {
			case <-time.After(backoff):
			case <-c.ctx.Done():
				final(nil)
				return
			}
			backoff = min(backoff*2, 5*time.Second)
			ws, welcome, err = c.connect(c.ctx)
			if err == nil {
				break
			}
			if errors.Is(err, ErrBadToken) {
				final(err)
				return
			}
		}
	}
}
