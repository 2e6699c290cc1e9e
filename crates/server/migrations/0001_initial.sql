-- One schema for SQLite and PostgreSQL: only TEXT, BIGINT and DOUBLE PRECISION columns,
-- ids made by the server, times in Unix milliseconds.

CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    username TEXT UNIQUE,
    password_hash TEXT,
    kind TEXT NOT NULL, -- 'user', 'guest' or 'bot'
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL, -- 'cookie' or 'api'
    created_ms BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game_type TEXT NOT NULL,
    options TEXT NOT NULL,
    white_id TEXT REFERENCES players (id),
    black_id TEXT REFERENCES players (id),
    white_bot TEXT,
    black_bot TEXT,
    white_client_seed TEXT,
    black_client_seed TEXT,
    invite_code TEXT,
    listed BIGINT NOT NULL, -- 1: the open seat is shown in the lobby
    state TEXT NOT NULL, -- 'waiting', 'playing' or 'finished'
    server_seed TEXT NOT NULL,
    commitment TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT,
    winner TEXT, -- 'white', 'black', or NULL for a draw
    points BIGINT,
    plies BIGINT
);
CREATE INDEX games_state ON games (state);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);

-- The append-only log: one row per action or roll, numbered from 1 by game version.
CREATE TABLE game_events (
    game_id TEXT NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    kind TEXT NOT NULL, -- 'action' or 'roll'
    actor TEXT, -- the colour that acted or asked for the roll
    payload TEXT NOT NULL, -- the canonical action text, or the dice as "5-2"
    nonce TEXT,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_type TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    fibs_rating DOUBLE PRECISION NOT NULL,
    fibs_experience BIGINT NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_type)
);
