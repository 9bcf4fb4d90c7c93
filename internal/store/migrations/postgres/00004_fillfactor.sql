-- +goose Up
-- A node renews its tables' leases every quarter of the lease, an update
-- of each table's row. With room left on every page, the new version of a
-- row goes on its own page and no index changes (a heap-only update);
-- with full pages four updates in five also rewrote the row's entries in
-- every index of the table. (For pages written from now on; VACUUM FULL
-- repacks the old ones.)
ALTER TABLE tables SET (fillfactor = 50);

-- +goose Down
ALTER TABLE tables RESET (fillfactor);
