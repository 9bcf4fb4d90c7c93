package store

import (
	"context"
	"database/sql"
	"fmt"

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
	s, err := newSQLStore(ctx, db, true, false)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
