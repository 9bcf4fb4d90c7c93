package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// runs inserts moves into one table of an SQLite database (the fold's
// into moves), many a statement (plainQuery's, for 1, 2, 4, ... maxBatch
// moves), through the driver's connection itself. database/sql converts
// and copies every argument of every statement into a slice of its own
// (six a move); here the arguments' slice is the writer's, used again
// from statement to statement (docs/perf/node.md has what the copy cost).
type runs struct {
	query func(n int) string
	// stmts are the statements, by how many moves each inserts.
	stmts stmtCache[int]
	// vals and args are a statement's arguments (plainArgs), as values
	// and as the driver takes them.
	vals []any
	args []driver.NamedValue
	// bx keeps the arguments' boxes (the writer's, shared by its runs).
	bx *boxes
}

// insert inserts moves on c, inside the transaction c has open.
func (r *runs) insert(ctx context.Context, c *sql.Conn, moves []tableMove) error {
	return c.Raw(func(dc any) error {
		for rest := moves; len(rest) > 0; {
			n := runLen(len(rest))
			st, err := r.stmts.on(ctx, dc, n, r.query)
			if err != nil {
				return err
			}
			r.vals = plainArgs(r.vals[:0], rest[:n], r.bx)
			r.args = r.args[:0]
			for i, v := range r.vals {
				r.args = append(r.args, driver.NamedValue{Ordinal: i + 1, Value: v})
			}
			_, err = st.ExecContext(ctx, r.args)
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
