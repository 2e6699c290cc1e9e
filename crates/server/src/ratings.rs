//! Results into ratings: when a game ends, both seats' rows of `ratings` (per game type) get
//! the game counted and a Glicko-2 update ([`crate::rating`]); a backgammon match also moves
//! the FIBS rating, the convention backgammon players know. Bots are rated like people, one
//! row per level. Runs inside the transaction that commits the game's last event.
//!
//! What keeps ratings from being farmed (docs/protocol.md, "Ratings"):
//!
//! - a game with a guest in either seat is **unrated** for both sides: nothing is counted
//!   (guests cost nothing to make, so a win over one proves nothing);
//! - a registered player is **provisional** in a game type until they have finished rated
//!   games against [`PROVISIONAL_OPPONENTS`] distinct opponents; bots never are. A result
//!   against a provisional opponent is counted (games, wins, losses, the opponent count)
//!   but does **not move** the other player's ratings, Glicko-2 or FIBS: fresh accounts
//!   that lose on purpose lift nobody. The provisional player's own ratings move as usual
//!   against established opponents (bots included), and not against other provisional
//!   players.
//!
//! A resignation counts like any other result, at any ply: voiding early resignations would
//! let the loser of a bad opening roll choose to go unrated.

use crate::db::GameRow;
use crate::rating::{fibs_update, FibsRating, Glicko2};
use sqlx::{Any, Row, Transaction};

/// A player's standing in one game type.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct Standing {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    #[serde(skip)]
    pub volatility: f64,
    /// FIBS rating (backgammon matches only; 1500 otherwise).
    pub fibs_rating: f64,
    /// FIBS experience (match points played).
    pub fibs_experience: i64,
    /// Games finished.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
    /// Distinct opponents in rated games of this type.
    pub opponents: i64,
    /// Whether the rating is provisional (fewer than [`PROVISIONAL_OPPONENTS`] distinct
    /// opponents; never for a bot): results against this player do not move the other
    /// player's ratings.
    pub provisional: bool,
}

/// How many distinct opponents in rated games make a registered player's rating
/// established.
pub const PROVISIONAL_OPPONENTS: i64 = 5;

impl Default for Standing {
    fn default() -> Standing {
        let g = Glicko2::default();
        let f = FibsRating::default();
        Standing {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            fibs_rating: f.rating,
            fibs_experience: 0,
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            opponents: 0,
            provisional: true,
        }
    }
}

