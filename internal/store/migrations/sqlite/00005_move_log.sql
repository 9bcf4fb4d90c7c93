-- +goose Up
-- SQLite's move log: every move is first appended here, in the order it
-- was stored (seq), so a commit of many tables' moves writes the log's
-- last page or two instead of one page of the moves table for each move.
-- The server folds the log into moves every few seconds, many moves of a
-- table at once, and deletes what it folded; a move is in one or both
-- (between the fold's insert and the log's delete), never in neither.
-- Opening the database folds what a stopped server left here.
CREATE TABLE move_log (
    seq      INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    move     TEXT NOT NULL,
    by_whom  TEXT NOT NULL DEFAULT '',
    at       INTEGER NOT NULL
);

-- +goose Down
INSERT INTO moves (table_id, n, seat, move, by_whom, at)
    SELECT table_id, n, seat, move, by_whom, at FROM move_log WHERE true
    ON CONFLICT (table_id, n) DO NOTHING;
DROP TABLE move_log;
