//! Kinds of positions the nets misjudge, for sampling labels beyond plain self-play (issue
//! 27): a side on the bar against a strong board, primes with checkers behind them, and back
//! games. Positions of these kinds are rare in the nets' own play, and the cube decisions
//! gnubg judges most differently from Tabula are among them (docs/bots.md).
//!
//! Each test looks at both sides (the player on roll and the opponent), each from its own
//! end of the board: point 1 is a side's ace point, 19-24 the other side's home board.

use tabula_tables::Position;

/// One side's checkers on its own points 1..=24 (`points[0]` is point 1) and on the bar
/// (`points[24]`), as [`Position::to_counts`] gives them.
type Side = [u8; 25];

/// The kinds a position belongs to (any number of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kinds {
    /// A side has a checker on the bar and the other holds five or six of its home points.
    pub closed_out: bool,
    /// A side holds five or more consecutive points with an opposing checker behind them.
    pub prime: bool,
    /// A side has two or more checkers on the bar, or one on the bar against four home
    /// points made: a blitz in progress.
    pub blitz: bool,
    /// A side holds two or more points in the other's home board.
    pub back_game: bool,
}

impl Kinds {
    /// Whether the position is of any kind.
    pub fn any(&self) -> bool {
        self.closed_out || self.prime || self.blitz || self.back_game
    }
}

/// Points made (two or more checkers) among a side's points `lo..=hi`.
fn made(side: &Side, lo: usize, hi: usize) -> usize {
    (lo..=hi).filter(|&p| side[p - 1] >= 2).count()
}

/// Whether `side` holds five consecutive points with a checker of `other` behind them: on
/// the bar, or on one of `side`'s points below the prime's lowest (which `other` must still
/// carry past it).
fn primes(side: &Side, other: &Side) -> bool {
    let mut run = 0;
    for p in 1..=24 {
        run = if side[p - 1] >= 2 { run + 1 } else { 0 };
        if run >= 5 {
            let low = p + 1 - run;
            // `other`'s point q is `side`'s point 25 - q; behind the prime: side's points
            // below `low`, that is other's points above 25 - low.
            let behind = other[24] > 0 || (26 - low..=24).any(|q| other[q - 1] > 0);
            if behind {
                return true;
            }
        }
    }
    false
}

/// The kinds of `pos`.
pub fn of(pos: &Position) -> Kinds {
    let [a, b] = pos.to_counts();
    let mut k = Kinds::default();
    for (side, other) in [(&a, &b), (&b, &a)] {
        let home = made(other, 1, 6);
        let bar = side[24];
        k.closed_out |= bar > 0 && home >= 5;
        k.blitz |= bar >= 2 || (bar > 0 && home >= 4);
        k.prime |= primes(side, other);
        k.back_game |= made(side, 19, 24) >= 2;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(mover: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        let mut m = [0u8; 25];
        let mut o = [0u8; 25];
        for &(p, n) in mover {
            m[p - 1] = n;
        }
        for &(p, n) in opponent {
            o[p - 1] = n;
        }
        Position::from_counts(&m, &o).unwrap()
    }

    #[test]
    fn the_start_is_of_no_kind() {
        assert!(!of(&Position::START).any());
    }

    #[test]
    fn a_checker_on_the_bar_against_a_closed_board_is_closed_out_and_a_blitz() {
        // The mover on the bar (point 25 of the counts); the opponent holds its 1-6 points.
        let p = pos(
            &[(25, 1), (13, 8), (8, 6)],
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3), (13, 2)],
        );
        let k = of(&p);
        assert!(k.closed_out && k.blitz && !k.back_game, "{k:?}");
        // The same seen by the other side.
        assert_eq!(of(&p.flip()), k);
    }

    #[test]
    fn a_prime_counts_only_with_a_checker_behind_it() {
        // The mover holds points 4-8; an opponent checker on the mover's 2-point (the
        // opponent's 23-point) is behind it.
        let behind = pos(
            &[(4, 2), (5, 2), (6, 3), (7, 2), (8, 2), (13, 4)],
            &[(23, 1), (6, 6), (8, 4), (13, 4)],
        );
        assert!(of(&behind).prime);
        // With that checker past the prime (on the opponent's 12-point) it does not.
        let past = pos(
            &[(4, 2), (5, 2), (6, 3), (7, 2), (8, 2), (13, 4)],
            &[(11, 1), (6, 6), (8, 4), (13, 4)],
        );
        assert!(!of(&past).prime);
    }

    #[test]
    fn two_anchors_in_the_other_home_board_are_a_back_game() {
        let p = pos(
            &[(23, 2), (24, 2), (6, 5), (8, 3), (13, 3)],
            &[(6, 5), (5, 4), (4, 3), (8, 3)],
        );
        assert!(of(&p).back_game);
        assert!(of(&p.flip()).back_game);
    }
}
