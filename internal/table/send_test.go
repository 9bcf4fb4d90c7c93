package table

import (
	"context"
	"encoding/json"

	"parlour/internal/protocol"
)

// The tests' connections send their messages the way the server's do: as
// JSON text, through Table.Handle.

// send has sub's connection send msg, its version filled in, through
// Handle, and waits until the table has read it: the answer is then
// queued for sub (or for everyone), as it would be written. The error is
// Handle's: ErrClosed when the table will not read it.
func send(tb *Table, sub *Sub, msg protocol.ClientMessage) error {
	msg.V = protocol.Version
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if err := tb.Handle(context.Background(), sub, data); err != nil {
		return err
	}
	return tb.settled(sub)
}

// sendMove sends the move text (notation, as a player types it) from sub.
func sendMove(tb *Table, sub *Sub, text string) error {
	return send(tb, sub, protocol.ClientMessage{Type: "move", Move: text})
}

// sendSync asks the table for a fresh state frame for sub.
func sendSync(tb *Table, sub *Sub) error {
	return send(tb, sub, protocol.ClientMessage{Type: "sync"})
}

// sendChat sends a chat message from sub; id, if not empty, is echoed in
// a refusal.
func sendChat(tb *Table, sub *Sub, text, id string) error {
	return send(tb, sub, protocol.ClientMessage{Type: "chat", Text: text, ID: id})
}
