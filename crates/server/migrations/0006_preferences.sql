-- A player's preferences in the browser client (docs/protocol.md, "Preferences"), as JSON;
-- NULL until first saved.
ALTER TABLE players ADD COLUMN preferences TEXT;