impl Standing {
    fn glicko(&self) -> Glicko2 {
        Glicko2 {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
    fn fibs(&self) -> FibsRating {
        FibsRating {
            rating: self.fibs_rating,
            experience: self.fibs_experience as u32,
        }
    }
}

/// Reads a standing row.
pub fn standing(r: &sqlx::any::AnyRow) -> Result<Standing, sqlx::Error> {
    Ok(Standing {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        fibs_rating: r.try_get("fibs_rating")?,
        fibs_experience: r.try_get("fibs_experience")?,
        games: r.try_get("games")?,
        wins: r.try_get("wins")?,
        losses: r.try_get("losses")?,
        draws: r.try_get("draws")?,
        opponents: r.try_get("opponents")?,
        provisional: r.try_get::<i64, _>("provisional")? != 0,
    })
}

/// The columns [`standing`] reads.
pub const STANDING_COLUMNS: &str = "rating, deviation, volatility, fibs_rating, fibs_experience, \
     games, wins, losses, draws, opponents, provisional";

async fn load(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
) -> Result<Standing, sqlx::Error> {
    let sql =
        format!("SELECT {STANDING_COLUMNS} FROM ratings WHERE player_id = $1 AND game_type = $2");
    let row = sqlx::query(&sql)
        .bind(player)
        .bind(game_type)
        .fetch_optional(&mut **tx)
        .await?;
    row.as_ref()
        .map(standing)
        .transpose()
        .map(Option::unwrap_or_default)
}

async fn store(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
    s: &Standing,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ratings (player_id, game_type, rating, deviation, volatility, fibs_rating, \
         fibs_experience, games, wins, losses, draws, opponents, provisional) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         ON CONFLICT (player_id, game_type) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         fibs_rating = excluded.fibs_rating, fibs_experience = excluded.fibs_experience, \
         games = excluded.games, wins = excluded.wins, losses = excluded.losses, \
         draws = excluded.draws, opponents = excluded.opponents, \
         provisional = excluded.provisional",
    )
    .bind(player)
    .bind(game_type)
    .bind(s.rating)
    .bind(s.deviation)
    .bind(s.volatility)
    .bind(s.fibs_rating)
    .bind(s.fibs_experience)
    .bind(s.games)
    .bind(s.wins)
    .bind(s.losses)
    .bind(s.draws)
    .bind(s.opponents)
    .bind(i64::from(s.provisional))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The kind of player `id` (`user`, `guest` or `bot`), if there is one.
async fn kind(tx: &mut Transaction<'_, Any>, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query("SELECT kind FROM players WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.try_get::<String, _>("kind"))
        .transpose()
}

/// Whether a game between players of these kinds is rated: neither is a guest.
pub fn rated_kinds(white: &str, black: &str) -> bool {
    white != "guest" && black != "guest"
}

/// Whether a player of `kind` with `standing` is provisional (bots never are).
pub fn is_provisional(kind: &str, standing: &Standing) -> bool {
    kind != "bot" && standing.opponents < PROVISIONAL_OPPONENTS
}

/// Distinct opponents of `player` in finished rated games of `game_type`.
async fn opponents(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "SELECT CAST(COUNT(DISTINCT CASE WHEN white_id = $1 THEN black_id ELSE white_id END) \
         AS BIGINT) AS n FROM games WHERE rated = 1 AND game_type = $2 \
         AND (white_id = $1 OR black_id = $1)",
    )
    .bind(player)
    .bind(game_type)
    .fetch_one(&mut **tx)
    .await?;
    row.try_get("n")
}

/// Counts the finished game `row` for both seats: nothing for either when a guest played or
/// the game was created as practice (the game is marked unrated); otherwise the results, and each side's ratings moved only
/// when the other side is not provisional.
pub async fn record(tx: &mut Transaction<'_, Any>, row: &GameRow) -> Result<(), sqlx::Error> {
    let (Some(white), Some(black)) = (row.white_id.as_deref(), row.black_id.as_deref()) else {
        return Ok(());
    };
    let (Some(white_kind), Some(black_kind)) = (kind(tx, white).await?, kind(tx, black).await?)
    else {
        return Ok(());
    };
    // A practice game was marked unrated when it was created.
    let rated = rated_kinds(&white_kind, &black_kind) && row.rated != Some(0);
    sqlx::query("UPDATE games SET rated = $1 WHERE id = $2")
        .bind(i64::from(rated))
        .bind(&row.id)
        .execute(&mut **tx)
        .await?;
    if !rated {
        return Ok(());
    }
    let game_type = row.game_type.as_str();
    let (mut w, mut b) = (
        load(tx, white, game_type).await?,
        load(tx, black, game_type).await?,
    );
    // Whether each side's result against the other counts for the other's ratings.
    let (w_counts, b_counts) = (
        !is_provisional(&white_kind, &w),
        !is_provisional(&black_kind, &b),
    );
    let score = match row.winner.as_deref() {
        Some("white") => 1.0,
        Some("black") => 0.0,
        _ => 0.5,
    };
    let (gw, gb) = (w.glicko(), b.glicko());
    let nw = if b_counts { gw.update(&gb, score) } else { gw };
    let nb = if w_counts {
        gb.update(&gw, 1.0 - score)
    } else {
        gb
    };
    for (s, g) in [(&mut w, nw), (&mut b, nb)] {
        s.rating = g.rating;
        s.deviation = g.deviation;
        s.volatility = g.volatility;
        s.games += 1;
    }
    match row.winner.as_deref() {
        Some("white") => (w.wins += 1, b.losses += 1),
        Some("black") => (b.wins += 1, w.losses += 1),
        _ => (w.draws += 1, b.draws += 1),
    };
    let match_length = row
        .game_options()
        .ok()
        .filter(|_| game_type == "backgammon")
        .and_then(|o| o.match_length());
    if let (Some(n), Some(winner)) = (match_length, row.winner.as_deref()) {
        // Whether the winner's and the loser's FIBS ratings may move.
        let (win, lose, win_moves, lose_moves) = if winner == "white" {
            (&mut w, &mut b, b_counts, w_counts)
        } else {
            (&mut b, &mut w, w_counts, b_counts)
        };
        let (fw, fl) = fibs_update(&win.fibs(), &lose.fibs(), n);
        if win_moves {
            win.fibs_rating = fw.rating;
            win.fibs_experience = i64::from(fw.experience);
        }
        if lose_moves {
            lose.fibs_rating = fl.rating;
            lose.fibs_experience = i64::from(fl.experience);
        }
    }
    for (s, id, kind) in [(&mut w, white, &white_kind), (&mut b, black, &black_kind)] {
        s.opponents = opponents(tx, id, game_type).await?;
        s.provisional = is_provisional(kind, s);
    }
    store(tx, white, game_type, &w).await?;
    store(tx, black, game_type, &b).await?;
    Ok(())
}
