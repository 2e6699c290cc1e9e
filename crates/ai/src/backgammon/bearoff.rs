//! The exact one-sided bear-off database: every position of up to 15 checkers on the six home
//! points (54,264 of them) with its distribution of the number of rolls needed to bear off,
//! and, for the gammon chances, of the number of rolls needed to bear off the first checker.
//!
//! "One-sided" means each side is solved alone, as if the other did not exist: the checkers
//! are played to minimise the expected number of rolls (the standard choice of gnubg's
//! one-sided tables), not to maximise the chance of winning against a particular opponent, and
//! the first-checker table is played to minimise the expected rolls until a checker is off.
//! Two races are then combined by assuming the two sides' roll counts independent.
//!
//! Positions are ranked by the combinatorial number system (see [`rank`]); ranks decrease with
//! every checker step, so one pass in increasing rank order solves the table. The database is
//! computed at first use ([`BearoffDb::get`]) and never stored on disk.

mod build;
#[cfg(test)]
mod tests;

use super::chances::Probabilities;
use std::sync::OnceLock;
use tabula_tables::{Position, CHECKERS};

/// Home points of one side.
pub const POINTS: usize = 6;
/// Positions of up to 15 checkers on 6 points: C(21, 6).
pub const POSITIONS: usize = 54_264;
/// Length of each stored distribution: entry `n` is the chance of needing exactly `n` rolls.
/// The worst position (15 checkers on the 6-point) needs at most 30 rolls; the build checks
/// that nothing spills past the end.
pub const MAX_ROLLS: usize = 32;

/// One side's checkers on its home points: index `i` is point `i + 1`.
pub type Home = [u8; POINTS];

