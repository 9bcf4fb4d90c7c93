package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// conn is one WebSocket connection to a table (GET /ws/tables/{id}), from
// its hello to its close: the table's frames one way, the client's
// messages the other.
//
// Its goroutines, and what ends each:
//
//   - The reader, run: the goroutine the HTTP handler starts once the
//     socket is accepted (Server.websocket). It reads the hello and
//     attaches the connection to its table, then reads the client's
//     messages and hands them to the table (Table.Handle; Table.Refuse for
//     those refused here), until a read fails or the table will read no
//     more. It then detaches from the table, waits for the writer's end
//     (wrote), and gives back what the connection holds: the socket, its
//     count in open and conns, its client's connection slot. It alone
//     reads the socket and talks to the table.
//   - The writer, drain: started by wake whenever the table queues a
//     frame and no writer runs (the table's actor calls wake; SetWake
//     calls it once). It writes the frames queued, in order, and ends when
//     none is left, so an idle connection has no writer. The writer that
//     finds the queue ended (the table dropped the sub, after the reader's
//     Detach or for its own reasons) closes the socket with the close code
//     for why (finish) and closes wrote.
//   - The closer: context.AfterFunc on ctx, which ends with the server
//     (Server.Close). It closes the socket, which ends the reader's read
//     (reads take no context). The reader stops it as it ends.
//   - The server's stuck-write sweeper (stuck.go), shared by every
//     connection: it closes the socket of a write blocked past
//     Config.WriteTimeout.
//
// What each kind of error does:
//
//   - A hello that does not come within Config.HelloTimeout, or a read
//     that fails before it: the reader ends, nothing sent. A bad hello (not
//     text, not the protocol's JSON, not a hello, no token) or a refused
//     Attach (bad token, busy table, store down): an error frame, the close
//     code 1008 (policy violation), and the reader ends. No writer has run.
//   - A read that fails (the client closed or went away, a message over
//     Config.ReadLimit, the socket closed by the closer, the sweeper or a
//     failed write): the reader detaches and waits for the writer.
//   - Over the rate limit: the message is refused with rate_limited;
//     after maxStrikes such in a row the reader closes the socket (close
//     code 1008) and ends as if a read had failed.
//   - A write that fails: the socket is closed at once (which fails the
//     reader's read), and the frames after it are taken and released
//     unwritten.
//   - The table drops the sub (too slow, the seat left, the table expired,
//     moved or closed; docs/protocol.md lists the codes): the writer sends
//     the frames queued before, then closes the socket with that code, and
//     the reader's read fails. Table.Handle's ErrClosed ends the reader
//     too.
type conn struct {
	s    *Server
	ws   *websocket.Conn
	id   string         // the table's id
	m    *table.Manager // the tables
	cl   *client        // the client's limits; nil: not limited
	held bool           // the connection holds one of cl's connection slots
	// ctx ends when the server closes, or when the reader ends.
	ctx context.Context

	// The table, once the hello is accepted.
	tb  *table.Table
	sub *table.Sub

	// The writer's. writing (under wmu) says a writer runs: the look at
	// the queue and the end of a run are one step under wmu, so a frame
	// or the end that comes just after starts a new run (wake) and is
	// never left unread. broken says a write failed (one writer at a
	// time reads and sets it). watched times the writes for the sweeper,
	// and wrote is closed once the writer has seen the end.
	wmu     sync.Mutex
	writing bool
	broken  bool
	watched *watchedWrites
	wrote   chan struct{}
	// drainer is drain as a func value, made once: a go statement on it
	// starts a writer without allocating, where one on c.drain allocates
	// the method's closure each time (a writer is started for most
	// frames).
	drainer func()
}

// run is the connection's life, on the reader's goroutine (see conn).
func (c *conn) run() {
	s := c.s
	if c.held {
		defer s.lim.close(c.cl.key)
	}
	defer s.open.Add(-1)
	defer s.conns.Done()
	s.cfg.Metrics.ConnOpened()
	defer s.cfg.Metrics.ConnClosed()
	defer c.ws.CloseNow()
	c.ws.SetReadLimit(s.cfg.ReadLimit)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	c.ctx = ctx

	if !c.hello() {
		return
	}

	// A write that takes longer than WriteTimeout is cut (stuck.go; a
	// context per frame would cost allocations per move).
	c.wrote = make(chan struct{})
	c.watched = s.stuck.watch(func() { c.ws.CloseNow() })
	defer s.stuck.forget(c.watched)
	c.sub.SetWake(c.wake)

	// The reads take no context (one per message would cost a timer's
	// worth of allocations per move): the closer closes the connection
	// once when ctx ends, which ends the read.
	unwatch := context.AfterFunc(ctx, func() { c.ws.CloseNow() })
	defer unwatch()
	c.read()
	c.tb.Detach(c.sub)
	<-c.wrote
}

