package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// ChatMessage is one message of a table's chat as stored.
type ChatMessage struct {
	Seat int    // the writer's seat
	Name string // the seat's name when it was written
	Text string // plain text, as relayed
	At   time.Time
}

// Chats keeps the last messages of each table's chat, in the order they
// were written. Every Store is one.
type Chats interface {
	// AppendChat stores a message of table tableID's chat after the
	// others, and forgets all but the table's last keep messages (keep
	// 0 or less: none is forgotten). ErrNotFound if the table is not
	// there. Messages of one table must be appended one at a time: their
	// order is the order the calls return in.
	AppendChat(ctx context.Context, tableID string, m ChatMessage, keep int) error
	// Chat returns the last limit messages of table tableID's chat
	// (limit 0 or less: all it keeps), oldest first. ErrNotFound if the
	// table is not there.
	Chat(ctx context.Context, tableID string, limit int) ([]ChatMessage, error)
}

func (s *sqlStore) AppendChat(ctx context.Context, tableID string, m ChatMessage, keep int) error {
	if m.At.IsZero() {
		m.At = time.Now()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: chat of table %s: %w", tableID, sqliteFault(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO chat (table_id, seat, name, body, at)
		SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?)`),
		tableID, m.Seat, m.Name, m.Text, micros(m.At), tableID)
	if err != nil {
		return fmt.Errorf("store: chat of table %s: %w", tableID, sqliteFault(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: table %s: %w", tableID, ErrNotFound)
	}
	if keep > 0 {
		// Everything from the (keep+1)th newest message back; nothing
		// while there are keep or fewer (the subquery is NULL).
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM chat WHERE table_id = ? AND id <= (
			SELECT id FROM chat WHERE table_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`), tableID, tableID, keep); err != nil {
			return fmt.Errorf("store: chat of table %s: %w", tableID, sqliteFault(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: chat of table %s: %w", tableID, sqliteFault(err))
	}
	return nil
}

func (s *sqlStore) Chat(ctx context.Context, tableID string, limit int) ([]ChatMessage, error) {
	query := `SELECT seat, name, body, at FROM chat WHERE table_id = ? ORDER BY id DESC`
	args := []any{tableID}
	if limit > 0 {
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading the chat of %s: %w", tableID, err)
	}
	out := []ChatMessage{}
	for rows.Next() {
		var m ChatMessage
		var at int64
		if err := rows.Scan(&m.Seat, &m.Name, &m.Text, &at); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: reading the chat of %s: %w", tableID, err)
		}
		m.At = fromMicros(at)
		out = append(out, m)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("store: reading the chat of %s: %w", tableID, err)
	}
	if len(out) == 0 && !s.exists(ctx, tableID) {
		return nil, fmt.Errorf("store: table %s: %w", tableID, ErrNotFound)
	}
	slices.Reverse(out)
	return out, nil
}
