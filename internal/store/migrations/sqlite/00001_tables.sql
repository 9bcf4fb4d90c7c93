-- +goose Up
CREATE TABLE tables (
    id         TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    options    TEXT NOT NULL,
    seed       INTEGER NOT NULL,
    settings   TEXT NOT NULL,
    seats      TEXT NOT NULL,
    status     TEXT NOT NULL,
    result     TEXT NOT NULL DEFAULT '',
    rematch_of TEXT NOT NULL DEFAULT '',
    rematch    TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX tables_status ON tables (status, created_at);

CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    move     TEXT NOT NULL,
    by_whom  TEXT NOT NULL DEFAULT '',
    at       INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
);

-- +goose Down
DROP TABLE moves;
DROP TABLE tables;
