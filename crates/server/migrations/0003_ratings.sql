-- Ratings that cannot be farmed (docs/protocol.md, "Ratings"): a game is rated only when
-- neither player is a guest; a player is provisional until they have rated games against
-- PROVISIONAL_OPPONENTS (5) distinct opponents, and results against a provisional player
-- do not move the other player's rating. Bots are never provisional.

-- 1 once a finished game was counted for ratings, 0 when it was not (a guest played);
-- NULL while the game is not finished.
ALTER TABLE games ADD COLUMN rated BIGINT;
UPDATE games SET rated = CASE
        WHEN white_id IN (SELECT id FROM players WHERE kind <> 'guest')
         AND black_id IN (SELECT id FROM players WHERE kind <> 'guest') THEN 1
        ELSE 0
    END
    WHERE state = 'finished';

-- Distinct opponents in rated games of this type, and whether the rating is provisional.
ALTER TABLE ratings ADD COLUMN opponents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN provisional BIGINT NOT NULL DEFAULT 1;
UPDATE ratings SET opponents = (
    SELECT COUNT(DISTINCT CASE WHEN g.white_id = ratings.player_id THEN g.black_id
                               ELSE g.white_id END)
    FROM games g
    WHERE g.rated = 1 AND g.game_type = ratings.game_type
      AND (g.white_id = ratings.player_id OR g.black_id = ratings.player_id)
);
UPDATE ratings SET provisional = 0
    WHERE opponents >= 5 OR player_id IN (SELECT id FROM players WHERE kind = 'bot');
