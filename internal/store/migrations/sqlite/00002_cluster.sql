-- +goose Up
-- A table's owner in a cluster: the node that runs it, while its lease
-- lasts (lease_until, microseconds of the database's clock). lease_epoch
-- grows with every new owner; moves and updates are written only under
-- the epoch their writer holds, so a stale owner cannot write.
ALTER TABLE tables ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN lease_epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tables_owner ON tables (owner);

-- The nodes of a cluster: where each is reached and when it was last seen.
CREATE TABLE nodes (
    id   TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen BIGINT NOT NULL
);

-- +goose Down
DROP TABLE nodes;
DROP INDEX tables_owner;
ALTER TABLE tables DROP COLUMN lease_until;
ALTER TABLE tables DROP COLUMN lease_epoch;
ALTER TABLE tables DROP COLUMN owner;
