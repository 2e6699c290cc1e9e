-- Accounts that cannot be confused or kept forever (docs/protocol.md, "Accounts").

-- Usernames are unique case-insensitively: `username_key` is the lowercase username (usernames
-- are ASCII, where LOWER means the same on SQLite and PostgreSQL). A database that already
-- holds names differing only in case keeps the oldest on the plain key; each later one gets
-- `<key>:<id>`, which no new username can take (no `:` in usernames), and still logs in by
-- its exact spelling.
ALTER TABLE players ADD COLUMN username_key TEXT;
UPDATE players SET username_key = LOWER(username) WHERE username IS NOT NULL;
UPDATE players SET username_key = username_key || ':' || id
    WHERE username_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM players older
        WHERE older.username_key = players.username_key
          AND (older.created_ms < players.created_ms
               OR (older.created_ms = players.created_ms AND older.id < players.id)));
CREATE UNIQUE INDEX players_by_username_key ON players (username_key);

-- The confusable skeleton of a registered user's name (src/names.rs), compared with guests'
-- nicknames; filled by the server at start for rows made before this migration.
ALTER TABLE players ADD COLUMN name_key TEXT;
CREATE INDEX players_by_name_key ON players (name_key);

-- Sessions and API tokens expire; each has a public id (listed and revoked by it, never the
-- secret). Rows made before this migration get the default lifetimes (30 days for cookie
-- sessions, 365 days for API tokens) from their creation, and a prefix of their hash as id.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN expires_ms BIGINT;
UPDATE sessions SET id = SUBSTR(token_hash, 1, 18);
UPDATE sessions SET expires_ms = created_ms + 2592000000 WHERE kind = 'cookie';
UPDATE sessions SET expires_ms = created_ms + 31536000000 WHERE kind <> 'cookie';
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_ms);
