-- Clocks and rematches (issue 16).
-- The time control a game was created with, as JSON `{"delay": s, "reserve": s}`; NULL for
-- none. The clocks themselves are derived from the log's commit times (game_events.created_ms).
ALTER TABLE games ADD COLUMN clock TEXT;
-- A finished game's rematch: the colour of the seat that offered it, then the new game's id
-- once both players accepted.
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN rematch_id TEXT;
