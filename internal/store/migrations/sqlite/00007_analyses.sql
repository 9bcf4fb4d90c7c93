-- +goose Up
-- The analyses of finished games (parlour/analysis), asked for at the
-- table server: one row per table and options asked, which is a job
-- until its report is there. A node claims a queued job (status running,
-- node, claim_until: microseconds of the database's clock), renews the
-- claim as it writes its progress, and stores the report (done) or why it
-- could not (failed). A running job whose claim ran out (its node died)
-- is claimed again by any node. The analysis goes with its table.
CREATE TABLE analyses (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    options     TEXT NOT NULL,
    status      TEXT NOT NULL,
    progress    REAL NOT NULL DEFAULT 0,
    report      TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT '',
    node        TEXT NOT NULL DEFAULT '',
    claim_until INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    asked_at    INTEGER NOT NULL,
    queued_at   INTEGER NOT NULL,
    started_at  INTEGER NOT NULL DEFAULT 0,
    finished_at INTEGER NOT NULL DEFAULT 0,
    UNIQUE (table_id, options)
);
CREATE INDEX analyses_queue ON analyses (status, queued_at);

-- +goose Down
DROP INDEX analyses_queue;
DROP TABLE analyses;
