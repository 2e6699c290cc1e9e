-- Each rated game's rating for both its players, written with the ratings when the game ends
-- (docs/protocol.md, "Progress"): the player page's graph of the rating game by game. Games
-- rated before this table existed have no row.
CREATE TABLE rating_history (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    game_type TEXT NOT NULL,
    rated_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id, rated_ms);