/// `BINOMIAL[n][k]` = C(n, k) for n <= 21, k <= 6.
const BINOMIAL: [[u32; POINTS + 1]; 22] = {
    let mut t = [[0u32; POINTS + 1]; 22];
    let mut n = 0;
    while n < 22 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= POINTS {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The rank of a home board in `0..POSITIONS`.
///
/// Write the board as a word of 21 symbols: for the points 6, 5, ..., 1 in turn, as many `0`s
/// as checkers on the point followed by a `1`, then a `0` for each checker already off. The
/// word has six `1`s; if the `j`-th (j = 1..=6) stands at 0-based place `p_j`, the rank is
/// `sum C(p_j, j)` (the combinatorial number system), a bijection onto `0..C(21, 6)`. Here
/// `p_j` is `j - 1` plus the checkers on the points 6 down to `7 - j`, so a checker step, which
/// moves a checker to a lower point or off, lowers some `p_j` and raises none: every play
/// leads to a smaller rank, and the empty board is rank 0.
///
/// Panics (in debug builds) when the board has more than 15 checkers.
#[inline]
pub fn rank(home: &Home) -> usize {
    let mut sum = 0usize;
    let mut r = 0u32;
    for j in 1..=POINTS {
        sum += usize::from(home[POINTS - j]);
        r += BINOMIAL[sum + j - 1][j];
    }
    debug_assert!(sum <= usize::from(CHECKERS));
    r as usize
}

/// The home board of a rank in `0..POSITIONS` (the inverse of [`rank`]).
pub fn unrank(mut r: usize) -> Home {
    let mut places = [0usize; POINTS + 1];
    for j in (1..=POINTS).rev() {
        let mut p = j - 1;
        while BINOMIAL[p + 1][j] as usize <= r {
            p += 1;
        }
        r -= BINOMIAL[p][j] as usize;
        places[j] = p;
    }
    let mut home = [0u8; POINTS];
    let mut before = 0usize;
    for j in 1..=POINTS {
        let sum = places[j] - (j - 1);
        home[POINTS - j] = (sum - before) as u8;
        before = sum;
    }
    home
}

/// The solved tables, indexed by [`rank`].
pub struct BearoffDb {
    /// Distribution of the rolls needed to bear off every checker.
    off: Vec<[f32; MAX_ROLLS]>,
    /// Expected number of rolls to bear off every checker.
    mean_off: Vec<f32>,
    /// Distribution of the rolls needed to bear off the first checker, for boards of 15
    /// checkers (a board with fewer has one off already: zero rolls).
    first: Vec<[f32; MAX_ROLLS]>,
}

static DB: OnceLock<BearoffDb> = OnceLock::new();

impl BearoffDb {
    /// The database, computed on first use (tens of milliseconds in release builds).
    pub fn get() -> &'static BearoffDb {
        DB.get_or_init(BearoffDb::build)
    }

    /// Solves both tables from scratch (what [`BearoffDb::get`] does once).
    pub fn build() -> BearoffDb {
        let (off, mean_off) = build::solve(|home| home.iter().all(|&c| c == 0));
        let (first, _) = build::solve(|home| home.iter().map(|&c| u32::from(c)).sum::<u32>() < 15);
        BearoffDb {
            off,
            mean_off,
            first,
        }
    }

    /// The chance of needing exactly `n` rolls (index `n`) to bear off every checker of `home`.
    pub fn rolls_to_bear_off(&self, home: &Home) -> &[f32; MAX_ROLLS] {
        &self.off[rank(home)]
    }

    /// The expected number of rolls to bear off every checker of `home`.
    pub fn expected_rolls(&self, home: &Home) -> f32 {
        self.mean_off[rank(home)]
    }

    /// The chance of needing exactly `n` rolls (index `n`) to bear off the first checker of
    /// `home`; all mass at 0 when `home` has fewer than 15 checkers.
    pub fn rolls_to_first_off(&self, home: &Home) -> &[f32; MAX_ROLLS] {
        &self.first[rank(home)]
    }

    /// Cubeless chances of the player on roll when both sides have every checker left on
    /// their home points, or `None` when either side has a checker elsewhere (or the game is
    /// over). See [`race_chances`] for the arithmetic.
    pub fn chances(&self, pos: &Position) -> Option<Probabilities> {
        let (mover, opponent) = homes(pos)?;
        let me = self.rolls_to_bear_off(&mover);
        let them = self.rolls_to_bear_off(&opponent);
        let me_first = (pos.mover_off() == 0).then(|| self.rolls_to_first_off(&mover));
        let them_first = (pos.opponent_off() == 0).then(|| self.rolls_to_first_off(&opponent));
        Some(race_chances(me, them, me_first, them_first))
    }
}

/// Both sides' home boards, each from its own side, when every checker still on the board is
/// on its side's home points and both sides have checkers left.
#[inline]
pub fn homes(pos: &Position) -> Option<(Home, Home)> {
    if pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS || pos.trapped_mask() != 0 {
        return None;
    }
    let pips = pos.pips();
    // Mover outside its home (points 7..=24, bar 25) or opponent outside its (mover's 0..=18).
    if pips[7..=25].iter().any(|&v| v > 0) || pips[0..=18].iter().any(|&v| v < 0) {
        return None;
    }
    let mut mover = [0u8; POINTS];
    let mut opponent = [0u8; POINTS];
    for i in 0..POINTS {
        mover[i] = pips[i + 1].max(0) as u8;
        // The opponent's point i + 1 is the mover's 24 - i.
        opponent[i] = (-pips[24 - i]).max(0) as u8;
    }
    Some((mover, opponent))
}

/// Combines two one-sided distributions into the chances of the player on roll.
///
/// The player on roll finishes first when it needs no more rolls than the opponent:
/// `win = sum_n P_me(n) * P_opp(>= n)`. It wins a gammon when the opponent, who has none off,
/// has not got its first checker off in its `n - 1` rolls: `sum_n P_me(n) * F_opp(>= n)`; it
/// loses one when the opponent finishes in `n` rolls while the mover's first checker needs
/// more than `n`: `sum_n P_opp(n) * F_me(> n)`. `me_first` / `them_first` are `None` when
/// that side has borne off already (no gammon possible). No backgammons: the loser's
/// checkers are all in its own home board, far from the winner's.
pub fn race_chances(
    me: &[f32; MAX_ROLLS],
    them: &[f32; MAX_ROLLS],
    me_first: Option<&[f32; MAX_ROLLS]>,
    them_first: Option<&[f32; MAX_ROLLS]>,
) -> Probabilities {
    // Tails: at_least[n] = P(X >= n).
    let at_least = |d: &[f32; MAX_ROLLS]| {
        let mut t = [0f32; MAX_ROLLS + 1];
        for n in (0..MAX_ROLLS).rev() {
            t[n] = t[n + 1] + d[n];
        }
        t
    };
    let them_tail = at_least(them);
    // Rounding can carry a sum a hair past 1: clamp before bounding the gammons by it.
    let win = (0..MAX_ROLLS)
        .map(|n| me[n] * them_tail[n])
        .sum::<f32>()
        .clamp(0.0, 1.0);
    let win_gammon = them_first.map_or(0.0, |f| {
        let tail = at_least(f);
        (0..MAX_ROLLS).map(|n| me[n] * tail[n]).sum()
    });
    let lose_gammon = me_first.map_or(0.0, |f| {
        let tail = at_least(f);
        (0..MAX_ROLLS).map(|n| them[n] * tail[n + 1]).sum()
    });
    Probabilities {
        win,
        win_gammon: win_gammon.clamp(0.0, win),
        win_backgammon: 0.0,
        lose_gammon: lose_gammon.clamp(0.0, (1.0 - win).max(0.0)),
        lose_backgammon: 0.0,
    }
}
