// Package store keeps Parlour's tables: each table's game, options, seed,
// seats and every move as it is made, and a finished game's result. A seed
// and the move list replay any game exactly, so that is all that is kept of
// a game's progress; the table server rebuilds live tables from it after a
// restart.
//
// Store is the one interface; Open returns the SQLite implementation (the
// default, pure Go, in one file) or the PostgreSQL one, both over
// database/sql with goose migrations embedded per dialect. The contract
// test suite in storetest runs against both.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Table statuses.
const (
	// StatusWaiting is a table whose seats are not all filled yet.
	StatusWaiting = "waiting"
	// StatusPlaying is a table whose game is under way.
	StatusPlaying = "playing"
	// StatusOver is a table whose game has ended; its result is kept.
	StatusOver = "over"
)

// Seat kinds.
const (
	// KindHuman is a seat for a person (open while it has no token).
	KindHuman = "human"
	// KindBot is a seat played by a server-side bot.
	KindBot = "bot"
)

// Errors the stores return; match them with errors.Is.
var (
	// ErrNotFound marks a table that is not in the store.
	ErrNotFound = errors.New("not found")
	// ErrExists marks a table id that is already taken.
	ErrExists = errors.New("already exists")
	// ErrConflict marks a move whose number is not the next one.
	ErrConflict = errors.New("move out of order")
	// ErrLeaseLost marks a write under a lease epoch the table no longer
	// has: another node took the table over. Nothing was written.
	ErrLeaseLost = errors.New("the table's lease is held by another node")
	// ErrInDoubt marks a move whose commit was not confirmed before the
	// caller's deadline: the writer may still store it. The caller reads
	// the table's move count back to know.
	ErrInDoubt = errors.New("the move's commit was not confirmed in time")
)

// Seat is one seat of a table as stored.
type Seat struct {
	Kind string `json:"kind"`           // KindHuman or KindBot
	Bot  string `json:"bot,omitempty"`  // the bot's name, for a bot seat
	Name string `json:"name,omitempty"` // the display name
	// TokenHash is the hex SHA-256 of the seat's secret token; empty while
	// the seat is open. The token itself is never stored.
	TokenHash string `json:"token_hash,omitempty"`
}

// Table is one table as stored.
type Table struct {
	ID   string
	Game string
	// Options are the game's resolved options (as JSON decodes them:
	// numbers are json.Number).
	Options map[string]any
	// Seed is the game's seed: with the moves, it replays the game.
	Seed uint64
	// Settings are the table's own settings (clock, grace, stand-in) as
	// the table package encodes them.
	Settings json.RawMessage
	Seats    []Seat
	Status   string
	// Result is the final result once the game is over, nil before.
	Result    json.RawMessage
	RematchOf string // the table this one is a rematch of
	Rematch   string // the rematch table started from this one
	CreatedAt time.Time
	UpdatedAt time.Time
	// Moves is the number of moves stored, as read (CreateTable and
	// UpdateTable ignore it).
	Moves int
	// Lease is the table's owner in a cluster. Reads fill it in. A
	// non-zero Lease.Epoch fences UpdateTable: the update is made only
	// while the table's lease has that epoch (ErrLeaseLost otherwise).
	// CreateTable with a Lease.Node gives that node the first lease, for
	// Lease.TTL.
	Lease Lease
}

// Lease is a table's ownership in a cluster: one node at a time runs a
// table, for as long as its lease lasts and it renews it.
type Lease struct {
	Node  string    // the owner; "" when nobody ever owned the table
	Epoch int64     // grows with every new owner; 0: never leased
	Until time.Time // when the lease runs out, by the database's clock
	TTL   time.Duration
}

// Move is one applied move of a table.
type Move struct {
	N    int    // 0-based number of the move in its table
	Seat int    // the seat that moved
	Text string // the move in canonical notation
	// By says who chose the move: "" the seat's player, "bot" a bot seat,
	// "standin" a stand-in for an absent player, "clock" the stand-in when
	// the player's time ran out.
	By string
	At time.Time
	// Lease, if not 0, is the lease epoch the writer holds: the move is
	// stored only while the table's lease has that epoch (ErrLeaseLost
	// otherwise). Not stored.
	Lease int64
}

// Query selects tables.
type Query struct {
	Status []string // only tables with one of these statuses; empty: any
	Limit  int      // at most this many; 0: no limit
	Newest bool     // newest first (default: oldest first)
}

// Store keeps tables and their moves. Implementations are safe for
// concurrent use.
type Store interface {
	// CreateTable stores a new table; ErrExists if its id is taken.
	CreateTable(ctx context.Context, t *Table) error
	// UpdateTable stores a table's seats, settings, status, result and
	// rematch links (game, options, seed and creation time never change);
	// ErrNotFound if it is not there.
	UpdateTable(ctx context.Context, t *Table) error
	// AppendMove stores the next move of a table. m.N must be the number
	// of moves already stored (ErrConflict otherwise); ErrNotFound if the
	// table is not there. It returns once the move is committed, or when
	// ctx ends: before the move reached a writer with ctx's error (the
	// move is not stored), after with ErrInDoubt (it may be). A context
	// with a deadline and no Done channel is answered at about its
	// deadline all the same: the writers commit under their requests'
	// deadlines.
	AppendMove(ctx context.Context, tableID string, m Move) error
	// DeleteTable removes a waiting table (one whose game has not begun,
	// so it has no moves) with its chat: a table nobody joined, expired.
	// A non-zero t.Lease.Epoch fences it as it fences UpdateTable.
	// ErrNotFound if it is not there, ErrConflict if it is not waiting.
	DeleteTable(ctx context.Context, t *Table) error
	// Table returns a stored table; ErrNotFound if it is not there.
	Table(ctx context.Context, id string) (*Table, error)
	// Moves returns a table's moves in order; ErrNotFound if the table is
	// not there.
	Moves(ctx context.Context, tableID string) ([]Move, error)
	// Tables returns the tables matching q, by creation time.
	Tables(ctx context.Context, q Query) ([]*Table, error)
	// Ping reports whether the store answers within ctx: the readiness
	// check of a node.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
	// Chats keeps the tables' chat (chat.go).
	Chats
}

// Open opens the store a DSN names: "sqlite:PATH" (a file, created if
// missing) or "postgres://..." / "postgresql://..." (a PostgreSQL server).
// The schema is migrated up to date.
func Open(ctx context.Context, dsn string) (Store, error) {
	switch {
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		if path == "" {
			return nil, fmt.Errorf("store: %q names no file (use sqlite:PATH)", dsn)
		}
		return OpenSQLite(ctx, path)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return OpenPostgres(ctx, dsn)
	}
	return nil, fmt.Errorf("store: unknown database %q (use sqlite:PATH or postgres://...)", dsn)
}
