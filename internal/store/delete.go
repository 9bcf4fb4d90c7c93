package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

func (s *sqlStore) DeleteTable(ctx context.Context, t *Table) error {
	// The table's chat goes with it (ON DELETE CASCADE); a waiting table
	// has no moves, in the moves table or SQLite's move log.
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM tables WHERE id = ? AND status = ? AND (? = 0 OR lease_epoch = ?)`),
		t.ID, StatusWaiting, t.Lease.Epoch, t.Lease.Epoch)
	if err != nil {
		return fmt.Errorf("store: deleting table %s: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	var status string
	var epoch int64
	err = s.db.QueryRowContext(ctx, s.q(`SELECT status, lease_epoch FROM tables WHERE id = ?`), t.ID).Scan(&status, &epoch)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: table %s: %w", t.ID, ErrNotFound)
	case err != nil:
		return fmt.Errorf("store: deleting table %s: %w", t.ID, err)
	case t.Lease.Epoch != 0 && epoch != t.Lease.Epoch:
		return fmt.Errorf("store: table %s: %w", t.ID, ErrLeaseLost)
	default:
		return fmt.Errorf("store: table %s is %s, not waiting: %w", t.ID, status, ErrConflict)
	}
}
