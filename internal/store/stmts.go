package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
)

// stmtCache keeps statements prepared on SQLite's one driver connection,
// by key, for the writer's statements that run again and again: the
// fold's inserts (runs), and each commit's BEGIN, insert into the log and
// COMMIT (moveLog.exec). Through database/sql, the driver parses such a
// statement anew every time it runs (docs/perf/node.md).
type stmtCache[K comparable] struct {
	// conn is the driver connection the statements were prepared on
	// (database/sql may replace a broken one).
	conn  any
	stmts map[K]driver.StmtExecContext
}

// errRawDriver says the database's driver lacks what stmtCache needs.
var errRawDriver = errors.New("store: the database driver cannot prepare and execute statements with a context")

// on returns the statement for key on driver connection dc, preparing
// query(key) the first time.
func (s *stmtCache[K]) on(ctx context.Context, dc any, key K, query func(K) string) (driver.StmtExecContext, error) {
	if dc != s.conn {
		// database/sql hands out another connection only once it has
		// closed the one the statements were prepared on (an
		// interrupted statement, say). Closing them now would finalize
		// them on a connection that is gone, which crashes the driver:
		// they went with it.
		clear(s.stmts)
		s.conn = dc
	}
	if st := s.stmts[key]; st != nil {
		return st, nil
	}
	p, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, errRawDriver
	}
	st, err := p.PrepareContext(ctx, query(key))
	if err != nil {
		return nil, fmt.Errorf("store: preparing %v: %w", key, err)
	}
	ex, ok := st.(driver.StmtExecContext)
	if !ok {
		st.Close()
		return nil, errRawDriver
	}
	if s.stmts == nil {
		s.stmts = map[K]driver.StmtExecContext{}
	}
	s.stmts[key] = ex
	return ex, nil
}

// close closes the statements on their connection, if it is db's still.
func (s *stmtCache[K]) close(db *sql.DB) {
	if len(s.stmts) == 0 {
		return
	}
	c, err := db.Conn(context.Background())
	if err != nil {
		return
	}
	defer c.Close()
	c.Raw(func(dc any) error {
		if dc == s.conn {
			for _, st := range s.stmts {
				st.(driver.Stmt).Close()
			}
			clear(s.stmts)
			s.conn = nil
		}
		return nil
	})
}
