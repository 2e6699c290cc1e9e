-- The idempotency keys of `POST /api/games` (docs/protocol.md, "Idempotency-Key"): the game
-- a player's create made under each key, so that the same request sent again (its reply
-- lost) answers that game instead of making a second one, after a restart and on every
-- instance sharing the database.
CREATE TABLE game_creations (
    player_id TEXT NOT NULL REFERENCES players (id),
    idempotency_key TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, idempotency_key)
);
