-- +goose Up
-- A table's chat: its last messages (the table keeps 50), in the order
-- they were written (id). at is microseconds since 1970, UTC.
CREATE TABLE chat (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    body     TEXT NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX chat_table ON chat (table_id, id);

-- +goose Down
DROP INDEX chat_table;
DROP TABLE chat;
