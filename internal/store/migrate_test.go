package store

import (
	"context"
	"database/sql"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"parlour/internal/pgtest"
)

// TestMigrationsTogether opens several PostgreSQL stores at once on one
// database, as nodes started together do: on an empty database, and on
// one an older release left at an earlier version. Every one must open
// (the migrations take turns under pgMigrationLock; without it two nodes
// creating the same table or type at once fail with a duplicate key), and
// the schema must end up at the latest version.
func TestMigrationsTogether(t *testing.T) {
	sub, err := fs.Sub(migrations, "migrations/postgres")
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []int64{0, 2} {
		dsn := pgtest.Database(t, "parlour_migrate")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		p, err := goose.NewProvider(goose.DialectPostgres, db, sub)
		if err != nil {
			t.Fatal(err)
		}
		if from > 0 {
			if _, err := p.UpTo(ctx, from); err != nil {
				t.Fatalf("migrating to version %d: %v", from, err)
			}
		}
		const nodes = 4
		var wg sync.WaitGroup
		errs := make([]error, nodes)
		start := make(chan struct{})
		for i := range nodes {
			wg.Go(func() {
				<-start
				s, err := OpenPostgres(ctx, dsn)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("from version %d, store %d of %d opened together: %v", from, i+1, nodes, err)
			}
		}
		v, err := p.GetDBVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sources := p.ListSources()
		if want := sources[len(sources)-1].Version; v != want {
			t.Errorf("from version %d: the database is at version %d after the stores opened, want %d", from, v, want)
		}
	}
}
