-- +goose Up
-- SQLite's move log holds a commit's moves in one row (a JSON array of
-- [table_id, n, seat, move, by_whom, at] arrays) instead of a row each:
-- a commit of a few hundred moves is one insert, not a few hundred rows'
-- worth of the statement's work. The server folds the log into moves as
-- before; a move is in one or both, never in neither.
CREATE TABLE move_batches (
    seq   INTEGER PRIMARY KEY,
    moves TEXT NOT NULL
);
INSERT INTO moves (table_id, n, seat, move, by_whom, at)
    SELECT table_id, n, seat, move, by_whom, at FROM move_log WHERE true
    ON CONFLICT (table_id, n) DO NOTHING;
DROP TABLE move_log;

-- +goose Down
CREATE TABLE move_log (
    seq      INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    move     TEXT NOT NULL,
    by_whom  TEXT NOT NULL DEFAULT '',
    at       INTEGER NOT NULL
);
INSERT INTO moves (table_id, n, seat, move, by_whom, at)
    SELECT json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'), json_extract(m.value, '$[2]'),
        json_extract(m.value, '$[3]'), json_extract(m.value, '$[4]'), json_extract(m.value, '$[5]')
    FROM move_batches b, json_each(b.moves) m WHERE true
    ON CONFLICT (table_id, n) DO NOTHING;
DROP TABLE move_batches;
