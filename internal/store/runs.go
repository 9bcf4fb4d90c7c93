package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
)

// runs inserts moves into one table of an SQLite database (the fold's
// into moves), many a statement (plainQuery's, for 1, 2, 4, ... maxBatch
// moves), through the driver's connection itself. database/sql converts
// and copies every argument of every statement into a slice of its own
// (six a move); here the arguments' slice is the writer's, used again
// from statement to statement (docs/perf/node.md has what the copy cost).
type runs struct {
	query func(n int) string
	// conn is the driver connection stmts were prepared on (database/sql
	// may replace a broken one).
	conn  any
	stmts map[int]driver.Stmt
	// vals and args are a statement's arguments (plainArgs), as values
	// and as the driver takes them.
	vals []any
	args []driver.NamedValue
	// bx keeps the arguments' boxes (the writer's, shared by its runs).
	bx *boxes
}

// errRawDriver says the database's driver lacks what runs needs.
var errRawDriver = errors.New("store: the database driver cannot prepare and execute statements with a context")

// insert inserts moves on c, inside the transaction c has open.
func (r *runs) insert(ctx context.Context, c *sql.Conn, moves []tableMove) error {
	return c.Raw(func(dc any) error {
		if dc != r.conn {
			// database/sql hands out another connection only once it
			// has closed the one the statements were prepared on (an
			// interrupted statement, say). Closing them now would
			// finalize them on a connection that is gone, which
			// crashes the driver: they went with it.
			clear(r.stmts)
			r.conn = dc
		}
		for rest := moves; len(rest) > 0; {
			n := runLen(len(rest))
			st, err := r.stmt(ctx, dc, n)
			if err != nil {
				return err
			}
			r.vals = plainArgs(r.vals[:0], rest[:n], r.bx)
			r.args = r.args[:0]
			for i, v := range r.vals {
				r.args = append(r.args, driver.NamedValue{Ordinal: i + 1, Value: v})
			}
			_, err = st.(driver.StmtExecContext).ExecContext(ctx, r.args)
			clear(r.vals) // keep no strings alive
			clear(r.args)
			if err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	})
}

// stmt returns the statement for n moves on driver connection dc,
// preparing it the first time.
func (r *runs) stmt(ctx context.Context, dc any, n int) (driver.Stmt, error) {
	if st := r.stmts[n]; st != nil {
		return st, nil
	}
	p, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, errRawDriver
	}
	st, err := p.PrepareContext(ctx, r.query(n))
	if err != nil {
		return nil, fmt.Errorf("store: preparing an insert of %d moves: %w", n, err)
	}
	if _, ok := st.(driver.StmtExecContext); !ok {
		st.Close()
		return nil, errRawDriver
	}
	if r.stmts == nil {
		r.stmts = map[int]driver.Stmt{}
	}
	r.stmts[n] = st
	return st, nil
}

// closeStmts closes the statements; the caller holds their connection
// (in c.Raw).
func (r *runs) closeStmts() {
	for _, st := range r.stmts {
		st.Close()
	}
	clear(r.stmts)
	r.conn = nil
}

// close closes the statements on their connection, if it is db's still.
func (r *runs) close(db *sql.DB) {
	if len(r.stmts) == 0 {
		return
	}
	c, err := db.Conn(context.Background())
	if err != nil {
		return
	}
	defer c.Close()
	c.Raw(func(dc any) error {
		if dc == r.conn {
			r.closeStmts()
		}
		return nil
	})
}
