//! Results into ratings: when a game ends, both seats' rows of `ratings` (per game type) get
//! the game counted and a Glicko-2 update ([`crate::rating`]); a backgammon match also moves
//! the FIBS rating, the convention backgammon players know. Bots are rated like people, one
//! row per level. Runs inside the transaction that commits the game's last event: the store
//! ([`crate::store::ratings`]) reads and writes the rows, [`count_result`] is the arithmetic.
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

use crate::rating::{fibs_update, FibsRating, Glicko2};
use crate::store::GameRow;
use tabula_core::ByColor;

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

/// Whether a game between players of these kinds is rated: neither is a guest.
pub fn rated_kinds(white: &str, black: &str) -> bool {
    white != "guest" && black != "guest"
}

/// Whether a game counts for ratings (docs/protocol.md, "Ratings"): never one created as
/// practice (`practice` is the row's `rated`, 0 from creation for one), otherwise when both
/// seats are taken by players of rated kinds; `None` while a seat is empty and the game is
/// not practice.
pub fn game_rated(practice: Option<i64>, kinds: ByColor<Option<&str>>) -> Option<bool> {
    if practice == Some(0) {
        return Some(false);
    }
    Some(rated_kinds(kinds.white?, kinds.black?))
}

/// Whether a player of `kind` with `standing` is provisional (bots never are).
pub fn is_provisional(kind: &str, standing: &Standing) -> bool {
    kind != "bot" && standing.opponents < PROVISIONAL_OPPONENTS
}

/// Counts the finished, rated game `row` in both seats' standings `w` and `b` (of players
/// of kinds `white_kind` and `black_kind`): the result, and each side's ratings moved only
/// when the other side is not provisional. The distinct opponents and the provisional flags
/// are counted afterwards, from the stored games ([`crate::store::ratings`]).
pub fn count_result(
    row: &GameRow,
    white_kind: &str,
    black_kind: &str,
    w: &mut Standing,
    b: &mut Standing,
) {
    let game_type = row.game_type.as_str();
    // Whether each side's result against the other counts for the other's ratings.
    let (w_counts, b_counts) = (
        !is_provisional(white_kind, w),
        !is_provisional(black_kind, b),
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
    for (s, g) in [(&mut *w, nw), (&mut *b, nb)] {
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
            (w, b, b_counts, w_counts)
        } else {
            (b, w, w_counts, b_counts)
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
}
