-- The readiness probe's scratch table (`/readyz`, docs/operations.md): each probe inserts a
-- row larger than a page and deletes it in one committed transaction, so that it fails when
-- the database cannot take a write. Always empty between probes.
CREATE TABLE readiness_probe (
    id TEXT PRIMARY KEY,
    filler TEXT NOT NULL
);
