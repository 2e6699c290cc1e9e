//! Results into ratings: when a game ends, both seats' rows of `ratings` (per game type) get
//! the game counted and a Glicko-2 update ([`crate::rating`]); a backgammon match also moves
//! the FIBS rating, the convention backgammon players know. Bots are rated like people, one
//! row per level. Runs inside the transaction that commits the game's last event.

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
}

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
    })
}

/// The columns [`standing`] reads.
pub const STANDING_COLUMNS: &str =
    "rating, deviation, volatility, fibs_rating, fibs_experience, games, wins, losses, draws";

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
         fibs_experience, games, wins, losses, draws) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
         ON CONFLICT (player_id, game_type) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         fibs_rating = excluded.fibs_rating, fibs_experience = excluded.fibs_experience, \
         games = excluded.games, wins = excluded.wins, losses = excluded.losses, \
         draws = excluded.draws",
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
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Counts the finished game `row` for both seats.
pub async fn record(tx: &mut Transaction<'_, Any>, row: &GameRow) -> Result<(), sqlx::Error> {
    let (Some(white), Some(black)) = (row.white_id.as_deref(), row.black_id.as_deref()) else {
        return Ok(());
    };
    let game_type = row.game_type.as_str();
    let (mut w, mut b) = (
        load(tx, white, game_type).await?,
        load(tx, black, game_type).await?,
    );
    let score = match row.winner.as_deref() {
        Some("white") => 1.0,
        Some("black") => 0.0,
        _ => 0.5,
    };
    let (gw, gb) = (w.glicko(), b.glicko());
    let (nw, nb) = (gw.update(&gb, score), gb.update(&gw, 1.0 - score));
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
        let (win, lose) = if winner == "white" {
            (&mut w, &mut b)
        } else {
            (&mut b, &mut w)
        };
        let (fw, fl) = fibs_update(&win.fibs(), &lose.fibs(), n);
        win.fibs_rating = fw.rating;
        win.fibs_experience = i64::from(fw.experience);
        lose.fibs_rating = fl.rating;
        lose.fibs_experience = i64::from(fl.experience);
    }
    store(tx, white, game_type, &w).await?;
    store(tx, black, game_type, &b).await?;
    Ok(())
}
