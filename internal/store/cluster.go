package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Node is one server of a cluster, as the store knows it.
type Node struct {
	ID   string    // the node's id, unique while it runs
	Addr string    // where the other nodes reach it ("http://host:port")
	Seen time.Time // its last heartbeat, by the database's clock
}

// Cluster is the part of a store that several servers share to run as one
// service: nodes announce themselves, and each table has at most one owner
// at a time, by a lease that its owner renews. Writes made under a lease
// (Move.Lease, Table.Lease.Epoch) are fenced: once another node has taken
// the table over, a stale owner's writes fail with ErrLeaseLost. Every
// time is the database's clock, so the nodes' own clocks do not matter.
//
// Both stores implement it. With SQLite, one file on one machine, it only
// matters to tests: a SQLite server is one node.
type Cluster interface {
	// Heartbeat records that node id is alive and reached at addr.
	Heartbeat(ctx context.Context, id, addr string) error
	// Depart removes node id (it is stopping cleanly).
	Depart(ctx context.Context, id string) error
	// Node returns a node, if it has been seen within fresh.
	Node(ctx context.Context, id string, fresh time.Duration) (Node, error)
	// Acquire gives node the lease of table id for ttl if nobody holds it
	// (no owner, or a lease that ran out) or node already does. It returns
	// the lease as it is after the attempt: held by node, with a new epoch
	// when it changed hands, or by another node (then ok is false).
	// ErrNotFound if the table is not there.
	Acquire(ctx context.Context, id, node string, ttl time.Duration) (l Lease, ok bool, err error)
	// Renew extends every lease node holds by ttl and returns the ids of
	// the tables it holds.
	Renew(ctx context.Context, node string, ttl time.Duration) ([]string, error)
	// Release gives up node's leases of the tables ids (all of them when
	// ids is nil), so another node may take them at once.
	Release(ctx context.Context, node string, ids []string) error
	// Orphans returns up to limit unfinished tables whose lease ran out
	// (a node died or left) or that nobody ever owned (made by a server
	// that ran alone): they need an owner.
	Orphans(ctx context.Context, limit int) ([]string, error)
}

// Notifier is a store that carries short messages between the nodes of
// a cluster (PostgreSQL's LISTEN/NOTIFY).
type Notifier interface {
	// Notify sends msg (at most a few kilobytes) to every listening node,
	// this one included.
	Notify(ctx context.Context, msg string) error
	// Listen calls f with each message sent until ctx ends or the
	// connection fails; it returns why.
	Listen(ctx context.Context, f func(msg string)) error
}

// ErrNoNode marks a node that has not been seen lately.
var ErrNoNode = errors.New("no such node")

func (s *sqlStore) Heartbeat(ctx context.Context, id, addr string) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO nodes (id, addr, seen) VALUES (?, ?, `+s.now()+`)
		ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen = excluded.seen`), id, addr)
	if err != nil {
		return fmt.Errorf("store: heartbeat of node %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) Depart(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM nodes WHERE id = ?`), id); err != nil {
		return fmt.Errorf("store: removing node %s: %w", id, err)
	}
	return nil
}

func (s *sqlStore) Node(ctx context.Context, id string, fresh time.Duration) (Node, error) {
	var n Node
	var seen int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT id, addr, seen FROM nodes WHERE id = ? AND seen > `+s.now()+` - ?`),
		id, fresh.Microseconds()).Scan(&n.ID, &n.Addr, &seen)
	if err != nil {
		return Node{}, fmt.Errorf("store: node %s: %w", id, ErrNoNode)
	}
	n.Seen = fromMicros(seen)
	return n, nil
}

func (s *sqlStore) Acquire(ctx context.Context, id, node string, ttl time.Duration) (Lease, bool, error) {
	// One statement: the lease changes hands only if it is free, and the
	// epoch grows only then.
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE tables SET
		lease_epoch = CASE WHEN owner = ? AND lease_until > `+s.now()+` THEN lease_epoch ELSE lease_epoch + 1 END,
		owner = ?, lease_until = `+s.now()+` + ?
		WHERE id = ? AND (owner = '' OR owner = ? OR lease_until <= `+s.now()+`)`),
		node, node, ttl.Microseconds(), id, node)
	if err != nil {
		return Lease{}, false, fmt.Errorf("store: acquiring table %s: %w", id, err)
	}
	var l Lease
	var until int64
	err = s.db.QueryRowContext(ctx, s.q(`SELECT owner, lease_epoch, lease_until FROM tables WHERE id = ?`), id).
		Scan(&l.Node, &l.Epoch, &until)
	if err != nil {
		if !s.exists(ctx, id) {
			return Lease{}, false, fmt.Errorf("store: table %s: %w", id, ErrNotFound)
		}
		return Lease{}, false, fmt.Errorf("store: reading the lease of %s: %w", id, err)
	}
	l.Until = fromMicros(until)
	return l, l.Node == node, nil
}

func (s *sqlStore) Renew(ctx context.Context, node string, ttl time.Duration) ([]string, error) {
	// Rows a move in flight holds (see pgLeaseLock) are skipped, not
	// waited for: waiting could deadlock with a batch of moves, and the
	// next renewal, well inside the lease, gets them.
	skip := ""
	if s.pg {
		skip = "FOR UPDATE SKIP LOCKED"
	}
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE tables SET lease_until = `+s.now()+` + ?
		WHERE id IN (SELECT id FROM tables WHERE owner = ? AND lease_until > `+s.now()+` `+skip+`)`), ttl.Microseconds(), node)
	if err != nil {
		return nil, fmt.Errorf("store: renewing node %s's leases: %w", node, err)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id FROM tables WHERE owner = ? AND lease_until > `+s.now()), node)
	if err != nil {
		return nil, fmt.Errorf("store: renewing node %s's leases: %w", node, err)
	}
	return scanIDs(rows, "renewing node "+node+"'s leases")
}

// scanIDs reads a column of table ids.
func scanIDs(rows *sql.Rows, doing string) ([]string, error) {
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %s: %w", doing, err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", doing, err)
	}
	return out, nil
}

func (s *sqlStore) Release(ctx context.Context, node string, ids []string) error {
	var err error
	if ids == nil {
		_, err = s.db.ExecContext(ctx, s.q(`UPDATE tables SET lease_until = 0 WHERE owner = ?`), node)
	} else {
		for _, id := range ids {
			if _, err = s.db.ExecContext(ctx, s.q(`UPDATE tables SET lease_until = 0 WHERE owner = ? AND id = ?`), node, id); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("store: releasing node %s's leases: %w", node, err)
	}
	return nil
}

func (s *sqlStore) Orphans(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id FROM tables
		WHERE status IN (?, ?) AND lease_until <= `+s.now()+` ORDER BY lease_until LIMIT ?`),
		StatusWaiting, StatusPlaying, limit)
	if err != nil {
		return nil, fmt.Errorf("store: finding orphaned tables: %w", err)
	}
	return scanIDs(rows, "finding orphaned tables")
}
