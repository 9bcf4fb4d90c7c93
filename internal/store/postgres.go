package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
)

// OpenPostgres connects to the PostgreSQL database dsn names
// ("postgres://user:password@host:port/db?sslmode=disable") and migrates it.
func OpenPostgres(ctx context.Context, dsn string) (Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: opening postgres: %w", err)
	}
	db.SetMaxOpenConns(pgConns)
	db.SetMaxIdleConns(pgConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connecting to postgres: %w", err)
	}
	warmPool(ctx, db, pgConns)
	if err := migrate(ctx, db, goose.DialectPostgres, "postgres", pgMigrationLock{}); err != nil {
		db.Close()
		return nil, err
	}
	s, err := newSQLStore(ctx, db, true, pgWriters)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &pgStore{sqlStore: s, dsn: dsn}, nil
}

// pgMigrationLock runs a node's migrations under a PostgreSQL advisory
// lock held by the migrating session, so that nodes started together on
// one database migrate one at a time: the others wait for the lock (as
// long as their context lets them) and then find the schema up to date.
// It waits in pg_advisory_lock rather than polling, so a waiting node
// goes on as soon as the first is done.
type pgMigrationLock struct{}

// migrationLockID is the advisory lock's key: "parlour" in ASCII.
const migrationLockID = 0x7061726c6f7572

func (pgMigrationLock) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLockID)); err != nil {
		return fmt.Errorf("store: waiting for the migration lock: %w", err)
	}
	return nil
}

func (pgMigrationLock) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, int64(migrationLockID)); err != nil {
		return fmt.Errorf("store: releasing the migration lock: %w", err)
	}
	return nil
}

// pgConns is the number of connections a PostgreSQL store holds: all of
// them opened at its start (warmPool) and kept.
const pgConns = 16

// warmPool opens n connections of db at once and returns them to its
// pool, so that a burst of work (a takeover, a node's first tables) finds
// them open. A connection opened in the burst waits for the server to
// start a session and check the password while both are busy, and it may
// pass the store's timeout: that call fails, and a call cut off by its
// deadline closes its connection, so the next one connects again. A
// connection that cannot be opened (past the server's max_connections,
// say) is left to the pool to open when it is needed.
func warmPool(ctx context.Context, db *sql.DB, n int) {
	conns := make([]*sql.Conn, n)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() {
			if c, err := db.Conn(ctx); err == nil {
				conns[i] = c
			}
		})
	}
	wg.Wait()
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
}

// pgWriters is the number of group-commit writers of a PostgreSQL store:
// each commits the moves waiting when it is free in one transaction, and
// the server's connections let several commit at once.
const pgWriters = 4

// pgStore is the PostgreSQL store: the shared SQL store, and LISTEN/NOTIFY
// on a connection of its own.
type pgStore struct {
	*sqlStore
	dsn string
}

// listenSetup bounds Listen's connecting, subscribing and closing.
const listenSetup = 5 * time.Second

// notifyChannel is the channel the nodes of a cluster tell each other on.
const notifyChannel = "parlour"

func (p *pgStore) Notify(ctx context.Context, msg string) error {
	if _, err := p.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, msg); err != nil {
		return fmt.Errorf("store: notifying: %w", err)
	}
	return nil
}

func (p *pgStore) Listen(ctx context.Context, f func(msg string)) error {
	// Connecting and subscribing have a deadline; the wait for a
	// notification, which may be long, has none but ctx.
	sctx, cancel := context.WithTimeout(ctx, listenSetup)
	defer cancel()
	conn, err := pgx.Connect(sctx, p.dsn)
	if err != nil {
		return fmt.Errorf("store: listening: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), listenSetup)
		defer cancel()
		conn.Close(cctx)
	}()
	if _, err := conn.Exec(sctx, "LISTEN "+notifyChannel); err != nil {
		return fmt.Errorf("store: listening: %w", err)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("store: listening: %w", err)
		}
		f(n.Payload)
	}
}
