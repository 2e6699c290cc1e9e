-- Chat between the two players of a game (docs/protocol.md, "Chat"): the messages, numbered
-- from 1 within their game, and each player's choices for that game (mute the opponent, let
-- spectators read).
CREATE TABLE chat_messages (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    seat TEXT NOT NULL, -- 'white' or 'black'
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- The rate limit counts a player's messages across games.
CREATE INDEX chat_messages_player ON chat_messages (player_id, created_ms);

CREATE TABLE chat_settings (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    mute BIGINT NOT NULL, -- 1: this player does not see the opponent's messages
    spectators BIGINT NOT NULL, -- 1: this player lets spectators read the chat
    PRIMARY KEY (game_id, player_id)
);
