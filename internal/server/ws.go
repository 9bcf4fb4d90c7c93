package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"parlour/internal/protocol"
	"parlour/internal/rate"
	"parlour/internal/table"
)

// maxStrikes is how many rate-limited messages in a row a connection may
// send before it is closed.
const maxStrikes = 100

// errorFrame encodes a refusal.
func errorFrame(code, message, id string) []byte {
	b, _ := json.Marshal(protocol.Error{V: protocol.Version, Type: protocol.TypeError, Code: code, Message: message, ID: id})
	return b
}

// parse reads a client message (one JSON object, nothing after it), or
// returns the refusal to send.
func parse(data []byte) (protocol.ClientMessage, []byte) {
	msg, e := protocol.ParseClient(data)
	if e != nil {
		return msg, errorFrame(e.Code, e.Message, e.ID)
	}
	return msg, nil
}

// websocket serves GET /ws/tables/{id}: the table protocol.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	id := r.PathValue("id")
	if _, err := m.Info(r.Context(), id); err != nil {
		s.fail(w, err)
		return
	}
	if n := s.open.Add(1); s.cfg.MaxConns > 0 && n > int64(s.cfg.MaxConns) {
		s.open.Add(-1)
		s.cfg.Metrics.Shed("connection")
		s.unavailable(w, "full", fmt.Sprintf("this server holds its most connections (%d); try again shortly", s.cfg.MaxConns))
		return
	}
	c, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		s.open.Add(-1)
		return // Accept has answered (403 for a foreign origin)
	}
	// The connection is the server's now (hijacked): its session runs on
	// a goroutine of its own, and the HTTP handler's, with the deep stack
	// of the handshake, ends here. A live connection costs one small stack.
	s.connMu.Lock()
	if s.closed {
		s.connMu.Unlock()
		s.open.Add(-1)
		c.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	s.conns.Add(1)
	s.connMu.Unlock()
	// The session holds the client's connection slot (limit.go) from here.
	cl := clientOf(r.Context())
	held := cl != nil && cl.slot
	if held {
		cl.slot = false
	}
	go s.session(c, id, m, cl, held)
}

