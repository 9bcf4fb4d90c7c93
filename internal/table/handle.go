package table

import (
	"context"
	"fmt"
	"time"

	"parlour/internal/protocol"
)

// Handle runs a message a connection sent, JSON text of the table
// protocol (a move, a sync or a chat). The answer comes as frames: a
// refusal to sub only (a message that is not JSON, of another version, of
// an unknown type or with a field missing, a move refused, a message the
// table is too busy to take: protocol.CodeBusy), or what the message
// changed to everyone. Handle returns once the table has the message;
// the next call first waits until the table has read this one (a
// connection has one message at a time with its table). The error is
// ErrClosed, or ctx's, when the table will not read the message (or did
// not read the one before).
//
// The message is copied into the sub and read on the table's actor: the
// caller, the connection's goroutine, allocates nothing. (Each goroutine
// that allocates while the garbage collector marks is charged a share of
// the marking, and thousands of connections each allocating for a message
// would stall every table while it lasts.) Nor is the caller woken when
// the table has read it: it is back at its connection, so a move wakes
// fewer goroutines (while a mark runs, hundreds wait for a processor).
//
// A message that finds the table's inbox full (Config.Inbox) is not
// read: the sub waits in the table's owed list with the message's
// refusal in its place, and the table sends it after the work ahead of
// it, so that it comes after the answers to the connection's earlier
// messages.
func (t *Table) Handle(ctx context.Context, sub *Sub, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := t.settled(sub); err != nil {
		return err
	}
	sub.start = time.Now()
	sub.in = append(sub.in[:0], data...)
	sub.outCode = ""
	return t.give(sub)
}

// settled waits until the table has read the connection's item before,
// if one is on its way (by the connection's goroutine).
func (t *Table) settled(sub *Sub) error {
	if sub.reading {
		// sub.in holds the message before, until the table has read it.
		if err := t.wait(sub.handled); err != nil {
			return err
		}
		sub.reading = false
	}
	return nil
}

// give hands sub's item, a message in sub.in or a refusal in sub.out*,
// to the actor (by the connection's goroutine): into the inbox, or past
// a full one to the owed list, a message then becoming its refusal.
func (t *Table) give(sub *Sub) error {
	if sub.handle == nil {
		sub.handled = make(chan struct{}, 1)
		sub.handle = func() {
			if sub.outCode != "" {
				if _, ok := t.subs[sub]; ok {
					t.refuse(sub, sub.outCode, sub.outMsg, sub.outID, "")
				}
			} else if t.handle(sub, sub.in) {
				// The views showing the move are queued to every
				// connection.
				t.m.stats.MoveToView(time.Since(sub.start))
			}
			sub.handled <- struct{}{}
		}
	}
	ok, full := t.admit(sub.handle)
	if full {
		if sub.outCode == "" {
			t.busy(sub, messageID(sub.in))
		}
		ok = t.owe(sub, true, false)
	}
	if !ok {
		return ErrClosed
	}
	sub.reading = true
	return nil
}

// busy makes sub's item the refusal of a message (its id) that found the
// inbox full.
func (t *Table) busy(sub *Sub, id string) {
	sub.outCode, sub.outID = protocol.CodeBusy, id
	sub.outMsg = fmt.Sprintf("the table has %d messages and requests waiting: this one was dropped; send it again later", t.m.cfg.Inbox)
}

// messageID returns the id of a client message, "" if it has none or is
// not one.
func messageID(data []byte) string {
	msg, _ := protocol.ParseClient(data)
	return msg.ID
}

// handle reads a message from sub (on the actor); made says it was a
// move, and made.
func (t *Table) handle(sub *Sub, data []byte) (made bool) {
	if _, ok := t.subs[sub]; !ok {
		return false
	}
	msg, refusal := protocol.ParseClient(data)
	if refusal != nil {
		t.refuse(sub, refusal.Code, refusal.Message, refusal.ID, "")
		return false
	}
	switch msg.Type {
	case "move":
		if msg.Move == "" {
			t.refuse(sub, protocol.CodeBadMessage, "a move message needs \"move\"", msg.ID, "")
			return false
		}
		return t.humanMove(sub, msg.Move, msg.Seat, msg.ID)
	case "sync":
		t.sync(sub)
	case "chat":
		t.chatFrom(sub, msg.Text, msg.ID)
	case "hello":
		t.refuse(sub, protocol.CodeBadMessage, "hello was already said", msg.ID, "")
	default:
		t.refuse(sub, protocol.CodeBadMessage, fmt.Sprintf("unknown message type %q (types: move, sync, chat)", msg.Type), msg.ID, "")
	}
	return false
}
