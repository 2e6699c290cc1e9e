-- The trainer (docs/protocol.md, "Trainer"): every decision of a player's analysed backgammon
-- games that the analysis marked doubtful, bad or very bad becomes an exercise, asked on a
-- spaced schedule until it is learned. trainer_games records the analysed games already
-- turned into exercises (with or without any), so that each is read once.
CREATE TABLE exercises (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    kind TEXT NOT NULL,               -- 'move', 'double' (double or not) or 'take' (take or pass)
    position TEXT NOT NULL,           -- the XGID before the decision, a play's dice included
    played TEXT NOT NULL,             -- what the player did in the game
    error DOUBLE PRECISION NOT NULL,  -- the EMG it gave up, by the game's analysis
    stage BIGINT NOT NULL,            -- 0 new, 1 answered wrong, 2 right once since, 3 learned
    due_ms BIGINT NOT NULL,
    answers BIGINT NOT NULL,
    rights BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    answered_ms BIGINT,
    PRIMARY KEY (player_id, game_id, version)
);
CREATE INDEX exercises_due ON exercises (player_id, stage, due_ms);
CREATE TABLE trainer_games (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    PRIMARY KEY (player_id, game_id)
);