// session is a WebSocket connection's life: the hello, then the table's
// frames one way and the client's messages the other. cl is its client
// (nil: not limited), and held says the session holds one of the
// client's connections, to give back when it ends.
func (s *Server) session(c *websocket.Conn, id string, m *table.Manager, cl *client, held bool) {
	if held {
		defer s.lim.close(cl.key)
	}
	defer s.open.Add(-1)
	defer s.conns.Done()
	s.cfg.Metrics.ConnOpened()
	defer s.cfg.Metrics.ConnClosed()
	defer c.CloseNow()
	c.SetReadLimit(s.cfg.ReadLimit)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()

	write := func(frame []byte) error {
		wctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
		defer cancel()
		return c.Write(wctx, websocket.MessageText, frame)
	}
	refuseAndClose := func(code, message, id string) {
		write(errorFrame(code, message, id))
		c.Close(websocket.StatusPolicyViolation, code)
	}

	// The hello: a seat token, or spectate.
	hctx, hcancel := context.WithTimeout(ctx, s.cfg.HelloTimeout)
	typ, data, err := c.Read(hctx)
	hcancel()
	if err != nil {
		return
	}
	if typ != websocket.MessageText {
		refuseAndClose(protocol.CodeBadMessage, "messages are JSON text", "")
		return
	}
	hello, refusal := parse(data)
	if refusal != nil {
		write(refusal)
		c.Close(websocket.StatusPolicyViolation, "bad hello")
		return
	}
	if hello.Type != "hello" {
		refuseAndClose(protocol.CodeBadMessage, fmt.Sprintf("say hello first (got %q)", hello.Type), hello.ID)
		return
	}
	if hello.Token == "" && !hello.Spectate {
		refuseAndClose(protocol.CodeBadToken, "a hello needs a seat token, or \"spectate\": true", hello.ID)
		return
	}
	tb, sub, err := m.Attach(ctx, id, hello.Token, hello.Spectate && hello.Token == "")
	if err != nil {
		code := protocol.CodeUnavailable
		if errors.Is(err, table.ErrBadToken) {
			code = protocol.CodeBadToken
		} else if errors.Is(err, table.ErrBusy) {
			code = protocol.CodeBusy
		}
		refuseAndClose(code, err.Error(), hello.ID)
		return
	}

	// The writer: the table's frames, in order, until the table drops us.
	// It runs only while there are frames to write (the table wakes it),
	// so an idle connection holds one goroutine, the reader.
	wrote := make(chan struct{})
	var (
		wmu     sync.Mutex
		writing bool
		broken  bool // a write failed: the rest is discarded
	)
	// A write that takes longer than WriteTimeout is cut (stuck.go; a
	// context per frame would cost allocations per move).
	watched := s.stuck.watch(func() { c.CloseNow() })
	defer s.stuck.forget(watched)
	finish := func() {
		switch err := sub.Err(); {
		case errors.Is(err, table.ErrSlow):
			c.Close(websocket.StatusPolicyViolation, "too slow: dropped")
		case errors.Is(err, table.ErrLeft):
			c.Close(websocket.StatusNormalClosure, "the seat was left")
		case errors.Is(err, table.ErrExpired):
			c.Close(websocket.StatusNormalClosure, "the table expired: nobody joined it")
		case errors.Is(err, table.ErrMoved):
			c.Close(websocket.StatusTryAgainLater, "the table moved: reconnect")
		case errors.Is(err, table.ErrClosed):
			c.Close(websocket.StatusGoingAway, "server shutting down")
		default:
			c.CloseNow()
		}
		close(wrote)
	}
	// drain writes what is queued and ends when the queue is empty. The
	// look at the queue and the end of the run are one step under wmu, so
	// a frame or the close that comes just after starts a new run (wake)
	// and is never left unread.
	drain := func() {
		for {
			wmu.Lock()
			frame, open := sub.Next()
			if frame == nil && open {
				writing = false
				wmu.Unlock()
				return
			}
			wmu.Unlock()
			if !open {
				finish()
				return
			}
			if !broken {
				watched.begin()
				err := c.Write(context.Background(), websocket.MessageText, frame.Data)
				watched.end()
				if err != nil {
					broken = true
					c.CloseNow()
				}
			}
			frame.Release()
		}
	}
	sub.SetWake(func() {
		wmu.Lock()
		if !writing {
			writing = true
			go drain()
		}
		wmu.Unlock()
	})

	// The reader: moves, syncs and chat, rate limited.
	lim := &rate.Bucket{Rate: s.cfg.RateLimit, Burst: float64(s.cfg.Burst)}
	strikes := 0
	var msgBuf bytes.Buffer // one buffer for every message (parse copies what it keeps)
	// The reads take no context (one per message would cost a timer's
	// worth of allocations per move): the connection is closed once when
	// ctx ends, which ends the read.
	unwatch := context.AfterFunc(ctx, func() { c.CloseNow() })
	defer unwatch()
	for {
		typ, rd, err := c.Reader(context.Background())
		if err != nil {
			break
		}
		msgBuf.Reset()
		if _, err := msgBuf.ReadFrom(rd); err != nil {
			break // over the read limit: the connection is closed
		}
		data := msgBuf.Bytes()
		now := time.Now()
		if !lim.Allow(now) {
			strikes++
			if strikes > maxStrikes {
				c.Close(websocket.StatusPolicyViolation, "rate limit")
				break
			}
			tb.Refuse(sub, protocol.CodeRateLimited, fmt.Sprintf("over %g messages a second; this one was dropped", s.cfg.RateLimit), "")
			continue
		}
		strikes = 0
		if typ != websocket.MessageText {
			tb.Refuse(sub, protocol.CodeBadMessage, "messages are JSON text", "")
			continue
		}
		if over, msgID := s.chatOver(cl, data, now); over {
			tb.Refuse(sub, protocol.CodeChatFlood, s.overLimit(actChat)+"; this one was dropped", msgID)
			continue
		}
		// The table reads the message itself, on its own goroutine: this
		// one, one per connection, allocates nothing for a message.
		if err := tb.Handle(ctx, sub, data); err != nil {
			break
		}
	}
	tb.Detach(sub)
	<-wrote
}
