package store

import (
	"context"
	"database/sql"
	"fmt"

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
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connecting to postgres: %w", err)
	}
	if err := migrate(ctx, db, goose.DialectPostgres, "postgres"); err != nil {
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

// notifyChannel is the channel the nodes of a cluster tell each other on.
const notifyChannel = "parlour"

func (p *pgStore) Notify(ctx context.Context, msg string) error {
	if _, err := p.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, msg); err != nil {
		return fmt.Errorf("store: notifying: %w", err)
	}
	return nil
}

func (p *pgStore) Listen(ctx context.Context, f func(msg string)) error {
	conn, err := pgx.Connect(ctx, p.dsn)
	if err != nil {
		return fmt.Errorf("store: listening: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
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