// hello reads the client's hello (a seat token, or spectate) and attaches
// the connection to its table. False if the hello did not come or was
// refused: the refusal is sent and the socket closed.
func (c *conn) hello() bool {
	hctx, hcancel := context.WithTimeout(c.ctx, c.s.cfg.HelloTimeout)
	typ, data, err := c.ws.Read(hctx)
	hcancel()
	if err != nil {
		return false
	}
	if typ != websocket.MessageText {
		c.refuseAndClose(protocol.Refusal(protocol.CodeBadMessage, "messages are JSON text", ""), protocol.CodeBadMessage)
		return false
	}
	hello, refusal := protocol.ParseClient(data)
	if refusal != nil {
		c.refuseAndClose(*refusal, "bad hello")
		return false
	}
	if hello.Type != "hello" {
		c.refuseAndClose(protocol.Refusal(protocol.CodeBadMessage, fmt.Sprintf("say hello first (got %q)", hello.Type), hello.ID), protocol.CodeBadMessage)
		return false
	}
	if hello.Token == "" && !hello.Spectate {
		c.refuseAndClose(protocol.Refusal(protocol.CodeBadToken, "a hello needs a seat token, or \"spectate\": true", hello.ID), protocol.CodeBadToken)
		return false
	}
	c.tb, c.sub, err = c.m.Attach(c.ctx, c.id, hello.Token, hello.Spectate && hello.Token == "")
	if err != nil {
		code := protocol.CodeUnavailable
		if errors.Is(err, table.ErrBadToken) {
			code = protocol.CodeBadToken
		} else if errors.Is(err, table.ErrBusy) {
			code = protocol.CodeBusy
		}
		c.refuseAndClose(protocol.Refusal(code, err.Error(), hello.ID), code)
		return false
	}
	return true
}

// refuseAndClose sends refusal and closes the socket as a policy
// violation, with reason (before the connection has a writer).
func (c *conn) refuseAndClose(refusal protocol.Error, reason string) {
	wctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.WriteTimeout)
	c.ws.Write(wctx, websocket.MessageText, refusal.JSON())
	cancel()
	c.ws.Close(websocket.StatusPolicyViolation, reason)
}

// read reads the client's messages (moves, syncs and chat, rate limited)
// and hands them to the table, until a read fails or the table will read
// no more.
func (c *conn) read() {
	s := c.s
	lim := &rate.Bucket{Rate: s.cfg.RateLimit, Burst: float64(s.cfg.Burst)}
	strikes := 0
	var msgBuf bytes.Buffer // one buffer for every message (the table copies it)
	for {
		typ, rd, err := c.ws.Reader(context.Background())
		if err != nil {
			return
		}
		msgBuf.Reset()
		if _, err := msgBuf.ReadFrom(rd); err != nil {
			return // over the read limit: the connection is closed
		}
		data := msgBuf.Bytes()
		now := time.Now()
		if !lim.Allow(now) {
			strikes++
			if strikes > maxStrikes {
				c.ws.Close(websocket.StatusPolicyViolation, "rate limit")
				return
			}
			c.tb.Refuse(c.sub, protocol.CodeRateLimited, fmt.Sprintf("over %g messages a second; this one was dropped", s.cfg.RateLimit), "")
			continue
		}
		strikes = 0
		if typ != websocket.MessageText {
			c.tb.Refuse(c.sub, protocol.CodeBadMessage, "messages are JSON text", "")
			continue
		}
		if over, msgID := s.chatOver(c.cl, data, now); over {
			c.tb.Refuse(c.sub, protocol.CodeChatFlood, s.overLimit(actChat)+"; this one was dropped", msgID)
			continue
		}
		// The table reads the message itself, on its own goroutine: this
		// one, one per connection, allocates nothing for a message.
		if err := c.tb.Handle(c.ctx, c.sub, data); err != nil {
			return
		}
	}
}

// wake starts a writer unless one runs (the table calls it after each
// frame it queues, and when it ends the queue).
func (c *conn) wake() {
	c.wmu.Lock()
	if !c.writing {
		c.writing = true
		if c.drainer == nil {
			c.drainer = c.drain
		}
		go c.drainer()
	}
	c.wmu.Unlock()
}

// drain is the writer: it writes what is queued and ends when the queue
// is empty, or, when it finds the queue ended, closes the socket (finish).
func (c *conn) drain() {
	for {
		c.wmu.Lock()
		frame, open := c.sub.Next()
		if frame == nil && open {
			c.writing = false
			c.wmu.Unlock()
			return
		}
		c.wmu.Unlock()
		if !open {
			c.finish()
			return
		}
		if !c.broken {
			c.watched.begin()
			err := c.ws.Write(context.Background(), websocket.MessageText, frame.Data)
			c.watched.end()
			if err != nil {
				c.broken = true
				c.ws.CloseNow()
			}
		}
		frame.Release()
	}
}

// finish closes the socket with the close code for why the table dropped
// the sub, and tells the reader the writer is done.
func (c *conn) finish() {
	switch err := c.sub.Err(); {
	case errors.Is(err, table.ErrSlow):
		c.ws.Close(websocket.StatusPolicyViolation, "too slow: dropped")
	case errors.Is(err, table.ErrLeft):
		c.ws.Close(websocket.StatusNormalClosure, "the seat was left")
	case errors.Is(err, table.ErrExpired):
		c.ws.Close(websocket.StatusNormalClosure, "the table expired: nobody joined it")
	case errors.Is(err, table.ErrMoved):
		c.ws.Close(websocket.StatusTryAgainLater, "the table moved: reconnect")
	case errors.Is(err, table.ErrClosed):
		c.ws.Close(websocket.StatusGoingAway, "server shutting down")
	default:
		c.ws.CloseNow()
	}
	close(c.wrote)
}
