package table

import (
	"context"
	"fmt"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

// Table chat. Seated players write (a "chat" message, read by Handle);
// every connection of the table reads, spectators included. On the actor
// a message is checked (protocol.CleanChat) and so is the seat's rate,
// the message kept and one frame encoded for everyone: chat never waits
// for the store, whose write of it is queued behind the table's earlier
// messages, off the actor, in the order they were written. That queue is
// bounded (Config.ChatQueue): while the store is so far behind, a message
// is refused (protocol.CodeChatBacklog) rather than relayed and never
// kept. The table keeps its last protocol.ChatHistory messages, read from
// the store when its first connection comes, and sends them to each
// connection after its welcome and state.

// chatRate is a seat's chat rate: a bucket of protocol.ChatBurst messages,
// refilled at that many per protocol.ChatWindow.
type chatRate struct {
	tokens float64
	last   time.Time
}

func (b *chatRate) allow(now time.Time) bool {
	if b.last.IsZero() {
		b.tokens = protocol.ChatBurst
	} else {
		b.tokens = min(protocol.ChatBurst, b.tokens+now.Sub(b.last).Seconds()*protocol.ChatBurst/protocol.ChatWindow.Seconds())
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// chatFrom checks a chat message from sub and relays it (on the actor).
func (t *Table) chatFrom(sub *Sub, text, id string) {
	if _, ok := t.subs[sub]; !ok {
		return
	}
	if sub.seat < 0 {
		t.refuse(sub, protocol.CodeSpectator, "spectators may read the table's chat but not write in it", id, "")
		return
	}
	text, err := protocol.CleanChat(text)
	if err != nil {
		t.refuse(sub, protocol.CodeBadChat, err.Error(), id, "")
		return
	}
	t.chat(sub, text, id)
}

func (t *Table) chat(sub *Sub, text, id string) {
	if _, ok := t.subs[sub]; !ok {
		return
	}
	if n := t.chatWaiting(); n >= t.m.cfg.ChatQueue {
		// The store is behind: the message could not be kept. Refused
		// before the rate is charged, so nothing changes.
		t.refuse(sub, protocol.CodeChatBacklog, fmt.Sprintf("%d chat messages of this table wait to be stored: this one was dropped; send it again later", n), id, "")
		return
	}
	s := t.seats[sub.seat]
	now := time.Now()
	if !s.chatRate.allow(now) {
		t.refuse(sub, protocol.CodeChatFlood, fmt.Sprintf("at most %d chat messages in %g seconds: this one was not sent",
			protocol.ChatBurst, protocol.ChatWindow.Seconds()), id, "")
		return
	}
	msg := store.ChatMessage{Seat: s.n, Name: s.name, Text: text, At: now.UTC()}
	if len(t.chatLog) >= protocol.ChatHistory {
		copy(t.chatLog, t.chatLog[1:])
		t.chatLog = t.chatLog[:len(t.chatLog)-1]
	}
	t.chatLog = append(t.chatLog, msg)
	frame := t.encode(chatFrame(msg, false))
	for sub := range t.subs {
		t.send(sub, frame)
	}
	t.saveChat(msg)
}

func chatFrame(m store.ChatMessage, old bool) protocol.Chat {
	return protocol.Chat{V: protocol.Version, Type: protocol.TypeChat, Seat: m.Seat, Name: m.Name, Text: m.Text, At: m.At, Old: old}
}

// sendChatLog sends sub the messages kept, oldest first, marked old.
func (t *Table) sendChatLog(sub *Sub) {
	for _, m := range t.chatLog {
		t.send(sub, t.encode(chatFrame(m, true)))
	}
}

// loadChat reads the table's chat from the store, once, before its first
// connection is attached (off the actor), and returns the work that keeps
// it, for the actor to run before it attaches the connection (nil once
// the chat is loaded). If the store fails, the table starts with no
// history (the messages stay stored, for the next time it is loaded).
func (t *Table) loadChat(ctx context.Context) func() {
	if t.chatLoaded.Load() {
		return nil
	}
	ctx, cancel := t.m.storeCtx(ctx)
	msgs, err := t.m.cfg.Store.Chat(ctx, t.id, protocol.ChatHistory)
	cancel()
	if err != nil {
		t.log().Error("reading the chat; the table starts with none", "err", err)
		msgs = nil
	}
	return func() {
		if t.chatLoaded.Load() {
			return
		}
		// Messages are only written by attached connections, and none
		// was attached before this: there is nothing to merge.
		t.chatLog = append(msgs, t.chatLog...)
		t.chatLoaded.Store(true)
	}
}

// chatWaiting returns the number of the table's chat messages waiting to
// be stored. chat refuses a message once Config.ChatQueue wait, so the
// queue holds at most that many.
func (t *Table) chatWaiting() int {
	t.chatMu.Lock()
	defer t.chatMu.Unlock()
	return len(t.chatQueue)
}

// saveChat queues m to be stored after the table's earlier messages.
func (t *Table) saveChat(m store.ChatMessage) {
	t.chatMu.Lock()
	t.chatQueue = append(t.chatQueue, m)
	t.m.chatQueued.Add(1)
	start := !t.chatWriting
	t.chatWriting = true
	t.chatMu.Unlock()
	if start {
		t.m.chatWriters.Go(t.writeChat)
	}
}

// writeChat stores the queued messages in order, until none is left.
func (t *Table) writeChat() {
	for {
		t.chatMu.Lock()
		if len(t.chatQueue) == 0 {
			t.chatQueue = nil
			t.chatWriting = false
			t.chatMu.Unlock()
			return
		}
		m := t.chatQueue[0]
		t.chatQueue = t.chatQueue[1:]
		t.m.chatQueued.Add(-1)
		t.chatMu.Unlock()
		ctx, cancel := t.storeCtx()
		if err := t.m.cfg.Store.AppendChat(ctx, t.id, m, protocol.ChatHistory); err != nil {
			t.log().Error("storing a chat message", "err", err)
		}
		cancel()
	}
}
